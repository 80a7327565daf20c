import { isUtf8 } from "node:buffer";
import { readdir, stat } from "node:fs/promises";
import { countNoun, defineTool, tierWithin, ToolsError, type Surface } from "@tools/registry";
import { z } from "zod";
import { displayPath } from "../internal/display-path.js";
import { nameTooLong } from "../internal/atomic-write.js";
import { refuseFolderPath, refuseTildePath } from "../internal/folder-path.js";
import { TextFileReader } from "../internal/text-file-reader.js";

/** Lines returned when the call gives no `limit`. */
export const defaultReadLimit = 400;
/** A folder's entries listed when the call gives no `limit`. */
const folderLimit = 500;
/** Characters of a folder's entries listed at most (whole entries). */
const maxFolderChars = 20_000;
/** Characters kept of one very long line (minified code). */
const maxLineChars = 2000;
/** Characters of numbered lines returned at most; the next line past it is the next offset. */
const maxOutputChars = 60_000;
/** A line that runs on longer than this without a line end is cut when read (memory stays bounded). */
const maxLineBytes = 1 << 20;
/** Bytes read at most to count the lines after the last one shown (a 1 GB log is not read to its end). */
const maxCountedBytes = 16 * 1024 * 1024;

const input = z.object({
  path: z.string().describe("File or folder, relative to the working directory."),
  offset: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe("First line (of a folder, first entry) to return, 1-based; default 1."),
  limit: z
    .number()
    .int()
    .min(1)
    .max(5000)
    .optional()
    .describe(
      `How many lines (of a folder, entries) to return; default ${defaultReadLimit} (of a folder, ${folderLimit}).`,
    ),
  column: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(
      `First character of each line to show, 1-based; default 1. A line over ${maxLineChars} characters is shown cut: ` +
        `column=${maxLineChars + 1} shows its next ${maxLineChars}.`,
    ),
});

/**
 * `read` (read tier): a file's lines, numbered from 1, or a folder's entries. Binary files are
 * refused rather than dumped. The file is read only as far as the lines asked for (a 1 GB log costs
 * what its first lines cost); the output holds whole lines, at most 60 000 characters, and its
 * note gives the offset of the first line not shown. A line over 2 000 characters is shown cut, and
 * `column` shows the rest of it (each line from that character on). A line that is not valid UTF-8
 * is said so.
 */
export const readTool = defineTool({
  name: "read",
  tier: "read",
  parallelSafe: true,
  description:
    "Read a text file and return its lines numbered from 1 (`  12\\tcode`), or list a folder's entries. " +
    `Returns at most ${defaultReadLimit} lines (of a folder, ${folderLimit} entries) unless you pass limit; continue with offset. ` +
    `A line over ${maxLineChars} characters is cut; column shows the rest of it. ` +
    'Example: {"path": "src/main.ts", "offset": 40, "limit": 30}',
  input,
  paths: (args) => [args.path],
  summarize: (args) => `read ${args.path}`,
  async execute(args, ctx) {
    refuseTildePath(args.path);
    const absolute = ctx.resolvePath(args.path);
    const shown = displayPath(ctx.run.workingDirectory, absolute);
    const info = await stat(absolute).catch((error: unknown) => {
      // A name over 255 bytes cannot exist: say so rather than "does not exist".
      const tooLong = nameTooLong(error, absolute);
      if (tooLong) throw tooLong;
      return undefined;
    });
    if (!info) {
      throw new ToolsError({
        code: "FILE_NOT_FOUND",
        message: `${shown} does not exist; check the path (grep or read the parent folder to find it)`,
      });
    }
    if (info.isDirectory()) return listFolder(absolute, shown, args.offset ?? 1, args.limit ?? folderLimit);
    // `a.txt/` names a folder; a file there is ENOTDIR, not the file.
    refuseFolderPath(args.path, `, but ${shown} is a file (POSIX: ENOTDIR)`);
    // A FIFO, socket or device is refused: a read of a FIFO nobody writes to never ends.
    const reader = await TextFileReader.open(absolute).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "EINVAL") throw error;
      throw new ToolsError({
        code: "NOT_A_FILE",
        message: `${shown} is a FIFO, socket or device, not a file; read shows files and folders`,
      });
    });
    try {
      if (await reader.looksBinary()) {
        throw new ToolsError({
          code: "BINARY_FILE",
          message: `${shown} is a binary file (${reader.size} bytes); read shows text files only`,
        });
      }
      return await readLines(reader, shown, {
        offset: args.offset ?? 1,
        limit: args.limit ?? defaultReadLimit,
        column: args.column ?? 1,
        surface: ctx.surface,
        signal: ctx.signal,
      });
    } finally {
      await reader.close();
    }
  },
});

