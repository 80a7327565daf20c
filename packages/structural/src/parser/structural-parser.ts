import { availableParallelism } from "node:os";
import { resourceKey } from "@tools/registry";
import { Parser, type Language, type Range, type Tree } from "web-tree-sitter";
import { StructuralError } from "../errors/structural-error.js";
import { findLanguage, languageIds, type LanguageSpec } from "../grammars/languages.js";
import { loadGrammar } from "../grammars/load-grammar.js";
import { compilePattern } from "../pattern/compile-pattern.js";
import type { CompiledPattern } from "../pattern/pattern-node.js";
import { ScanPool, scanWorkerUrl } from "../search/scan-pool.js";

/** Options of {@link createStructuralParser}. */
export interface StructuralParserOptions {
  /**
   * Parse trees kept between calls, keyed by path and the sha256 of the bytes parsed (a file
   * searched in pieces keeps a tree per piece); default 4096, 0 keeps none.
   */
  maxCachedTrees?: number;
  /**
   * The cache's memory bound, as the total length of the texts its trees were parsed from
   * (a tree takes about 20 bytes per character); default 8 Mi characters (~170 MB). Split
   * between the worker threads like `maxCachedTrees`.
   */
  maxCachedChars?: number;
  /**
   * Worker threads that parse and match large searches; default 2 (or 1 on a single core), 0
   * keeps everything on the calling thread. Started on the first large search, stopped by
   * `dispose()`.
   */
  workers?: number;
  /**
   * Searches whose prefiltered files total fewer bytes than this run on the calling thread (the
   * pool's message costs outweigh it); default 256 KiB. Until the pool runs, a search needs 8
   * times as much to wait for it (starting the workers costs a few hundred milliseconds); a
   * smaller one that passes this mark starts the pool for the next search and stays here.
   */
  parallelMinBytes?: number;
}

interface CachedTree {
  /** sha256 of the file's bytes: a tree is only reused for the very text it was parsed from. */
  readonly hash: string;
  readonly language: string;
  /** Length of the text parsed (the cache's memory budget counts these). */
  readonly chars: number;
  readonly tree: Tree;
  /** Leases not yet released: an evicted tree is freed when the last one is. */
  leases: number;
  evicted: boolean;
}

/**
 * A tree handed out by the cache; `release()` frees it once the cache no longer keeps it.
 * @internal Hands out web-tree-sitter objects: not in the published types.
 */
export interface TreeLease {
  readonly tree: Tree;
  release(): void;
}

function lease(entry: CachedTree): TreeLease {
  entry.leases++;
  let released = false;
  return {
    tree: entry.tree,
    release: () => {
      if (released) return;
      released = true;
      if (--entry.leases === 0 && entry.evicted) entry.tree.delete();
    },
  };
}

function isCurrent(entry: CachedTree, spec: LanguageSpec, hash: string): boolean {
  // Keyed on the content, not (size, mtime): a file rewritten within the mtime's resolution, or
  // with its mtime put back, keeps both, and a stale tree applied to new text mis-slices it.
  return entry.hash === hash && entry.language === spec.id;
}

/**
 * The text as a parse callback that hands out no more than the rest of the range being read:
 * the parser copies what it is given into its buffer, and with many small ranges a plain string
 * would have it copy thousands of characters it then skips. Any index gets the text from there.
 */
function rangeReader(text: string, ranges: readonly Range[]): (index: number) => string {
  let at = 0;
  return (index) => {
    // Reads go forward: move to the first range ending after the index (from the start if not).
    if ((ranges[at]?.startIndex ?? 0) > index) at = 0;
    while (at < ranges.length && (ranges[at]?.endIndex ?? 0) <= index) at++;
    const range = ranges[at];
    const end =
      range === undefined ? text.length : range.startIndex <= index ? range.endIndex : range.startIndex;
    return text.slice(index, Math.max(end, index + 1));
  };
}

let initialised: Promise<void> | undefined;

function initialiseTreeSitter(): Promise<void> {
  initialised ??= Parser.init().catch((error: unknown) => {
    initialised = undefined;
    throw error;
  });
  return initialised;
}

