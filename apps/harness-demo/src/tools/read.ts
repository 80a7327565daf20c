import { readdir, stat } from "node:fs/promises";
import { boundText, defineTool, readRegularFile, ToolsError } from "@tools/registry";
import { z } from "zod";
import { looksBinary } from "../internal/binary-content.js";
import { displayPath } from "../internal/display-path.js";

/** Lines returned when the call gives no `limit`. */
export const defaultReadLimit = 400;
/** Characters kept of one very long line (minified code). */
const maxLineChars = 2000;

const input = z.object({
  path: z.string().describe("File or folder, relative to the working directory."),
  offset: z.number().int().min(1).optional().describe("First line to return, 1-based; default 1."),
  limit: z
    .number()
    .int()
    .min(1)
    .max(5000)
    .optional()
    .describe(`How many lines to return; default ${defaultReadLimit}.`),
});

/**
 * `read` (read tier): a file's lines, numbered from 1, or a folder's entries. Binary files are
 * refused rather than dumped.
 */
export const readTool = defineTool({
  name: "read",
  tier: "read",
  parallelSafe: true,
  description:
    "Read a text file and return its lines numbered from 1 (`  12\\tcode`), or list a folder's entries. " +
    `Returns at most ${defaultReadLimit} lines unless you pass limit; continue with offset. ` +
    'Example: {"path": "src/main.ts", "offset": 40, "limit": 30}',
  input,
  paths: (args) => [args.path],
  summarize: (args) => `read ${args.path}`,
  async execute(args, ctx) {
    const absolute = ctx.resolvePath(args.path);
    const shown = displayPath(ctx.run.workingDirectory, absolute);
    const info = await stat(absolute).catch(() => undefined);
    if (!info) {
      throw new ToolsError({
        code: "FILE_NOT_FOUND",
        message: `${shown} does not exist; check the path (grep or read the parent folder to find it)`,
      });
    }
    if (info.isDirectory()) return listFolder(absolute, shown);
    // A FIFO, socket or device is refused: a read of a FIFO nobody writes to never ends.
    const bytes = await readRegularFile(absolute).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "EINVAL") throw error;
      throw new ToolsError({
        code: "NOT_A_FILE",
        message: `${shown} is a FIFO, socket or device, not a file; read shows files and folders`,
      });
    });
    if (looksBinary(bytes)) {
      throw new ToolsError({
        code: "BINARY_FILE",
        message: `${shown} is a binary file (${bytes.length} bytes); read shows text files only`,
      });
    }
    const lines = bytes.toString("utf8").split(/\r?\n/);
    if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
    if (bytes.length === 0) return `${shown} is empty`;
    const offset = args.offset ?? 1;
    const limit = args.limit ?? defaultReadLimit;
    if (offset > lines.length) {
      throw new ToolsError({
        code: "OFFSET_PAST_END",
        message: `offset ${offset} is past the end: ${shown} has ${lines.length} lines`,
      });
    }
    const last = Math.min(lines.length, offset - 1 + limit);
    const width = String(last).length;
    const numbered = lines
      .slice(offset - 1, last)
      .map((line, index) => `${String(offset + index).padStart(width)}\t${clip(line)}`)
      .join("\n");
    const bounded = boundText(numbered, { maxLines: limit, maxChars: 60_000 });
    const rest = lines.length - last;
    const note = rest > 0 ? `\n… ${rest} more lines; continue with offset=${last + 1}` : "";
    return bounded.text + note;
  },
});

function clip(line: string): string {
  return line.length > maxLineChars ? `${line.slice(0, maxLineChars)}… (${line.length} characters)` : line;
}

async function listFolder(absolute: string, shown: string): Promise<string> {
  const entries = await readdir(absolute, { withFileTypes: true });
  const names = entries
    .map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name))
    .sort((a, b) => a.localeCompare(b));
  if (names.length === 0) return `${shown}/ is an empty folder`;
  const listing = boundText(names.join("\n"), { maxLines: 500, unit: "entries" });
  return `${shown}/ (${names.length} entries)\n${listing.text}`;
}
