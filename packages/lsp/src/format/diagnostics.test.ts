import { describe, expect, it } from "vitest";
import { oneLine } from "./diagnostics.js";

describe("oneLine", () => {
  it("joins a sentence's next line with a space, and lines without a stop with a semicolon", () => {
    expect(
      oneLine("Type 'string' is not assignable to type 'number'.\n  Property 'x' is missing in type 'A'."),
    ).toBe("Type 'string' is not assignable to type 'number'. Property 'x' is missing in type 'A'.");
    expect(
      oneLine(
        'Argument of type "Literal[\'x\']" cannot be assigned to parameter "b" of type "int"\n    "Literal[\'x\']" is not assignable to "int"',
      ),
    ).toBe(
      'Argument of type "Literal[\'x\']" cannot be assigned to parameter "b" of type "int"; "Literal[\'x\']" is not assignable to "int"',
    );
    expect(oneLine("one line\r\n\r\n")).toBe("one line");
  });
});
