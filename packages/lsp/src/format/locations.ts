import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Location, LocationLink, Range } from "vscode-languageserver-protocol";
import type { FileTexts } from "../files/file-texts.js";
import { sharedCodeOnlyLines } from "../actions/code-only.js";
import { answerLocations } from "../positions/answer-locations.js";
import { specifierAliasOf } from "./specifier-alias.js";
import { splitLines } from "../positions/line-ends.js";

/** Most characters of a source line shown in a result row (see {@link clipAround}). */
export const shownLineLimit = 200;

/**
 * Most characters of source lines one answer shows in all (see {@link LineReader.shown}); past
 * it, each further line is cut to {@link shownLineLimitOver}.
 */
export const shownLinesBudget = 24_000;

/** Characters of a line shown once an answer's {@link shownLinesBudget} is spent. */
export const shownLineLimitOver = 80;

/**
 * `text` trimmed, and when longer than `limit` UTF-16 units, cut to about `limit` around
 * `column` (a UTF-16 column of the untrimmed text: a quarter of the window before it), with `…`
 * on each side cut. A surrogate pair is never split.
 */
export function clipAround(text: string, column: number, limit: number = shownLineLimit): string {
  const trimmed = text.trim();
  if (trimmed.length <= limit) return trimmed;
  const lead = text.length - text.trimStart().length;
  const at = Math.min(Math.max(column - lead, 0), trimmed.length);
  let start = Math.max(0, Math.min(at - Math.floor(limit / 4), trimmed.length - limit));
  let end = Math.min(trimmed.length, start + limit);
  if (start > 0 && isLowSurrogate(trimmed.charCodeAt(start))) start += 1;
  if (end < trimmed.length && isLowSurrogate(trimmed.charCodeAt(end))) end -= 1;
  return `${start > 0 ? "…" : ""}${trimmed.slice(start, end)}${end < trimmed.length ? "…" : ""}`;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Reads lines of files once per answer, through the run's text cache when given one. */
export class LineReader {
  private readonly cache = new Map<string, readonly string[] | undefined>();
  /** Characters of source lines {@link shown} so far. */
  private shownSoFar = 0;
  /** Files found not to exist (ENOENT, ENOTDIR) while read. */
  private readonly missing = new Set<string>();
  private readonly texts: FileTexts | undefined;

  constructor(texts?: FileTexts) {
    this.texts = texts;
  }

  /** Gives the lines of a file already read for this answer (no second read). */
  prime(file: string, lines: readonly string[]): this {
    this.cache.set(file, lines);
    return this;
  }

  /** The text of 0-based `line` of `file`, trimmed, whole (for reading, not for showing); empty when unreadable. */
  line(file: string, line: number): string {
    return this.lines(file)?.[line]?.trim() ?? "";
  }

  /**
   * The text of 0-based `line` of `file` to show in a row: trimmed and clipped around `column`
   * (see {@link clipAround}) to {@link shownLineLimit}, or to {@link shownLineLimitOver} once
   * this reader has shown {@link shownLinesBudget} characters (one long line repeated in every
   * row of a large answer); empty when unreadable.
   */
  shown(file: string, line: number, column: number): string {
    const text = this.lines(file)?.[line] ?? "";
    const limit = this.shownSoFar >= shownLinesBudget ? shownLineLimitOver : shownLineLimit;
    const clipped = clipAround(text, column, limit);
    this.shownSoFar += clipped.length;
    return clipped;
  }

  /** The whole text of 0-based `line` of `file`, untrimmed; undefined when unreadable or past its end. */
  text(file: string, line: number): string | undefined {
    return this.lines(file)?.[line];
  }

  /**
   * The code of 0-based `line` of `file` in `language` (the server table's): its comments and
   * literals blanked, columns kept, the file read over lines from its start once per text (see
   * `sharedCodeOnlyLines`); empty when unreadable.
   */
  code(file: string, line: number, language: string): string {
    const lines = this.lines(file);
    return lines === undefined ? "" : sharedCodeOnlyLines(lines, language)(line);
  }

  /**
   * Whether `file` is still on disk (read for its lines at the same time: one `stat` through the
   * cache, not a second). A file there but unreadable counts as there.
   */
  exists(file: string): boolean {
    return this.lines(file) !== undefined || !this.missing.has(file);
  }

  private lines(file: string): readonly string[] | undefined {
    if (!this.cache.has(file)) {
      try {
        this.cache.set(
          file,
          this.texts ? this.texts.read(file).lines() : splitLines(readFileSync(file, "utf8")),
        );
      } catch (error) {
        this.cache.set(file, undefined);
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ENOENT" || code === "ENOTDIR") this.missing.add(file);
      }
    }
    return this.cache.get(file);
  }
}

/** A location as a file path plus its range. */
export interface PlainLocation {
  readonly file: string;
  readonly range: Range;
}

const byPosition = (a: PlainLocation, b: PlainLocation): number =>
  a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character;

/**
 * Location | Location[] | LocationLink[] | null as plain locations (links by their selection
 * range; non-file URIs dropped; `pathOf` turns a `file:` URI into a path, default
 * `fileURLToPath`, the supervisor's is memoised), sorted by file (`localeCompare`), then line,
 * then column — the order of a comparator sort on those keys, but with each distinct URI
 * converted and each distinct file compared once: references can return hundreds of locations
 * in a few dozen files.
 */
export function sortedLocations(
  answer: Location | Location[] | LocationLink[] | null | undefined,
  pathOf: (uri: string) => string = fileURLToPath,
): PlainLocation[] {
  const byUri = new Map<string, Range[]>();
  for (const { uri, range } of answerLocations(answer)) {
    const ranges = byUri.get(uri);
    if (ranges) ranges.push(range);
    else if (uri.startsWith("file:")) byUri.set(uri, [range]);
  }
  const files: { file: string; ranges: Range[] }[] = [];
  for (const [uri, ranges] of byUri) files.push({ file: pathOf(uri), ranges });
  files.sort((a, b) => a.file.localeCompare(b.file));
  const sorted: PlainLocation[] = [];
  for (let i = 0; i < files.length;) {
    // Paths that collate as equal (canonically equivalent Unicode) sort as one file.
    let end = i + 1;
    while (end < files.length && files[i]!.file.localeCompare(files[end]!.file) === 0) end++;
    const group: PlainLocation[] = [];
    for (const { file, ranges } of files.slice(i, end)) {
      for (const range of ranges) group.push({ file, range });
    }
    group.sort(byPosition);
    for (const location of group) sorted.push(location);
    i = end;
  }
  return sorted;
}

/**
 * `locations` (sorted, see {@link sortedLocations}) with each place once: a location repeating
 * another's range is dropped, and so is the alias of an import or export specifier (`plus` in
 * `import { add as plus }`, `addAgain` in `export { add as addAgain }`, in a list over several
 * lines too; see {@link specifierAliasOf}) when the name it renames is listed too:
 * typescript-language-server lists both ranges of the one specifier, which shown would be the
 * same line twice, the alias adding no use. The alias alone
 * (its own references) and the later uses of it are kept, and so is a name after `as` outside an
 * import or export list (`[Shape, Color as Color]`: a value cast to its type of the same name,
 * two uses). `reader` gives the lines, read as code of `language` (the server table's: a brace
 * in a comment or a literal is no list's opening).
 */
export function distinctPlaces(
  locations: readonly PlainLocation[],
  reader: LineReader,
  language: string,
): PlainLocation[] {
  const starts = new Set<string>();
  const key = (file: string, line: number, character: number) => `${line}:${character}:${file}`;
  for (const { file, range } of locations) starts.add(key(file, range.start.line, range.start.character));
  const kept: PlainLocation[] = [];
  // Every range seen, not only the last: the sort is by start alone, so a range repeated can
  // come after another of the same start and a different end.
  const seen = new Set<string>();
  for (const location of locations) {
    const { start, end } = location.range;
    const whole = `${key(location.file, start.line, start.character)}:${end.line}:${end.character}`;
    if (seen.has(whole)) continue;
    seen.add(whole);
    const renamed =
      start.line === end.line
        ? specifierAliasOf(
            {
              text: (line) => reader.text(location.file, line),
              code: (line) => reader.code(location.file, line, language),
            },
            start,
          )
        : undefined;
    if (renamed && starts.has(key(location.file, renamed.line, renamed.character))) continue;
    kept.push(location);
  }
  return kept;
}

/**
 * `path:line:col  text` with a 1-based line and column, the path relative to the working
 * directory, and the line's text clipped around the column (see {@link LineReader.shown}).
 */
export function formatLocation(
  location: PlainLocation,
  display: (path: string) => string,
  reader: LineReader,
): string {
  const { line, character } = location.range.start;
  return `${display(location.file)}:${line + 1}:${character + 1}  ${reader.shown(location.file, line, character)}`;
}

/**
 * The locations whose file still exists, and how many were left out: a server's index can be
 * older than the disk (clangd keeps the symbols of a file deleted after it was indexed).
 */
export function presentLocations(
  locations: readonly PlainLocation[],
  exists: (file: string) => boolean = existsSync,
): { present: PlainLocation[]; gone: number } {
  return inExistingFiles(locations, (location) => location.file, exists);
}

/**
 * The items whose file still exists (an item with no file is kept), and how many were left out.
 * One existence check per distinct file.
 */
export function inExistingFiles<T>(
  items: readonly T[],
  fileOf: (item: T) => string | undefined,
  exists: (file: string) => boolean = existsSync,
): { present: T[]; gone: number } {
  const known = new Map<string, boolean>();
  const present = items.filter((item) => {
    const file = fileOf(item);
    if (file === undefined) return true;
    let found = known.get(file);
    if (found === undefined) {
      found = exists(file);
      known.set(file, found);
    }
    return found;
  });
  return { present, gone: items.length - present.length };
}
