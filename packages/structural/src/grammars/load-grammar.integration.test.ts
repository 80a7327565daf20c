import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Parser } from "web-tree-sitter";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LanguageSpec } from "./languages.js";
import { grammarPath, loadGrammar } from "./load-grammar.js";
import { webTreeSitterVersion } from "./web-tree-sitter-version.js";

const installed = (
  JSON.parse(
    readFileSync(
      fileURLToPath(new URL("../../node_modules/web-tree-sitter/package.json", import.meta.url)),
      "utf8",
    ),
  ) as { version: string }
).version;

let dir: string;
beforeAll(async () => {
  await Parser.init();
  dir = mkdtempSync(join(tmpdir(), "structural-grammar-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const specAt = (wasm: string): LanguageSpec => ({
  id: "broken",
  extensions: [".broken"],
  wasm,
  wrappers: [],
});

async function loadError(spec: LanguageSpec): Promise<Error & { code?: string; data?: unknown }> {
  try {
    await loadGrammar(spec);
  } catch (error) {
    if (error instanceof Error) return error;
    throw error;
  }
  throw new Error(`the ${spec.wasm} grammar loaded`);
}

describe("grammar load errors", () => {
  it("finds the installed web-tree-sitter version (its package.json is not exported)", () => {
    expect(installed).toMatch(/^\d+\.\d+\.\d+/);
    expect(webTreeSitterVersion()).toBe(installed);
  });

  it("names the file and the version for a .wasm of junk bytes", async () => {
    const path = join(dir, "junk.wasm");
    writeFileSync(path, Buffer.from("this is not a WebAssembly module at all\n"));
    const error = await loadError(specAt(path));
    expect(error.code).toBe("GRAMMAR_LOAD_FAILED");
    expect(error.message).toContain(path);
    expect(error.message).toContain(`web-tree-sitter ${installed}`);
    expect(error.message).not.toContain("unknown");
    expect(error.data).toEqual({ language: "broken", file: path, webTreeSitter: installed });
  });

  it("names the file and the version for a truncated real grammar", async () => {
    const real = readFileSync(grammarPath({ ...specAt("tree-sitter-python/tree-sitter-python.wasm") }));
    const path = join(dir, "truncated.wasm");
    writeFileSync(path, real.subarray(0, 4096));
    const error = await loadError(specAt(path));
    expect(error.code).toBe("GRAMMAR_LOAD_FAILED");
    expect(error.message).toContain(path);
    expect(error.message).toContain(`web-tree-sitter ${installed}`);
  });

  it("names the missing file and the version", async () => {
    const path = join(dir, "absent.wasm");
    const error = await loadError(specAt(path));
    expect(error.code).toBe("GRAMMAR_LOAD_FAILED");
    expect(error.message).toContain(path);
    expect(error.message).toContain("not installed");
    expect(error.message).toContain(`web-tree-sitter ${installed}`);
  });
});
