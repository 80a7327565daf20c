import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Location, LocationLink, Range } from "vscode-languageserver-protocol";
import type { FileTexts } from "../supervisor/file-texts.js";

/** Reads lines of files once per answer, through the run's text cache when given one. */
export class LineReader {
  private readonly cache = new Map<string, readonly string[] | undefined>();
  private readonly texts: FileTexts | undefined;

  constructor(texts?: FileTexts) {
    this.texts = texts;
  }

  /** Gives the lines of a file already read for this answer (no second read). */
  prime(file: string, lines: readonly string[]): this {
    this.cache.set(file, lines);
    return this;
  }

  /** The text of 0-based `line` of `file`, trimmed; empty when unreadable. */
  line(file: string, line: number): string {
    if (!this.cache.has(file)) {
      try {
        this.cache.set(
          file,
          this.texts ? this.texts.read(file).lines() : readFileSync(file, "utf8").split(/\r?\n/),
        );
      } catch {
        this.cache.set(file, undefined);
      }
    }
    return this.cache.get(file)?.[line]?.trim() ?? "";
  }
}

/** A location as a file path plus its range. */
export interface PlainLocation {
  readonly file: string;
  readonly range: Range;
}

/** Normalises Location | Location[] | LocationLink[] | null into plain locations. */
export function toPlainLocations(
  answer: Location | Location[] | LocationLink[] | null | undefined,
): PlainLocation[] {
  if (!answer) return [];
  const list = Array.isArray(answer) ? answer : [answer];
  return list.flatMap((item): PlainLocation[] => {
    const uri = "targetUri" in item ? item.targetUri : item.uri;
    const range = "targetUri" in item ? item.targetSelectionRange : item.range;
    if (!uri.startsWith("file:")) return [];
    return [{ file: fileURLToPath(uri), range }];
  });
}

/** `path:line:col  text` with a 1-based line and column and the path relative to the working directory. */
export function formatLocation(
  location: PlainLocation,
  display: (path: string) => string,
  reader: LineReader,
): string {
  const { line, character } = location.range.start;
  return `${display(location.file)}:${line + 1}:${character + 1}  ${reader.line(location.file, line)}`;
}
