// Tools used by this package's own tests (not exported from the package).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const sourceRoot = join(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * Writes the package's modules `names` (paths under src without `.ts`, such as
 * `run/process-mark`) into `folder`, transpiled as they are and laid out as in src, with a
 * package.json that makes them ES modules: for a separate Node process (one a test can kill)
 * that runs the package's own code.
 */
export function transpileModules(folder: string, names: readonly string[]): void {
  writeFileSync(join(folder, "package.json"), JSON.stringify({ type: "module" }));
  for (const name of names) {
    const source = readFileSync(join(sourceRoot, `${name}.ts`), "utf8");
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    });
    mkdirSync(dirname(join(folder, name)), { recursive: true });
    writeFileSync(join(folder, `${name}.js`), outputText);
  }
}

/** The modules the process reaper runs with (see run/process-mark.ts). */
export const reaperModules = [
  "run/process-mark",
  "run/process-tree",
  "run/host-identity",
  "files/write-journal",
] as const;
