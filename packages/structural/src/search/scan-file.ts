import { createHash } from "node:crypto";
import { isUtf8 } from "node:buffer";
import type { LanguageSpec } from "../grammars/languages.js";
import { maxPlanRanges, parsePlan, planHolds, planShare } from "../chunks/parse-plan.js";
import { findMatches, type StructuralMatch, type TreeMatches } from "../match/find-matches.js";
import type { StructuralParser } from "../parser/structural-parser.js";
import type { CompiledPattern } from "../pattern/pattern-node.js";

/** What scanning one file found; plain data, so it crosses a worker boundary. */
export interface FileScan {
  readonly path: string;
  /** The decoded text; only kept when there are matches. */
  readonly text: string;
  /** sha256 of the bytes read; only computed when there are matches. */
  readonly hash: string;
  /** The bytes are not valid UTF-8 (decoded with replacement characters: not safe to rewrite). */
  readonly notUtf8: boolean;
  readonly matches: readonly StructuralMatch[];
  readonly exhausted: number;
  /** Match attempts abandoned because the code was nested too deeply (see `TreeMatches`). */
  readonly tooDeep: number;
  /** Scanned as a share of the file: its matches are part of the file's. */
  readonly share?: FileShare;
  /** A share that could not be searched through the plan: the file must be parsed whole. */
  readonly incomplete?: boolean;
}

/** Share `index` of `count` of one large file, searched on several threads (see `planShare`). */
export interface FileShare {
  readonly index: number;
  readonly count: number;
}

/** A file's size and mtime, the tree cache's key. */
export interface FileStamp {
  readonly size: number;
  readonly mtimeMs: number;
}

/**
 * The pattern's literal tokens and context keywords as bytes, for a prefilter that runs before
 * decoding.
 */
export function literalBytes(pattern: CompiledPattern): Buffer[] {
  return [...pattern.literals, ...pattern.context].map((literal) => Buffer.from(literal, "utf8"));
}

/** Whether the bytes hold every literal (a file lacking one cannot match). */
export function hasLiterals(bytes: Buffer, literals: readonly Buffer[]): boolean {
  for (const literal of literals) if (bytes.indexOf(literal) < 0) return false;
  return true;
}

/**
 * Matches the pattern in only the parts of the file that can hold a match (see `parsePlan`),
 * parsed as tree-sitter included ranges, or undefined when the file must be parsed whole: no
 * plan for this language and pattern, the parts do not parse without error (the whole file's
 * parse, with its error recovery, is then the reference), a match could span skipped parts, or
 * the plan has more ranges than a parse through ranges handles fast (`maxPlanRanges`).
 */
async function matchPlanned(
  parser: StructuralParser,
  spec: LanguageSpec,
  pattern: CompiledPattern,
  path: string,
  text: string,
  stamp: FileStamp,
  share: FileShare | undefined,
): Promise<TreeMatches | undefined> {
  const whole = parsePlan(spec.id, pattern, text);
  if (!whole) return undefined;
  const plan = share ? planShare(whole, share.index, share.count) : whole;
  if (plan.ranges.length === 0) return { matches: [], exhausted: 0, tooDeep: 0 };
  if (plan.ranges.length > maxPlanRanges) return undefined;
  const lease = await parser.rangesTree(path, spec, text, plan.ranges, stamp);
  try {
    const { tree } = lease;
    if (tree.rootNode.hasError || !planHolds(plan, tree, pattern.rootType)) return undefined;
    return findMatches(pattern, tree, text);
  } finally {
    lease.release();
  }
}

/** Matches the pattern in the file's tree (from the cache, or parsed now). */
async function matchWhole(
  parser: StructuralParser,
  spec: LanguageSpec,
  pattern: CompiledPattern,
  path: string,
  text: string,
  stamp: FileStamp,
): Promise<TreeMatches> {
  const lease = await parser.fileTree(path, spec, text, stamp);
  try {
    return findMatches(pattern, lease.tree, text);
  } finally {
    lease.release();
  }
}

/**
 * Decodes, parses (through the tree cache) and matches one file that passed the prefilter:
 * only the top-level statements holding the pattern's literals where the language allows it,
 * else the whole file. The text keeps a byte-order mark as U+FEFF so a rewrite writes it back.
 */
export async function scanBytes(
  parser: StructuralParser,
  spec: LanguageSpec,
  pattern: CompiledPattern,
  path: string,
  bytes: Buffer,
  stamp: FileStamp,
  share?: FileShare,
): Promise<FileScan> {
  const text = bytes.toString("utf8");
  if (share) {
    const found = await matchPlanned(parser, spec, pattern, path, text, stamp, share);
    if (!found)
      return {
        path,
        text: "",
        hash: "",
        notUtf8: false,
        matches: [],
        exhausted: 0,
        tooDeep: 0,
        share,
        incomplete: true,
      };
    return withText(path, text, bytes, found, share);
  }
  const cached = parser.cachedFileTree(path, spec, stamp);
  let found: TreeMatches | undefined;
  if (cached) {
    try {
      found = findMatches(pattern, cached.tree, text);
    } finally {
      cached.release();
    }
  }
  found ??=
    (await matchPlanned(parser, spec, pattern, path, text, stamp, undefined)) ??
    (await matchWhole(parser, spec, pattern, path, text, stamp));
  return withText(path, text, bytes, found, undefined);
}

/** The scan's result; the text and its hash are only kept when there are matches. */
function withText(
  path: string,
  text: string,
  bytes: Buffer,
  found: TreeMatches,
  share: FileShare | undefined,
): FileScan {
  const { matches, exhausted, tooDeep } = found;
  const base = share ? { share } : {};
  if (matches.length === 0)
    return { ...base, path, text: "", hash: "", notUtf8: false, matches, exhausted, tooDeep };
  return {
    ...base,
    path,
    text,
    hash: createHash("sha256").update(bytes).digest("hex"),
    notUtf8: !isUtf8(bytes),
    matches,
    exhausted,
    tooDeep,
  };
}
