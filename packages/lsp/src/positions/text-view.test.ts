import { describe, expect, it } from "vitest";
import { needsView, serverText, textView, userRule, type TextRule } from "./text-view.js";

const tsserver: TextRule = { lineBreaks: ["\r", "\u2028", "\u2029"], bom: "stripped" };
const pyright: TextRule = { lineBreaks: ["\r"], bom: "counted" };

describe("the text as a server sees it", () => {
  it("needs no view for a text without the characters the counts disagree on", () => {
    const plain = "export const a = 1;\r\nexport const b = a;\n";
    expect(needsView(plain, tsserver)).toBe(false);
    expect(textView(plain, tsserver)).toBeUndefined();
    expect(serverText(plain, tsserver)).toBe(plain);
    // A server counting as the user does never needs one, whatever the text holds.
    expect(textView("\ufeffa\rb\u2028c", userRule)).toBeUndefined();
  });

  it("maps lines past a U+2028 or U+2029 both ways", () => {
    const text =
      'export const sep = "a\u2028b";\nexport function pick(n: number) { return n; }\nexport const r = pick(1);\n';
    const view = textView(text, tsserver)!;
    expect(view).toBeDefined();
    // tsserver's line 3 (0-based 2) is the user's line 2.
    expect(view.toUser({ line: 2, character: 16 })).toEqual({ line: 1, character: 16 });
    expect(view.toServer({ line: 1, character: 16 })).toEqual({ line: 2, character: 16 });
    // Inside the line holding the separator: the part after it is a line of its own there.
    expect(view.toServer({ line: 0, character: 22 })).toEqual({ line: 1, character: 0 });
    expect(view.toUser({ line: 1, character: 1 })).toEqual({ line: 0, character: 23 });
    expect(view.toServer({ line: 2, character: 17 })).toEqual({ line: 3, character: 17 });
    expect(needsView("a\u2029b", tsserver)).toBe(true);
  });

  it("maps a lone carriage return only for a server counting it", () => {
    const text = "int a;\rint b;\nint c;\r\nint d;";
    expect(textView(text, userRule)).toBeUndefined();
    const view = textView(text, pyright)!;
    expect(view.toServer({ line: 0, character: 11 })).toEqual({ line: 1, character: 4 });
    expect(view.toUser({ line: 2, character: 4 })).toEqual({ line: 1, character: 4 });
    expect(view.toUser({ line: 3, character: 0 })).toEqual({ line: 2, character: 0 });
    // "\r\n" is one line end for both.
    expect(view.toServer({ line: 2, character: 6 })).toEqual({ line: 3, character: 6 });
  });

  it("shifts line 1 by a byte order mark the server strips, and sends it without", () => {
    const text = "\ufeffexport const foo = 1;\nexport const bar = foo;\n";
    expect(serverText(text, tsserver)).toBe(text.slice(1));
    expect(serverText(text, pyright)).toBe(text);
    expect(textView(text, pyright)).toBeUndefined();
    const view = textView(text, tsserver)!;
    expect(view.toServer({ line: 0, character: 14 })).toEqual({ line: 0, character: 13 });
    expect(view.toUser({ line: 0, character: 13 })).toEqual({ line: 0, character: 14 });
    expect(view.toUser({ line: 1, character: 19 })).toEqual({ line: 1, character: 19 });
    expect(view.toServer({ line: 0, character: 0 })).toEqual({ line: 0, character: 0 });
  });

  it("takes a column past its line's end as the line's end, and a line past the text as its end", () => {
    const view = textView("a\u2028b\ncd", tsserver)!;
    expect(view.toUser({ line: 0, character: 9 })).toEqual({ line: 0, character: 1 });
    expect(view.toUser({ line: 5, character: 0 })).toEqual({ line: 1, character: 2 });
    expect(view.toServer({ line: 0, character: 9 })).toEqual({ line: 1, character: 1 });
  });
});

describe("a server reading positions by other line ends than it answers with", () => {
  it("sends the user's lines as it reads them and takes its answers by clang's line table (clangd)", () => {
    const clangd: TextRule = { lineBreaks: ["\r"], sentLineBreaks: [], bom: "counted" };
    const text =
      "static int one(void) { return 1; }\rstatic int two(void) { return 2; }\nint use(void) {\n  return two();\n}\n";
    const view = textView(text, clangd)!;
    expect(view.toServer({ line: 2, character: 9 })).toEqual({ line: 2, character: 9 });
    expect(view.toUser({ line: 1, character: 11 })).toEqual({ line: 0, character: 46 });
    expect(view.toUser({ line: 3, character: 9 })).toEqual({ line: 2, character: 9 });
    expect(view.toServer({ line: 0, character: 46 })).toEqual({ line: 0, character: 46 });
  });
});
