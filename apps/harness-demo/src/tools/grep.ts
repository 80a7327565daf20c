import { stat } from "node:fs/promises";
import { countNoun, defineTool, ToolsError } from "@tools/registry";
import { z } from "zod";
import { displayPath } from "../internal/display-path.js";
import { globFilter } from "../internal/glob-pattern.js";
import { compileGrepPattern } from "../internal/grep-pattern.js";
import { withMatchWorker, type MatchWorker } from "../internal/match-worker.js";
import { TextFileReader } from "../internal/text-file-reader.js";
import { rootIgnore, walkFiles } from "../internal/walk-files.js";

/** Files larger than this are skipped in a folder search (generated bundles, data), and counted. */
const maxFileBytes = 2_000_000;
/** Characters shown of a matching line: an excerpt around the match. */
const maxLineChars = 300;
/**
 * Characters of matching lines shown in one result (`path:line: text` lines with their line ends),
 * in line with shell's ~24 000: past it, the matches left out are counted and the result says how
 * to narrow the search.
 */
export const maxOutputChars = 24_000;
/** Characters of one line that are searched: a longer line (minified code) is searched in its start. */
const maxMatchChars = 20_000;
/** A line that runs on longer than this without a line end is cut when read (memory stays bounded). */
const maxBlockLineBytes = 1 << 20;
/** Milliseconds one block of text (at most about 2 MB) may take to match before the pattern is called too slow. */
export const matchBudgetMs = 5000;
/**
 * Time bounds of one grep call. `searchMs`: the whole search (walking and matching); when it runs
 * out, what was found so far is returned with a note saying where the search stopped. Mutable
 * only so that tests can shorten it.
 */
export const grepBounds = { searchMs: 30_000 };

const input = z.object({
  pattern: z
    .string()
    .min(1)
    .describe(
      "JavaScript regular expression, Unicode-aware (`\\p{L}`, `.` is one character), e.g. `function\\s+greet`.",
    ),
  path: z.string().optional().describe("File or folder to search; default the whole working directory."),
  glob: z
    .string()
    .optional()
    .describe("Only files matching this glob: `*.ts`, `src/**/*.{ts,tsx}`; `[[]` for a literal `[`."),
  case_insensitive: z.boolean().optional().describe("Ignore case; default false."),
  max_results: z
    .number()
    .int()
    .min(1)
    .max(1000)
    .optional()
    .describe("Most matching lines shown; default 100 (and at most 24 000 characters of them)."),
});

/**
 * `grep` (read tier): regex search over the working directory, honouring the root `.gitignore`,
 * skipping `.git`, `node_modules` and binary files. Output lines are `path:line: text`. The
 * matching runs in a worker thread with a deadline per block of text, so a catastrophic pattern
 * is stopped and reported (`PATTERN_TOO_SLOW`) instead of freezing the process, and a cancel ends
 * it at once. A folder search skips files over 2 MB and says how many; a file named by `path` is
 * searched whatever its size, streamed. The whole call is bounded too ({@link grepBounds}): past
 * it, the matches found so far are returned with where the search stopped.
 */
