import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { languages } from "./languages.js";

// The grammars @repomix/tree-sitter-wasms builds from other projects ship with those projects'
// licences (vendored in grammar-licences/, copied into dist/ by scripts/copy-grammars.mjs).

interface UpstreamLicence {
  project: string;
  covers: string[];
  builtFrom: string;
  repository: string;
  licence: string;
  sha256: string;
  takenFrom: { npm: string; integrity: string };
  file: string;
}
interface PackageJson {
  name: string;
  version: string;
  devDependencies?: Record<string, string>;
}
interface GrammarLicences {
  licencePath: (builder: string, project: string) => string;
  readUpstreamLicences: (directory: string) => UpstreamLicence[];
  upstreamLicences: (
    licences: UpstreamLicence[],
    sources: Map<string, { json: PackageJson; files: { path: string }[] }>,
  ) => Map<string, UpstreamLicence>;
}

const packageDir = fileURLToPath(new URL("../..", import.meta.url));
const vendored = join(packageDir, "grammar-licences");
const shipped = join(packageDir, "dist", "grammars", "wasm");
const require = createRequire(import.meta.url);
const sha256 = (bytes: Buffer): string => createHash("sha256").update(bytes).digest("hex");
const packageOf = (wasm: string): string =>
  wasm
    .split("/")
    .slice(0, wasm.startsWith("@") ? 2 : 1)
    .join("/");
const packageJson = (name: string): PackageJson =>
  JSON.parse(readFileSync(require.resolve(`${name}/package.json`), "utf8")) as PackageJson;
const scripts = async (): Promise<GrammarLicences> =>
  (await import(pathToFileURL(join(packageDir, "scripts", "grammar-licences.mjs")).href)) as GrammarLicences;
const records = (): UpstreamLicence[] =>
  (JSON.parse(readFileSync(join(vendored, "sources.json"), "utf8")) as { licences: UpstreamLicence[] })
    .licences;

/** The languages whose .wasm is a build of another project's grammar, with that project. */
const builds = languages.flatMap((spec) => {
  const json = packageJson(packageOf(spec.wasm));
  const project = /(tree-sitter-[^/]+)\.wasm$/.exec(spec.wasm)?.[1]?.replaceAll("_", "-");
  return project !== undefined && project !== json.name && json.devDependencies?.[project] !== undefined
    ? [{ spec, project, builder: json }]
    : [];
});

/** The shipped files by package, as copy-grammars.mjs hands them to `upstreamLicences`. */
function shippedSources(): Map<string, { json: PackageJson; files: { path: string }[] }> {
  const sources = new Map<string, { json: PackageJson; files: { path: string }[] }>();
  for (const spec of languages) {
    const name = packageOf(spec.wasm);
    const source = sources.get(name) ?? { json: packageJson(name), files: [] };
    source.files.push({ path: spec.wasm });
    sources.set(name, source);
  }
  return sources;
}

const temporary: string[] = [];
afterAll(() => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});

