import { errorResult, imagePart, partsResult, ToolsError } from "@tools/registry";
import { describe, expect, it } from "vitest";
import { errorResponse, parseRequestLine, resultResponse } from "./json-lines.js";

describe("parseRequestLine", () => {
  it("reads a request, defaulting surface to main and args to {}", () => {
    expect(parseRequestLine('{"id": 7, "tool": "read"}')).toEqual({
      ok: true,
      request: { id: 7, surface: "main", tool: "read", args: {} },
    });
  });

  it("skips a UTF-8 byte order mark before the request (a first line written by an editor)", () => {
    expect(parseRequestLine('\uFEFF{"id": 1, "tool": "read", "args": {"path": "a.ts"}}')).toEqual({
      ok: true,
      request: { id: 1, surface: "main", tool: "read", args: { path: "a.ts" } },
    });
  });

  it("keeps the id when the rest of the request is wrong", () => {
    expect(parseRequestLine('{"id": "a", "tool": 3}')).toMatchObject({ ok: false, id: "a" });
    expect(parseRequestLine('{"id": "a", "tool": "read", "surface": 1}')).toMatchObject({
      ok: false,
      id: "a",
    });
  });

  it("refuses a field that is not a request's, saying where another format's spelling goes", () => {
    // OpenAI's "arguments" was dropped: read answered "path: required, but missing".
    expect(parseRequestLine('{"id": 4, "tool": "read", "arguments": {"path": "a.ts"}}')).toEqual({
      ok: false,
      id: 4,
      error:
        'malformed request: unknown field "arguments" (it goes in "args"); nothing was run; expected {"id": …, "surface": "main", "tool": "read", "args": {…}}',
    });
    expect(parseRequestLine('{"id": "b", "name": "read", "input": {}, "extra": 1}')).toMatchObject({
      ok: false,
      id: "b",
      error: expect.stringMatching(
        /^malformed request: unknown fields "name" \(it goes in "tool"\), "input" \(it goes in "args"\), "extra";/,
      ),
    });
    // Every name was given in full: a line with thousands of keys got an error as long.
    const many = Object.fromEntries(
      Array.from({ length: 1000 }, (_, index) => [`k${index}${"x".repeat(100)}`, 1]),
    );
    const error = (
      parseRequestLine(JSON.stringify({ id: 5, tool: "read", args: {}, ...many })) as { error: string }
    ).error;
    expect(error).toMatch(/^malformed request: unknown fields "k0x{38}…", .*"k4x{38}…" and 995 more;/);
    expect(error.length).toBeLessThan(500);
    // Only the names: a mistyped card reply's answer may be a password.
    const reply = parseRequestLine('{"cardid": "card_1", "answer": "hunter2"}');
    expect(reply).toMatchObject({ error: expect.stringContaining('unknown fields "cardid", "answer";') });
    expect(JSON.stringify(reply)).not.toContain("hunter2");
  });

  it("answers with id null when no usable id can be read", () => {
    expect(parseRequestLine("[1, 2]")).toMatchObject({
      ok: false,
      id: null,
      error: expect.stringContaining("not a JSON object"),
    });
    expect(parseRequestLine('{"id": {}, "tool": "read"}')).toMatchObject({
      ok: false,
      id: null,
      error: expect.stringContaining('"id" must be a string or a number'),
    });
    expect(parseRequestLine("nope")).toMatchObject({
      ok: false,
      id: null,
      error: expect.stringContaining("not valid JSON"),
    });
  });

  it("names only the offset of a JSON fault, never the line's text (it may be a mistyped secret)", () => {
    const parsed = parseRequestLine('{"card_id":"card_3","answer":hunter2}');
    expect(parsed).toEqual({
      ok: false,
      id: null,
      error:
        'malformed request line: not valid JSON at character offset 29 (counting from 0); expected {"id": …, "surface": "main", "tool": "read", "args": {…}}',
    });
    expect(parseRequestLine('{"id": 1, "tool": "read", "args": {"pw": "hunter2"')).toMatchObject({
      error: expect.stringMatching(
        /^malformed request line: not valid JSON: it ends early, at character offset 50 /,
      ),
    });
    expect(
      JSON.stringify(parseRequestLine('{"id": 1, "tool": "read", "args": {"pw": "hunter2"')),
    ).not.toContain("hunter2");
  });
});

describe("responses", () => {
  it("carries images as base64 with their mime type", () => {
    const result = partsResult([
      { type: "text", text: "a figure" },
      imagePart(new Uint8Array([1, 2, 3]), "image/png"),
    ]);
    expect(resultResponse(1, result)).toEqual({
      id: 1,
      ok: true,
      content: [
        { type: "text", text: "a figure" },
        { type: "image", mimeType: "image/png", data: "AQID" },
      ],
      error: null,
    });
  });

  it("puts the message of a failed call in error", () => {
    const result = errorResult(new ToolsError({ code: "X", message: "went wrong" }));
    expect(resultResponse("a", result)).toEqual({
      id: "a",
      ok: false,
      content: [{ type: "text", text: "went wrong" }],
      error: "went wrong",
    });
    expect(errorResponse(null, "bad line")).toEqual({
      id: null,
      ok: false,
      content: [{ type: "text", text: "bad line" }],
      error: "bad line",
    });
  });
});
