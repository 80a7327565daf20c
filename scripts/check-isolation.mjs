#!/usr/bin/env node
// Package isolation check (part of `npm test`): packs every publishable package, installs each
// tarball alone (with @tools/registry) into a temporary project, imports its entry point, runs the
// package's own probe there if it has one (`scripts/isolation-probe.mjs`, which exercises the
// installed package and prints one line), prints the installed size, and fails if its installed
// dependency closure holds another package's heavy dependency.
import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(fileURLToPath(new URL(".", import.meta.url)), "..");
/** Dependencies every package may share: they are light and common. */
const shared = new Set(["zod", "@tools/registry"]);

function readJson(path) {
  return JSON.parse(readFileSync(path, "utf8"));
}

const only = new Set(process.argv.slice(2));
const allPackages = readdirSync(join(root, "packages"))
  .map((name) => join(root, "packages", name))
  .filter((dir) => existsSync(join(dir, "package.json")))
  .map((dir) => ({ dir, manifest: readJson(join(dir, "package.json")) }))
  .filter(({ manifest }) => manifest.private !== true);
/** Packages to check (all, or those named on the command line); the others still count as "other". */
const checked = only.size > 0 ? allPackages.filter(({ manifest }) => only.has(manifest.name)) : allPackages;

const work = mkdtempSync(join(tmpdir(), "tools-isolation-"));
const tarballs = join(work, "tarballs");
mkdirSync(tarballs);
const failures = [];

function run(command, args, cwd) {
  return execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

function installedNames(nodeModules, into = new Set()) {
  if (!existsSync(nodeModules)) return into;
  for (const entry of readdirSync(nodeModules)) {
    if (entry.startsWith(".")) continue;
    const scoped = entry.startsWith("@");
    const names = scoped
      ? readdirSync(join(nodeModules, entry)).map((child) => `${entry}/${child}`)
      : [entry];
    for (const name of names) {
      const manifest = join(nodeModules, name, "package.json");
      if (!existsSync(manifest)) continue;
      into.add(readJson(manifest).name);
      installedNames(join(nodeModules, name, "node_modules"), into);
    }
  }
  return into;
}

try {
  const tarballOf = new Map();
  const toPack = allPackages.filter(
    ({ manifest }) =>
      manifest.name === "@tools/registry" || checked.some((entry) => entry.manifest.name === manifest.name),
  );
  for (const { dir, manifest } of toPack) {
    if (!existsSync(join(dir, "dist")))
      throw new Error(`${manifest.name} is not built (no dist/): run the build first`);
    const output = run("pnpm", ["pack", "--pack-destination", tarballs], dir).trim().split("\n");
    tarballOf.set(manifest.name, output[output.length - 1]);
  }
  const registryTarball = tarballOf.get("@tools/registry");
  for (const { dir, manifest } of checked) {
    const own = new Set([
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.peerDependencies ?? {}),
    ]);
    const forbidden = new Map();
    for (const other of allPackages) {
      if (other.manifest.name === manifest.name) continue;
      for (const dependency of Object.keys(other.manifest.dependencies ?? {})) {
        if (!shared.has(dependency) && !own.has(dependency)) forbidden.set(dependency, other.manifest.name);
      }
    }
    const project = join(work, manifest.name.replace("/", "__"));
    mkdirSync(project);
    writeFileSync(
      join(project, "package.json"),
      JSON.stringify({ name: "isolation-probe", private: true, type: "module" }),
    );
    const specs = [tarballOf.get(manifest.name)];
    if (manifest.name !== "@tools/registry") specs.unshift(registryTarball);
    const started = Date.now();
    run(
      "npm",
      ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error", ...specs],
      project,
    );
    run(
      process.execPath,
      ["--input-type=module", "-e", `await import(${JSON.stringify(manifest.name)});`],
      project,
    );
    // The package's probe runs from the project, so it imports the installed package.
    const probe = join(dir, "scripts", "isolation-probe.mjs");
    let probed = "";
    let probeFailure;
    if (existsSync(probe)) {
      copyFileSync(probe, join(project, "isolation-probe.mjs"));
      try {
        probed = `\n  probe: ${run(process.execPath, ["isolation-probe.mjs"], project).trim()}`;
      } catch (error) {
        probeFailure = `its probe failed: ${(error.stderr || error.message).trim()}`;
      }
    }
    const kib = Number(run("du", ["-sk", join(project, "node_modules")], project).split("\t")[0]);
    const size = `${(kib / 1024).toFixed(1)} MiB installed`;
    const installed = installedNames(join(project, "node_modules"));
    const leaked = [...installed].filter((name) => forbidden.has(name));
    const ours = [...installed].filter(
      (name) => name.startsWith("@tools/") && name !== manifest.name && name !== "@tools/registry",
    );
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const details = [
      ...leaked.map((name) => `${name} (a dependency of ${forbidden.get(name)})`),
      ...ours.map((name) => `${name} (another @tools package)`),
    ];
    const problems = details.length > 0 ? [`pulls in ${details.join(", ")}`] : [];
    if (probeFailure) problems.push(probeFailure);
    if (problems.length > 0) {
      failures.push(`${manifest.name} ${problems.join("; ")}`);
      console.log(`✗ ${manifest.name}: ${problems.join("; ")}`);
    } else {
      console.log(
        `✓ ${manifest.name}: installs alone (${installed.size} packages in its closure, ${size}, ${seconds}s), imports, pulls no other package's heavy dependency${probed}`,
      );
    }
  }
} catch (error) {
  failures.push(error instanceof Error ? `${error.message}\n${error.stderr ?? ""}` : String(error));
} finally {
  rmSync(work, { recursive: true, force: true });
}

if (failures.length > 0) {
  console.error(`package isolation check failed:\n- ${failures.join("\n- ")}`);
  console.log(
    `isolation: ${checked.length - failures.length > 0 ? checked.length - failures.length : 0} passed, ${failures.length} failed`,
  );
  process.exit(1);
}
console.log(`isolation: ${checked.length} passed, 0 failed`);
