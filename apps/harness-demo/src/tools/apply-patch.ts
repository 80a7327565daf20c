import { chmod } from "node:fs/promises";
import {
  countNoun,
  defineTool,
  errorResult,
  nodeFileOperations,
  textResult,
  ToolsError,
  warningNotes,
  writeFiles,
  type FileOperations,
  type ToolContext,
  type ToolResult,
} from "@tools/registry";
import { z } from "zod";
import { describeWriteFailure } from "../internal/file-system-error.js";
import { withFileLocks } from "../internal/file-locks.js";
import { parsePatch, patchPaths, type PatchOperation } from "../patch/parse-patch.js";
import { planPatch } from "../patch/plan-patch.js";

const input = z.object({
  patch: z.string().describe("The patch, from '*** Begin Patch' to '*** End Patch'."),
});

const example = [
  "*** Begin Patch",
  "*** Update File: src/app.ts",
  "@@ function main() {",
  '-  console.log("hi");',
  '+  console.log("hello");',
  "*** Add File: src/extra.ts",
  "+export const extra = 1;",
  "*** Delete File: src/old.ts",
  "*** End Patch",
].join("\n");

/**
 * `apply_patch` (write tier): applies a Codex-style patch that adds, deletes, updates and moves
 * files. All or nothing: every file's new text is computed first (a hunk that does not match, or a
 * folder, FIFO, binary or non-UTF-8 file, fails the patch before anything is written), then the
 * registry's `writeFiles` writes the set, putting back what it wrote when a later write fails.
 * `changedFiles` lists every file touched (both ends of a move); on a failed write, the files it
 * could not put back. A moved file keeps its mode.
 */
export const applyPatchTool = defineTool({
  name: "apply_patch",
  tier: "write",
  parallelSafe: true,
  description:
    "Apply a patch that adds, deletes, updates or moves files, all or nothing. In an Update File section, " +
    "each @@ hunk lists context lines (' '), removed lines ('-') and added lines ('+'); an optional text after " +
    "@@ names a line of the file to find first (a function header; never line numbers), and the hunk applies at " +
    "its first match after it; a hunk without one must match one place only. Give about 3 lines of context. '*** Move to: path' " +
    `after an Update File header renames the file. Example:\n${example}`,
  input,
  paths: (args) => patchPaths(args.patch),
  // The permission card's question: every file with what happens to it (the card folds a very
  // long list keeping both ends, and carries the patch whole).
  summarize: (args) => {
    const paths = patchPaths(args.patch);
    let operations: string[];
    try {
      operations = parsePatch(args.patch).map((op) =>
        op.kind === "update" && op.moveTo !== undefined
          ? `move ${op.path} → ${op.moveTo}`
          : `${op.kind} ${op.path}`,
      );
    } catch {
      operations = paths;
    }
    return `patch ${paths.length} ${countNoun(paths.length, "files")}: ${operations.join(", ")}`;
  },
  async execute(args, ctx) {
    const operations = parsePatch(args.patch);
    const touched = patchPaths(args.patch).map((path) => ctx.resolvePath(path));
    return withFileLocks(ctx.run, touched, () => applyOperations(operations, ctx));
  },
});

async function applyOperations(operations: PatchOperation[], ctx: ToolContext): Promise<ToolResult> {
  const plan = await planPatch(operations, (path) => ctx.resolvePath(path), ctx.signal);
  ctx.signal.throwIfAborted();
  // A move's target is a new file: the source's mode is set on the temporary file before it is
  // renamed into place, so `run.sh` stays executable at its new path.
  const modes = new Map(
    plan.files.flatMap((file) => (file.mode === undefined ? [] : [[file.absolute, file.mode] as const])),
  );
  const fileOperations: FileOperations = {
    ...nodeFileOperations,
    rename: async (from, to) => {
      const mode = modes.get(to);
      // Best effort, as writeFiles' own: a file system without modes refuses chmod.
      if (mode !== undefined) await chmod(from, mode).catch(() => undefined);
      await nodeFileOperations.rename(from, to);
    },
  };
  const outcome = await writeFiles(
    plan.files.map((file) => ({
      path: file.absolute,
      label: file.label,
      expected: file.expected,
      content: file.content ?? null,
    })),
    fileOperations,
    { workspace: ctx.run.workingDirectory },
  );
  if (outcome.ok) {
    return textResult(`applied the patch:\n${plan.summary.join("\n")}${warningNotes(outcome.warnings)}`, {
      changedFiles: outcome.changed,
    });
  }
  if (outcome.moved) {
    const moved = outcome.moved.map((file) => `${file.label} (${file.reason})`).join(", ");
    throw new ToolsError({
      code: "PATCH_FAILED",
      message: `${moved} changed on disk while the patch was being applied; nothing was written. Read the files again and send the whole patch again.${warningNotes(outcome.warnings)}`,
    });
  }
  // Every file already written was put back, except these: they hold the patch's content.
  const notRestored = outcome.notRestored.flatMap((label) =>
    plan.files.filter((file) => file.label === label).map((file) => file.absolute),
  );
  const restored =
    notRestored.length === 0
      ? "the files already written were put back; nothing was changed"
      : `${outcome.notRestored.join(", ")} could not be put back and hold the patch's content; every other file was put back`;
  const failedAt = plan.files.find((file) => file.label === outcome.failed)?.absolute ?? outcome.failed;
  const described = await describeWriteFailure(outcome.cause, failedAt, ctx.run.workingDirectory);
  // Whether anything changed is said by `restored`, which knows.
  const reason = described
    ? `${described.what}${described.advice ? `. ${described.advice}` : ""}`
    : outcome.reason;
  return errorResult(
    new ToolsError({
      code: "PATCH_FAILED",
      message: `could not write ${outcome.failed} (${reason}); ${restored}${warningNotes(outcome.warnings)}`,
      cause: outcome.cause,
    }),
    { changedFiles: notRestored },
  );
}
