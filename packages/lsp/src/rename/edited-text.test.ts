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
