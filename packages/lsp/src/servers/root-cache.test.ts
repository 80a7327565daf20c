import {
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { findRoot } from "./find-root.js";
import { RootCache } from "./root-cache.js";

describe("RootCache", () => {
  let dir: string;
  const markers = { markers: ["tsconfig.json", "package.json"] };
  /** Sets the folders' times a minute back, so their cached markers may be reused. */
  const age = (...folders: string[]) => {
    const past = Date.now() / 1000 - 60;
    for (const folder of folders) utimesSync(folder, past, past);
  };
  beforeEach(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), "lsp-root-cache-")));
    mkdirSync(join(dir, "app", "src"), { recursive: true });
    writeFileSync(join(dir, "package.json"), "{}");
    age(dir, join(dir, "app"), join(dir, "app", "src"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("answers as findRoot does, again from its cache", () => {
    const roots = new RootCache();
    const file = join(dir, "app", "src", "a.ts");
    for (let i = 0; i < 2; i++) {
      expect(roots.find(file, markers, dir)).toEqual(findRoot(file, markers, dir));
      expect(roots.find(file, markers, dir)).toEqual({ root: dir, marker: "package.json" });
      expect(roots.find(file, { markers: ["go.mod"] }, dir)).toBeUndefined();
      expect(roots.find(file, markers, join(dir, "app"))).toBeUndefined();
    }
  });

  it("sees a marker created later in a nearer folder, and one deleted", () => {
    const roots = new RootCache();
    const file = join(dir, "app", "src", "a.ts");
    expect(roots.find(file, markers, dir)?.root).toBe(dir);
    writeFileSync(join(dir, "app", "tsconfig.json"), "{}");
    expect(roots.find(file, markers, dir)).toEqual({ root: join(dir, "app"), marker: "tsconfig.json" });
    age(join(dir, "app"));
    expect(roots.find(file, markers, dir)?.root).toBe(join(dir, "app"));
    unlinkSync(join(dir, "app", "tsconfig.json"));
    expect(roots.find(file, markers, dir)?.root).toBe(dir);
    // A higher-priority marker added beside the found one changes the marker reported.
    writeFileSync(join(dir, "tsconfig.json"), "{}");
    expect(roots.find(file, markers, dir)).toEqual({ root: dir, marker: "tsconfig.json" });
  });

  it("checks a marker in a subfolder on every call: it changes the subfolder, not the folder", () => {
    const roots = new RootCache();
    const c = { markers: ["compile_commands.json", "build/compile_commands.json"] };
    const file = join(dir, "app", "src", "main.c");
    mkdirSync(join(dir, "app", "build"));
    age(join(dir, "app"));
    expect(roots.find(file, c, dir)).toBeUndefined();
    writeFileSync(join(dir, "app", "build", "compile_commands.json"), "[]");
    expect(roots.find(file, c, dir)).toEqual({
      root: join(dir, "app"),
      marker: "build/compile_commands.json",
    });
    expect(roots.find(file, c, dir)).toEqual(findRoot(file, c, dir));
    unlinkSync(join(dir, "app", "build", "compile_commands.json"));
    expect(roots.find(file, c, dir)).toBeUndefined();
  });

  it("checks a symlinked marker on every call: its target can go without the folder changing", () => {
    const roots = new RootCache();
    const file = join(dir, "app", "src", "a.ts");
    const target = join(dir, "real-tsconfig.json");
    writeFileSync(target, "{}");
    symlinkSync(target, join(dir, "app", "tsconfig.json"));
    age(dir, join(dir, "app"));
    expect(roots.find(file, markers, dir)?.root).toBe(join(dir, "app"));
    unlinkSync(target);
    age(dir);
    expect(roots.find(file, markers, dir)?.root).toBe(dir);
  });
});