describe("upstream grammar licences", () => {
  it("are the builds of @repomix/tree-sitter-wasms, each vendored unedited with where it came from", () => {
    expect(builds.map(({ spec }) => spec.id).sort()).toEqual([
      "csharp",
      "css",
      "dart",
      "php",
      "ruby",
      "solidity",
      "swift",
    ]);
    for (const { spec, project, builder } of builds) {
      const record = records().find((entry) => entry.covers.includes(spec.wasm));
      expect(record, spec.wasm).toBeDefined();
      expect(record?.project).toBe(project);
      expect(record?.builtFrom).toBe(builder.devDependencies?.[project]);
      expect(record?.takenFrom.npm).toMatch(new RegExp(`^${project}@\\d+\\.\\d+\\.\\d+$`));
      expect(record?.takenFrom.integrity).toMatch(/^sha512-/);
      const text = readFileSync(join(vendored, project, "LICENSE"));
      expect(sha256(text)).toBe(record?.sha256);
      expect(text.toString("utf8")).toMatch(/Copyright \(c\)/);
      expect(text.toString("utf8")).toContain("The above copyright notice and this permission notice");
    }
  });

  it("are all found for the shipped files, and a shipped build without one fails the build", async () => {
    const { readUpstreamLicences, upstreamLicences } = await scripts();
    const all = readUpstreamLicences(vendored);
    const found = upstreamLicences(all, shippedSources());
    expect([...found.keys()].sort()).toEqual(builds.map(({ spec }) => spec.wasm).sort());

    const css = "@repomix/tree-sitter-wasms/out/tree-sitter-css.wasm";
    const withoutCss = all.filter((entry) => !entry.covers.includes(css));
    expect(() => upstreamLicences(withoutCss, shippedSources())).toThrow(
      /tree-sitter-css\.wasm is a build of tree-sitter-css \^0\.25\.0 by @repomix\/tree-sitter-wasms.*grammar-licences\/sources\.json has none/,
    );

    // A grammar the package builds later, whose name its devDependencies do not match.
    const sources = shippedSources();
    sources
      .get("@repomix/tree-sitter-wasms")
      ?.files.push({ path: "@repomix/tree-sitter-wasms/out/new.wasm" });
    expect(() => upstreamLicences(all, sources)).toThrow(/new\.wasm is a build of another project's grammar/);

    // The package builds from another release than the one the licence was taken for.
    const bumped = shippedSources();
    const repomix = bumped.get("@repomix/tree-sitter-wasms");
    if (repomix === undefined) throw new Error("no @repomix/tree-sitter-wasms grammar shipped");
    repomix.json = {
      ...repomix.json,
      devDependencies: { ...repomix.json.devDependencies, "tree-sitter-css": "^0.26.0" },
    };
    expect(() => upstreamLicences(all, bumped)).toThrow(
      /from tree-sitter-css \^0\.26\.0, grammar-licences\/sources\.json has the licence of tree-sitter-css \^0\.25\.0/,
    );
  });

  it("refuses a vendored text that differs from the one recorded", async () => {
    const { readUpstreamLicences } = await scripts();
    const dir = mkdtempSync(join(tmpdir(), "structural-licences-"));
    temporary.push(dir);
    cpSync(vendored, dir, { recursive: true });
    const edited = join(dir, "tree-sitter-ruby", "LICENSE");
    writeFileSync(edited, readFileSync(edited, "utf8").replace("2016", "2017"));
    expect(() => readUpstreamLicences(dir)).toThrow(/tree-sitter-ruby.LICENSE has sha256 .* never edited/);
  });

  // The build (scripts/copy-grammars.mjs) copies them into dist/, which is what gets published.
  const missing = existsSync(join(shipped, "NOTICE.md"))
    ? undefined
    : "dist/grammars/wasm/ not built: run npm run build";
  if (missing && process.env.CI !== "true") console.warn(`skipping the shipped-licence checks: ${missing}`);

  it.skipIf(missing !== undefined && process.env.CI !== "true")(
    "ship in dist/ beside the builds' package, and NOTICE.md points each build at its licence",
    async () => {
      expect(missing).toBeUndefined();
      const { licencePath } = await scripts();
      const notice = readFileSync(join(shipped, "NOTICE.md"), "utf8");
      const items = notice.split("\n- ").slice(1);
      for (const { spec, project, builder } of builds) {
        const target = licencePath(builder.name, project);
        expect(target).toBe(`@repomix/tree-sitter-wasms/licences/${project}/LICENSE`);
        const copy = readFileSync(join(shipped, ...target.split("/")));
        expect(copy.equals(readFileSync(join(vendored, project, "LICENSE")))).toBe(true);
        const record = records().find((entry) => entry.project === project);
        const item = items.find((entry) => entry.startsWith(`${spec.wasm}:`));
        expect(item, `NOTICE.md item for ${spec.wasm}`).toBeDefined();
        expect(item).toContain(`from ${project} ${builder.devDependencies?.[project]}`);
        expect(item).toContain(`\`${target}\``);
        expect(item).toContain(`${record?.takenFrom.npm} (${record?.takenFrom.integrity})`);
      }
    },
  );
});
