import { describe, expect, it } from "vitest";
import { boundList, boundText, countNoun } from "./bounded-output.js";

const lines = (n: number) => Array.from({ length: n }, (_, index) => `line ${index + 1}`).join("\n");

describe("bounded output", () => {
  it("keeps short text as it is", () => {
    expect(boundText("a\nb")).toEqual({ text: "a\nb", truncated: false, omittedLines: 0, omittedChars: 0 });
  });

  it("cuts lines and says how many more there were", () => {
    const bounded = boundText(lines(320), { maxLines: 200 });
    expect(bounded.text.split("\n")).toHaveLength(201);
    expect(bounded.text.endsWith("line 200\n… 120 more lines")).toBe(true);
    expect(bounded.omittedLines).toBe(120);
  });

  it("keeps the tail for logs", () => {
    const bounded = boundText(lines(10), { maxLines: 3, keep: "tail" });
    expect(bounded.text).toBe("… 7 earlier lines\nline 8\nline 9\nline 10");
  });

  it("cuts long lines by characters too", () => {
    const bounded = boundText("x".repeat(50), { maxChars: 10 });
    expect(bounded.text).toBe(`${"x".repeat(10)}\n… 40 more characters`);
  });

  it("cuts between whole characters: never half of an emoji's surrogate pair, the half counted as left out", () => {
    const head = boundText(`${"x".repeat(9)}😀yy`, { maxChars: 10 });
    expect(head.text).toBe(`${"x".repeat(9)}\n… 4 more characters`);
    expect(head.omittedChars).toBe(4);
    const tail = boundText(`yy😀${"x".repeat(9)}`, { maxChars: 10, keep: "tail" });
    expect(tail.text).toBe(`… 4 more characters\n${"x".repeat(9)}`);
    // A cut that falls between two characters keeps the whole pair.
    expect(boundText(`${"x".repeat(8)}😀yy`, { maxChars: 10 }).text).toBe(
      `${"x".repeat(8)}😀\n… 2 more characters`,
    );
    expect(boundText(`yy😀${"x".repeat(8)}`, { maxChars: 10, keep: "tail" }).text).toBe(
      `… 2 more characters\n😀${"x".repeat(8)}`,
    );
    // A lone half already in the text is cut like any other code unit.
    expect(boundText(`${"x".repeat(9)}\ud83dyy`, { maxChars: 10 }).text).toBe(
      `${"x".repeat(9)}\ud83d\n… 2 more characters`,
    );
  });

  it("bounds lists with a note in the caller's unit", () => {
    expect(boundList([1, 2, 3, 4], 3, "references")).toEqual({
      items: [1, 2, 3],
      note: "… 1 more reference",
    });
    expect(boundList([1], 3, "references")).toEqual({ items: [1], note: "" });
  });
});

describe("one line over the bound", () => {
  it("shows the line itself, not a note standing in its place", () => {
    for (const keep of ["head", "tail"] as const) {
      const bounded = boundText(lines(201), { maxLines: 200, keep });
      expect(bounded).toEqual({ text: lines(201), truncated: false, omittedLines: 0, omittedChars: 0 });
    }
    expect(boundText(lines(202), { maxLines: 200 }).text.split("\n").at(-1)).toBe("… 2 more lines");
  });

  it("still holds the character bound when that line is long", () => {
    const text = `${lines(2)}\n${"x".repeat(50)}`;
    const bounded = boundText(text, { maxLines: 2, maxChars: 20 });
    expect(bounded.omittedLines).toBe(0);
    expect(bounded.text).toBe(`${text.slice(0, 20)}\n… ${text.length - 20} more characters`);
  });
});

describe("counts of one", () => {
  it("says '1 more character' and '1 more reference', not the plural", () => {
    expect(boundText("abcdef", { maxChars: 5 }).text.split("\n").at(-1)).toBe("… 1 more character");
    expect(boundList([1, 2, 3], 2, "references").note).toBe("… 1 more reference");
    expect(boundList([1, 2, 3], 1, "references").note).toBe("… 2 more references");
  });

  it("takes regular English plurals back to the singular", () => {
    expect(
      ["entries", "matches", "boxes", "code actions", "diagnostics", "status"].map((n) => countNoun(1, n)),
    ).toEqual(["entry", "match", "box", "code action", "diagnostic", "status"]);
    expect(countNoun(0, "entries")).toBe("entries");
  });
});
