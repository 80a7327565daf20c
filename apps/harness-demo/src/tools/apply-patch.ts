import { rm } from "node:fs/promises";
import { defineTool, textResult, ToolsError, type ToolContext, type ToolResult } from "@tools/registry";
import { z } from "zod";
import { commitWrite, discardWrite, stageWrite, type StagedWrite } from "../internal/atomic-write.js";
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
 * files. All or nothing: every file's new text is computed first; if any hunk fails, nothing is
 * written. `changedFiles` lists every file touched (both ends of a move).
 */
export const applyPatchTool = defineTool({
  name: "apply_patch",
  tier: "write",
  parallelSafe: true,
  description:
    "Apply a patch that adds, deletes, updates or moves files, all or nothing. In an Update File section, " +
    "each @@ hunk lists context lines (' '), removed lines ('-') and added lines ('+'); an optional text after " +
    "@@ names a line to find first (a function header). Give about 3 lines of context. '*** Move to: path' " +
    `after an Update File header renames the file. Example:\n${example}`,
  input,
  paths: (args) => patchPaths(args.patch),
  summarize: (args) => {
    const paths = patchPaths(args.patch);
    return `patch ${paths.length} file${paths.length === 1 ? "" : "s"}: ${paths.slice(0, 4).join(", ")}${paths.length > 4 ? ", …" : ""}`;
  },
  async execute(args, ctx) {
    const operations = parsePatch(args.patch);
    const touched = patchPaths(args.patch).map((path) => ctx.resolvePath(path));
    return withFileLocks(ctx.run, touched, () => applyOperations(operations, ctx));
  },
});

async function applyOperations(operations: PatchOperation[], ctx: ToolContext): Promise<ToolResult> {
  const plan = await planPatch(operations, (path) => ctx.resolvePath(path));
  ctx.signal.throwIfAborted();
  // Stage every write first, so a full disk or a permission error shows up before any rename.
  const staged: StagedWrite[] = [];
  try {
    for (const file of plan.files) {
      if (file.content !== undefined) staged.push(await stageWrite(file.absolute, file.content));
    }
  } catch (error) {
    await Promise.all(staged.map(discardWrite));
    throw new ToolsError({
      code: "PATCH_FAILED",
      message: `could not write the patched files (${error instanceof Error ? error.message : "?"}); nothing was changed`,
      cause: error,
    });
  }
  for (const write of staged) await commitWrite(write);
  for (const file of plan.files) {
    if (file.content === undefined) await rm(file.absolute, { force: true });
  }
  return textResult(`applied the patch:\n${plan.summary.join("\n")}`, {
    changedFiles: plan.files.map((file) => file.absolute),
  });
}
