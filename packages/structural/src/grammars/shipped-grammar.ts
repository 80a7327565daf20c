import { isAbsolute, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The folder the build copies the shipped grammars into (`scripts/copy-grammars.mjs`): `wasm/`
 * beside this module, so `dist/grammars/wasm/` in the published package, which depends on no
 * grammar package. Running from the sources (vitest) it does not exist: grammars are then loaded
 * from their packages, dev dependencies of this one.
 */
export const shippedGrammarsDirectory: string = fileURLToPath(new URL("./wasm/", import.meta.url));

/**
 * Where the published package holds its copy of a grammar's .wasm: `LanguageSpec.wasm` (a module
 * specifier) under {@link shippedGrammarsDirectory}, so `tree-sitter-go/tree-sitter-go.wasm` is
 * `dist/grammars/wasm/tree-sitter-go/tree-sitter-go.wasm`; undefined for an absolute path.
 */
export function shippedGrammarPath(wasm: string): string | undefined {
  return isAbsolute(wasm) ? undefined : join(shippedGrammarsDirectory, ...wasm.split("/"));
}
