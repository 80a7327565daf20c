import { describe, expect, it } from "vitest";
import { codeOnlyLines } from "../actions/code-only.js";
import { specifierAliasOf } from "./specifier-alias.js";

/** The renamed name's place for the alias at 0-based `line`, `character` of TypeScript `lines`. */
function renamedAt(lines: readonly string[], line: number, character: number) {
  const code = codeOnlyLines(lines, "typescript");
  return specifierAliasOf({ text: (at) => lines[at], code }, { line, character });
}

describe("the name a specifier's alias renames", () => {
  it("reads a specifier on one line, in a list over several, and one split over lines", () => {
    expect(renamedAt(['import { add as plus } from "./m";'], 0, 16)).toEqual({ line: 0, character: 9 });
    const list = ["import {", "  sub,", "  add as plus,", '} from "./m";'];
    expect(renamedAt(list, 2, 9)).toEqual({ line: 2, character: 2 });
    const split = ["export {", "  add as", "    twice,", "  sub", "    as minus,", "};"];
    expect(renamedAt(split, 2, 4)).toEqual({ line: 1, character: 2 });
    expect(renamedAt(split, 4, 7)).toEqual({ line: 3, character: 2 });
  });

  it("reads past comments in the list, their parentheses and braces too", () => {
    const lines = [
      "import type {",
      "  Shape, // a shape (any {kind})",
      "  /* the color",
      "     (of the shape) */",
      "  Color as /* hue */ Hue,",
      '} from "./m";',
    ];
    expect(renamedAt(lines, 4, 21)).toEqual({ line: 4, character: 2 });
  });

  it("finds none at a name after `as` outside a list, at a use, or past the lines read back", () => {
    expect(renamedAt(["const c = [Shape, Color as Color];"], 0, 27)).toBeUndefined();
    expect(renamedAt(["f(", "  Color as", "  Color,", ");"], 2, 2)).toBeUndefined();
    expect(renamedAt(["import {", "  add as plus,", '} from "./m";', "plus(1, 2);"], 3, 0)).toBeUndefined();
    expect(renamedAt(["export * as ns from './m';"], 0, 12)).toBeUndefined();
    const long = [
      "import {",
      ...Array.from({ length: 100 }, (_, i) => `  a${i},`),
      "  add as plus,",
      "} from './m';",
    ];
    expect(renamedAt(long, 101, 9)).toBeUndefined();
    expect(renamedAt(long.slice(2), 99, 9)).toBeUndefined();
  });

  // Read a line at a time, a template literal's `import {` over lines, or a regular expression's
  // `*/` (taken for the end of a comment the JSDoc in the list above opened), made an array
  // below an import list: the cast's type was dropped as the alias of the value.
  it("reads a template literal over lines, a regular expression and a string as no code", () => {
    const template = [
      "export const doc = `",
      "import {",
      "`;",
      "export const all = [",
      "  doc,",
      "  Color as Color,",
      "];",
    ];
    expect(renamedAt(template, 5, 11)).toBeUndefined();
    const regex = [
      "import {",
      "  /**",
      "   * The color.",
      "   */",
      "  Color,",
      '} from "./color.js";',
      "export const re = /a*/;",
      "export const all = [",
      "  re,",
      "  Color as Color,",
      "];",
    ];
    expect(renamedAt(regex, 9, 11)).toBeUndefined();
    // A brace in a string within the list is no list's end.
    const quoted = ['import { "}" as brace,', "  add as plus,", '} from "./m";'];
    expect(renamedAt(quoted, 1, 9)).toEqual({ line: 1, character: 2 });
  });

  // `lsp references` of a type cast to in a generated table (`key: values[i] as Foo,` on lines
  // with no brace) read 100 lines back at each of them: ~0.4 ms a reference, a second for 3000.
  it("reads no line above a name after `as` whose own line shows it is no specifier's alias", () => {
    const lines = [
      "export const table = {",
      ...Array.from({ length: 200 }, (_, i) => `  key${i}: values_${i} as Foo, // entry ${i}`),
      "};",
    ];
    const read: number[] = [];
    const code = codeOnlyLines(lines, "typescript");
    const at = (line: number) => lines[line]!.indexOf("as Foo") + 3;
    for (let line = 1; line <= 200; line++) {
      expect(
        specifierAliasOf(
          {
            text: (asked) => lines[asked],
            code: (asked) => {
              read.push(asked);
              return code(asked);
            },
          },
          { line, character: at(line) },
        ),
      ).toBeUndefined();
    }
    expect(read).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
  });
});
