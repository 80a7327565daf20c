import { describe, expect, it } from "vitest";
import {
  dependantsOf,
  importersOf,
  importTest,
  passOnDepth,
  passOnTest,
  type ImporterSource,
} from "./importers.js";

describe("importTest", () => {
  it("TypeScript: relative specifiers that resolve to the written file, and aliases ending in its name", () => {
    const imports = importTest("typescript", "/w/src/lib/api.ts")!;
    expect(imports('import { get } from "./lib/api";', "/w/src/main.ts")).toBe(true);
    expect(imports("const api = await import('../lib/api.js');", "/w/src/x/y.ts")).toBe(true);
    expect(imports('const api = require("./api");', "/w/src/lib/other.ts")).toBe(true);
    expect(imports('import "@/lib/api";', "/w/src/main.ts")).toBe(true);
    // Another file of the same name, and a longer name.
    expect(imports('import { get } from "./api";', "/w/src/main.ts")).toBe(false);
    expect(imports('import { get } from "./lib/api-client";', "/w/src/main.ts")).toBe(false);
    // A package whose name ends in the file's name, or a path ending in a longer name.
    const types = importTest("typescript", "/w/src/types.ts")!;
    expect(types('import { x } from "io-ts-types";', "/w/src/main.ts")).toBe(false);
    expect(types('import { x } from "@/lib/sometypes";', "/w/src/main.ts")).toBe(false);
    expect(types('import type { x } from "./types.js";', "/w/src/main.ts")).toBe(true);
    const index = importTest("typescript", "/w/src/lib/index.ts")!;
    expect(index('export * from "./lib";', "/w/src/main.ts")).toBe(true);
  });

  it("Python: import and from-import forms, relative ones, and a package by its folder", () => {
    const imports = importTest("python", "/w/pkg/geometry.py")!;
    for (const text of [
      "import pkg.geometry",
      "from pkg.geometry import Circle",
      "from .geometry import Circle",
      "from . import geometry",
      "from pkg import (scale, geometry)",
      "import os, geometry",
    ]) {
      expect(imports(`${text}\n`, "/w/main.py"), text).toBe(true);
    }
    expect(imports("import pkg.geometry_extra\n", "/w/main.py")).toBe(false);
    expect(imports("# geometry is not imported here\n", "/w/main.py")).toBe(false);
    expect(importTest("python", "/w/pkg/__init__.py")!("from pkg import scale\n", "/w/main.py")).toBe(true);
  });

  it("Python: a module named in another script, not taken inside a longer name", () => {
    const imports = importTest("python", "/w/pkg/मान.py")!;
    expect(imports("from pkg.मान import x\n", "/w/main.py")).toBe(true);
    expect(imports("import मान\n", "/w/main.py")).toBe(true);
    // म + ान: the vowel sign continues the name, so "मानक" is another module.
    expect(imports("import मानक\n", "/w/main.py")).toBe(false);
    expect(imports("from pkg import éमान\n", "/w/main.py")).toBe(false);
  });

  it("a file imported by the name of a symlink to it (an alias)", () => {
    expect(
      importTest("typescript", "/w/src/lib.ts", ["/w/src/alias.ts"])!('import "./alias";', "/w/src/a.ts"),
    ).toBe(true);
    expect(importTest("typescript", "/w/src/lib.ts")!('import "./alias";', "/w/src/a.ts")).toBe(false);
    expect(
      importTest("python", "/w/pkg/geometry.py", ["/w/pkg/shapes.py"])!("import pkg.shapes\n", "/w/m.py"),
    ).toBe(true);
    expect(importTest("c", "/w/api.h", ["/w/compat.h"])!('#include "compat.h"\n', "/w/m.c")).toBe(true);
  });

  it("C: quoted and angled includes naming the header", () => {
    const includes = importTest("c", "/w/include/api.h")!;
    expect(includes('#include "api.h"\n', "/w/main.c")).toBe(true);
    expect(includes("#  include <include/api.h>\n", "/w/main.c")).toBe(true);
    expect(includes('#include "myapi.h"\n', "/w/main.c")).toBe(false);
    expect(importTest("go", "/w/lib.go")).toBeUndefined();
  });
});

/**
 * A stand-in for a language client's view of its root (its folder watch and text cache): what
 * the scan reads of it, counting the texts read. The real client is used by the alongside tests.
 */
function rootView(texts: Record<string, string>, language?: { language: "c"; includedExtensions: string[] }) {
  const files = new Map(Object.entries(texts));
  const changes: string[] = [];
  const reads: string[] = [];
  const source: ImporterSource = {
    spec: language
      ? { ...language, extensions: [".c", ".h"], markers: ["compile_flags.txt"], command: "clangd", args: [] }
      : {
          language: "typescript",
          extensions: [".ts"],
          markers: ["tsconfig.json"],
          command: "tsls",
          args: [],
        },
    rootFiles: () =>
      Promise.resolve({ files: new Set(files.keys()), links: new Set<string>(), complete: true }),
    rootText: (path) => {
      reads.push(path);
      return files.get(path);
    },
    diskChangeMark: () => changes.length,
    diskChangesSince: (mark) => [...new Set(changes.slice(mark))],
    isOpen: () => false,
  };
  return {
    source,
    reads,
    change(path: string, text?: string) {
      if (text === undefined) files.delete(path);
      else files.set(path, text);
      changes.push(path);
    },
  };
}

