import { describe, expect, it } from "vitest";
import { EditedText, textEditsByUri } from "./edited-text.js";

const at = (line: number, character: number) => ({ line, character });
const replace = (line: number, from: number, to: number, newText: string) => ({
  range: { start: at(line, from), end: at(line, to) },
  newText,
});

describe("EditedText", () => {
  // `max` renamed `limit` on lines 3 and 4 (0-based 2 and 3), the outer `limit` left.
  const before =
    "const limit = 10;\nexport function clamp(n: number): number {\n  const max = 5;\n  return Math.min(n, max, limit);\n}\n";
  const text = new EditedText(before, [replace(3, 21, 24, "limit"), replace(2, 8, 11, "limit")]);

  it("applies the edits, in text order whatever order they came in", () => {
    expect(text.after).toBe(before.replaceAll("max", "limit"));
    expect(text.edits).toBe(2);
  });

  it("finds the edit at a position before, and where its new name is after", () => {
    expect(text.editAt(at(2, 9))).toBe(0);
    expect(text.editAt(at(3, 21))).toBe(1);
    expect(text.editAt(at(0, 6))).toBe(-1);
    expect(text.nameIn(1, "limit")).toEqual(at(3, 21));
    expect(text.editStart(1)).toEqual(at(3, 21));
  });

  it("tells text an edit wrote from text it left, and maps the latter back", () => {
    expect(text.editOf(at(3, 21))).toBe(1);
    expect(text.editOf(at(3, 25))).toBe(1);
    // The outer `limit`, two characters further right after `max` became `limit`.
    expect(text.editOf(at(3, 28))).toBe(-1);
    expect(text.reads(at(3, 28), "limit")).toBe(true);
    expect(text.toBefore(at(3, 28))).toEqual(at(3, 26));
    expect(text.toBefore(at(0, 6))).toEqual(at(0, 6));
    expect(text.lineText(3)).toBe("  return Math.min(n, max, limit);");
    expect(text.lineText(3, true)).toBe("  return Math.min(n, limit, limit);");
  });

  it("tells a range (after) meeting an edit from one away from every edit", () => {
    const span = (line: number, from: number, to: number) => ({ start: at(line, from), end: at(line, to) });
    // After: "  return Math.min(n, limit, limit);", the edit at 21..26, the outer `limit` at 28..33.
    expect(text.editIn(span(3, 21, 26))).toBe(1);
    // Starting before it and ending in it, or right at its end (`Math.min(n, limit` flagged).
    expect(text.editIn(span(3, 9, 23))).toBe(1);
    expect(text.editIn(span(3, 9, 26))).toBe(1);
    // Holding it whole: the call, the statement over lines, the whole function.
    expect(text.editIn(span(3, 9, 34))).toBe(1);
    expect(text.editIn({ start: at(1, 0), end: at(4, 1) })).toBe(0);
    // Ending where it starts (as a position at the edit does).
    expect(text.editIn(span(3, 18, 21))).toBe(1);
    // Away from it: the outer `limit` starting two characters after it, `Math.min` before it.
    expect(text.editIn(span(3, 28, 33))).toBe(-1);
    expect(text.editIn(span(3, 26, 28))).toBe(-1);
    expect(text.editIn(span(3, 9, 17))).toBe(-1);
    expect(text.editIn(span(0, 0, 17))).toBe(-1);
    // Empty ranges: in the edit or not.
    expect(text.editIn(span(3, 22, 22))).toBe(1);
    expect(text.editIn(span(3, 27, 27))).toBe(-1);
  });

  it("places the name inside a longer new text (a shorthand property written out)", () => {
    const shorthand = new EditedText("const o = { count };\n", [replace(0, 12, 17, "count: total")]);
    expect(shorthand.after).toBe("const o = { count: total };\n");
    expect(shorthand.nameIn(0, "total")).toEqual(at(0, 19));
  });
});

describe("textEditsByUri", () => {
  it("takes plain text edits, and none from an edit that moves files or edits a file twice", () => {
    const edits = [replace(0, 0, 1, "b")];
    expect(textEditsByUri({ changes: { "file:///a.ts": edits } })).toEqual(
      new Map([["file:///a.ts", edits]]),
    );
    const document = { textDocument: { uri: "file:///a.ts", version: 1 }, edits };
    expect(textEditsByUri({ documentChanges: [document] })).toEqual(new Map([["file:///a.ts", edits]]));
    expect(textEditsByUri({ documentChanges: [document, document] })).toBeUndefined();
    expect(
      textEditsByUri({
        documentChanges: [{ kind: "rename", oldUri: "file:///a.ts", newUri: "file:///b.ts" }],
      }),
    ).toBeUndefined();
  });
});
