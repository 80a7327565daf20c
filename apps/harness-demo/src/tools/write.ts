import { stat } from "node:fs/promises";
import { defineTool, textResult, ToolsError } from "@tools/registry";
import { z } from "zod";
import { writeFileAtomic } from "../internal/atomic-write.js";
import { displayPath } from "../internal/display-path.js";
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
  summarize: (args) => `write ${args.path} (${countLines(args.content)} lines)`,
  async execute(args, ctx) {
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
      await writeFileAtomic(absolute, args.content);
      const verb = existing ? "overwrote" : "created";
      const size = Buffer.byteLength(args.content);
      return textResult(`${verb} ${shown} (${countLines(args.content)} lines, ${size} bytes)`, {
        changedFiles: [absolute],
      });
    });
  },
});

function countLines(text: string): number {
  if (text === "") return 0;
  const lines = text.split("\n").length;
  return text.endsWith("\n") ? lines - 1 : lines;
}
