import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { Location, LocationLink } from "vscode-languageserver-protocol";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { tempTree } from "../test-support/fixtures.js";
import { writeFileSync } from "node:fs";
import {
  clipAround,
  distinctPlaces,
  formatLocation,
  LineReader,
  presentLocations,
  shownLineLimit,
  shownLineLimitOver,
  sortedLocations,
  type PlainLocation,
} from "./locations.js";

/** The plain reading: every file location in answer order (the oracle for the sort). */
function plainLocations(answer: readonly Location[]): PlainLocation[] {
  return answer
    .filter((location) => location.uri.startsWith("file:"))
    .map((location) => ({ file: fileURLToPath(location.uri), range: location.range }));
}

const at = (line: number, character: number) => ({
  start: { line, character },
  end: { line, character: character + 1 },
});

describe("sortedLocations", () => {
  it("orders as a sort by file, line and column over every location, dropping non-file URIs", () => {
    const files = ["file:///w/b.ts", "file:///w/a.ts", "file:///w/B.ts", "file:///w/sub/a.ts", "untitled:x"];
    const answer: Location[] = [];
    let seed = 7;
    const next = (bound: number) => (seed = (seed * 48271) % 2147483647) % bound;
    for (let i = 0; i < 300; i++)
      answer.push({ uri: files[next(files.length)]!, range: at(next(20), next(5)) });
    const expected = plainLocations(answer).sort(
      (a, b) =>
        a.file.localeCompare(b.file) ||
        a.range.start.line - b.range.start.line ||
        a.range.start.character - b.range.start.character,
    );
    const sorted = sortedLocations(answer);
    expect(sorted).toEqual(expected);
    expect(sorted.length).toBeGreaterThan(200);
    expect(sorted.some((location) => location.file.includes("x"))).toBe(false);
  });

  it("takes a single location, links (their selection range) and nothing", () => {
    const link: LocationLink = {
      targetUri: "file:///w/a.ts",
      targetRange: at(1, 0),
      targetSelectionRange: at(2, 4),
    };
    expect(sortedLocations([link])).toEqual([{ file: fileURLToPath("file:///w/a.ts"), range: at(2, 4) }]);
    expect(sortedLocations({ uri: "file:///w/a.ts", range: at(3, 1) })).toEqual([
      { file: "/w/a.ts", range: at(3, 1) },
    ]);
    expect(sortedLocations(null)).toEqual([]);
  });
});

describe("presentLocations", () => {
  it("leaves out locations in files that do not exist, checking each file once", () => {
    const at = (file: string, line: number): PlainLocation => ({
      file,
      range: { start: { line, character: 0 }, end: { line, character: 1 } },
    });
    const checked: string[] = [];
    const exists = (file: string) => {
      checked.push(file);
      return file !== "/p/gone.c";
    };
    const { present, gone } = presentLocations(
      [at("/p/a.c", 1), at("/p/gone.c", 2), at("/p/gone.c", 5), at("/p/b.c", 3)],
      exists,
    );
    expect(present).toEqual([at("/p/a.c", 1), at("/p/b.c", 3)]);
    expect(gone).toBe(2);
    expect(checked).toEqual(["/p/a.c", "/p/gone.c", "/p/b.c"]);
  });
});

describe("LineReader", () => {
  it("tells a file gone from one there but unreadable, reading each file once", () => {
    const tree = tempTree("reader", { "a.ts": "one\n  two\n" });
    try {
      mkdirSync(join(tree.dir, "folder"));
      const reader = new LineReader();
      expect(reader.exists(join(tree.dir, "a.ts"))).toBe(true);
      expect(reader.line(join(tree.dir, "a.ts"), 1)).toBe("two");
      expect(reader.exists(join(tree.dir, "gone.ts"))).toBe(false);
      expect(reader.exists(join(tree.dir, "a.ts", "below.ts")), "a path through a file").toBe(false);
      // A folder (EISDIR when read) stands in for a file there but unreadable: root reads anything.
      expect(reader.exists(join(tree.dir, "folder"))).toBe(true);
      expect(reader.line(join(tree.dir, "folder"), 0)).toBe("");
    } finally {
      tree.remove();
    }
  });
});

