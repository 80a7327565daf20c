import { describe, expect, it } from "vitest";
import { importTest } from "./importers.js";

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

  it("C: quoted and angled includes naming the header", () => {
    const includes = importTest("c", "/w/include/api.h")!;
    expect(includes('#include "api.h"\n', "/w/main.c")).toBe(true);
    expect(includes("#  include <include/api.h>\n", "/w/main.c")).toBe(true);
    expect(includes('#include "myapi.h"\n', "/w/main.c")).toBe(false);
    expect(importTest("go", "/w/lib.go")).toBeUndefined();
  });
});
