import type { Node, Range, Tree } from "web-tree-sitter";
import { anyType, spelledChildren, type CompiledPattern } from "../pattern/pattern-node.js";
import { isIdentifierPart, lineFeeds, wordAt, type ChunkStarts } from "./chunk-starts.js";
import { goChunkStarts } from "./go-chunks.js";
import { pythonStatementLines, type PythonStatementLines } from "./python-chunks.js";
import { typescriptChunkStarts } from "./typescript-chunks.js";

/**
 * A piece of a file: `[start, end)` in UTF-16 units, from column 0 of line `row` to column 0 of
 * line `endRow` (or to the end of the text).
 */
interface Chunk {
  readonly start: number;
  readonly end: number;
  readonly row: number;
  readonly endRow: number;
}

/**
 * What to parse of a file so that every match of the pattern is found exactly as in the whole
 * file's tree.
 */
export interface ParsePlan {
  /** The ranges to hand the parser (`includedRanges`), in order; empty when nothing can match. */
  readonly ranges: readonly Range[];
  /** Index in `ranges` where each independent group (parsable without the others) starts. */
  readonly groupStarts: readonly number[];
  /**
   * Offsets of the `{` of each body parsed member by member. A match spanning members would be
   * that body or enclose it, so the plan only holds if no node of the pattern's root type does
   * (see {@link planHolds}).
   */
  readonly splitBodies: readonly number[];
}

/**
 * Whether the plan's tree can be trusted for the pattern: no node of the pattern root's type is
 * a body that was parsed member by member, or encloses one (the whole tree has the same nodes
 * there: a body's header and footer are always parsed). For a pattern read whole as an ERROR,
 * which matches a node of any type with a child of each of its written children's types (see
 * `spelledChildren`): every token of one of those types is in the plan (`whole`, the file's plan
 * when `plan` is a share of it), and neither the tree's root nor a node holding a body parsed
 * member by member (the nodes a piece does not hold whole) has a child of its type.
 */
export function planHolds(
  plan: ParsePlan,
  tree: Tree,
  pattern: CompiledPattern,
  text: string,
  whole: ParsePlan = plan,
): boolean {
  const { rootType } = pattern;
  const spanning = (visit: (node: Node) => boolean): boolean => {
    for (const opener of plan.splitBodies) {
      for (let node: Node | null = tree.rootNode.descendantForIndex(opener); node; node = node.parent) {
        if (!visit(node)) return false;
      }
    }
    return true;
  };
  if (rootType !== undefined) return spanning((node) => node.type !== rootType);
  const anchor = plannedAnchor(pattern, whole, text);
  if (!anchor) return false;
  return (
    !hasChildOfType(tree.rootNode, anchor.type) && spanning((node) => !hasChildOfType(node, anchor.type))
  );
}

/** The first of the pattern's spelled children (see `spelledChildren`) whose every occurrence the plan holds. */
function plannedAnchor(pattern: CompiledPattern, plan: ParsePlan, text: string) {
  return spelledChildren(pattern).find((child) => allPlanned(plan, text, child.text));
}

/** Whether every occurrence of `needle` in the text lies inside one of the plan's ranges. */
function allPlanned(plan: ParsePlan, text: string, needle: string): boolean {
  let range = 0;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
    while (range < plan.ranges.length && (plan.ranges[range]?.endIndex ?? 0) < at + needle.length) range++;
    const holding = plan.ranges[range];
    if (!holding || holding.startIndex > at) return false;
  }
  return true;
}

function hasChildOfType(node: Node, type: string): boolean {
  const cursor = node.walk();
  try {
    if (!cursor.gotoFirstChild()) return false;
    do {
      if (cursor.nodeType === type) return true;
    } while (cursor.gotoNextSibling());
    return false;
  } finally {
    cursor.delete();
  }
}

/** What a piece must hold to be parsed: the pattern's literals and its context words. */
interface PlanNeeds {
  readonly literals: readonly string[];
  readonly context: readonly string[];
}

