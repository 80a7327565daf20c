import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Parser } from "web-tree-sitter";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { languages, type LanguageSpec } from "./languages.js";
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

describe("shipped grammars", () => {
  const require = createRequire(import.meta.url);
  const packageDir = fileURLToPath(new URL("../..", import.meta.url));
  const built = join(packageDir, "dist", "grammars");

  it("load from their packages (dev dependencies) when running from the sources", () => {
    for (const spec of languages) expect(grammarPath(spec)).toBe(require.resolve(spec.wasm));
  });

  // The build (scripts/copy-grammars.mjs) copies them into dist/, which is what gets published.
  const missing = existsSync(join(built, "wasm", "NOTICE.md"))
    ? undefined
    : "dist/grammars/wasm/ not built: run npm run build";
  if (missing && process.env.CI !== "true") console.warn(`skipping the shipped-grammar checks: ${missing}`);

  it.skipIf(missing !== undefined && process.env.CI !== "true")(
    "are copied byte for byte into dist/, each with its package's licence, and the built loader takes the copies",
    async () => {
      expect(missing).toBeUndefined();
      const compiled = (await import(pathToFileURL(join(built, "load-grammar.js")).href)) as {
        grammarPath: (spec: LanguageSpec) => string;
      };
      const notice = readFileSync(join(built, "wasm", "NOTICE.md"), "utf8");
      for (const spec of languages) {
        const shipped = compiled.grammarPath(spec);
        expect(shipped).toBe(join(built, "wasm", ...spec.wasm.split("/")));
        expect(realpathSync(shipped)).not.toContain("node_modules");
        expect(readFileSync(shipped).equals(readFileSync(require.resolve(spec.wasm)))).toBe(true);
        expect(notice).toContain(`| ${spec.id} | ${spec.wasm} |`);
        const owner = spec.wasm.split("/").slice(0, spec.wasm.startsWith("@") ? 2 : 1);
        expect(readFileSync(join(built, "wasm", ...owner, "LICENSE"), "utf8").length).toBeGreaterThan(100);
      }
    },
  );
});
