import { readTextFile } from "../files/file-texts.js";
import type { LineBreak } from "../positions/text-view.js";
import type { Finding } from "./finding.js";

/** Largest file whose text is read to convert its findings' columns. */
const maxBytes = 8 * 1024 * 1024;

/**
 * The UTF-16 column (1-based, as LSP servers count) of a 1-based byte column of `line`: a checker
 * counting bytes (go vet) puts `é` at two columns and `😀` at four, a server at one and two. A
 * column past the line's end moves by the line's difference.
 */
export function utf16Column(line: string, byteColumn: number): number {
  const bytes = Buffer.from(line, "utf8");
  const offset = Math.max(0, byteColumn - 1);
  const before = bytes.subarray(0, Math.min(offset, bytes.length)).toString("utf8");
  return before.length + Math.max(0, offset - bytes.length) + 1;
}

/**
 * How a checker counting bytes reads a file, where it may differ from a plain split at `\n`:
 * the other characters it ends a line at (the same as its language's server: gcc and clang, as
 * clangd answers, also end one at a lone `\r`), and whether it drops a leading byte order mark
 * before counting line 1's columns (gcc; clang and go vet count its 3 bytes).
 */
export interface ByteColumnReading {
  readonly lineBreaks: readonly LineBreak[];
  readonly dropsByteOrderMark: boolean;
}

/** How go vet reads a file: lines end at `\n` only, a byte order mark's bytes are counted. */
export const plainReading: ByteColumnReading = { lineBreaks: [], dropsByteOrderMark: false };

const byteOrderMark = "\uFEFF";

/** A file as the checker read it. */
interface ReadText {
  /** Its lines, split where the checker ends them. */
  readonly lines: readonly string[];
  /** It starts with a byte order mark the checker dropped. */
  readonly dropped: boolean;
}

function readAs(text: string, reading: ByteColumnReading): ReadText {
  const dropped = reading.dropsByteOrderMark && text.startsWith(byteOrderMark);
  const others = reading.lineBreaks.map((end) => (end === "\r" ? "|\\r" : `|${end}`)).join("");
  return { lines: (dropped ? text.slice(1) : text).split(new RegExp(`\\r?\\n${others}`)), dropped };
}

/**
 * `findings` of a checker that counts columns in bytes, with each column turned into UTF-16
 * units, as the language's server counts them, by the file's text on disk (read once per file).
 * A byte column is read in the checker's own line, as `reading` says it split the file (after a
 * lone `\r`, without a dropped byte order mark, which is then added back as line 1's first
 * character, as the server counts it); lines stay the checker's, which are the server's, for
 * `findingsAsUserSees` to place where the user sees them. A finding in a file that cannot be
 * read, or on a line of plain ASCII, is kept as is.
 */
export function withUtf16Columns(
  findings: readonly Finding[],
  reading: ByteColumnReading = plainReading,
): Finding[] {
  const texts = new Map<string, ReadText | undefined>();
  const textOf = (file: string): ReadText | undefined => {
    if (!texts.has(file)) {
      try {
        texts.set(file, readAs(readTextFile(file, maxBytes), reading));
      } catch {
        texts.set(file, undefined);
      }
    }
    return texts.get(file);
  };
  return findings.map((finding) => {
    const read = textOf(finding.file);
    const line = read?.lines[finding.line - 1];
    if (read === undefined || line === undefined) return finding;
    const column = utf16Column(line, finding.column) + (read.dropped && finding.line === 1 ? 1 : 0);
    return column === finding.column ? finding : { ...finding, column };
  });
}