interface Chunker {
  /** Whether a match rooted at this node type lies inside one member of a class-like body. */
  readonly insideMember: (rootType: string) => boolean;
  readonly plan: (text: string, needs: PlanNeeds, members: boolean) => ParsePlan | undefined;
}

/**
 * Answers "does `[start, end)` hold every literal (and every context word)?" from each one's
 * sorted occurrences. A context word counts only as a whole word (`class`, not `className`).
 */
class LiteralIndex {
  private readonly occurrences: number[][];
  private readonly lengths: number[];
  private readonly literalCount: number;

  constructor(text: string, literals: readonly string[], words: readonly string[] = []) {
    this.literalCount = literals.length;
    this.lengths = [...literals, ...words].map((needle) => needle.length);
    const find = (needle: string, whole: boolean): number[] => {
      const at: number[] = [];
      for (let index = text.indexOf(needle); index >= 0; index = text.indexOf(needle, index + 1)) {
        if (!whole || (!isIdentifierPart(text.charCodeAt(index - 1)) && wordAt(text, index, needle)))
          at.push(index);
      }
      return at;
    };
    this.occurrences = [
      ...literals.map((literal) => find(literal, false)),
      ...words.map((word) => find(word, true)),
    ];
  }

  /** Every literal and every context word lies in `[start, end)`. */
  holdsAll(start: number, end: number): boolean {
    return this.holds(start, end, 0, this.occurrences.length);
  }

  /** Every literal lies in `[start, end)` (context words aside). */
  holdsLiterals(start: number, end: number): boolean {
    return this.holds(start, end, 0, this.literalCount);
  }

  /** Every context word lies in `[start, end)`. */
  holdsWords(start: number, end: number): boolean {
    return this.holds(start, end, this.literalCount, this.occurrences.length);
  }

  private holds(start: number, end: number, from: number, to: number): boolean {
    for (let l = from; l < to; l++) {
      const at = this.occurrences[l] ?? [];
      let low = 0;
      let high = at.length;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if ((at[middle] ?? 0) < start) low = middle + 1;
        else high = middle;
      }
      const first = at[low];
      if (first === undefined || first + (this.lengths[l] ?? 0) > end) return false;
    }
    return true;
  }
}

/**
 * Whether a member `[start, end)` of a body whose header is `header` may hold a match: it holds
 * every literal, and every context word unless the header does (the class around a match is then
 * the statement itself, or lies inside the member).
 */
function memberMayMatch(
  index: LiteralIndex,
  header: { start: number; end: number },
  start: number,
  end: number,
) {
  return index.holdsWords(header.start, header.end)
    ? index.holdsLiterals(start, end)
    : index.holdsAll(start, end);
}

/** Where the text ends, as a tree-sitter point. */
function endPoint(text: string, lastRow: number): { row: number; column: number } {
  return { row: lastRow, column: text.length - (text.lastIndexOf("\n") + 1) };
}

/**
 * The plan of independent groups of pieces (a top-level statement, or a body's header, chosen
 * members and footer): adjacent pieces of a group share one range.
 */
function planOf(
  text: string,
  lastRow: number,
  groups: readonly (readonly Chunk[])[],
  splitBodies: readonly number[],
): ParsePlan {
  const ranges: Range[] = [];
  const groupStarts: number[] = [];
  const endPosition = (piece: Chunk) =>
    piece.end < text.length ? { row: piece.endRow, column: 0 } : endPoint(text, lastRow);
  for (const group of groups) {
    groupStarts.push(ranges.length);
    let last: Range | undefined;
    for (const piece of group) {
      if (last && last.endIndex === piece.start) {
        last.endIndex = piece.end;
        last.endPosition = endPosition(piece);
        continue;
      }
      last = {
        startIndex: piece.start,
        endIndex: piece.end,
        startPosition: { row: piece.row, column: 0 },
        endPosition: endPosition(piece),
      };
      ranges.push(last);
    }
  }
  return { ranges, groupStarts, splitBodies };
}

