import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { Language } from "web-tree-sitter";
import { StructuralError } from "../errors/structural-error.js";
import type { LanguageSpec } from "./languages.js";
import { shippedGrammarPath } from "./shipped-grammar.js";
import { webTreeSitterVersion } from "./web-tree-sitter-version.js";

const require = createRequire(import.meta.url);

/**
 * Absolute path of a grammar's .wasm, or an error naming the file that is missing and the
 * web-tree-sitter version. `spec.wasm` is a module specifier or an absolute path (loaded as is).
 * A specifier is looked up first among the grammars the build copied into the package (see
 * `shippedGrammarPath`): an installed package has only those. Then in its own package, a dev
 * dependency here, for a run from the sources (vitest) before any build.
 */
export function grammarPath(spec: LanguageSpec): string {
  const shipped = shippedGrammarPath(spec.wasm);
  if (shipped !== undefined && existsSync(shipped)) return shipped;
  try {
    return require.resolve(spec.wasm);
  } catch (error) {
    const looked = shipped === undefined ? "" : ` (not at ${shipped}, nor in its package)`;
    throw new StructuralError({
      code: "GRAMMAR_LOAD_FAILED",
      message: `the ${spec.id} grammar file ${spec.wasm} is not installed${looked} (web-tree-sitter ${webTreeSitterVersion()}); reinstall @tools/structural`,
      data: { language: spec.id, file: spec.wasm, webTreeSitter: webTreeSitterVersion() },
      cause: error,
    });
  }
}

/**
 * The name of a .wasm's first custom section (`dylink.0` for modern builds, `dylink` for builds
 * made with an old emscripten that web-tree-sitter 0.26+ can no longer link).
 */
export function dylinkSection(bytes: Uint8Array): string | undefined {
  if (bytes.length < 10 || bytes[8] !== 0) return undefined;
  // Skip the section size (a LEB128 varint) to reach the section's name.
  let offset = 9;
  for (;;) {
    const byte = bytes[offset++];
    if (byte === undefined) return undefined;
    if ((byte & 0x80) === 0) break;
  }
  const nameLength = bytes[offset++];
  if (nameLength === undefined) return undefined;
  return new TextDecoder().decode(bytes.subarray(offset, offset + nameLength));
}

/**
 * Loads a grammar; any failure names the file and the web-tree-sitter version.
 * @internal Hands out web-tree-sitter objects: not in the published types.
 */
export async function loadGrammar(spec: LanguageSpec): Promise<Language> {
  const path = grammarPath(spec);
  const version = webTreeSitterVersion();
  const data = { language: spec.id, file: path, webTreeSitter: version };
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(path));
  } catch (error) {
    throw new StructuralError({
      code: "GRAMMAR_LOAD_FAILED",
      message: `the ${spec.id} grammar ${path} could not be read for web-tree-sitter ${version}; reinstall @tools/structural`,
      data,
      cause: error,
    });
  }
  const section = dylinkSection(bytes);
  if (section === "dylink") {
    throw new StructuralError({
      code: "GRAMMAR_LOAD_FAILED",
      message: `the ${spec.id} grammar ${path} was built with an old emscripten (legacy 'dylink' section) and cannot load in web-tree-sitter ${version}; it needs a 'dylink.0' build`,
      data,
    });
  }
  try {
    return await Language.load(bytes);
  } catch (error) {
    const reason = error instanceof Error && error.message ? error.message : "no reason given";
    throw new StructuralError({
      code: "GRAMMAR_LOAD_FAILED",
      message: `the ${spec.id} grammar ${path} failed to load in web-tree-sitter ${version}: ${reason}`,
      data,
      cause: error,
    });
  }
}
