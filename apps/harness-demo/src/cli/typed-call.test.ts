import { describe, expect, it } from "vitest";
import { argTypesFrom, parseTypedCall } from "./typed-call.js";

/** The schemas of the tools these tests type, as `registry.schema(run, "main", "json")` has them. */
const argTypes = argTypesFrom([
  {
    name: "lsp",
    inputSchema: {
      type: "object",
      properties: {
        action: { type: "string", enum: ["hover", "definition"] },
        file: { type: "string" },
        line: { type: "integer" },
        symbol: { type: "string" },
        lines: { type: "array", items: { type: "integer" } },
      },
    },
  },
  { name: "debug", inputSchema: { type: "object", properties: { op: { type: "string" } } } },
  {
    name: "read",
    inputSchema: { type: "object", properties: { path: { type: "string" }, limit: { type: "integer" } } },
  },
  {
    name: "grep",
    inputSchema: {
      type: "object",
      properties: { pattern: { type: "string" }, case_insensitive: { type: "boolean" } },
    },
  },
  { name: "shell", inputSchema: { type: "object", properties: { command: { type: "string" } } } },
  {
    name: "either",
    inputSchema: { anyOf: [{ properties: { n: { type: "number" } } }, { properties: { n: { const: 1 } } }] },
  },
]);

describe("parseTypedCall", () => {
  it("reads name=value arguments, numbers and JSON values where the schema takes them", () => {
    expect(
      parseTypedCall('lsp action=hover file=src/a.ts line=3 symbol="foo bar" lines=[1,2]', argTypes),
    ).toEqual({
      tool: "lsp",
      args: { action: "hover", file: "src/a.ts", line: 3, symbol: "foo bar", lines: [1, 2] },
      surface: "main",
    });
    expect(parseTypedCall("grep pattern=x case_insensitive=true", argTypes).args).toEqual({
      pattern: "x",
      case_insensitive: true,
    });
    expect(parseTypedCall("either n=2", argTypes).args).toEqual({ n: 2 });
  });

  it("keeps a number-like or boolean-like value as text where the schema takes a string", () => {
    expect(parseTypedCall("read path=2024 limit=5", argTypes).args).toEqual({ path: "2024", limit: 5 });
    expect(parseTypedCall("grep pattern=true", argTypes).args).toEqual({ pattern: "true" });
    expect(parseTypedCall("lsp hover symbol=[x]", argTypes).args).toEqual({ action: "hover", symbol: "[x]" });
    // Without the schemas every value is text.
    expect(parseTypedCall("read path=2024 limit=5").args).toEqual({ path: "2024", limit: "5" });
    expect(parseTypedCall(`read path="a b" path2='7'`).args).toEqual({ path: "a b", path2: "7" });
  });

  it("reads a quoted value as the schema takes it: quotes only group a value with spaces", () => {
    // JSON with spaces must be quoted; it went in as a string ("options: expected array").
    expect(parseTypedCall(`lsp hover symbol='a b' lines='[1, 2]' line="3"`, argTypes).args).toEqual({
      action: "hover",
      symbol: "a b",
      lines: [1, 2],
      line: 3,
    });
    expect(parseTypedCall(`grep pattern="[1, 2]" case_insensitive='true'`, argTypes).args).toEqual({
      pattern: "[1, 2]",
      case_insensitive: true,
    });
  });

  it("reads a bare word after lsp or debug as its action or op", () => {
    expect(parseTypedCall("lsp hover file=src/a.ts line=3 symbol=foo", argTypes).args).toEqual({
      action: "hover",
      file: "src/a.ts",
      line: 3,
      symbol: "foo",
    });
    expect(parseTypedCall("debug stack", argTypes).args).toEqual({ op: "stack" });
    expect(parseTypedCall("read path=a.ts", argTypes).args).toEqual({ path: "a.ts" });
  });

  it("refuses words that are not name=value, naming them and how to quote", () => {
    expect(() => parseTypedCall("shell command=echo hello world", argTypes)).toThrow(
      `'hello world' are not name=value arguments; a value with spaces needs quotes: command="echo hello world" (or single quotes), or type the arguments as JSON`,
    );
    expect(() => parseTypedCall("read a.ts", argTypes)).toThrow(
      `'a.ts' is not a name=value argument; type each argument as name=value (quotes around a value with spaces: name="a b"), or the arguments as JSON`,
    );
    expect(() => parseTypedCall('shell command="echo hi', argTypes)).toThrow(
      "the value of command opens a quote that does not close where the value ends",
    );
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

  it("refuses an argument given twice, naming it", () => {
    // The last one was kept without a word: limit=2 limit=3 read three lines.
    expect(() => parseTypedCall("read path=a.ts limit=2 limit=3")).toThrow(
      "limit is given twice; give each argument once (a list goes in as JSON: limit='[…]')",
    );
    // A bare action word and an action= argument are the same argument.
    expect(() => parseTypedCall("lsp hover action=definition file=a.ts")).toThrow("action is given twice");
  });

  it("takes a serve request line with its id as a JSON call", () => {
    // The id was refused as an unknown field.
    expect(parseTypedCall('{"id": 1, "surface": "plan", "tool": "read", "args": {"path": "a.ts"}}')).toEqual({
      tool: "read",
      args: { path: "a.ts" },
      surface: "plan",
    });
  });

  it("refuses a JSON call with a field of another format (its arguments were dropped)", () => {
    expect(() => parseTypedCall('{"tool": "read", "arguments": {"path": "a.ts"}}')).toThrow(
      'unknown field "arguments" (it goes in "args"); a JSON call is {"tool": "read", "args": {"path": "a.ts"}}',
    );
  });
});