/**
 * The tree-sitter resource the structural tools need: loads grammars lazily, compiles patterns,
 * and caches parse trees by (path, content hash) so `ast_edit` after `ast_grep` does not parse
 * twice. One per run (or shared by runs of one process); `dispose()` frees the WASM trees.
 */
export class StructuralParser {
  private readonly parsers = new Map<string, Promise<Parser>>();
  private readonly trees = new Map<string, CachedTree>();
  private readonly maxCachedTrees: number;
  private readonly maxCachedChars: number;
  private cachedChars = 0;
  private readonly workers: number;
  /** Prefiltered bytes from which a search goes to the worker pool. */
  readonly parallelMinBytes: number;
  private pool: ScanPool | undefined;
  private disposed = false;

  constructor(options: StructuralParserOptions = {}) {
    this.maxCachedTrees = Math.max(0, options.maxCachedTrees ?? 4096);
    this.maxCachedChars = Math.max(0, options.maxCachedChars ?? 8 * 1024 * 1024);
    this.workers = Math.max(0, Math.floor(options.workers ?? Math.min(2, availableParallelism())));
    this.parallelMinBytes = options.parallelMinBytes ?? 256 * 1024;
  }

  /**
   * The worker pool for large searches, started on first use; undefined when workers are off or
   * the compiled worker entry is not there (running from sources).
   */
  scanPool(): ScanPool | undefined {
    if (this.disposed || this.workers === 0) return undefined;
    if (!this.pool) {
      const url = scanWorkerUrl();
      if (!url) return undefined;
      this.pool = new ScanPool(url, this.workers, {
        maxCachedTrees: Math.ceil(this.maxCachedTrees / this.workers),
        maxCachedChars: Math.ceil(this.maxCachedChars / this.workers),
      });
    }
    return this.pool;
  }

  /** Whether the worker pool has been started (its workers are up or coming up). */
  get scanPoolStarted(): boolean {
    return this.pool !== undefined;
  }

  /** Stops the worker pool (after a worker failed); the next large search starts a new one. */
  resetScanPool(): void {
    this.pool?.dispose();
    this.pool = undefined;
  }

  /** The grammar of a language id; `UNKNOWN_LANGUAGE` lists the shipped ones. */
  spec(languageId: string): LanguageSpec {
    const spec = findLanguage(languageId);
    if (!spec) {
      throw new StructuralError({
        code: "UNKNOWN_LANGUAGE",
        message: `unknown language '${languageId}'; shipped grammars: ${languageIds().join(", ")}`,
      });
    }
    return spec;
  }

  /**
   * A parser with the language's grammar loaded (loaded once, on first use).
   * @internal Hands out web-tree-sitter objects: not in the published types.
   */
  parser(spec: LanguageSpec): Promise<Parser> {
    let parser = this.parsers.get(spec.id);
    if (!parser) {
      parser = (async () => {
        await initialiseTreeSitter();
        const language: Language = await loadGrammar(spec);
        const created = new Parser();
        try {
          created.setLanguage(language);
        } catch (error) {
          created.delete();
          throw error;
        }
        return created;
      })();
      parser.catch(() => this.parsers.delete(spec.id));
      this.parsers.set(spec.id, parser);
    }
    return parser;
  }

  /** Compiles a pattern for a language (see `compilePattern`). */
  async compile(spec: LanguageSpec, pattern: string): Promise<CompiledPattern> {
    return compilePattern(await this.parser(spec), spec, pattern);
  }

  /**
   * Parses text (only `ranges` of it when given); the caller owns the tree and must `delete()`
   * it. `oldTree`, edited to match `text` (see `Tree.edit`), lets tree-sitter reuse its unchanged
   * parts (incremental reparse); it is not changed, and stays the caller's.
   * @internal Hands out web-tree-sitter objects: not in the published types.
   */
  async parse(spec: LanguageSpec, text: string, ranges?: readonly Range[], oldTree?: Tree): Promise<Tree> {
    const parser = await this.parser(spec);
    const tree = ranges
      ? parser.parse(rangeReader(text, ranges), oldTree ?? null, { includedRanges: [...ranges] })
      : parser.parse(text, oldTree ?? null);
    if (!tree)
      throw new StructuralError({
        code: "GRAMMAR_LOAD_FAILED",
        message: `the ${spec.id} parser returned no tree`,
      });
    return tree;
  }

