import { describe, expect, it } from "vitest";
import { boundHoverText, openFence, plainHoverText } from "./hover-text.js";

describe("plainHoverText", () => {
  it("decodes entities and escapes outside code fences, and leaves the fences as they are", () => {
    const pyright =
      "```python\n(function) def scale(\n    circle: Circle\n) -> Circle  \n```\n---\nReturns a copy.\n\nArgs:  \n&nbsp;&nbsp;&nbsp;&nbsp;factor: how much\\_larger, e.g. 2 \\* radius &lt;= 10.";
    expect(plainHoverText(pyright)).toBe(
      "```python\n(function) def scale(\n    circle: Circle\n) -> Circle  \n```\n---\nReturns a copy.\n\nArgs:\n    factor: how much_larger, e.g. 2 * radius <= 10.",
    );
  });

  it("writes links to files (tsserver's {@link}) as the name with its path and line, others as they are", () => {
    const hover =
      "Finds the importers (see [importTest](file:///w/src/importers.ts#L30%2C1)), [the spec](file:///w/SPEC.md) and [Go](https://go.dev/doc).";
    expect(plainHoverText(hover, (path) => path.replace("/w/", ""))).toBe(
      "Finds the importers (see importTest (src/importers.ts:30)), the spec (SPEC.md) and [Go](https://go.dev/doc).",
    );
    expect(plainHoverText("```ts\n[a](file:///w/a.ts)\n```")).toBe("```ts\n[a](file:///w/a.ts)\n```");
    const shown = (path: string) => path.replace("/w/", "");
    expect(plainHoverText("[page](file:///w/app/(auth)/page.tsx#L3%2C1)", shown)).toBe(
      "page (app/(auth)/page.tsx:3)",
    );
    expect(plainHoverText("[items[0]](file:///w/a.ts#L2)", shown)).toBe("items[0] (a.ts:2)");
    expect(plainHoverText("[src/a.ts](file:///w/src/a.ts)", shown)).toBe("src/a.ts");
  });

  it("leaves text without markdown escapes alone", () => {
    expect(plainHoverText("const a: number")).toBe("const a: number");
  });
});

describe("boundHoverText", () => {
  const fenced = [
    "intro",
    "```ts",
    ...Array.from({ length: 20 }, (_, index) => `step(${index});`),
    "```",
    "after",
  ];

  it("closes a fence the line bound cut open, before the note, within the bound", () => {
    const lines = boundHoverText(fenced.join("\n"), { maxLines: 10, maxChars: 6000 }).split("\n");
    expect(lines).toEqual([
      "intro",
      "```ts",
      ...Array.from({ length: 7 }, (_, index) => `step(${index});`),
      "```",
      "… 15 more lines",
    ]);
  });

  it("closes a fence the character bound cut open, with the fence's own marks", () => {
    const text = ["~~~~", "a".repeat(50), "b".repeat(50), "~~~~"].join("\n");
    const lines = boundHoverText(text, { maxLines: 80, maxChars: 60 }).split("\n");
    expect(lines.at(-2)).toBe("~~~~");
    expect(lines.at(-1)).toMatch(/^… \d+ more characters$/);
    expect(lines.slice(0, -1).join("\n").length).toBeLessThanOrEqual(60);
  });

  it("keeps the fence within the line bound where the character bound cut a text of just that many lines", () => {
    // boundText shows a line its note would stand for: cut one line earlier, it kept all 10.
    const text = [
      "```ts",
      ...Array.from({ length: 8 }, (_, index) => `step(${index});`),
      "x".repeat(100),
    ].join("\n");
    const lines = boundHoverText(text, { maxLines: 10, maxChars: 100 }).split("\n");
    expect(lines.length - 1).toBeLessThanOrEqual(10);
    expect(lines.at(-2)).toBe("```");
    expect(lines.at(-1)).toBe("… 2 more lines");
    expect(lines.slice(0, -1).join("\n").length).toBeLessThanOrEqual(100);
  });

  it("leaves a cut outside a fence, and an uncut text, as boundText gives them", () => {
    expect(boundHoverText(fenced.join("\n"), { maxLines: 80, maxChars: 6000 })).toBe(fenced.join("\n"));
    const closed = [...fenced, ...Array.from({ length: 20 }, (_, index) => `line ${index}`)];
    expect(boundHoverText(closed.join("\n"), { maxLines: 30, maxChars: 6000 }).split("\n").at(-2)).toBe(
      "line 5",
    );
  });
});

describe("openFence", () => {
  it("reads fences as CommonMark does", () => {
    expect(openFence(["```ts", "x"])).toBe("```");
    expect(openFence(["````", "```", "x"])).toBe("````");
    expect(openFence(["````", "x", "`````"])).toBeUndefined();
    expect(openFence(["~~~", "```", "~~~"])).toBeUndefined();
    expect(openFence(["``` a ` b", "x"])).toBeUndefined();
    expect(openFence(["    ```", "x"])).toBeUndefined();
  });
});
