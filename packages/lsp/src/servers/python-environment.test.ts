import { mkdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempTree } from "../test-support/fixtures.js";
import { findPythonEnvironment } from "./python-environment.js";

describe("findPythonEnvironment", () => {
  let outer: string;
  let work: string;
  let root: string;
  let remove: () => void;
  /** Makes `folder` an environment: it holds bin/python (an empty file is enough for the lookup). */
  const environment = (folder: string): string => {
    mkdirSync(join(folder, "bin"), { recursive: true });
    writeFileSync(join(folder, "bin", "python"), "");
    return folder;
  };

  beforeEach(() => {
    // outer/ (above the working directory) > work/ (the working directory) > apps/ > api/ (the root)
    const tree = tempTree("python-env", { "work/apps/api/pyproject.toml": "" });
    remove = tree.remove;
    outer = realpathSync(tree.dir);
    work = join(outer, "work");
    root = join(work, "apps", "api");
  });
  afterEach(() => remove());

  it("tries .venv then venv in the root, then in each parent up to the working directory, then VIRTUAL_ENV", () => {
    const active = environment(join(outer, "activated"));
    const order = [
      join(root, ".venv"),
      join(root, "venv"),
      join(work, "apps", ".venv"),
      join(work, "apps", "venv"),
      join(work, ".venv"),
      join(work, "venv"),
    ];
    for (const folder of order) environment(folder);
    const options = { workingDirectory: work, env: { VIRTUAL_ENV: active } };
    for (const folder of order) {
      expect(findPythonEnvironment(root, options)).toEqual({
        folder,
        python: join(folder, "bin", "python"),
        source: "project",
      });
      rmSync(folder, { recursive: true });
    }
    expect(findPythonEnvironment(root, options)).toEqual({
      folder: active,
      python: join(active, "bin", "python"),
      source: "VIRTUAL_ENV",
    });
    expect(findPythonEnvironment(root, { workingDirectory: work, env: {} })).toBeUndefined();
  });

  it("counts only folders holding bin/python, and searches no parent above the working directory", () => {
    // A .venv without an interpreter (a half-made or foreign folder) is passed over.
    mkdirSync(join(root, ".venv", "bin"), { recursive: true });
    writeFileSync(join(root, ".venv", "pyvenv.cfg"), "home = /usr/bin\n");
    environment(join(outer, ".venv"));
    expect(findPythonEnvironment(root, { workingDirectory: work, env: {} })).toBeUndefined();
    const parent = environment(join(work, "venv"));
    expect(findPythonEnvironment(root, { workingDirectory: work, env: {} })?.folder).toBe(parent);
    // Without a working directory, or with a root outside it, only the root itself is searched.
    expect(findPythonEnvironment(root, { env: {} })).toBeUndefined();
    expect(
      findPythonEnvironment(root, { workingDirectory: join(outer, "elsewhere"), env: {} }),
    ).toBeUndefined();
  });

  it("ignores a VIRTUAL_ENV that is missing, relative, or has no interpreter", () => {
    const none = { workingDirectory: work };
    expect(
      findPythonEnvironment(root, { ...none, env: { VIRTUAL_ENV: join(outer, "gone") } }),
    ).toBeUndefined();
    mkdirSync(join(outer, "empty"));
    expect(
      findPythonEnvironment(root, { ...none, env: { VIRTUAL_ENV: join(outer, "empty") } }),
    ).toBeUndefined();
    environment(join(root, "rel"));
    expect(findPythonEnvironment(root, { ...none, env: { VIRTUAL_ENV: "rel" } })).toBeUndefined();
  });
});
