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

  it("reads code without semicolons, many uses and no import, in one pass, and keeps statements apart", () => {
    const test = importsNameTest("typescript", "helper")!;
    // 2 000 statements with no semicolon: the clause pattern used to backtrack over every later
    // use (~25 s here); the one-line form ~90 s.
    const lines = Array.from({ length: 2000 }, (_, n) => `export const v${n} = helper(${n})\n`).join("");
    expect(test(lines)).toBe(false);
    expect(test(Array.from({ length: 4000 }, (_, n) => `}export default helper(${n})`).join(""))).toBe(false);
    expect(test(`${lines}import { a, helper as h } from "./x"\n`)).toBe(true);
    expect(test('export{helper}from"./x"')).toBe(true);
    expect(test('import {other} from "./x"\nconst a = helper\nimport b from "./b"\n')).toBe(false);
    expect(test(`${"x".repeat(200_000)} helper ${"y ".repeat(50_000)} require(`)).toBe(true);
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