/** What {@link readLines} shows. */
interface LineWindow {
  readonly offset: number;
  readonly limit: number;
  /** 1-based: each line is shown from this character on. */
  readonly column: number;
  /** The calling surface: the cut note names only tools it has. */
  readonly surface: Surface;
  readonly signal: AbortSignal;
}

/**
 * Lines `offset` to `offset + limit - 1`, numbered, read only as far as needed: lines before
 * `offset` are counted, not kept, and after the last one shown the rest is counted only in the
 * first {@link maxCountedBytes} of the file. Whole lines only: when the next line would pass
 * {@link maxOutputChars}, it is the next offset. Each line is shown from `column` on.
 */
async function readLines(
  reader: TextFileReader,
  shown: string,
  { offset, limit, column, surface, signal }: LineWindow,
): Promise<string> {
  const last = offset - 1 + limit;
  // Budgeted with the widest number the call could show, so the padding never passes the cap.
  const budgetWidth = String(last).length;
  const kept: { number: number; text: string }[] = [];
  let chars = 0;
  let lineNumber = 0;
  let capped = false;
  let nonUtf8: number | undefined;
  /** Set when line 1 starts with a UTF-8 byte order mark (left out of the line, and said). */
  let byteOrderMark = false;
  /** The first line shown cut at {@link maxLineChars} characters, and its length. */
  let firstCut: { line: number; length: number } | undefined;
  /** The longest line among those kept (for a column past every one of them). */
  let longest = { line: 0, length: 0 };
  /** Lines after the last one shown; undefined once counting stopped. */
  let rest: number | undefined = 0;
  const counting = () => kept.length > 0 && (lineNumber >= last || capped);
  const stopAt = (position: number) => counting() && position >= maxCountedBytes;
  for await (const block of reader.blocks(maxLineBytes, { signal, stopAt })) {
    const bytes = block.bytes;
    for (let start = 0; start < bytes.length;) {
      if (counting()) {
        // Past what is shown: only count the lines (a last line without a line end counts too).
        let count = 0;
        for (let end = bytes.indexOf(10, start); end !== -1; end = bytes.indexOf(10, end + 1)) count++;
        if (bytes[bytes.length - 1] !== 10) count++;
        rest = (rest as number) + count;
        break;
      }
      let end = bytes.indexOf(10, start);
      if (end === -1) end = bytes.length;
      lineNumber++;
      if (lineNumber >= offset) {
        const lineEnd = end > start && bytes[end - 1] === 13 ? end - 1 : end;
        const lineBytes = bytes.subarray(start, lineEnd);
        let whole = lineBytes.toString("utf8");
        // An invisible U+FEFF would be the line's first character (and column 1).
        if (lineNumber === 1 && whole.startsWith("\uFEFF")) {
          whole = whole.slice(1);
          byteOrderMark = true;
        }
        const part = column > 1 ? whole.slice(column - 1) : whole;
        const text = clip(part, whole.length, block.cutFrom);
        if (firstCut === undefined && part.length > maxLineChars)
          firstCut = { line: lineNumber, length: whole.length };
        if (kept.length > 0 && chars + budgetWidth + 1 + text.length + 1 > maxOutputChars) {
          capped = true;
          lineNumber--;
          continue;
        }
        if (nonUtf8 === undefined && !isUtf8(lineBytes)) nonUtf8 = lineNumber;
        kept.push({ number: lineNumber, text });
        if (whole.length > longest.length) longest = { line: lineNumber, length: whole.length };
        chars += budgetWidth + 1 + text.length + 1;
      }
      start = end + 1;
    }
  }
  if (reader.stoppedEarly) rest = undefined;
  if (lineNumber === 0 && kept.length === 0) return `${shown} is empty`;
  if (kept.length === 0) {
    throw new ToolsError({
      code: "OFFSET_PAST_END",
      message: `offset ${offset} is past the end: ${shown} has ${lineNumber} ${countNoun(lineNumber, "lines")}`,
    });
  }
  if (column > 1 && longest.length < column) {
    const which = kept.length === 1 ? `line ${offset} has` : `the longest line shown, ${longest.line}, has`;
    throw new ToolsError({
      code: "COLUMN_PAST_END",
      message: `column ${column} is past the end of the lines asked for: ${which} ${longest.length} ${countNoun(longest.length, "characters")}; pass a smaller column (1 shows each line from its start)`,
    });
  }
  const lastShown = kept[kept.length - 1]?.number ?? offset;
  const width = String(lastShown).length;
  const numbered = kept.map((line) => `${String(line.number).padStart(width)}\t${line.text}`).join("\n");
  const next = `continue with offset=${lastShown + 1}`;
  const cap = capped ? ` (output is capped at ${maxOutputChars} characters)` : "";
  let note = "";
  if (rest === undefined) {
    note = `\n… more lines follow${cap} (${shown} is ${reader.size} bytes, too large to count them all); ${next}`;
  } else if (rest > 0) {
    note = `\n… ${rest} ${countNoun(rest, "more lines")}${cap}; ${next}`;
  }
  const encoding =
    nonUtf8 === undefined
      ? ""
      : `\n(line ${nonUtf8} is not valid UTF-8: bytes of another encoding, such as Latin-1, are shown as U+FFFD; edit and apply_patch refuse to change this file)`;
  const from = column > 1 ? `\n(each line shown from column ${column})` : "";
  const mark = byteOrderMark
    ? "\n(the file starts with a UTF-8 byte order mark, U+FEFF, not shown above; edit and apply_patch keep it)"
    : "";
  return (
    numbered +
    note +
    encoding +
    mark +
    from +
    (firstCut === undefined ? "" : cutNote(firstCut, column, shown, surface))
  );
}

