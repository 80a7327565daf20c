import { performance } from "node:perf_hooks";
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import type { LanguageSpec } from "../grammars/languages.js";
import type { StructuralParser } from "../parser/structural-parser.js";
import type { ErrorSite, RewriteCheck, RewriteToCheck } from "./rewrite-check.js";
import { errorSites, introducedSites, rewriteWindows } from "./syntax-errors.js";

export type { RewriteCheck, RewriteToCheck } from "./rewrite-check.js";

/**
 * The error sites of a rewritten file that its original did not have (see `introducedSites`).
 * One parse of the new text; the original's errors are read only when the new text has some,
 * from its cached tree or a parse of it.
 */
export async function checkRewrite(
  parser: StructuralParser,
  spec: LanguageSpec,
  file: RewriteToCheck,
): Promise<ErrorSite[]> {
  const tree = await parser.parse(spec, file.newText);
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
