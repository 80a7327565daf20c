import type { Parser, Tree } from "web-tree-sitter";

/**
 * The trees parsed while one pattern is compiled, freed together by `dispose()` once the compiled
 * pattern is built or the compilation failed. A tree lives in WASM memory: the JavaScript garbage
 * collector does not see its size, and would free it only when it happens to finalise the small
 * wrapper object, however much WASM memory the trees hold. The compiled pattern is plain data (no
 * node of any tree), so nothing it holds outlives them.
 */
export class ParseArena {
  readonly parser: Parser;
  private readonly trees = new Set<Tree>();

  constructor(parser: Parser) {
    this.parser = parser;
  }

  /**
   * Parses `text` and hands the tree to `read`; a reading it rules out (undefined) frees the tree
   * at once, one it keeps frees it at `dispose()` (its nodes are used until then).
   */
  read<T>(text: string, read: (tree: Tree) => T | undefined): T | undefined {
    const tree = this.parser.parse(text);
    if (!tree) return undefined;
    this.trees.add(tree);
    const result = read(tree);
    if (result === undefined) {
      this.trees.delete(tree);
      tree.delete();
    }
    return result;
  }

  /** Frees every tree still held. */
  dispose(): void {
    for (const tree of this.trees) tree.delete();
    this.trees.clear();
  }
}
