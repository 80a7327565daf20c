// Run by scripts/check-isolation.mjs (at the repository root) in a project where only the packed
// @tools/structural and @tools/registry are installed: searches a small file in three languages
// through ast_grep, with grammars from both packages the build copies them from, so the grammars
// the package ships load and parse. Prints one line; throws when a search does not find its match.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRegistry, createRun, resultText } from "@tools/registry";
import { createStructuralParser, structuralParserKey, structuralTools } from "@tools/structural";

const grammarPackages = readdirSync("node_modules").filter(
  (name) => name.startsWith("tree-sitter-") || name === "@repomix",
);
if (grammarPackages.length > 0) throw new Error(`grammar packages installed: ${grammarPackages.join(", ")}`);

const cases = [
  ["a.ts", "export const f = (x: number): number => g(x, 1);\n", "g($A, $B)", "$A = x"],
  ["b.py", "def h():\n    return g(2, 3)\n", "g($A, $B)", "$A = 2"],
  ["C.cs", "class C { void M() { G(4, 5); } }\n", "G($A, $B)", "$A = 4"],
];
const dir = mkdtempSync(join(tmpdir(), "structural-probe-"));
const parser = createStructuralParser({ workers: 0 });
const run = createRun({ workingDirectory: dir, resources: [[structuralParserKey, parser]] });
try {
  const registry = createRegistry({ tools: [...structuralTools], approval: "auto" });
  for (const [file, source, pattern, binding] of cases) {
    writeFileSync(join(dir, file), source);
    const result = await registry.invoke(run, { tool: "ast_grep", args: { pattern, path: file } });
    const text = resultText(result);
    if (result.isError || !text.startsWith("1 match in 1 file") || !text.includes(binding))
      throw new Error(`ast_grep ${pattern} in ${file} did not find its match: ${text}`);
  }
} finally {
  await run.dispose();
  parser.dispose();
  rmSync(dir, { recursive: true, force: true });
}
console.log(
  `ast_grep found its match in ${cases.map(([file]) => file).join(", ")} with the shipped grammars (no grammar package installed)`,
);
