import { describe, expect, it } from "vitest";
import { codeOnly } from "../actions/code-only.js";
import { uniqueOneNameContext } from "./name-hint.js";
import { resolvePosition } from "./resolve-position.js";
import { focusOf } from "./symbol-focus.js";
import { wholeColumns } from "./whole-occurrences.js";

const text = [
  "const total = add(a, b);",
  "",
  "function add(x: number, y: number) {",
  "  return x + y;",
  "}",
].join("\n");

describe("resolvePosition", () => {
  it("refuses a symbol of spaces, brackets, separators or quotes, and takes an operator", () => {
    for (const symbol of [" ", "\t", ".", "(", ")", "[]", "{", ",", ";", ":", "'", '"', "`", " . "]) {
      expect(() => resolvePosition(text, 1, symbol, "a.ts"), JSON.stringify(symbol)).toThrow(/holds no name/);
    }
    expect(resolvePosition(text, 4, "+", "a.ts")).toMatchObject({ line: 3, character: 11 });
  });

  it("reads combining marks, connectors and joiners as parts of a name, as the languages do", () => {
    // मान: म, then the vowel sign ा (a spacing mark), then न. The lone म is another name.
    const hindi = "मान = 1\nम = 2\nprint(मान + म)";
    expect(resolvePosition(hindi, 3, "म", "x.py")).toEqual({
      line: 2,
      character: 12,
      length: 1,
      identifier: "म",
    });
    expect(resolvePosition(hindi, 3, "मान", "x.py")).toEqual({
      line: 2,
      character: 6,
      length: 3,
      identifier: "मान",
    });
    // café written decomposed: e then U+0301.
    const cafe = "cafe\u0301";
    const decomposed = `${cafe} = 1\nprint(${cafe})`;
    expect(resolvePosition(decomposed, 2, cafe, "x.py")).toEqual({
      line: 1,
      character: 6,
      length: 5,
      identifier: cafe,
    });
    expect(resolvePosition(decomposed, 2, "cafe", "x.py")).toMatchObject({ character: 6, identifier: cafe });
    expect(focusOf(`menu.${cafe}`)).toEqual({ name: cafe, offset: 5, names: 2 });
    expect(wholeColumns("a\u200Cb = a", "a")).toEqual([6]);
    expect(wholeColumns("x\u203Fy = x", "x")).toEqual([6]);
    // An astral letter (a surrogate pair) is one name character.
    expect(wholeColumns("𝑥𝑦 = 𝑥", "𝑥")).toEqual([7]);
  });

  it("finds the symbol on the asked line, as 0-based line and column", () => {
    expect(resolvePosition(text, 3, "add", "a.ts")).toEqual({
      line: 2,
      character: 9,
      length: 3,
      identifier: "add",
    });
  });

  it("points a dotted symbol at its last name, and says so", () => {
    const found = resolvePosition("const p = config.port + 1;", 1, "config.port", "a.ts");
    expect(found).toMatchObject({ line: 0, character: 17, length: 4, identifier: "port" });
    expect(found.note).toBe("'config.port' holds 2 names; used 'port', the last");
  });

  it("points a symbol with punctuation around one name at that name, without a note", () => {
    expect(resolvePosition("  return parse(text);", 1, "parse(", "a.ts")).toEqual({
      line: 0,
      character: 9,
      length: 5,
      identifier: "parse",
    });
  });

  it("takes a symbol ending in punctuation as whole on its line, though a name follows it", () => {
    const lines = ["stack.push();", "items.push(item);"];
    expect(resolvePosition(lines, 2, "push(", "a.ts")).toEqual({
      line: 1,
      character: 6,
      length: 4,
      identifier: "push",
    });
  });

  it("finds the shortest text around an occurrence that is unique on its line", () => {
    const line = "this.count = count;";
    expect(wholeColumns(line, "count")).toEqual([5, 13]);
    expect(uniqueOneNameContext(line, 13, 5)).toBe("count;");
    expect(uniqueOneNameContext(line, 5, 5)).toBe(".count");
  });

  it("takes a symbol with no name characters whole", () => {
    expect(resolvePosition("a ?? b", 1, "??", "a.ts")).toMatchObject({
      character: 2,
      length: 2,
      identifier: "??",
    });
  });

  it("extends the last name of a partial dotted symbol to the identifier holding it", () => {
    const found = resolvePosition("x = settings.portNumber", 1, "settings.port", "a.py");
    expect(found).toMatchObject({ character: 13, identifier: "portNumber" });
    expect(found.note).toContain("used 'portNumber', which contains it");
  });

  it("lists the other whole occurrences on the line used, for a caller to try or mention", () => {
    expect(resolvePosition("    this.count = count;", 1, "count", "c.ts")).toMatchObject({
      character: 9,
      alternatives: [17],
    });
    expect(resolvePosition("    this.count = count;", 1, "= count", "c.ts")).not.toHaveProperty(
      "alternatives",
    );
    expect(resolvePosition("const address = add(1);", 1, "add", "a.ts")).not.toHaveProperty("alternatives");
  });

  it("prefers a whole-identifier occurrence over a substring of a longer one", () => {
    expect(resolvePosition("const address = add(1);", 1, "add", "a.ts").character).toBe(16);
  });

  it("looks a few lines either side and says which line was used", () => {
    const found = resolvePosition(text, 2, "return", "a.ts");
    expect(found.line).toBe(3);
    expect(found.note).toContain("used line 4");
  });

  it("prefers a whole identifier on a nearby line over a substring on the asked line's neighbours", () => {
    const lines = ["class Run {", "  options: RunOptions;", "  private state = 1;", "}"].join("\n");
    const found = resolvePosition(lines, 3, "Run", "run.ts");
    expect(found).toMatchObject({ line: 0, character: 6 });
    expect(found.note).toBe("'Run' is not on line 3; used line 1: class Run {");
  });

  it("takes a nearby line where the symbol is code before a nearer one naming it in a comment or string", () => {
    const lines = [
      "export function describe(shape: Shape): string {",
      "  // describe returns the label of a shape",
      '  const label = "area";',
      "  return `${label}: ${shape.area()}`;",
      "}",
    ];
    const codeOf = (line: string) => codeOnly(line, "typescript");
    const found = resolvePosition(lines, 3, "describe", "util.ts", { codeOf });
    expect(found).toMatchObject({ line: 0, character: 16, identifier: "describe" });
    expect(found.note).toBe(
      "'describe' is not on line 3; used line 1: export function describe(shape: Shape): string {",
    );
    // Below as well as above, and a string counts as a comment does.
    const below = ['  const label = "shape";', "  let x = 1;", "  use(shape);"];
    expect(resolvePosition(below, 2, "shape", "util.ts", { codeOf })).toMatchObject({
      line: 2,
      character: 6,
    });
    // On a line with it in both, its occurrence in code is used, the other is an alternative.
    const both = ["  let x = 1;", '  use("shape", shape);'];
    expect(resolvePosition(both, 1, "shape", "util.ts", { codeOf })).toMatchObject({
      line: 1,
      character: 15,
      alternatives: [7],
    });
    // Only comments nearby: the nearest is used, as without codeOf.
    expect(resolvePosition(["// shape", "let x = 1;"], 2, "shape", "util.ts", { codeOf }).line).toBe(0);
    // The asked line is taken as it reads, a comment there too (the caller decides what then).
    expect(resolvePosition(lines, 2, "describe", "util.ts", { codeOf }).line).toBe(1);
    // Without codeOf, the nearest line, comment or not.
    expect(resolvePosition(lines, 3, "describe", "util.ts").line).toBe(1);
  });

  it("classifies no line when the symbol occurs once on the asked line, and only the lines it must otherwise", () => {
    const lines = [
      "// parse the input",
      "const input = read();",
      "const parsed = parse(input);",
      "// parse again",
      'log("parse", parse(input));',
    ];
    const asked: number[] = [];
    const codeOf = (line: string, index: number) => {
      asked.push(index);
      return codeOnly(line, "typescript");
    };
    // Once on the asked line: taken as it reads, nothing classified (a line's code can cost a
    // scan from the file's start).
    expect(resolvePosition(lines, 3, "parse", "app.ts", { codeOf })).toMatchObject({
      line: 2,
      character: 15,
    });
    expect(asked).toEqual([]);
    // Twice on the asked line: that line alone.
    expect(resolvePosition(lines, 5, "parse", "app.ts", { codeOf })).toMatchObject({
      line: 4,
      character: 13,
    });
    expect(asked).toEqual([4]);
    // Not on the asked line: the nearby lines holding it, never the asked one.
    asked.length = 0;
    expect(resolvePosition(lines, 2, "parse", "app.ts", { codeOf })).toMatchObject({
      line: 2,
      character: 15,
    });
    expect(asked.toSorted((a, b) => a - b)).toEqual([0, 2, 3, 4]);
  });

  it("says so when the asked line has the symbol only inside a longer identifier", () => {
    const lines = ["class Run {", "  options: RunOptions;", "}"].join("\n");
    const found = resolvePosition(lines, 2, "Run", "run.ts");
    expect(found).toMatchObject({ line: 0, character: 6, identifier: "Run" });
    expect(found.note).toBe("line 2 has 'Run' only inside 'RunOptions'; used line 1: class Run {");
  });

  it("says which longer identifier it used when only a substring matches", () => {
    const found = resolvePosition("  options: RunOptions;", 1, "Run", "run.ts");
    expect(found.character).toBe(11);
    expect(found.identifier).toBe("RunOptions");
    expect(found.note).toBe("no identifier is exactly 'Run' there; used 'RunOptions', which contains it");
  });

  it("quotes the line's text and suggests a near name when the symbol is not there", () => {
    expect(() =>
      resolvePosition("const value = 1;\n\n\n\n\n\n\n\nlet valeu = 2;", 9, "valu", "a.ts"),
    ).toThrow(/that line reads: "let valeu = 2;"; did you mean 'valeu'/);
  });

  it("suggests the closest name of the line's code, not the first loosely matching one", () => {
    const suggest = (line: string, symbol: string) => {
      try {
        resolvePosition(line, 1, symbol, "a.ts");
        return "found";
      } catch (error) {
        return /did you mean '([^']+)'/.exec((error as Error).message)?.[1];
      }
    };
    // A one-letter name is inside nearly any symbol: not a suggestion.
    expect(suggest("const a = parseConfig(x);", "parseConfigs")).toBe("parseConfig");
    expect(suggest("const a = readConfig(x);", "parseConfig")).toBeUndefined();
    // The closest, not the first: 'parseConf' contains the typo's stem, 'parseConfg' is one edit away.
    expect(suggest("parseConf(parseConfg);", "parseConfig")).toBe("parseConfg");
    // Words in strings and comments are not code.
    expect(suggest('log("parseConfgi failed"); // parseConfgi', "parseConfig")).toBeUndefined();
    expect(suggest("x = 1  # parseConfgi here", "parseConfig")).toBeUndefined();
  });

  it("rejects a line outside the file, counting its lines as an editor does", () => {
    expect(() => resolvePosition(text, 99, "add", "a.ts")).toThrow(/outside a.ts, which has 5 lines/);
    // The newline ending the last line starts no sixth line.
    expect(() => resolvePosition(`${text}\n`, 99, "add", "a.ts")).toThrow(/outside a.ts, which has 5 lines/);
    expect(() => resolvePosition("x\n", 3, "x", "a.ts")).toThrow(/outside a.ts, which has 1 line \(/);
  });

  it("points a call at its callee, and never at a number or a string's words", () => {
    expect(focusOf("add(1, 2)")).toEqual({ name: "add", offset: 0, names: 1 });
    expect(focusOf("new Square(3)")).toMatchObject({ name: "Square", offset: 4, names: 2 });
    expect(focusOf('log("total is", total)')).toMatchObject({ name: "log", names: 2, callee: true });
    expect(focusOf("config.port")).toEqual({ name: "port", offset: 7, names: 2 });
    expect(focusOf("items[0]")).toEqual({ name: "items", offset: 0, names: 1 });
    // Only a string asked about (an import's path): its words are what there is.
    expect(focusOf("'./math.js'")).toMatchObject({ name: "js" });
    const line = "export const total = add(1, 2);";
    expect(resolvePosition(line, 1, "add(1, 2)", "a.ts")).toMatchObject({ character: 21, identifier: "add" });
    expect(resolvePosition(line, 1, "add(1, 2)", "a.ts").note).toBeUndefined();
    expect(resolvePosition("f(g(x));", 1, "f(g(x))", "a.ts")).toMatchObject({
      character: 0,
      note: "'f(g(x))' holds 3 names; used 'f', the one called",
    });
  });

  it("suggests, for every occurrence of a name, text that resolves back to that occurrence", () => {
    const lines = [
      "export const k = foo(bar) + foo(bar);",
      "this.count = count;",
      "p.x = q.x;",
      "f(x)(x) + g(x, x)",
      "new Square(side, Square(side))",
      'log("total", total, total.total)',
      "a.b.c = a.b.c + c(b(a))",
      "const $x = $x$ + x$ + $x;",
    ];
    let checked = 0;
    for (const [index, line] of lines.entries()) {
      const names = new Set(line.match(/[\p{L}_$][\p{L}\p{N}_$]*/gu));
      for (const name of names) {
        for (const column of wholeColumns(line, name)) {
          const hint = uniqueOneNameContext(line, column, name.length);
          expect(hint, `${name} at ${column} of ${line}`).toBeDefined();
          const found = resolvePosition(lines, index + 1, hint!, "a.ts");
          expect(
            { line: found.line, character: found.character },
            `${hint} for ${name} at ${column}`,
          ).toEqual({
            line: index,
            character: column,
          });
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(30);
  });

  it("suggests text around a name that holds no other name", () => {
    const line = "p.x = q.x;";
    expect(uniqueOneNameContext(line, 8, 1)).not.toMatch(/q/);
    expect(focusOf(uniqueOneNameContext(line, 8, 1)!).names).toBe(1);
    expect(resolvePosition(line, 1, uniqueOneNameContext(line, 8, 1)!, "a.ts").character).toBe(8);
    expect(resolvePosition(line, 1, uniqueOneNameContext(line, 2, 1)!, "a.ts").character).toBe(2);
  });
});