/**
 * Share `index` of `count` of a plan, for parsing one large file on several threads: whole
 * groups, balanced by their length; the shares' matches together are the plan's.
 */
export function planShare(plan: ParsePlan, index: number, count: number): ParsePlan {
  const { ranges, groupStarts } = plan;
  const total = ranges.reduce((sum, range) => sum + range.endIndex - range.startIndex, 0);
  const picked: Range[] = [];
  const starts: number[] = [];
  let before = 0;
  groupStarts.forEach((first, g) => {
    const group = ranges.slice(first, groupStarts[g + 1] ?? ranges.length);
    const size = group.reduce((sum, range) => sum + range.endIndex - range.startIndex, 0);
    const share = Math.min(count - 1, Math.floor((count * (before + size / 2)) / Math.max(1, total)));
    before += size;
    if (share !== index) return;
    starts.push(picked.length);
    picked.push(...group);
  });
  // The picked ranges are in order: the last one starting at or before the offset is the one
  // that may hold it (a binary search: a large file has thousands of ranges and split bodies).
  const inside = (offset: number): boolean => {
    let low = 0;
    let high = picked.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((picked[middle]?.startIndex ?? 0) <= offset) low = middle + 1;
      else high = middle;
    }
    const range = picked[low - 1];
    return range !== undefined && offset < range.endIndex;
  };
  return { ranges: picked, groupStarts: starts, splitBodies: plan.splitBodies.filter(inside) };
}

/** A plan over top-level pieces only, for a lexer that finds top-level statement starts. */
function topLevelPlan(starts: (text: string) => ChunkStarts | undefined) {
  return (text: string, needs: PlanNeeds): ParsePlan | undefined => {
    const found = starts(text);
    if (!found || found.indices.length < 2) return undefined;
    const { indices, rows } = found;
    const index = new LiteralIndex(text, needs.literals, needs.context);
    const groups: Chunk[][] = [];
    for (let k = 0; k < indices.length; k++) {
      const start = indices[k] ?? 0;
      const end = indices[k + 1] ?? text.length;
      if (index.holdsAll(start, end))
        groups.push([{ start, end, row: rows[k] ?? 0, endRow: rows[k + 1] ?? -1 }]);
    }
    return planOf(text, groups.length > 0 ? lineFeeds(text, 0, text.length) : 0, groups, []);
  };
}

/**
 * The Python plan: the top-level statements holding every literal; inside a class among them,
 * only its header and the members holding every literal (when `members`: the pattern's root
 * cannot span members).
 */
function pythonPlan(text: string, needs: PlanNeeds, members: boolean): ParsePlan | undefined {
  const lines = pythonStatementLines(text);
  if (!lines) return undefined;
  const top: number[] = [];
  for (let k = 0; k < lines.indices.length; k++) {
    if (k === 0 || (lines.indents[k] === 0 && !lines.joined[k])) top.push(k);
  }
  if (top.length < 2) return undefined;
  const index = new LiteralIndex(text, needs.literals, needs.context);
  const groups: Chunk[][] = [];
  for (let t = 0; t < top.length; t++) {
    const first = top[t] ?? 0;
    const after = top[t + 1] ?? lines.indices.length;
    const start = t === 0 ? 0 : (lines.indices[first] ?? 0);
    const end = lines.indices[after] ?? text.length;
    if (!index.holdsAll(start, end)) continue;
    const row = t === 0 ? 0 : (lines.rows[first] ?? 0);
    const endRow = lines.rows[after] ?? -1;
    const inner = members ? classMembers(text, lines, first, after) : undefined;
    const firstMember = inner?.[0];
    if (!inner || !firstMember) {
      groups.push([{ start, end, row, endRow }]);
      continue;
    }
    const header = { start, end: firstMember.start, row, endRow: firstMember.row };
    const chosen = inner.filter((member) => memberMayMatch(index, header, member.start, member.end));
    // Members are cut at the body's indentation, which a statement cannot leave: with no member
    // holding every literal, a match can only be in the header.
    if (chosen.length > 0) groups.push([header, ...chosen]);
    else if (index.holdsAll(header.start, header.end)) groups.push([header, firstMember]);
  }
  return planOf(text, lines.lastRow, groups, []);
}

