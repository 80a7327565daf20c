import { describe, expect, it, vi } from "vitest";
import type { StructuralMatch } from "../match/find-matches.js";
import { rewriteFile } from "./rewrite-file.js";
import type * as Template from "./template.js";

const lineEnding = vi.hoisted(() => ({ calls: 0 }));
const sourceLines = vi.hoisted(() => ({ built: 0 }));
vi.mock("./template.js", async (importOriginal) => {
  const actual = await importOriginal<typeof Template>();
  return {
    ...actual,
    lineEnding: (text: string) => {
      lineEnding.calls++;
      return actual.lineEnding(text);
    },
    SourceLines: class extends actual.SourceLines {
      constructor(text: string) {
        super(text);
        sourceLines.built++;
      }
    },
  };
});

/** Matches of `foo($A)` at each of `starts` (`foo(` + one character + `)`). */
function fooMatches(source: string, starts: readonly number[]): StructuralMatch[] {
  return starts.map((start) => ({
    start,
    end: start + 6,
    line: source.slice(0, start).split("\n").length - 1,
    column: start - source.lastIndexOf("\n", start - 1) - 1,
    text: source.slice(start, start + 6),
    bindings: new Map([["A", { text: source[start + 4]!, start: start + 4, end: start + 5 }]]),
  }));
}

describe("rewriteFile", () => {
  it("reads the file's line ending once, not once per match (each read is the whole file)", () => {
    const source = "foo(1)\r\nfoo(2)\r\nfoo(3)\r\n";
    const matches: StructuralMatch[] = [0, 8, 16].map((start, index) => ({
      start,
      end: start + 6,
      line: index,
      column: 0,
      text: `foo(${index + 1})`,
      bindings: new Map([["A", { text: String(index + 1), start: start + 4, end: start + 5 }]]),
    }));
    lineEnding.calls = 0;
    const rewrite = rewriteFile(source, matches, "bar(\n$A)");
    expect(rewrite.newText).toBe("bar(\r\n1)\r\nbar(\r\n2)\r\nbar(\r\n3)\r\n");
    expect(lineEnding.calls).toBe(1);
  });

  it("reads the file's lines once, not back from every match (a minified line of 50,000 matches was 50,000 scans of it)", () => {
    // One line, as a minified file: finding each match's indent and what follows it on its line
    // from its offset scanned the line for every match (25 s for 50,000 matches on 540 kB).
    const source = `${Array.from({ length: 200 }, (_, index) => `foo(${index % 10});`).join("")}\n`;
    const starts = Array.from({ length: 200 }, (_, index) => index * 7);
    sourceLines.built = 0;
    const rewrite = rewriteFile(source, fooMatches(source, starts), "bar(\n$A)", {
      keepTrailingSemicolon: true,
    });
    expect(sourceLines.built).toBe(1);
    expect(rewrite.replacements).toHaveLength(200);
    // Code follows each match on its line (the `;` kept, then the next call): the template's
    // newline puts it on a line of its own, indented as the match (not at all, here).
    expect(rewrite.newText.startsWith("bar(\n0);bar(\n1);")).toBe(true);
    expect(rewrite.newText.endsWith("bar(\n9);\n")).toBe(true);
  });

  it("indents later lines as the match's line and puts the code after a match on the template's last line", () => {
    // CRLF, tabs and spaces, a match whose line ends in blanks (no code after it), a last line
    // without a newline.
    const source = "\t  foo(1); x\r\n  foo(2)  \r\n\tfoo(3)";
    const matches = fooMatches(source, [3, 16, 27]);
    const rewrite = rewriteFile(source, matches, "bar(\n$A)\n", { keepTrailingSemicolon: true });
    expect(rewrite.newText).toBe(
      "\t  bar(\r\n\t  1)\r\n\t  ; x\r\n  bar(\r\n  2)\r\n  \r\n\tbar(\r\n\t3)\r\n",
    );
  });
});