describe("clipAround and the rows of a long line", () => {
  it("cuts a long line around the column, marking each cut side, never splitting a surrogate pair", () => {
    expect(clipAround("  short line  ", 4)).toBe("short line");
    const long = `${"a".repeat(500)}TARGET${"b".repeat(500)}`;
    const clipped = clipAround(`    ${long}`, 504);
    expect(clipped.length).toBe(shownLineLimit + 2);
    expect(clipped.startsWith("…a")).toBe(true);
    expect(clipped.endsWith("b…")).toBe(true);
    expect(clipped.indexOf("TARGET")).toBe(1 + shownLineLimit / 4);
    expect(clipAround(long, 0)).toBe(`${long.slice(0, shownLineLimit)}…`);
    expect(clipAround(long, long.length)).toBe(`…${long.slice(-shownLineLimit)}`);
    // Astral characters (two UTF-16 units each) on both cut sides: no lone half is left.
    const astral = "𝑥".repeat(300);
    for (const column of [0, 1, 151, 300, 599]) {
      const cut = clipAround(astral, column);
      expect(cut.replace(/…/g, "").length % 2, `column ${column}`).toBe(0);
      expect(/[\uD800-\uDFFF]/u.test(cut.replace(/…/g, "").replace(/𝑥/gu, "")), `column ${column}`).toBe(
        false,
      );
    }
  });

  it("keeps a references answer over one 24 KB line small: clipped rows, shorter past the budget", () => {
    const tree = tempTree("long-line", {});
    try {
      const file = join(tree.dir, "min.js");
      const line = Array.from({ length: 2400 }, (_, i) => `v${i}=f(x);`).join("");
      writeFileSync(file, `${line}\n`);
      expect(line.length).toBeGreaterThan(24_000);
      const reader = new LineReader();
      const rows = Array.from({ length: 50 }, (_, i) =>
        formatLocation({ file, range: at(0, i * 480) }, () => "min.js", reader),
      );
      const total = rows.join("\n").length;
      expect(total).toBeLessThan(50 * (shownLineLimit + 30));
      expect(rows[0]).toMatch(/^min\.js:1:1  v0=f\(x\);/);
      for (const row of rows)
        expect(row.length).toBeLessThanOrEqual("min.js:1:23521  ".length + shownLineLimit + 2);
      // Past the answer's budget for shown text (a 200-row outline of the same line), rows are shorter.
      const more = Array.from({ length: 150 }, (_, i) =>
        formatLocation({ file, range: at(0, i * 150) }, () => "min.js", reader),
      );
      expect(more.at(-1)!.length).toBeLessThanOrEqual("min.js:1:22351  ".length + shownLineLimitOver + 2);
      for (const [i, row] of rows.entries()) expect(row, `row ${i}`).toContain(`f(x);`);
    } finally {
      tree.remove();
    }
  });
});

describe("distinctPlaces", () => {
  const span = (line: number, character: number, length: number) => ({
    start: { line, character },
    end: { line, character: character + length },
  });
  const lines = [
    'import { add as plus, type Shape as Form } from "./math.js";',
    "export { add as addAgain };",
    "export const p = plus(add(1, 2), 3);",
    "  add as again,",
    "const v = (add as typeof add)(1, 2);",
  ];
  const reader = new LineReader().prime("/w/a.ts", lines);
  const of = (...ranges: ReturnType<typeof span>[]) => ranges.map((range) => ({ file: "/w/a.ts", range }));

  it("keeps a specifier's renamed name and drops its alias, the alias alone and its uses kept", () => {
    const all = of(
      span(0, 9, 3), // add
      span(0, 16, 4), // plus: the alias of add, listed
      span(1, 9, 3), // add
      span(1, 16, 8), // addAgain
      span(2, 17, 4), // plus(
      span(2, 22, 3), // add(
      span(3, 9, 5), // again: its add is not listed
    );
    expect(distinctPlaces(all, reader, "typescript")).toEqual(
      of(span(0, 9, 3), span(1, 9, 3), span(2, 17, 4), span(2, 22, 3), span(3, 9, 5)),
    );
    // `type Shape as Form` alike (a line's start in a specifier list over several lines: below).
    expect(distinctPlaces(of(span(0, 27, 5), span(0, 36, 4)), reader, "typescript")).toEqual(
      of(span(0, 27, 5)),
    );
  });

  it("drops a range listed twice, and keeps a type assertion's two names", () => {
    expect(distinctPlaces(of(span(2, 22, 3), span(2, 22, 3), span(2, 22, 4)), reader, "typescript")).toEqual(
      of(span(2, 22, 3), span(2, 22, 4)),
    );
    // Sorted by start alone: the repeat can follow another range of the same start.
    expect(distinctPlaces(of(span(2, 22, 3), span(2, 22, 4), span(2, 22, 3)), reader, "typescript")).toEqual(
      of(span(2, 22, 3), span(2, 22, 4)),
    );
    expect(distinctPlaces(of(span(4, 11, 3), span(4, 25, 3)), reader, "typescript")).toEqual(
      of(span(4, 11, 3), span(4, 25, 3)),
    );
  });

  it("keeps both names of a value cast to its type of the same name, and drops a multi-line list's alias", () => {
    const casts = new LineReader().prime("/w/b.ts", [
      "export const s = [Shape, Color as Color];",
      "f(a, Color as Color);",
      "const e = <p>{Color as Color}</p>;",
      "const v = (",
      "  Color as Color",
      ");",
      "import {",
      "  add,",
      "  Color as Hue,",
      '} from "./m.js";',
      "import Default, { Color as Tint } from './m.js';",
      "from m import (",
      "    add as plus,",
      ")",
    ]);
    const at = (...ranges: ReturnType<typeof span>[]) => ranges.map((range) => ({ file: "/w/b.ts", range }));
    const uses = at(span(0, 25, 5), span(0, 34, 5), span(1, 5, 5), span(1, 14, 5));
    expect(distinctPlaces(uses, casts, "typescript")).toEqual(uses);
    expect(distinctPlaces(at(span(2, 14, 5), span(2, 23, 5)), casts, "typescript")).toEqual(
      at(span(2, 14, 5), span(2, 23, 5)),
    );
    expect(distinctPlaces(at(span(4, 2, 5), span(4, 11, 5)), casts, "typescript")).toEqual(
      at(span(4, 2, 5), span(4, 11, 5)),
    );
    expect(distinctPlaces(at(span(8, 2, 5), span(8, 11, 3)), casts, "typescript")).toEqual(at(span(8, 2, 5)));
    expect(distinctPlaces(at(span(10, 18, 5), span(10, 27, 4)), casts, "typescript")).toEqual(
      at(span(10, 18, 5)),
    );
    expect(distinctPlaces(at(span(12, 4, 3), span(12, 11, 4)), casts, "typescript")).toEqual(
      at(span(12, 4, 3)),
    );
  });
});
