import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { expect, it } from "vitest";

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** The declarations the build would publish, emitted in memory, by path. */
function emittedDeclarations(): Map<string, string> {
  const configPath = join(packageDir, "tsconfig.build.json");
  const config = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
      },
    },
  );
  if (!config) throw new Error("tsconfig.build.json did not parse");
  const program = ts.createProgram(config.fileNames, { ...config.options, noEmit: false });
  const out = new Map<string, string>();
  program.emit(undefined, (path, text) => out.set(resolve(path), text), undefined, true);
  return out;
}

it("publishes no type that needs web-tree-sitter (whose .d.ts fails without @types/emscripten)", () => {
  const declarations = emittedDeclarations();
  const entry = join(packageDir, "dist", "index.d.ts");
  expect(declarations.has(entry)).toBe(true);
  // Every package a consumer's type check loads, following imports from the entry point.
  const seen = new Set<string>();
  const packages = new Set<string>();
  const visit = (path: string): void => {
    if (seen.has(path)) return;
    seen.add(path);
    const text = declarations.get(path);
    if (text === undefined) throw new Error(`no declaration emitted for ${path}`);
    for (const found of text.matchAll(/(?:from\s+|import\()\s*["']([^"']+)["']/g)) {
      const specifier = found[1] ?? "";
      if (specifier.startsWith(".")) visit(resolve(dirname(path), specifier.replace(/\.js$/, ".d.ts")));
      else packages.add(specifier);
    }
  };
  visit(entry);
  expect(seen.size).toBeGreaterThan(5);
  expect([...packages].sort()).toEqual(["@tools/registry", "zod"]);
  // A whole TypeScript program's declarations: ~20 s of CPU on a loaded 2-core machine.
}, 90_000);
