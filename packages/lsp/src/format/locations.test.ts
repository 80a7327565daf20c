import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { Location, LocationLink } from "vscode-languageserver-protocol";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { tempTree } from "../test-support/fixtures.js";
import { LineReader, presentLocations, sortedLocations, type PlainLocation } from "./locations.js";

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
