import { stat } from "node:fs/promises";
import { defineTool, readRegularFile, ToolsError } from "@tools/registry";
import { z } from "zod";
import { looksBinary } from "../internal/binary-content.js";
import { displayPath } from "../internal/display-path.js";
import { globFilter } from "../internal/glob-pattern.js";
import { rootIgnore, walkFiles } from "../internal/walk-files.js";

/** Files larger than this are skipped (generated bundles, data). */
const maxFileBytes = 2_000_000;
/** Characters kept of a matching line. */
const maxLineChars = 300;

const input = z.object({
  pattern: z.string().min(1).describe("JavaScript regular expression, e.g. `function\\s+greet`."),
  path: z.string().optional().describe("File or folder to search; default the whole working directory."),
  glob: z.string().optional().describe("Only files matching this glob: `*.ts`, `src/**/*.{ts,tsx}`."),
  case_insensitive: z.boolean().optional().describe("Ignore case; default false."),
  max_results: z
    .number()
    .int()
    .min(1)
    .max(1000)
    .optional()
    .describe("Most matching lines shown; default 100."),
});

/**
 * `grep` (read tier): regex search over the working directory, honouring the root `.gitignore`,
 * skipping `.git`, `node_modules` and binary files. Output lines are `path:line: text`.
 */
export const grepTool = defineTool({
  name: "grep",
  tier: "read",
  parallelSafe: true,
  description:
    "Search file contents with a regular expression; returns `path:line: text` per matching line. " +
    "Honours .gitignore; skips node_modules, .git and binary files. " +
    'Example: {"pattern": "export (async )?function", "path": "src", "glob": "*.ts"}',
  input,
  paths: (args) => (args.path === undefined ? [] : [args.path]),
  summarize: (args) => `grep /${args.pattern}/ in ${args.path ?? "."}`,
  async execute(args, ctx) {
    let regex: RegExp;
    try {
      regex = new RegExp(args.pattern, args.case_insensitive ? "i" : "");
    } catch (error) {
      throw new ToolsError({
        code: "INVALID_PATTERN",
        message: `pattern is not a valid regular expression (${error instanceof Error ? error.message : "?"}); escape special characters such as ( [ { with a backslash`,
      });
    }
    const root = ctx.run.workingDirectory;
    const absolute = args.path === undefined ? root : ctx.resolvePath(args.path);
    const shown = displayPath(root, absolute);
    const info = await stat(absolute).catch(() => undefined);
    if (!info) {
      throw new ToolsError({ code: "FILE_NOT_FOUND", message: `${shown} does not exist; check the path` });
    }
    const limit = args.max_results ?? 100;
    const accepts = args.glob === undefined ? () => true : globFilter(args.glob);
    const shownLines: string[] = [];
    let total = 0;
    let files = 0;
    const candidates = info.isDirectory()
      ? walkFiles(absolute, shown, await rootIgnore(root), ctx.signal)
      : single(absolute, shown);
    for await (const file of candidates) {
      if (!accepts(file.relative)) continue;
      const text = await readText(file.absolute);
      if (text === undefined) continue;
      files++;
      const lines = text.split(/\r?\n/);
      for (let index = 0; index < lines.length; index++) {
        const line = lines[index] as string;
        if (!regex.test(line)) continue;
        total++;
        if (shownLines.length < limit) shownLines.push(`${file.relative}:${index + 1}: ${clip(line)}`);
      }
    }
    if (total === 0) {
      const filter = args.glob === undefined ? "" : ` (files matching ${args.glob})`;
      return `no matches for /${args.pattern}/ in ${shown}${filter}: ${files} files searched`;
    }
    const more =
      total > shownLines.length
        ? `\n… ${total - shownLines.length} more matches; narrow path or glob, or raise max_results`
        : "";
    return shownLines.join("\n") + more;
  },
});

async function* single(
  absolute: string,
  shown: string,
): AsyncGenerator<{ absolute: string; relative: string }> {
  yield { absolute, relative: shown };
}

/** The file as text, or undefined when it is binary, too large, not a regular file or unreadable. */
async function readText(path: string): Promise<string | undefined> {
  try {
    const bytes = await readRegularFile(path, maxFileBytes);
    return looksBinary(bytes) ? undefined : bytes.toString("utf8");
  } catch {
    return undefined;
  }
}

function clip(line: string): string {
  const trimmed = line.trimEnd();
  return trimmed.length > maxLineChars ? `${trimmed.slice(0, maxLineChars)}…` : trimmed;
}
