import { availableParallelism } from "node:os";
import { resourceKey } from "@tools/registry";
import { Parser, type Language, type Tree } from "web-tree-sitter";
import { StructuralError } from "../errors/structural-error.js";
import { findLanguage, languageIds, type LanguageSpec } from "../grammars/languages.js";
import { loadGrammar } from "../grammars/load-grammar.js";
import { compilePattern } from "../pattern/compile-pattern.js";
import type { CompiledPattern } from "../pattern/pattern-node.js";
import { ScanPool, scanWorkerUrl } from "../search/scan-pool.js";

/** Options of {@link createStructuralParser}. */
export interface StructuralParserOptions {
  /** Parsed files kept between calls, keyed by (path, size, mtime); default 256 (at least 1 is kept). */
  maxCachedTrees?: number;
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
  readonly size: number;
  readonly mtimeMs: number;
  readonly language: string;
  readonly tree: Tree;
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
 * and caches parse trees by (path, size, mtime) so `ast_edit` after `ast_grep` does not parse
 * twice. One per run (or shared by runs of one process); `dispose()` frees the WASM trees.
 */
export class StructuralParser {
  private readonly parsers = new Map<string, Promise<Parser>>();
  private readonly trees = new Map<string, CachedTree>();
  private readonly maxCachedTrees: number;
  private readonly workers: number;
  /** Prefiltered bytes from which a search goes to the worker pool. */
  readonly parallelMinBytes: number;
  private pool: ScanPool | undefined;
  private disposed = false;

  constructor(options: StructuralParserOptions = {}) {
    this.maxCachedTrees = options.maxCachedTrees ?? 256;
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
      this.pool = new ScanPool(url, this.workers, this.maxCachedTrees);
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

  /** A parser with the language's grammar loaded (loaded once, on first use). */
  parser(spec: LanguageSpec): Promise<Parser> {
    let parser = this.parsers.get(spec.id);
    if (!parser) {
      parser = (async () => {
        await initialiseTreeSitter();
        const language: Language = await loadGrammar(spec);
        const created = new Parser();
        created.setLanguage(language);
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

  /** Parses text; the caller owns the tree and must `delete()` it. */
  async parse(spec: LanguageSpec, text: string): Promise<Tree> {
    const tree = (await this.parser(spec)).parse(text);
    if (!tree)
      throw new StructuralError({
        code: "GRAMMAR_LOAD_FAILED",
        message: `the ${spec.id} parser returned no tree`,
      });
    return tree;
  }

  /**
   * The tree of a file's text, from the cache when (path, size, mtime) is unchanged. The tree
   * belongs to the cache: do not delete it.
   */
  async fileTree(
    path: string,
    spec: LanguageSpec,
    text: string,
    stat: { size: number; mtimeMs: number },
  ): Promise<Tree> {
    const cached = this.trees.get(path);
    if (
      cached &&
      cached.size === stat.size &&
      cached.mtimeMs === stat.mtimeMs &&
      cached.language === spec.id
    ) {
      this.trees.delete(path);
      this.trees.set(path, cached);
      return cached.tree;
    }
    const tree = await this.parse(spec, text);
    if (cached) {
      cached.tree.delete();
      this.trees.delete(path);
    }
    if (this.disposed) return tree;
    // Evict before inserting, so the tree handed back is never the one freed.
    while (this.trees.size > 0 && this.trees.size >= this.maxCachedTrees) {
      const oldest = this.trees.keys().next().value;
      if (oldest === undefined) break;
      this.trees.get(oldest)?.tree.delete();
      this.trees.delete(oldest);
    }
    this.trees.set(path, { size: stat.size, mtimeMs: stat.mtimeMs, language: spec.id, tree });
    return tree;
  }

  /** Number of trees in the cache. */
  get cachedTrees(): number {
    return this.trees.size;
  }

  /** Frees every cached tree and parser. */
  dispose(): void {
    this.disposed = true;
    this.resetScanPool();
    for (const entry of this.trees.values()) entry.tree.delete();
    this.trees.clear();
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
