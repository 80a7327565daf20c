import type { StructuralMatch } from "../match/find-matches.js";
import { fillTemplate, lineEnding, SourceLines } from "./template.js";

/** One replacement in a file's text (UTF-16 offsets). */
export interface Replacement {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** A file's rewrite: the new text and what it replaced. */
export interface FileRewrite {
  readonly newText: string;
  readonly replacements: readonly Replacement[];
  /** Matches inside a replaced match, not rewritten (outer match wins). */
  readonly nestedSkipped: number;
  /**
   * Matches that passed over a keyword or marker the pattern does not write (`async` for
   * `function $F() {}`), left as they are: replacing one would drop it. Matches inside one are
   * rewritten. Matches on a token the code lacks (see `StructuralMatch.missing`) are left too:
   * replacing one would write that token.
   */
  readonly leftUnchanged: readonly StructuralMatch[];
}

/** Whether a capture of the match holds the character at `index`. */
function heldByCapture(match: StructuralMatch, index: number): boolean {
  for (const capture of match.bindings.values())
    if (capture.start <= index && index < capture.end) return true;
  return false;
}

/** Whether the character at `index` is a space or a tab. */
function isBlank(source: string, index: number): boolean {
  const code = source.charCodeAt(index);
  return code === 32 || code === 9;
}

/**
 * `end`, moved past the spaces and tabs after it when one precedes `start` (or `start` begins
 * its line) and code follows them on the line: deleting `b: 1;` from `{ a: 0; b: 1; c: 2 }`
 * leaves `{ a: 0; c: 2 }`, not two blanks.
 */
function blanksAfter(source: string, start: number, end: number): number {
  const before = source.charCodeAt(start - 1);
  if (start > 0 && !isBlank(source, start - 1) && before !== 10 && before !== 13) return end;
  let after = end;
  while (isBlank(source, after)) after++;
  const next = source.charCodeAt(after);
  return after > end && after < source.length && next !== 10 && next !== 13 ? after : end;
}

/**
 * Where deletions leave a body with no statement that the language needs one in (see
 * `StructuralMatch.body`), the first of them writes the no-op instead, over the match alone: the
 * `;` and blanks after it stay (`do echo a; done` → `do :; done`, `{ echo a; }` → `{ :; }`).
 */
function fillEmptiedBodies(source: string, replacements: Replacement[], replaced: readonly Deletion[]): void {
  const deleted = new Map<number, number>();
  for (const match of replaced)
    if (match.body) deleted.set(match.body.start, (deleted.get(match.body.start) ?? 0) + match.body.matched);
  const filled = new Set<number>();
  for (const [index, match] of replaced.entries()) {
    const body = match.body;
    const replacement = replacements[index];
    if (!body || !replacement || filled.has(body.start) || deleted.get(body.start) !== body.statements)
      continue;
    filled.add(body.start);
    // Over the statement, with what goes with it (a Bash command's redirects), but not its `;`.
    const terminated = /[ \t]*[;&]?[ \t]*$/.exec(source.slice(match.end, replacement.end));
    replacements[index] = {
      start: replacement.start,
      end: Math.min(replacement.end, Math.max(match.end, replacement.end - (terminated?.[0].length ?? 0))),
      // The comments the deletion keeps (see `keptComments`) stay, before the no-op.
      text: `${match.kept ?? ""}${body.noOp}`,
    };
  }
}

/** A match a rewrite to nothing deletes, with the comments it spans (see {@link keptComments}) to write in its place. */
type Deletion = StructuralMatch & { readonly kept?: string };

/**
 * The comments (see `ListOf.comments`) that lie in `[start, end)`, to write in that span's
 * place: each with the blanks before it and the line break and indentation after it, so the
 * code around stays apart from it (`g && # why⏎  echo a` → `g # why⏎  `). None at a line's start.
 */
function keptComments(
  source: string,
  start: number,
  end: number,
  comments: readonly (readonly [number, number])[],
): string {
  let kept = "";
  for (const [from, to] of comments) {
    if (from < start || to > end) continue;
    let before = from;
    while (before > start && isBlank(source, before - 1)) before--;
    let after = to;
    while (after < end && /\s/.test(source.charAt(after))) after++;
    kept += source.slice(before, after);
  }
  const lineStart = start === 0 || /[\s]/.test(source.charAt(start - 1));
  return lineStart ? kept.replace(/^[ \t]+/, "") : kept;
}

/**
 * For a rewrite to nothing, each match that is commands of a Bash list (see
 * `StructuralMatch.list`) as the span it deletes, so no operator is left without a command on
 * either side (`do  && echo b; done`): those before the list's first kept command go with the
 * operator after them, those after it with the operator before them (`g && echo a || h` → `g || h`).
 * A comment in what goes stays (see {@link keptComments}); as it ends its line, a run of deleted
 * commands holding one goes as one span, and the operator or terminator after the run is written
 * before the comments (`g && # why⏎  echo a || h` → `g || # why⏎  h`). A list whose every
 * command goes is one match of the list whole, deleted as a statement is (with its `;`, and its body's no-op written if that
 * empties it), or, when it is what a condition tests (see `ListOf.condition`), each match of it
 * left as it is, with its `list`. Other matches are as they were.
 */
function joinListDeletions(matches: readonly StructuralMatch[], source: string): Deletion[] {
  const deleted = new Map<number, Set<number>>();
  const joins = (match: StructuralMatch): boolean =>
    match.list !== undefined &&
    match.passedOver === undefined &&
    !match.trailingCode &&
    match.missing === undefined;
  for (const match of matches) {
    if (!match.list || !joins(match)) continue;
    const indexes = deleted.get(match.list.start) ?? new Set<number>();
    for (let index = match.list.from; index <= match.list.to; index++) indexes.add(index);
    deleted.set(match.list.start, indexes);
  }
  const whole = new Set<number>();
  const joined: Deletion[] = [];
  for (const match of matches) {
    const list = match.list;
    if (!list || !joins(match)) {
      joined.push(match);
      continue;
    }
    const indexes = deleted.get(list.start) ?? new Set<number>();
    const kept = list.commands.findIndex((_, index) => !indexes.has(index));
    const { list: _list, body: _body, statementEnd: _end, ...rest } = match;
    if (kept < 0) {
      // What a condition tests: each match stays, as it is (see `rewriteFile`).
      if (list.condition) {
        joined.push(match);
        continue;
      }
      // The list whole, once.
      if (whole.has(list.start)) continue;
      whole.add(list.start);
      const end = list.statementEnd ?? list.end;
      const kept = keptComments(source, list.start, end, list.comments);
      joined.push({
        ...rest,
        start: list.start,
        end: list.end,
        ...(list.statementEnd !== undefined ? { statementEnd: list.statementEnd } : {}),
        ...(list.body !== undefined ? { body: list.body } : {}),
        ...(kept !== "" ? { kept } : {}),
      });
      continue;
    }
    if (list.to < kept) {
      // Before the first kept command: with the operator after it, and the comments in that.
      const [start, end] = [list.commands[list.from]?.[0], list.commands[list.to + 1]?.[0]];
      if (start === undefined || end === undefined) joined.push(match);
      else {
        const kept = keptComments(source, start, end, list.comments);
        joined.push({ ...rest, start, end, statementEnd: end, ...(kept !== "" ? { kept } : {}) });
      }
      continue;
    }
    // After it: with the operator before it (`g && echo a || h` → `g || h`). The commands
    // deleted next to it go with it as one run when a comment is among them, which must end its
    // line: what follows the run moves after it, so no operator or terminator opens a line.
    let first = list.from;
    while (indexes.has(first - 1)) first--;
    let last = list.to;
    while (indexes.has(last + 1)) last++;
    const before = list.commands[first - 1]?.[1];
    const runEnd = list.commands[last]?.[1];
    const commented =
      before !== undefined &&
      runEnd !== undefined &&
      list.comments.some(([at, stop]) => before <= at && stop <= runEnd);
    if (!commented) {
      const [start, end] = [list.commands[list.from - 1]?.[1], list.commands[list.to]?.[1]];
      if (start === undefined || end === undefined) joined.push(match);
      else joined.push({ ...rest, start, end, statementEnd: end });
      continue;
    }
    // The run once, with its first match.
    if (list.from !== first) continue;
    const comments = keptComments(source, before, runEnd, list.comments);
    const next = list.commands[last + 1]?.[0];
    if (next !== undefined) {
      // `g && # why⏎  echo a || h` → `g || # why⏎  h`: the operator after the run joins `g` and
      // `h`, as without the comment (the one before would run h when g succeeds).
      const between = source.slice(runEnd, next);
      const operator = /&&|\|\|/.exec(between);
      if (!operator) joined.push({ ...rest, start: before, end: runEnd, statementEnd: runEnd });
      else {
        // The comments end with their line's break and the next one's indentation.
        const after = between.slice(operator.index + operator[0].length).replace(/^[ \t]+/, "");
        const text = ` ${operator[0]}${comments}${after}`;
        joined.push({ ...rest, start: before, end: next, statementEnd: next, kept: text });
      }
      continue;
    }
    // The list's end: its `;` goes too (`⏎  ; h` would not parse) and its `&` is written before
    // the comments (`g && # why⏎  echo a & h` → `g & # why⏎  h`).
    const terminator =
      list.statementEnd === undefined ? null : /^[ \t]*([;&])$/.exec(source.slice(runEnd, list.statementEnd));
    const end = terminator && list.statementEnd !== undefined ? list.statementEnd : runEnd;
    const text = terminator?.[1] === "&" ? ` &${comments}` : comments;
    joined.push({ ...rest, start: before, end, statementEnd: end, ...(text !== "" ? { kept: text } : {}) });
  }
  return joined;
}

/**
 * Rewrites the outermost matches of a file; nested ones are counted, not rewritten, and so are
 * matches that passed over a keyword or marker (see `StructuralMatch.passedOver`) or code after
 * the pattern (see `StructuralMatch.trailingCode`) or matched a token the code lacks (see
 * `StructuralMatch.missing`). An empty template deletes a whole statement or declaration with
 * its own `;` (see `StructuralMatch.statementEnd`); one that deletes every statement of a body
 * that may not be empty writes the language's no-op in the first one's place (see
 * `StructuralMatch.body`: `if x:⏎    pass`, `do :; done`).
 */
export function rewriteFile(
  source: string,
  matches: readonly StructuralMatch[],
  template: string,
  /**
   * `keepTrailingSemicolon`: leave a `;` ending a match that the template does not end with and
   * no capture holds (see `CompiledPattern.keepsSemicolon`).
   */
  options: { keepTrailingSemicolon?: boolean; codeNames?: readonly string[] } = {},
): FileRewrite {
  // A template of nothing (or blanks) deletes what it matched.
  const deletes = template.trim() === "";
  // From what a deletion takes (`await`, a decorator's `@`, a class base's comma before it: see
  // `StructuralMatch.deletionStart`).
  const from = (match: Deletion): number =>
    deletes && match.deletionStart !== undefined ? match.deletionStart : match.start;
  const sorted: Deletion[] = (deletes ? joinListDeletions(matches, source) : [...matches]).sort(
    (a, b) => from(a) - from(b) || b.end - a.end,
  );
  const replacements: Replacement[] = [];
  /** The match each replacement rewrites (same index). */
  const replaced: Deletion[] = [];
  const leftUnchanged: StructuralMatch[] = [];
  let nestedSkipped = 0;
  let coveredTo = -1;
  // Once per file, not per match: it reads the whole text.
  const eol = lineEnding(source);
  const lines = new SourceLines(source);
  for (const found of sorted) {
    // A deletion whose span starts before its match's in what one before took (a class base's
    // comma before it, `class A(log(1), log(2))`, the first taking the comma after it) starts at
    // the match.
    const start = from(found);
    const match = start === found.start || start >= coveredTo ? { ...found, start } : found;
    if (
      match.start >= coveredTo &&
      (match.passedOver !== undefined ||
        match.trailingCode ||
        match.missing !== undefined ||
        (deletes &&
          (match.pipeline || match.condition || match.list?.condition || match.irreplaceable !== undefined)))
    ) {
      leftUnchanged.push(found);
      continue;
    }
    if (match.start < coveredTo) {
      nestedSkipped++;
      continue;
    }
    if (deletes && match.statementEnd !== undefined) {
      // A deleted statement takes its `;` (see `StructuralMatch.statementEnd`), and the blanks
      // after it when code follows on its line and blanks precede it: one gap stays, not two.
      const end = blanksAfter(source, match.start, match.statementEnd);
      replacements.push({ start: match.start, end, text: match.kept ?? template });
      replaced.push(match);
      coveredTo = Math.max(match.end, end);
      continue;
    }
    const keep =
      options.keepTrailingSemicolon === true &&
      match.text.endsWith(";") &&
      !template.trimEnd().endsWith(";") &&
      !heldByCapture(match, match.end - 1);
    // To what a deletion takes (the parentheses of `await (log(1))`: see `StructuralMatch.deletionEnd`).
    const end = keep ? match.end - 1 : deletes ? (match.deletionEnd ?? match.end) : match.end;
    replacements.push({
      start: match.start,
      end,
      // A Python expression the code needs there is replaced by its placeholder (`None`).
      text:
        deletes && match.placeholder !== undefined
          ? match.placeholder
          : fillTemplate(template, match, source, options.codeNames, eol, end, lines),
    });
    replaced.push(match);
    coveredTo = Math.max(match.end, end);
  }
  if (deletes) fillEmptiedBodies(source, replacements, replaced);
  let newText = "";
  let last = 0;
  for (const replacement of replacements) {
    newText += source.slice(last, replacement.start) + replacement.text;
    last = replacement.end;
  }
  newText += source.slice(last);
  return { newText, replacements, nestedSkipped, leftUnchanged };
}
