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

  it("leaves text without markdown escapes alone", () => {
    expect(plainHoverText("const a: number")).toBe("const a: number");
  });
});
