// The licences of the grammar projects whose .wasm builds ship from a package of prebuilt grammars
// that ships only its own licence (@repomix/tree-sitter-wasms: the Unlicense). They are vendored in
// grammar-licences/<project>/LICENSE, each byte for byte the file of the npm tarball that
// grammar-licences/sources.json names for it, with where it came from. scripts/copy-grammars.mjs
// matches them to the files it ships (`upstreamLicences`) and copies each beside the grammars
// (`licencePath`); a shipped build without one fails the build.
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

const packageName = (specifier) =>
  specifier
    .split("/")
    .slice(0, specifier.startsWith("@") ? 2 : 1)
    .join("/");
const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");
const isString = (value) => typeof value === "string" && value.length > 0;
/** An npm package name: a path segment (or scope and segment) that cannot climb out of a folder. */
const projectName = /^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/;

/**
 * Where, under dist/grammars/wasm/ (posix separators), the build puts the licence of `project`,
 * which `builder` (a package of prebuilt grammars) built: `licences/` beside that package's files,
 * so `@repomix/tree-sitter-wasms/licences/tree-sitter-css/LICENSE`.
 * @param {string} builder
 * @param {string} project
 * @returns {string}
 */
export function licencePath(builder, project) {
  return `${builder}/licences/${project}/LICENSE`;
}

/**
 * The project whose grammar a shipped file is a build of, going by the file name as the package
 * that ships it names its devDependencies (`tree-sitter-c_sharp.wasm` is `tree-sitter-c-sharp`'s);
 * undefined for the package's own grammar (tree-sitter-typescript's `tree-sitter-tsx.wasm`).
 * @param {string} path  module specifier of the shipped file
 * @param {{ name: string, devDependencies?: Record<string, string> }} packageJson  its package's
 * @returns {string | undefined}
 */
export function builtFromProject(path, packageJson) {
  const grammar = /(tree-sitter-[^/]+)\.wasm$/.exec(path)?.[1]?.replaceAll("_", "-");
  if (grammar === undefined || grammar === packageJson.name) return undefined;
  return packageJson.devDependencies?.[grammar] === undefined ? undefined : grammar;
}

/**
 * @typedef {object} UpstreamLicence  One entry of grammar-licences/sources.json.
 * @property {string} project  the grammar's npm package name, as the building package's devDependencies name it
 * @property {string[]} covers  module specifiers of the shipped .wasm builds of it
 * @property {string} builtFrom  the building package's devDependencies spec for it (`^0.25.0`, `github:…`)
 * @property {string} repository  the project's repository
 * @property {string} licence  SPDX id of the LICENSE text
 * @property {string} sha256  of the LICENSE
 * @property {{ npm: string, file: string, tarball: string, integrity: string, shasum: string }} takenFrom  the tarball it is from
 * @property {string[]} sameTextIn  other releases with a byte-identical LICENSE
 * @property {string} [note]  how the release was chosen, and what could not be checked
 * @property {string} file  absolute path of the vendored LICENSE (not in the JSON)
 */

/**
 * Reads `<directory>/sources.json` and checks each entry's shape and its LICENSE's sha256.
 * @param {string} directory  the folder of vendored licences (grammar-licences/)
 * @returns {UpstreamLicence[]}
 */
export function readUpstreamLicences(directory) {
  const path = join(directory, "sources.json");
  const { licences } = JSON.parse(readFileSync(path, "utf8"));
  if (!Array.isArray(licences)) throw new Error(`copy-grammars: ${path} has no "licences" list`);
  return licences.map((entry, index) => {
    const where = `${path}: licences[${index}]`;
    const fields = ["project", "builtFrom", "repository", "licence", "sha256"];
    const missing = fields.filter((field) => !isString(entry?.[field]));
    if (!isString(entry?.takenFrom?.npm) || !isString(entry?.takenFrom?.integrity)) missing.push("takenFrom");
    if (!Array.isArray(entry?.covers) || entry.covers.length === 0 || !entry.covers.every(isString))
      missing.push("covers");
    if (missing.length > 0) throw new Error(`copy-grammars: ${where} lacks ${missing.join(", ")}`);
    if (!projectName.test(entry.project))
      throw new Error(`copy-grammars: ${where}: "${entry.project}" is no npm package name`);
    const file = join(directory, ...entry.project.split("/"), "LICENSE");
    if (!existsSync(file))
      throw new Error(`copy-grammars: ${where} (${entry.project}) has no licence text at ${file}`);
    const actual = sha256(readFileSync(file));
    if (actual !== entry.sha256)
      throw new Error(
        `copy-grammars: ${file} has sha256 ${actual}, ${path} records ${entry.sha256} (the text of ${entry.takenFrom.npm}); vendored licences are never edited: take the file again from that tarball`,
      );
    return { ...entry, file };
  });
}

/**
 * The vendored licence of every shipped file that is a build of another project's grammar, by its
 * module specifier. Every file of a package that builds other projects' grammars (its
 * devDependencies name the grammar of one of its shipped files, or an entry covers one) must be
 * covered by exactly one entry whose `builtFrom` is that package's devDependencies spec for the
 * project, and every entry must cover shipped files only; otherwise this throws, saying what to
 * add to or change in grammar-licences/.
 * @param {UpstreamLicence[]} licences  from {@link readUpstreamLicences}
 * @param {Map<string, { json: { name: string, version: string, devDependencies?: Record<string, string> }, files: { path: string }[] }>} sources
 *   the shipped files, by the name of the package they are copied from
 * @returns {Map<string, UpstreamLicence>}
 */
export function upstreamLicences(licences, sources) {
  const fix =
    "take its LICENSE from the project's npm tarball into grammar-licences/<project>/LICENSE and record it in grammar-licences/sources.json";
  const byFile = new Map();
  for (const entry of licences) {
    for (const path of entry.covers) {
      const builder = sources.get(packageName(path));
      if (builder === undefined || !builder.files.some((file) => file.path === path))
        throw new Error(
          `copy-grammars: grammar-licences/sources.json has ${entry.project}'s licence for ${path}, which is not shipped: remove it from "covers"`,
        );
      if (byFile.has(path))
        throw new Error(
          `copy-grammars: grammar-licences/sources.json covers ${path} twice (${byFile.get(path).project}, ${entry.project})`,
        );
      const spec = builder.json.devDependencies?.[entry.project];
      if (spec !== entry.builtFrom)
        throw new Error(
          `copy-grammars: ${builder.json.name} ${builder.json.version} builds ${path} from ${entry.project} ${spec ?? "(not in its devDependencies)"}, grammar-licences/sources.json has the licence of ${entry.project} ${entry.builtFrom}: ${fix}`,
        );
      byFile.set(path, entry);
    }
  }
  const builders = new Set([...byFile.keys()].map(packageName));
  for (const [name, { json, files }] of sources) {
    if (files.some((file) => builtFromProject(file.path, json) !== undefined)) builders.add(name);
  }
  for (const name of builders) {
    const { json, files } = sources.get(name);
    for (const { path } of files) {
      const project = builtFromProject(path, json);
      const entry = byFile.get(path);
      if (entry === undefined)
        throw new Error(
          `copy-grammars: ${path} is a build of ${project === undefined ? "another project's grammar" : `${project} ${json.devDependencies[project]}`} by ${name}, which does not ship that project's licence, and grammar-licences/sources.json has none for it: ${fix}`,
        );
      if (project !== undefined && project !== entry.project)
        throw new Error(
          `copy-grammars: ${path} is a build of ${project} by ${name}, grammar-licences/sources.json gives it ${entry.project}'s licence`,
        );
    }
  }
  return byFile;
}
