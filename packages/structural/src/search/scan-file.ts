import { createHash } from "node:crypto";
import { isUtf8 } from "node:buffer";
import type { LanguageSpec } from "../grammars/languages.js";
import { maxPlanRanges, parsePlan, planHolds, planShare } from "../chunks/parse-plan.js";
import {
  findMatchesAsync,
  type MatchLimits,
  type StopReason,
  type StructuralMatch,
  type TreeMatches,
} from "../match/find-matches.js";
import type { StructuralParser } from "../parser/structural-parser.js";
import type { CompiledPattern } from "../pattern/pattern-node.js";

/** What scanning one file found; plain data, so it crosses a worker boundary. */
export interface FileScan {
  readonly path: string;
  /** The decoded text; only kept when there are matches. */
  readonly text: string;
  /** sha256 of the bytes read; only kept when there are matches. */
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
  /** Not every candidate was tried: `maxMatches` were found, or the deadline passed. */
  readonly stopped?: StopReason;
}

/** Options of {@link scanBytes}. */
export interface ScanOptions {
  /** Only this share of the file (see `planShare`). */
  readonly share?: FileShare;
  /** Bounds on this file's matching (`maxMatches` counts this file's matches). */
  readonly limits?: MatchLimits;
}

/** Share `index` of `count` of one large file, searched on several threads (see `planShare`). */
export interface FileShare {
  readonly index: number;
  readonly count: number;
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
  hash: string,
  share: FileShare | undefined,
  limits: MatchLimits,
): Promise<TreeMatches | undefined> {
  const whole = parsePlan(spec.id, pattern, text);
  if (!whole) return undefined;
  const plan = share ? planShare(whole, share.index, share.count) : whole;
  if (plan.ranges.length === 0) return { matches: [], exhausted: 0, tooDeep: 0 };
  if (plan.ranges.length > maxPlanRanges) return undefined;
  const lease = await parser.rangesTree(path, spec, text, plan.ranges, hash);
  try {
    const { tree } = lease;
    if (tree.rootNode.hasError || !planHolds(plan, tree, pattern, text, whole)) return undefined;
    return await findMatchesAsync(pattern, tree, text, limits);
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
  hash: string,
  limits: MatchLimits,
): Promise<TreeMatches> {
  const lease = await parser.fileTree(path, spec, text, hash);
  try {
    return await findMatchesAsync(pattern, lease.tree, text, limits);
  } finally {
    lease.release();
  }
}

/** A scan of `path` that searched none of it (no text kept, no match). */
function nothingFound(path: string): FileScan {
  return { path, text: "", hash: "", notUtf8: false, matches: [], exhausted: 0, tooDeep: 0 };
}

/**
 * Decodes, parses (through the tree cache, keyed on the bytes' sha256) and matches one file that
 * passed the prefilter: only the top-level statements holding the pattern's literals where the
 * language allows it, else the whole file. The text keeps a byte-order mark as U+FEFF so a
 * rewrite writes it back.
 */
export async function scanBytes(
  parser: StructuralParser,
  spec: LanguageSpec,
  pattern: CompiledPattern,
  path: string,
  bytes: Buffer,
  options: ScanOptions = {},
): Promise<FileScan> {
  const { share, limits = {} } = options;
  if (limits.deadline !== undefined && Date.now() >= limits.deadline) {
    // Out of time before the parse (the costly part): nothing of this file was searched.
    return { ...nothingFound(path), ...(share ? { share } : {}), stopped: "deadline" };
  }
  const text = bytes.toString("utf8");
  const hash = createHash("sha256").update(bytes).digest("hex");
  if (share) {
    const found = await matchPlanned(parser, spec, pattern, path, text, hash, share, limits);
    if (!found) return { ...nothingFound(path), share, incomplete: true };
    return withText(path, text, hash, bytes, found, share);
  }
  const cached = parser.cachedFileTree(path, spec, hash);
  let found: TreeMatches | undefined;
  if (cached) {
    try {
      found = await findMatchesAsync(pattern, cached.tree, text, limits);
    } finally {
      cached.release();
    }
  }
  found ??=
    (await matchPlanned(parser, spec, pattern, path, text, hash, undefined, limits)) ??
    (await matchWhole(parser, spec, pattern, path, text, hash, limits));
  return withText(path, text, hash, bytes, found, undefined);
}

/** The scan's result; the text and its hash are only kept when there are matches. */
function withText(
  path: string,
  text: string,
  hash: string,
  bytes: Buffer,
  found: TreeMatches,
  share: FileShare | undefined,
): FileScan {
  const { matches, exhausted, tooDeep, stopped } = found;
  const base = { ...(share ? { share } : {}), ...(stopped ? { stopped } : {}) };
  if (matches.length === 0)
    return { ...base, path, text: "", hash: "", notUtf8: false, matches, exhausted, tooDeep };
  return {
    ...base,
    path,
    text,
    hash,
    notUtf8: !isUtf8(bytes),
    matches,
    exhausted,
    tooDeep,
  };
}