/**
 * The members of a top-level class statement (statement lines `from` up to `to`): the
 * statements at its body's indentation. Undefined when the statement is not a class or its
 * indentation is not plain (tabs, a line indented less than the body).
 */
function classMembers(
  text: string,
  lines: PythonStatementLines,
  from: number,
  to: number,
): Chunk[] | undefined {
  let head = from;
  while (head < to && text.charCodeAt(lines.indices[head] ?? 0) === 64 /* @ */) head++;
  if (head >= to || !wordAt(text, lines.indices[head] ?? 0, "class")) return undefined;
  const bodyIndent = lines.indents[head + 1];
  if (bodyIndent === undefined || bodyIndent <= 0 || head + 1 >= to) return undefined;
  const starts: number[] = [];
  for (let k = head + 1; k < to; k++) {
    const indent = lines.indents[k] ?? -1;
    if (indent < bodyIndent) return undefined;
    if (indent === bodyIndent && !lines.joined[k]) starts.push(k);
  }
  return starts.map((k, m) => {
    const next = starts[m + 1] ?? to;
    return {
      start: lines.indices[k] ?? 0,
      end: lines.indices[next] ?? text.length,
      row: lines.rows[k] ?? 0,
      endRow: lines.rows[next] ?? -1,
    };
  });
}

/**
 * The TypeScript plan: the top-level statements holding every literal; inside one with a single
 * top-level `{ … }` body, only its header, the members holding every literal and its footer
 * (those bodies are listed, for {@link planHolds}).
 */
function typescriptPlan(text: string, needs: PlanNeeds, members: boolean): ParsePlan | undefined {
  const found = typescriptChunkStarts(text);
  if (!found || found.indices.length < 2) return undefined;
  const { indices, rows, closers, closerRows, openers, memberRows } = found;
  const index = new LiteralIndex(text, needs.literals, needs.context);
  const groups: Chunk[][] = [];
  const splitBodies: number[] = [];
  let member = 0;
  let closer = 0;
  let opener = 0;
  for (let k = 0; k < indices.length; k++) {
    const start = indices[k] ?? 0;
    const end = indices[k + 1] ?? text.length;
    const statement = { start, end, row: rows[k] ?? 0, endRow: rows[k + 1] ?? -1 };
    // The members, closing lines and opening braces inside this statement, by their index.
    const firstMember = member;
    while (member < found.members.length && (found.members[member] ?? 0) < end) member++;
    const firstCloser = closer;
    while (closer < closers.length && (closers[closer] ?? 0) < end) closer++;
    const firstOpener = opener;
    while (opener < openers.length && (openers[opener] ?? 0) < end) opener++;
    if (!index.holdsAll(start, end)) continue;
    const inner = member - firstMember;
    const footer = closers[firstCloser];
    const body = openers[firstOpener];
    const lastMember = found.members[member - 1] ?? 0;
    const firstStart = found.members[firstMember] ?? 0;
    if (
      !members ||
      inner === 0 ||
      closer - firstCloser !== 1 ||
      opener - firstOpener !== 1 ||
      footer === undefined ||
      body === undefined ||
      footer <= lastMember ||
      body >= firstStart ||
      firstStart <= start
    ) {
      groups.push([statement]);
      continue;
    }
    const footerRow = closerRows[firstCloser] ?? 0;
    const part = (m: number): Chunk => {
      const next = m + 1 < member ? m + 1 : undefined;
      return {
        start: found.members[m] ?? 0,
        end: next === undefined ? footer : (found.members[next] ?? 0),
        row: memberRows[m] ?? 0,
        endRow: next === undefined ? footerRow : (memberRows[next] ?? 0),
      };
    };
    const header = { start, end: body };
    const chosen: Chunk[] = [];
    for (let m = firstMember; m < member; m++) {
      const next = m + 1 < member ? (found.members[m + 1] ?? 0) : footer;
      if (memberMayMatch(index, header, found.members[m] ?? 0, next)) chosen.push(part(m));
    }
    // With no member holding every literal, a match may be in the header or the footer, span
    // the body, or span members the lexer cut apart wrongly (a parse of one member would then
    // be clean and miss it): the statement is parsed whole.
    if (chosen.length === 0) {
      groups.push([statement]);
      continue;
    }
    const head = { start, end: firstStart, row: statement.row, endRow: memberRows[firstMember] ?? 0 };
    const foot = { start: footer, end, row: footerRow, endRow: statement.endRow };
    groups.push([head, ...chosen, foot]);
    splitBodies.push(body);
  }
  return planOf(text, found.lastRow, groups, splitBodies);
}

