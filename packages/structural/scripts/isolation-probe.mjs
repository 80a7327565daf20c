// Run by scripts/check-isolation.mjs (at the repository root) in a project where only the packed
// @tools/structural and @tools/registry are installed: searches a small file in three languages
// through ast_grep, with grammars from both packages the build copies them from, so the grammars
// the package ships load and parse, and checks that every licence text NOTICE.md names is installed.
// Prints one line; throws when a search does not find its match or a licence is missing.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRegistry, createRun, resultText } from "@tools/registry";
import { createStructuralParser, structuralParserKey, structuralTools } from "@tools/structural";

const grammarPackages = readdirSync("node_modules").filter(
  (name) => name.startsWith("tree-sitter-") || name === "@repomix",
);
if (grammarPackages.length > 0) throw new Error(`grammar packages installed: ${grammarPackages.join(", ")}`);

// NOTICE.md names each upstream grammar licence as `<package>/licences/<project>/LICENSE`.
const shipped = join("node_modules", "@tools", "structural", "dist", "grammars", "wasm");
const licences = [
  ...readFileSync(join(shipped, "NOTICE.md"), "utf8").matchAll(
    /`([^`\s<>]+\/licences\/[^`\s<>]+\/LICENSE)`/g,
  ),
].map((match) => match[1]);
if (licences.length === 0) throw new Error(`${shipped}/NOTICE.md names no upstream grammar licence`);
const absent = licences.filter((path) => {
  const file = join(shipped, ...path.split("/"));
  return !existsSync(file) || statSync(file).size === 0;
});
if (absent.length > 0) throw new Error(`licences NOTICE.md names are not installed: ${absent.join(", ")}`);

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
  `ast_grep found its match in ${cases.map(([file]) => file).join(", ")} with the shipped grammars (no grammar package installed); ${licences.length} upstream grammar licences installed`,
);
