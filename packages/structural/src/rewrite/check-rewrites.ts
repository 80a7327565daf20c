import { performance } from "node:perf_hooks";
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import { Edit, type Point, type Tree } from "web-tree-sitter";
import type { LanguageSpec } from "../grammars/languages.js";
import type { StructuralParser } from "../parser/structural-parser.js";
import type { ErrorSite, RewriteCheck, RewriteToCheck } from "./rewrite-check.js";
import { lineHolding, lineStarts } from "./line-search.js";
import { errorSites, introducedSites, rewriteWindows, writtenWindows } from "./syntax-errors.js";

export type { RewriteCheck, RewriteToCheck } from "./rewrite-check.js";

/** tree-sitter's point (row, UTF-16 column) of an offset, given the text's line starts. */
function pointAt(starts: readonly number[], offset: number): Point {
  const row = lineHolding(starts, offset);
  return { row, column: offset - (starts[row] ?? 0) };
}

/** The point reached from `start` by writing `text` there. */
function advance(start: Point, text: string): Point {
  const lastBreak = text.lastIndexOf("\n");
  if (lastBreak < 0) return { row: start.row, column: start.column + text.length };
  let rows = 0;
  for (let index = text.indexOf("\n"); index >= 0; index = text.indexOf("\n", index + 1)) rows++;
  return { row: start.row + rows, column: text.length - lastBreak - 1 };
}

/**
 * Edits a tree of the original text to match the rewritten one (`Tree.edit` per replacement, the
 * last first so each is given in the original's offsets and points), for an incremental reparse.
 */
export function editToRewrite(tree: Tree, file: RewriteToCheck): void {
  const starts = lineStarts(file.originalText);
  const written = writtenWindows(file.spans);
  for (let index = file.spans.length - 1; index >= 0; index--) {
    const span = file.spans[index];
    const text = written[index];
    if (!span || !text) continue;
    const startPosition = pointAt(starts, span.start);
    tree.edit(
      new Edit({
        startIndex: span.start,
        oldEndIndex: span.end,
        newEndIndex: span.start + span.length,
        startPosition,
        oldEndPosition: pointAt(starts, span.end),
        newEndPosition: advance(startPosition, file.newText.slice(text.start, text.end)),
      }),
    );
  }
}

/**
 * The tree of a rewritten file's new text: an incremental reparse from the original's tree when
 * this thread's cache holds it (the search parsed the file whole here; a copy is edited, the
 * cached tree stays as it is), else a parse from scratch. On text that parses cleanly both give
 * the same tree (compared on whole corpora in incremental-check.integration.test.ts), and the
 * first reuses what the rewrite left unchanged (Go's net/: 8 times less time). On broken text
 * tree-sitter's error recovery can differ once it reuses old nodes (about 2 in 900 destructive
 * edits put the error elsewhere), so a tree with errors is parsed again from scratch: the
 * warnings are those of a fresh parse, and only a file about to be warned of pays twice.
 */
export async function parseRewritten(
  parser: StructuralParser,
  spec: LanguageSpec,
  file: RewriteToCheck,
): Promise<Tree> {
  const cached = parser.cachedFileTree(file.path, spec, file.hash);
  if (!cached) return parser.parse(spec, file.newText);
  try {
    const old = cached.tree.copy();
    try {
      editToRewrite(old, file);
      const tree = await parser.parse(spec, file.newText, undefined, old);
      if (!tree.rootNode.hasError) return tree;
      tree.delete();
      return await parser.parse(spec, file.newText);
    } finally {
      old.delete();
    }
  } finally {
    cached.release();
  }
}

/**
 * The error sites of a rewritten file that its original did not have (see `introducedSites`).
 * One parse of the new text (incremental from the original's tree when it is cached); the
 * original's errors are read only when the new text has some, from its cached tree or a parse of it.
 */
export async function checkRewrite(
  parser: StructuralParser,
  spec: LanguageSpec,
  file: RewriteToCheck,
): Promise<ErrorSite[]> {
  const tree = await parseRewritten(parser, spec, file);
  let sites: ErrorSite[];
  try {
    // A body read empty is looked for only where the rewrite wrote: the original is consulted
    // whole, and any it had there excuses the new one.
    sites = errorSites(tree, spec.id, rewriteWindows(file.newText, file.spans));
  } finally {
    tree.delete();
  }
  if (sites.length === 0) return sites;
  let original: ErrorSite[];
  const cached = parser.cachedFileTree(file.path, spec, file.hash);
  if (cached) {
    try {
      original = errorSites(cached.tree, spec.id);
    } finally {
      cached.release();
    }
  } else {
    const originalTree = await parser.parse(spec, file.originalText);
    try {
      original = errorSites(originalTree, spec.id);
    } finally {
      originalTree.delete();
    }
  }
  return introducedSites(original, file.spans, sites);
}

/** Longest run of parses on the calling thread before the event loop gets a turn, in ms. */
const sliceMs = 10;

/** Checks the files on this thread, letting other calls in between files. */
async function checkHere(
  parser: StructuralParser,
  spec: LanguageSpec,
  files: readonly RewriteToCheck[],
  signal: AbortSignal | undefined,
): Promise<RewriteCheck[]> {
  const checks: RewriteCheck[] = [];
  let sliceStart = performance.now();
  for (const file of files) {
    signal?.throwIfAborted();
    checks.push({ path: file.path, sites: await checkRewrite(parser, spec, file) });
    if (performance.now() - sliceStart > sliceMs) {
      await yieldToEventLoop();
      sliceStart = performance.now();
    }
  }
  return checks;
}

/**
 * Checks rewritten files for syntax errors their originals did not have: on the parser's worker
 * pool when it runs and the texts are as large as a search it would take (each file on the
 * worker that searched it, whose cache may hold the original's tree), else on this thread; a
 * pool that fails falls back to this thread.
 */
export async function checkRewrites(
  parser: StructuralParser,
  spec: LanguageSpec,
  files: readonly RewriteToCheck[],
  signal?: AbortSignal,
): Promise<RewriteCheck[]> {
  const chars = files.reduce((sum, file) => sum + file.newText.length, 0);
  const pool = parser.scanPoolStarted && chars >= parser.parallelMinBytes ? parser.scanPool() : undefined;
  if (pool) {
    try {
      return await pool.check(spec.id, files, signal);
    } catch {
      signal?.throwIfAborted();
      parser.resetScanPool();
    }
  }
  return checkHere(parser, spec, files, signal);
}
