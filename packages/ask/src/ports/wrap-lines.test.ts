import { describe, expect, it } from "vitest";
import { buildCard } from "../card/card.js";
import { renderCard } from "../card/render-card.js";
import { displayWidth, rowsOf, wrapLines } from "./wrap-lines.js";

const card = renderCard(
  buildCard({
    question: "Which database should the new service use for the long-lived data, given replication?",
    options: [
      {
        label: "Postgres with streaming replication",
        description: "what production runs in all three regions",
      },
      { label: "日本語のデータベース名と長い説明がここに続きます" },
    ],
    allowFreeText: true,
  }),
);

describe("wrapLines", () => {
  it("folds every line of a card to the width at spaces, keeping every word whole", () => {
    const folded = wrapLines(card, 40);
    const lines = folded.split("\n");
    expect(Math.max(...lines.map(displayWidth))).toBeLessThanOrEqual(40);
    // The same text in the same order: only line breaks and indentation were added (and the rule cut).
    const letters = (text: string) => text.replace(/-{4,}|\s+/g, "");
    expect(letters(folded)).toBe(letters(card));
    // Words break only at spaces; the one wider than the line (no spaces) where it must.
    for (const word of ["database", "long-lived", "replication?", "regions", "(a", "note", "number:"]) {
      expect(folded).toContain(word);
    }
    expect(folded).toContain("Which database should the new service\nuse for the long-lived data, given\n");
  });

  it("shortens the rule, and lines continuation lines up under an option's label", () => {
    const lines = wrapLines(card, 40).split("\n");
    expect(lines[0]).toBe(`-- Question ${"-".repeat(28)}`);
    expect(lines).toContain("  1. Postgres with streaming replication");
    expect(lines).toContain("     what production runs in all three");
    expect(lines).toContain("     regions");
  });

  it("counts wide characters as two columns and breaks a word wider than the line", () => {
    const lines = wrapLines(card, 40).split("\n");
    expect(lines).toContain("  2. 日本語のデータベース名と長い説明が");
    expect(lines).toContain("     ここに続きます");
    expect(wrapLines("x".repeat(50), 20)).toBe(`${"x".repeat(20)}\n${"x".repeat(20)}\n${"x".repeat(10)}`);
    expect(displayWidth("👍🏽 é")).toBe(4);
  });

  it("counts emoji as terminals draw them, two columns, and a tab up to the next multiple of 8", () => {
    // ✅ ❌ (emoji presentation in U+2600–27BF), 🚀 (U+1F680–1F6FF), 🫠 (U+1FA70–1FAFF), ⚠️ (with VS16).
    for (const wide of ["✅", "❌", "🚀", "🫠", "⚠️", "🇯🇵"]) expect(displayWidth(wide), wide).toBe(2);
    // Without VS16 ⚠ is drawn as text, one column.
    expect(displayWidth("⚠")).toBe(1);
    expect(displayWidth("\t")).toBe(8);
    expect(displayWidth("ab\tc")).toBe(9);
    expect(displayWidth("12345678\t")).toBe(16);
    // A line of emoji folds within the width.
    const folded = wrapLines(`Checks: ${"✅ ".repeat(15)}done`, 20).split("\n");
    for (const line of folded) expect(displayWidth(line), line).toBeLessThanOrEqual(20);
    expect(folded.join(" ").replace(/\s+/g, " ")).toBe(`Checks: ${"✅ ".repeat(15)}done`);
  });

  it("leaves a card that fits as it is", () => {
    expect(wrapLines(card, 200)).toBe(card);
  });
});

describe("rowsOf", () => {
  it("counts the rows a terminal wraps each line into, wide characters as two columns", () => {
    expect(rowsOf("", 40)).toBe(0);
    expect(rowsOf("\n", 40)).toBe(1);
    expect(rowsOf(`${"x".repeat(40)}\n${"x".repeat(41)}\n`, 40)).toBe(3);
    expect(rowsOf(`${"日".repeat(21)}\n> typed`, 40)).toBe(2);
  });

  it("moves a wide character that does not fit in a row's last column to the next row", () => {
    // 41 columns: a row holds 20 wide characters, the 41st column left empty.
    expect(rowsOf(`${"日".repeat(21)}\n`, 41)).toBe(2);
    expect(rowsOf(`${"日".repeat(20)}\n`, 41)).toBe(1);
    // 5 columns: two per row, so five take three rows (ten columns would fit in two).
    expect(rowsOf("一二三四五\n", 5)).toBe(3);
    expect(rowsOf(`> ${"语".repeat(20)}\n`, 21)).toBe(3);
  });
});
