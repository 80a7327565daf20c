import { describe, expect, it } from "vitest";
import { plainHoverText } from "./hover-text.js";

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