describe("importersOf", () => {
  it("reads the whole root once, then only the files changed since", async () => {
    const use = 'import { answer } from "./lib";\n';
    const view = rootView({ "/w/lib.ts": "export const answer = 1;\n", "/w/a.ts": use, "/w/b.ts": "x;\n" });
    expect(await importersOf(view.source, "/w/lib.ts", 10)).toEqual(["/w/a.ts"]);
    expect(view.reads.sort()).toEqual(["/w/a.ts", "/w/b.ts"]);

    view.reads.length = 0;
    expect(await importersOf(view.source, "/w/lib.ts", 10)).toEqual(["/w/a.ts"]);
    expect(view.reads, "nothing changed: nothing read").toEqual([]);

    // b.ts now imports it, a.ts no longer does, c.ts is new and does, the written file changed.
    view.change("/w/b.ts", use);
    view.change("/w/a.ts", "x;\n");
    view.change("/w/c.ts", use);
    view.change("/w/lib.ts", "export const answer = 2;\n");
    expect(await importersOf(view.source, "/w/lib.ts", 10)).toEqual(["/w/b.ts", "/w/c.ts"]);
    expect(view.reads.sort()).toEqual(["/w/a.ts", "/w/b.ts", "/w/c.ts"]);

    // Deleted: no longer an importer, and not read.
    view.reads.length = 0;
    view.change("/w/c.ts");
    expect(await importersOf(view.source, "/w/lib.ts", 1)).toEqual(["/w/b.ts"]);
    expect(view.reads).toEqual([]);
  });

  it("goes on with a scan cut at its read budget where it stopped, at each call, until the root is read", async () => {
    const use = 'import { answer } from "./lib";\n';
    const view = rootView({
      "/w/lib.ts": "export const answer = 1;\n",
      "/w/a.ts": use,
      "/w/b.ts": "x;\n",
      "/w/c.ts": use,
      "/w/d.ts": "y;\n",
      "/w/e.ts": use,
    });
    expect(await importersOf(view.source, "/w/lib.ts", 10, { readBudget: 2 })).toEqual(["/w/a.ts"]);
    expect(view.reads).toEqual(["/w/a.ts", "/w/b.ts"]);
    // a.ts no longer imports it: read again as changed, besides two more not read yet.
    view.change("/w/a.ts", "z;\n");
    view.reads.length = 0;
    expect(await importersOf(view.source, "/w/lib.ts", 10, { readBudget: 2 })).toEqual(["/w/c.ts"]);
    expect(view.reads).toEqual(["/w/a.ts", "/w/c.ts", "/w/d.ts"]);
    view.reads.length = 0;
    expect(await importersOf(view.source, "/w/lib.ts", 10, { readBudget: 2 })).toEqual([
      "/w/c.ts",
      "/w/e.ts",
    ]);
    expect(view.reads).toEqual(["/w/e.ts"]);
    view.reads.length = 0;
    expect(await importersOf(view.source, "/w/lib.ts", 10, { readBudget: 2 })).toEqual([
      "/w/c.ts",
      "/w/e.ts",
    ]);
    expect(view.reads, "read whole: nothing changed, nothing read").toEqual([]);
  });

  it("goes on with a cut scan even when the changes since are not known, testing again what it read", async () => {
    const use = 'import "./lib";\n';
    const view = rootView({ "/w/lib.ts": "", "/w/a.ts": use, "/w/b.ts": "x;\n", "/w/c.ts": use });
    view.source.diskChangesSince = () => undefined;
    expect(await importersOf(view.source, "/w/lib.ts", 10, { readBudget: 2 })).toEqual(["/w/a.ts"]);
    view.change("/w/a.ts", "y;\n");
    view.reads.length = 0;
    expect(await importersOf(view.source, "/w/lib.ts", 10, { readBudget: 2 })).toEqual(["/w/c.ts"]);
    expect(view.reads, "those read tested again, then the one left").toEqual([
      "/w/a.ts",
      "/w/b.ts",
      "/w/c.ts",
    ]);
  });

  it("reads the whole root again when the changes since are not known", async () => {
    const view = rootView({ "/w/lib.ts": "", "/w/a.ts": 'import "./lib";\n' });
    view.source.diskChangesSince = () => undefined;
    expect(await importersOf(view.source, "/w/lib.ts", 10)).toEqual(["/w/a.ts"]);
    view.reads.length = 0;
    view.change("/w/b.ts", 'import "./lib";\n');
    expect(await importersOf(view.source, "/w/lib.ts", 10)).toEqual(["/w/a.ts", "/w/b.ts"]);
    expect(view.reads.sort()).toEqual(["/w/a.ts", "/w/b.ts"]);
  });
});