export const grepTool = defineTool({
  name: "grep",
  tier: "read",
  parallelSafe: true,
  description:
    "Search file contents with a regular expression; returns `path:line: text` per matching line. " +
    "Patterns are Unicode-aware (the u flag): `\\p{L}` is any letter, `.` matches one whole character, emoji included. " +
    "Honours .gitignore; skips node_modules, .git and binary files, and files over 2 MB unless path names the file. " +
    "A search stops after 30 s and returns what it found, saying where it stopped. " +
    "At most 24 000 characters of matching lines are shown; the rest are counted. " +
    'Example: {"pattern": "export (async )?function", "path": "src", "glob": "*.ts"}',
  input,
  paths: (args) => (args.path === undefined ? [] : [args.path]),
  summarize: (args) => `grep /${args.pattern}/ in ${args.path ?? "."}`,
  async execute(args, ctx) {
    const compiled = compileGrepPattern(args.pattern, args.case_insensitive === true);
    const accepts = args.glob === undefined ? () => true : globFilter(args.glob);
    const root = ctx.run.workingDirectory;
    const absolute = args.path === undefined ? root : ctx.resolvePath(args.path);
    const shown = displayPath(root, absolute);
    const info = await stat(absolute).catch(() => undefined);
    if (!info) {
      throw new ToolsError({ code: "FILE_NOT_FOUND", message: `${shown} does not exist; check the path` });
    }
    // A FIFO, socket or device named by `path` is refused (as read does), not "0 files searched".
    if (!info.isDirectory() && !info.isFile()) {
      throw new ToolsError({
        code: "NOT_A_FILE",
        message: `${shown} is a FIFO, socket or device, not a file or folder; grep searches files and folders`,
      });
    }
    const search: Search = {
      pattern: compiled.source,
      flags: compiled.flags,
      shownPattern: args.pattern,
      limit: args.max_results ?? 100,
      accepts,
      // A file named by `path` is searched whatever its size: the caller asked for it.
      sizeCap: info.isDirectory() ? maxFileBytes : Infinity,
      signal: ctx.signal,
      deadline: Date.now() + grepBounds.searchMs,
    };
    const candidates = info.isDirectory()
      ? walkFiles(absolute, shown, await rootIgnore(root), ctx.signal)
      : single(absolute, shown);
    const found = await withMatchWorker(ctx.run, (worker) => searchFiles(candidates, search, worker));
    // A file named by `path` that is binary was not searched: "0 files searched" would read as
    // "no match in it".
    if (!info.isDirectory() && found.binary > 0) {
      throw new ToolsError({
        code: "BINARY_FILE",
        message: `${shown} is a binary file (${info.size} bytes), so it was not searched; grep searches text files only (shell: grep -a PATTERN FILE searches it as text)`,
      });
    }
    const notes = [
      ...(found.stoppedIn !== undefined
        ? [
            `(search stopped after its ${grepBounds.searchMs / 1000} s bound, in ${found.stoppedIn}: files after it were not searched; narrow path or glob)`,
          ]
        : []),
      ...(found.skipped.length > 0
        ? [
            `(${found.skipped.length} ${countNoun(found.skipped.length, "files")} over ${maxFileBytes / 1_000_000} MB not searched: ` +
              `${found.skipped.slice(0, 3).join(", ")}${found.skipped.length > 3 ? ", …" : ""}; name one as path to search it)`,
          ]
        : []),
      ...(found.cutLines > 0
        ? [
            `(${found.cutLines} ${countNoun(found.cutLines, "lines")} longer than ${maxMatchChars} characters searched in ${found.cutLines === 1 ? "its" : "their"} first ${maxMatchChars} characters only)`,
          ]
        : []),
    ];
    const tail = notes.length > 0 ? `\n${notes.join("\n")}` : "";
    if (found.total === 0) {
      const filter = args.glob === undefined ? "" : ` (files matching ${args.glob})`;
      return `no matches for /${args.pattern}/ in ${shown}${filter}: ${found.files} ${countNoun(found.files, "files")} searched${tail}`;
    }
    const unshown = found.total - found.lines.length;
    const more =
      unshown === 0
        ? ""
        : found.outputFull
          ? `\n… ${unshown} more ${countNoun(unshown, "matches")} in ${found.unshownFiles} ${countNoun(found.unshownFiles, "files")} not shown: ` +
            `the output stops at ${maxOutputChars.toLocaleString("en-US")} characters (${found.lines.length} of ${found.total} matching lines shown); ` +
            "narrow the pattern, path or glob"
          : `\n… ${unshown} ${countNoun(unshown, "more matches")}; narrow path or glob, or raise max_results`;
    return found.lines.join("\n") + more + tail;
  },
});

interface Search {
  /** The pattern as compiled (see {@link compileGrepPattern}). */
  readonly pattern: string;
  /** The pattern as the call gave it. */
  readonly shownPattern: string;
  readonly flags: string;
  readonly limit: number;
  readonly accepts: (relative: string) => boolean;
  /** Files larger than this (bytes) are skipped and named in the result. */
  readonly sizeCap: number;
  readonly signal: AbortSignal;
  /** `Date.now()` after which the search stops (see {@link grepBounds}). */
  readonly deadline: number;
}

