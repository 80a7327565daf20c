#!/usr/bin/env node
// Build step (after tsc): copies the .wasm grammars that src/grammars/languages.ts names, byte for
// byte, from their packages (dev dependencies, pinned in package.json) into dist/grammars/wasm/,
// laid out as their module specifiers, with each package's licence beside its files and a NOTICE.md
// naming the package, version, licence and sha256 of every file. The list of files and where they
// go come from the compiled modules, the same code that loads them: there is no second list.
// A file that is a package's build of another project's grammar (@repomix/tree-sitter-wasms's) also
// gets that project's licence, vendored in grammar-licences/ (scripts/grammar-licences.mjs), under
// `licences/` beside the package's files; the build fails when one has none.
// The published package then ships 24 MiB of grammars (2.3 MB packed) instead of depending on
// ~170 MB of grammar packages (C sources and native prebuilds).
import { createHash } from "node:crypto";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { licencePath, readUpstreamLicences, upstreamLicences } from "./grammar-licences.mjs";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const dist = join(packageDir, "dist", "grammars");
if (!existsSync(join(dist, "languages.js")) || !existsSync(join(dist, "shipped-grammar.js")))
  throw new Error("copy-grammars: dist/grammars/ is not compiled; run tsc -p tsconfig.build.json first");
const { languages } = await import(pathToFileURL(join(dist, "languages.js")).href);
const { shippedGrammarPath, shippedGrammarsDirectory } = await import(
  pathToFileURL(join(dist, "shipped-grammar.js")).href
);

const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
const require = createRequire(join(packageDir, "package.json"));
const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");
const packageName = (specifier) =>
  specifier
    .split("/")
    .slice(0, specifier.startsWith("@") ? 2 : 1)
    .join("/");

/** The package a resolved file belongs to: its folder and package.json (found by walking up). */
function owningPackage(file, name) {
  for (let directory = dirname(file); directory !== dirname(directory); directory = dirname(directory)) {
    const path = join(directory, "package.json");
    if (!existsSync(path)) continue;
    const json = JSON.parse(readFileSync(path, "utf8"));
    if (json.name === name) return { directory, json };
  }
  throw new Error(`copy-grammars: no package.json of ${name} above ${file}`);
}

rmSync(shippedGrammarsDirectory, { recursive: true, force: true });
/** By package name: its package.json, and the files taken from it. */
const sources = new Map();
let totalBytes = 0;
for (const spec of languages) {
  const target = shippedGrammarPath(spec.wasm);
  if (target === undefined)
    throw new Error(`copy-grammars: ${spec.id}'s grammar ${spec.wasm} is no module specifier`);
  const name = packageName(spec.wasm);
  const pinned = manifest.devDependencies?.[name];
  if (pinned === undefined) throw new Error(`copy-grammars: ${name} (${spec.id}) is not a dev dependency`);
  const from = require.resolve(spec.wasm);
  const owner = owningPackage(from, name);
  if (owner.json.version !== pinned)
    throw new Error(`copy-grammars: ${name} ${owner.json.version} is installed, package.json pins ${pinned}`);
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(from, target);
  const bytes = readFileSync(target);
  if (sha256(bytes) !== sha256(readFileSync(from)))
    throw new Error(`copy-grammars: ${target} differs from ${from}`);
  totalBytes += bytes.length;
  const source = sources.get(name) ?? { ...owner, files: [] };
  source.files.push({ language: spec.id, path: spec.wasm, sha256: sha256(bytes) });
  sources.set(name, source);
}

// Checked before NOTICE.md is written: a build that lacks a licence leaves none.
const upstream = upstreamLicences(readUpstreamLicences(join(packageDir, "grammar-licences")), sources);

const notice = [
  "# Grammars shipped with @tools/structural",
  "",
  "Each .wasm file here is a byte-for-byte copy, made when @tools/structural was built, of the file",
  "at the same path in the npm package named below (the path is the module specifier the package",
  "loaded it by). Each package's licence text is beside its files, as `<package>/LICENSE`.",
  "",
  "| language | file | from package | licence | sha256 |",
  "| --- | --- | --- | --- | --- |",
];
const builtFrom = [];
for (const [name, { directory, json, files }] of sources) {
  const licence = readdirSync(directory).find((file) => /^(licen[cs]e|copying)(\.(md|txt))?$/i.test(file));
  if (licence === undefined) throw new Error(`copy-grammars: ${name} ships no licence file`);
  copyFileSync(join(directory, licence), join(shippedGrammarsDirectory, ...name.split("/"), "LICENSE"));
  const repository = typeof json.repository === "string" ? json.repository : json.repository?.url;
  for (const file of files) {
    notice.push(
      `| ${file.language} | ${file.path} | ${name} ${json.version}${repository ? ` (${repository})` : ""} | ${json.license ?? "see LICENSE"} | ${file.sha256} |`,
    );
    const entry = upstream.get(file.path);
    if (entry === undefined) continue;
    const target = licencePath(name, entry.project);
    mkdirSync(dirname(join(shippedGrammarsDirectory, ...target.split("/"))), { recursive: true });
    copyFileSync(entry.file, join(shippedGrammarsDirectory, ...target.split("/")));
    builtFrom.push(
      `- ${file.path}: built by ${name} from ${entry.project} ${entry.builtFrom} (${entry.repository})`,
      `  - licence: ${entry.licence}, \`${target}\`: the LICENSE of the npm package ${entry.takenFrom.npm} (${entry.takenFrom.integrity})`,
      ...(entry.note ? [`  - ${entry.note}`] : []),
    );
  }
}
if (builtFrom.length > 0)
  notice.push(
    "",
    "These files are builds of other projects' grammars, by the package they come from (its",
    "package.json's devDependencies name them so). Each grammar is under its own project's licence,",
    "which that package does not ship: its text is beside that package's files, as",
    "`<package>/licences/<project>/LICENSE`, byte for byte as in the npm package named.",
    "",
    ...builtFrom,
  );
writeFileSync(join(shippedGrammarsDirectory, "NOTICE.md"), `${notice.join("\n")}\n`);
console.log(
  `copy-grammars: ${languages.length} grammars (${(totalBytes / 1024 / 1024).toFixed(1)} MiB) from ${sources.size} packages into ${relative(packageDir, shippedGrammarsDirectory)}`,
);