/**
 * How to see the rest of a line cut at {@link maxLineChars}: read it again from the next column.
 * Names edit only where the surface has it (plan mode and a read-only subagent have read tools only).
 */
function cutNote(
  cut: { line: number; length: number },
  column: number,
  shown: string,
  surface: Surface,
): string {
  const next = column + maxLineChars;
  const canEdit = tierWithin("write", surface.cap) && surface.hides?.has("edit") !== true;
  return (
    `\n(line ${cut.line} is ${cut.length} characters long, shown cut at ${maxLineChars}; to see the next ${maxLineChars} characters, ` +
    `read ${JSON.stringify({ path: shown, offset: cut.line, limit: 1, column: next })}, or grep for the text you need` +
    `${canEdit ? "; an edit's old_string may be a part of the line" : ""})`
  );
}

/** At most {@link maxLineChars} of `part` (a line from the call's column); `length`: the whole line's. */
function clip(part: string, length: number, cutFrom: number | undefined): string {
  if (cutFrom !== undefined) {
    // The line runs on past what is read of it (maxLineBytes): its end cannot be shown.
    return part.length > maxLineChars
      ? `${part.slice(0, maxLineChars)}… (${cutFrom} bytes)`
      : `${part}… (${cutFrom} bytes; read reads the first ${maxLineBytes} bytes of a line)`;
  }
  return part.length > maxLineChars ? `${part.slice(0, maxLineChars)}… (${length} characters)` : part;
}

/**
 * A folder's entries, sorted, folders marked with a slash: `limit` of them from the `offset`-th
 * (1-based) on, at most {@link maxFolderChars} characters of whole entries; a note gives the
 * offset of the next one, as for a file's lines.
 */
async function listFolder(absolute: string, shown: string, offset: number, limit: number): Promise<string> {
  const entries = await readdir(absolute, { withFileTypes: true });
  const names = entries
    .map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name))
    .sort((a, b) => a.localeCompare(b));
  if (names.length === 0) return `${shown}/ is an empty folder`;
  const count = `${names.length} ${countNoun(names.length, "entries")}`;
  if (offset > names.length) {
    throw new ToolsError({
      code: "OFFSET_PAST_END",
      message: `offset ${offset} is past the end: ${shown}/ has ${count}`,
    });
  }
  const listed: string[] = [];
  let chars = 0;
  for (const name of names.slice(offset - 1, offset - 1 + limit)) {
    if (listed.length > 0 && chars + name.length + 1 > maxFolderChars) break;
    listed.push(name);
    chars += name.length + 1;
  }
  const next = offset + listed.length;
  const window = offset > 1 || next <= names.length ? `; ${offset}–${next - 1} shown` : "";
  const more = names.length - (next - 1);
  const note = more > 0 ? `\n… ${more} more ${countNoun(more, "entries")}; continue with offset=${next}` : "";
  return `${shown}/ (${count}${window})\n${listed.join("\n")}${note}`;
}