interface Found {
  /** `path:line: text`, at most `limit`. */
  readonly lines: string[];
  total: number;
  files: number;
  readonly skipped: string[];
  cutLines: number;
  /** Binary files passed by (not searched). */
  binary: number;
  /** Characters of `lines` so far, a line end each. */
  chars: number;
  /** True once a matching line did not fit in {@link maxOutputChars}: no more lines are shown. */
  outputFull: boolean;
  /** Files with matches that are not (all) shown. */
  unshownFiles: number;
  /** The file the search was in when its time bound ran out (its later blocks not searched). */
  stoppedIn?: string;
}

async function searchFiles(
  candidates: AsyncIterable<{ absolute: string; relative: string }>,
  search: Search,
  worker: MatchWorker,
): Promise<Found> {
  const found: Found = {
    lines: [],
    total: 0,
    files: 0,
    skipped: [],
    cutLines: 0,
    binary: 0,
    chars: 0,
    outputFull: false,
    unshownFiles: 0,
  };
  for await (const file of candidates) {
    if (!search.accepts(file.relative)) continue;
    search.signal.throwIfAborted();
    if (Date.now() >= search.deadline) {
      found.stoppedIn = file.relative;
      break;
    }
    // Not a regular file (a FIFO: opened without blocking and refused) or unreadable: passed by.
    const reader = await TextFileReader.open(file.absolute).catch(() => undefined);
    if (!reader) continue;
    let matched = 0;
    let shown = 0;
    try {
      if (reader.size > search.sizeCap) {
        found.skipped.push(file.relative);
        continue;
      }
      if (await reader.looksBinary()) {
        found.binary++;
        continue;
      }
      found.files++;
      let firstLine = 1;
      for await (const block of reader.blocks(maxBlockLineBytes, { signal: search.signal })) {
        const decoded = block.bytes.toString("utf8");
        // A byte order mark (a Windows editor's) is not part of line 1: `^using` matches it.
        const text = firstLine === 1 && decoded.startsWith("\uFEFF") ? decoded.slice(1) : decoded;
        const left = search.deadline - Date.now();
        const budget = Math.min(matchBudgetMs, left);
        if (budget <= 0) {
          found.stoppedIn = `${file.relative} (from line ${firstLine})`;
          return found;
        }
        const reply = await worker.match(
          {
            pattern: search.pattern,
            flags: search.flags,
            text,
            room: found.outputFull ? 0 : search.limit - found.lines.length,
            maxMatchChars,
            maxShownChars: maxLineChars,
          },
          budget,
          search.signal,
        );
        if (reply === "too slow") {
          // The call's bound ran out before the block's: a slow search, not a runaway pattern.
          if (budget < matchBudgetMs) {
            found.stoppedIn = `${file.relative} (from line ${firstLine})`;
            return found;
          }
          throw tooSlow(search.shownPattern, file.relative, firstLine);
        }
        found.total += reply.count;
        found.cutLines += reply.cut;
        matched += reply.count;
        for (const hit of reply.shown) {
          const line = `${file.relative}:${firstLine + hit.line}: ${hit.text}`;
          if (found.outputFull || found.chars + line.length + 1 > maxOutputChars) {
            found.outputFull = true;
            break;
          }
          found.lines.push(line);
          found.chars += line.length + 1;
          shown++;
        }
        firstLine += reply.lines;
      }
    } finally {
      if (matched > shown) found.unshownFiles++;
      await reader.close();
    }
  }
  return found;
}

function tooSlow(pattern: string, file: string, fromLine: number): ToolsError {
  return new ToolsError({
    code: "PATTERN_TOO_SLOW",
    message:
      `the pattern /${pattern}/ is too slow: matching it in ${file} (from line ${fromLine}) took over ${matchBudgetMs / 1000} s and was stopped. ` +
      "Nested or overlapping quantifiers such as (a+)+, (.*)* or (\\w|\\d)+ backtrack exponentially; " +
      "simplify the pattern (drop the nesting, anchor it, or search for a literal part of it)",
    data: { pattern, file, fromLine },
  });
}

async function* single(
  absolute: string,
  shown: string,
): AsyncGenerator<{ absolute: string; relative: string }> {
  yield { absolute, relative: shown };
}