  /**
   * The tree of a file's text, from the cache when the path and `hash` (the sha256 of the bytes
   * `text` was decoded from) are unchanged. Call `release()` when done with it: it frees the tree
   * unless the cache keeps it.
   * @internal Hands out web-tree-sitter objects: not in the published types.
   */
  fileTree(path: string, spec: LanguageSpec, text: string, hash: string): Promise<TreeLease> {
    return this.cachedTree(path, spec, text, hash);
  }

  /**
   * The tree of only some ranges of a file's text (tree-sitter's `includedRanges`: the parser
   * skips the rest, positions stay the file's), cached like {@link fileTree} for these ranges.
   * @internal Hands out web-tree-sitter objects: not in the published types.
   */
  rangesTree(
    path: string,
    spec: LanguageSpec,
    text: string,
    ranges: readonly Range[],
    hash: string,
  ): Promise<TreeLease> {
    const key = `${path}\u0000${ranges.map((range) => `${range.startIndex}-${range.endIndex}`).join(",")}`;
    const parsedChars = ranges.reduce((sum, range) => sum + range.endIndex - range.startIndex, 0);
    return this.cachedTree(key, spec, text, hash, ranges, parsedChars);
  }

  /**
   * A lease on the whole file's tree if the cache holds it for these bytes (their sha256), without
   * parsing.
   * @internal Hands out web-tree-sitter objects: not in the published types.
   */
  cachedFileTree(path: string, spec: LanguageSpec, hash: string): TreeLease | undefined {
    const cached = this.trees.get(path);
    return cached && isCurrent(cached, spec, hash) ? lease(cached) : undefined;
  }

  private async cachedTree(
    key: string,
    spec: LanguageSpec,
    text: string,
    hash: string,
    ranges?: readonly Range[],
    chars = text.length,
  ): Promise<TreeLease> {
    const cached = this.trees.get(key);
    if (cached && isCurrent(cached, spec, hash)) {
      this.trees.delete(key);
      this.trees.set(key, cached);
      return lease(cached);
    }
    const tree = await this.parse(spec, text, ranges);
    // Read again after the wait: a concurrent call for the same key may have cached its own tree
    // meanwhile, which would otherwise be overwritten and never freed.
    const current = this.trees.get(key);
    if (current) this.forget(key, current);
    const entry: CachedTree = {
      hash,
      language: spec.id,
      chars,
      tree,
      leases: 0,
      evicted: true,
    };
    if (this.disposed || this.maxCachedTrees === 0 || chars > this.maxCachedChars) return lease(entry);
    while (
      this.trees.size > 0 &&
      (this.trees.size >= this.maxCachedTrees || this.cachedChars + chars > this.maxCachedChars)
    ) {
      const oldest = this.trees.entries().next().value;
      if (oldest === undefined) break;
      this.forget(oldest[0], oldest[1]);
    }
    entry.evicted = false;
    this.trees.set(key, entry);
    this.cachedChars += chars;
    return lease(entry);
  }

  /** Drops an entry; its tree is freed now, or when its last lease is released. */
  private forget(key: string, entry: CachedTree): void {
    this.trees.delete(key);
    this.cachedChars -= entry.chars;
    entry.evicted = true;
    if (entry.leases === 0) entry.tree.delete();
  }

  /** Number of trees in the cache. */
  get cachedTrees(): number {
    return this.trees.size;
  }

  /** Frees every cached tree and parser. */
  dispose(): void {
    this.disposed = true;
    this.resetScanPool();
    for (const [key, entry] of this.trees) this.forget(key, entry);
    for (const parser of this.parsers.values()) parser.then((p) => p.delete()).catch(() => undefined);
    this.parsers.clear();
  }
}

/** The resource key of the parser; the three structural tools require it. */
export const structuralParserKey = resourceKey<StructuralParser>("tree-sitter parser");

/** Creates the parser resource to wire into a run: `[structuralParserKey, createStructuralParser()]`. */
export function createStructuralParser(options: StructuralParserOptions = {}): StructuralParser {
  return new StructuralParser(options);
}
