import { describe, expect, it } from "vitest";
import { importsNameTest } from "./imports-name.js";

describe("importsNameTest", () => {
  it("finds TypeScript imports, re-exports and requires of the name, over several lines too", () => {
    const test = importsNameTest("typescript", "shared")!;
    expect(test("import { a, shared } from './lib';\n")).toBe(true);
    expect(test("import {\n  a,\n  shared,\n} from '@x/lib';\n")).toBe(true);
    expect(test("export { shared as other } from './lib';\n")).toBe(true);
    expect(test("import shared from './lib';\n")).toBe(true);
    expect(test("const { shared } = require('./lib');\n")).toBe(true);
    expect(test("// shared\nimport { sharedThing } from './lib';\nshared();\n")).toBe(false);
    expect(test("import { a } from './lib';\nconst shared = 1;\n")).toBe(false);
  });

  it("finds Python and Rust imports; none for languages importing files or packages", () => {
    const python = importsNameTest("python", "shared")!;
    expect(python("from lib import a, shared\n")).toBe(true);
    expect(python("from lib import (\n    a,\n    shared,\n)\n")).toBe(true);
    expect(python("import shared\n")).toBe(true);
    expect(python("# shared\nfrom lib import a\n")).toBe(false);
    const rust = importsNameTest("rust", "shared")!;
    expect(rust("use crate::lib::{a, shared};\n")).toBe(true);
    expect(rust("pub(crate) use lib::shared;\n")).toBe(true);
    expect(rust("// use shared\nfn f() {}\n")).toBe(false);
    expect(importsNameTest("go", "Shared")).toBeUndefined();
    expect(importsNameTest("c", "shared")).toBeUndefined();
  });
});
