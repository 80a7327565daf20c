import { stat } from "node:fs/promises";
import { countNoun, defineTool, textResult, ToolsError, warningNotes } from "@tools/registry";
import { z } from "zod";
import { writeFileAtomic } from "../internal/atomic-write.js";
import { displayPath } from "../internal/display-path.js";
import { writeFailure } from "../internal/file-system-error.js";
import { refuseFolderPath, refuseTildePath } from "../internal/folder-path.js";
import { withFileLocks } from "../internal/file-locks.js";

const input = z.object({
  path: z.string().describe("File to write, relative to the working directory; parent folders are created."),
  content: z.string().describe("The whole new content of the file."),
});

/**
 * `write` (write tier): creates or replaces a whole file, atomically (temporary file + rename).
 * The result's `changedFiles` holds the file's absolute path.
 */
export const writeTool = defineTool({
  name: "write",
  tier: "write",
  parallelSafe: true,
  description:
    "Create a file or replace its whole content; parent folders are created. Prefer edit or apply_patch " +
    'to change part of an existing file. Example: {"path": "src/util.ts", "content": "export const x = 1;\\n"}',
  input,
  paths: (args) => [args.path],
  summarize: (args) => `write ${args.path} (${lineCount(args.content)})`,
  async execute(args, ctx) {
    refuseFolderPath(args.path, ", and write creates files");
    refuseTildePath(args.path);
    const absolute = ctx.resolvePath(args.path);
    const shown = displayPath(ctx.run.workingDirectory, absolute);
    return withFileLocks(ctx.run, [absolute], async () => {
      const existing = await stat(absolute).catch(() => undefined);
      if (existing?.isDirectory()) {
        throw new ToolsError({
          code: "IS_A_DIRECTORY",
          message: `${shown} is a folder; give a file path inside it`,
        });
      }
      // A FIFO, socket or device is not replaced by a regular file (as edit and apply_patch refuse it).
      if (existing && !existing.isFile()) {
        throw new ToolsError({
          code: "NOT_A_FILE",
          message: `${shown} is a FIFO, socket or device, not a regular file; write replaces regular files only (remove it with the shell first if it should go)`,
        });
      }
      const warnings = await writeFileAtomic(absolute, args.content, {
        workspace: ctx.run.workingDirectory,
      }).catch(async (error: unknown) => {
        throw error instanceof ToolsError
          ? error
          : await writeFailure(error, absolute, ctx.run.workingDirectory);
      });
      const verb = existing ? "overwrote" : "created";
      const size = Buffer.byteLength(args.content);
      return textResult(
        `${verb} ${shown} (${lineCount(args.content)}, ${size} ${countNoun(size, "bytes")})${warningNotes(warnings)}`,
        {
          changedFiles: [absolute],
        },
      );
    });
  },
});

/** "2 lines": the lines of `text` with their noun. */
function lineCount(text: string): string {
  const lines = countLines(text);
  return `${lines} ${countNoun(lines, "lines")}`;
}

function countLines(text: string): number {
  if (text === "") return 0;
  const lines = text.split("\n").length;
  return text.endsWith("\n") ? lines - 1 : lines;
}