describe("passOnTest", () => {
  it("TypeScript: re-exports of the imported file pass it on; plain imports do not", () => {
    const passes = passOnTest({ language: "typescript" }, "/w/src/lib/core.ts")!;
    expect(passes('export * from "./core.js";\n', "/w/src/lib/index.ts")).toBe(true);
    expect(passes('export { api, type Api } from "./core";\n', "/w/src/lib/index.ts")).toBe(true);
    expect(passes('export * as core from "./lib/core.js";\n', "/w/src/index.ts")).toBe(true);
    expect(passes('import { api } from "./core.js";\nexport const x = api;\n', "/w/src/lib/index.ts")).toBe(
      false,
    );
    expect(passes('export * from "./other.js";\n', "/w/src/lib/index.ts")).toBe(false);
  });

  it("C: a header including the file passes it on; a source file does not", () => {
    const passes = passOnTest({ language: "c", includedExtensions: [".h"] }, "/w/h.h")!;
    expect(passes('#include "h.h"\n', "/w/all.h")).toBe(true);
    expect(passes('#include "h.h"\n', "/w/m.c")).toBe(false);
  });
});

describe("dependantsOf", () => {
  const core = "export function api(a: number) { return a; }\n";
  it("follows re-exports past the direct importers, each file once", async () => {
    const view = rootView({
      "/w/lib/core.ts": core,
      "/w/lib/index.ts": 'export * from "./core.js";\n',
      "/w/index.ts": 'export * from "./lib/index.js";\n',
      "/w/direct.ts": 'import { api } from "./lib/core.js";\n',
      "/w/barrel.ts": 'import { api } from "./lib/index.js";\nimport "./index.js";\n',
      "/w/top.ts": 'import { api } from "./index.js";\n',
      "/w/other.ts": "export const x = 1;\n",
    });
    expect(await dependantsOf(view.source, ["/w/lib/core.ts"], 10)).toEqual({
      files: ["/w/direct.ts", "/w/lib/index.ts", "/w/barrel.ts", "/w/index.ts", "/w/top.ts"],
    });
  });

  it("says which bound left files out: the file count, or the levels of re-exports", async () => {
    const chain: Record<string, string> = { "/w/f0.ts": core };
    for (let level = 1; level <= passOnDepth + 2; level++)
      chain[`/w/f${level}.ts`] = `export * from "./f${level - 1}.js";\n`;
    const view = rootView(chain);
    const deep = await dependantsOf(view.source, ["/w/f0.ts"], 10);
    expect(deep.files).toEqual(Array.from({ length: passOnDepth + 1 }, (_, index) => `/w/f${index + 1}.ts`));
    expect(deep.cut).toBe(`the bound of ${passOnDepth} levels of re-exports or includes`);
    const few = await dependantsOf(view.source, ["/w/f0.ts"], 2);
    expect(few).toEqual({ files: ["/w/f1.ts", "/w/f2.ts"], cut: "the 2-file bound" });
  });

  it("does not list the root of a language without an import test", async () => {
    const view = rootView({ "/w/lib.rs": "pub fn api() {}\n", "/w/main.rs": "mod lib;\n" });
    let listed = 0;
    const source: ImporterSource = {
      ...view.source,
      spec: {
        language: "rust",
        extensions: [".rs"],
        markers: ["Cargo.toml"],
        command: "rust-analyzer",
        args: [],
      },
      rootFiles: (heldBack) => {
        listed++;
        return view.source.rootFiles(heldBack);
      },
    };
    expect(await dependantsOf(source, ["/w/lib.rs"], 10)).toEqual({ files: [] });
    expect(listed).toBe(0);
  });

  it("does not say the levels' bound cut anything when the last level passes on to nothing", async () => {
    // A chain of headers as deep as the bound: the last one includes the file, as a header passes
    // it on, but nothing includes the last one.
    const chain: Record<string, string> = { "/w/h0.h": "int api(int a);\n" };
    for (let level = 1; level <= passOnDepth + 1; level++)
      chain[`/w/h${level}.h`] = `#include "h${level - 1}.h"\n`;
    const view = rootView(chain, { language: "c", includedExtensions: [".h"] });
    expect(await dependantsOf(view.source, ["/w/h0.h"], 10)).toEqual({
      files: Array.from({ length: passOnDepth + 1 }, (_, index) => `/w/h${index + 1}.h`),
    });
    chain["/w/main.c"] = `#include "h${passOnDepth + 1}.h"\n`;
    const deeper = rootView(chain, { language: "c", includedExtensions: [".h"] });
    expect((await dependantsOf(deeper.source, ["/w/h0.h"], 10)).cut).toBe(
      `the bound of ${passOnDepth} levels of re-exports or includes`,
    );
  });
});