/** The node types that hold a Python class's members (the rest lie inside one member). */
const pythonMemberAncestors = new Set(["module", "class_definition", "decorated_definition", "block"]);

/** Languages whose statements a lexer can find without parsing. */
const chunkers: ReadonlyMap<string, Chunker> = new Map<string, Chunker>([
  ["python", { insideMember: (type) => !pythonMemberAncestors.has(type), plan: pythonPlan }],
  ["go", { insideMember: () => false, plan: topLevelPlan(goChunkStarts) }],
  // Any root type: whether a match could span members is checked on the tree (`planHolds`).
  ["typescript", { insideMember: () => true, plan: typescriptPlan }],
]);

/**
 * The chunker to plan a parse with for this pattern, or undefined when the whole file must be
 * parsed: the pattern has no literal token to pick pieces by, matches any node (`$X`), is rooted
 * at the grammar's root, is read whole as an ERROR and writes no token that tells where its
 * matches are, or the language has no lexer.
 */
function chunkerFor(languageId: string, pattern: CompiledPattern): Chunker | undefined {
  const chunker = chunkers.get(languageId);
  const { rootType, literals } = pattern;
  if (!chunker || literals.length === 0) return undefined;
  // A pattern read whole as an ERROR: planned when a token it writes tells where its matches are
  // (see `planHolds`).
  if (rootType === undefined) return spelledChildren(pattern).length > 0 ? chunker : undefined;
  const rootSpansTopLevel = rootType === "module" || rootType === "source_file" || rootType === "program";
  return rootSpansTopLevel || rootType === "ERROR" ? undefined : chunker;
}

/**
 * Most ranges one parse through a plan is given; a plan (or share) with more is not used and the
 * whole file is parsed. Tree-sitter's lexer looks a token's range up from the first one, so a
 * parse's cost grows with the square of its ranges: on a 9 MB TypeScript file, 32,000 ranges took
 * 15 s where the same text parsed whole took 2 s, and the 180,000 ranges of every function took
 * minutes; 4,000 ranges took 0.6 s against 0.24 s whole, still cheap next to skipping the rest.
 */
export const maxPlanRanges = 4096;

/** Whether files of this language may be searched for this pattern through a plan. */
export function plannable(languageId: string, pattern: CompiledPattern): boolean {
  return chunkerFor(languageId, pattern) !== undefined;
}

/**
 * What to parse of a file for this pattern, or undefined when the whole file must be parsed (see
 * `plannable`, or the file does not lex cleanly).
 */
export function parsePlan(languageId: string, pattern: CompiledPattern, text: string): ParsePlan | undefined {
  const chunker = chunkerFor(languageId, pattern);
  if (!chunker) return undefined;
  const plan = chunker.plan(text, pattern, chunker.insideMember(pattern.rootType ?? anyType));
  // A pattern read whole as an ERROR: every token of one of its written types is in the plan
  // (see `planHolds`), or the file is parsed whole.
  if (plan && pattern.rootType === undefined && !plannedAnchor(pattern, plan, text)) return undefined;
  return plan;
}
