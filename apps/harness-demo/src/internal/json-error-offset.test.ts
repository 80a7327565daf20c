import { describe, expect, it } from "vitest";
import { jsonErrorOffset } from "./json-error-offset.js";

/** The position V8 names in its message, when it names one. */
function v8Position(text: string): number | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    const match = /at position (\d+)/.exec((error as Error).message);
    return match ? Number(match[1]) : undefined;
  }
}

describe("jsonErrorOffset", () => {
  it("is undefined for valid JSON", () => {
    for (const text of ['{"a": [1, -2.5e+3, true, false, null, "x\\u00e9\\n"]}', " 0 ", '""', "[]", "{}"])
      expect(jsonErrorOffset(text)).toBeUndefined();
  });

  it("points at the first character that cannot continue the text", () => {
    expect(jsonErrorOffset('{"card_id":"card_3","answer":hunter2}')).toBe(29);
    expect(jsonErrorOffset("[1,]")).toBe(3);
    expect(jsonErrorOffset("nope")).toBe(1);
    expect(jsonErrorOffset("")).toBe(0);
    expect(jsonErrorOffset('{"a":1')).toBe(6);
    expect(jsonErrorOffset('"\\u12g4"')).toBe(5);
  });

  it("agrees with the position V8 gives where it gives one", () => {
    const cases = [
      '{"a":1',
      '{"a" 1}',
      "{a:1}",
      '"abc',
      '{"a":"x\\q"}',
      '{"a":"x\ty"}',
      '{"a":1}x',
      '{"a":01}',
      '{"a":-}',
      '{"a":1e}',
    ];
    for (const text of cases) {
      const position = v8Position(text);
      expect(position, text).toBeTypeOf("number");
      expect(jsonErrorOffset(text), text).toBe(position);
    }
  });
});
