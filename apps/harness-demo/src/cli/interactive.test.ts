import { describe, expect, it } from "vitest";
import { parseTypedCall } from "./interactive.js";

describe("parseTypedCall", () => {
  it("reads name=value arguments, numbers and JSON values", () => {
    expect(parseTypedCall('lsp action=hover file=src/a.ts line=3 symbol="foo bar" lines=[1,2]')).toEqual({
      tool: "lsp",
      args: { action: "hover", file: "src/a.ts", line: 3, symbol: "foo bar", lines: [1, 2] },
      surface: "main",
    });
  });

  it("reads a bare word after lsp or debug as its action or op", () => {
    expect(parseTypedCall("lsp hover file=src/a.ts line=3 symbol=foo").args).toEqual({
      action: "hover",
      file: "src/a.ts",
      line: 3,
      symbol: "foo",
    });
    expect(parseTypedCall("debug stack").args).toEqual({ op: "stack" });
    expect(parseTypedCall("read path=a.ts").args).toEqual({ path: "a.ts" });
  });

  it("reads a JSON arguments object or a whole JSON call", () => {
    expect(parseTypedCall('read {"path": "a.ts"}')).toMatchObject({ tool: "read", args: { path: "a.ts" } });
    expect(parseTypedCall('{"tool": "grep", "args": {"pattern": "x"}, "surface": "plan"}')).toEqual({
      tool: "grep",
      args: { pattern: "x" },
      surface: "plan",
    });
    expect(() => parseTypedCall('{"args": {}}')).toThrow('a JSON call needs "tool"');
  });
});
