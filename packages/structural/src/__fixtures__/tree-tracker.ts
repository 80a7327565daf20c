import { Parser, Tree } from "web-tree-sitter";
import { vi } from "vitest";

/** What {@link trackTrees} saw: the trees parsed while it ran, and which of them are not yet freed. */
export interface TreeTracker {
  /** Trees `Parser.parse` returned since tracking began. */
  parsed(): Tree[];
  /** Of those, the ones `delete()` was not called on. */
  live(): Tree[];
  /** Stops tracking (the spies are removed). */
  stop(): void;
}

/**
 * Watches every `Parser.parse` and `Tree.delete` on this thread (web-tree-sitter trees live in
 * WASM memory, which no garbage collector reclaims in time): a test asserts `live()` is empty
 * once the code under test is done.
 */
export function trackTrees(): TreeTracker {
  const parse = vi.spyOn(Parser.prototype, "parse");
  const remove = vi.spyOn(Tree.prototype, "delete");
  const parsed = (): Tree[] =>
    parse.mock.results.flatMap((result) =>
      result.type === "return" && result.value instanceof Tree ? [result.value] : [],
    );
  return {
    parsed,
    live: () => {
      const deleted = new Set<unknown>(remove.mock.contexts);
      return parsed().filter((tree) => !deleted.has(tree));
    },
    stop: () => {
      parse.mockRestore();
      remove.mockRestore();
    },
  };
}
