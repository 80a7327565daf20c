import { readTextFile } from "../files/file-texts.js";
import type { Finding } from "./finding.js";
import { splitLines } from "../positions/line-ends.js";

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
 * `findings` with byte columns turned into UTF-16 columns by each file's text on disk (read once
 * per file). A finding in a file that cannot be read, or on a line of plain ASCII, is kept as is.
 */
export function withUtf16Columns(findings: readonly Finding[]): Finding[] {
  const texts = new Map<string, string[] | undefined>();
  const linesOf = (file: string): string[] | undefined => {
    if (!texts.has(file)) {
      try {
        texts.set(file, splitLines(readTextFile(file, maxBytes)));
      } catch {
        texts.set(file, undefined);
      }
    }
    return texts.get(file);
  };
  return findings.map((finding) => {
    const line = linesOf(finding.file)?.[finding.line - 1];
    // As many bytes as UTF-16 units: plain ASCII, where both count alike.
    if (line === undefined || Buffer.byteLength(line, "utf8") === line.length) return finding;
    return { ...finding, column: utf16Column(line, finding.column) };
  });
}
