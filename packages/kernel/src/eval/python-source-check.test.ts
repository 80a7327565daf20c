import { describe, expect, it } from "vitest";
import { KernelError } from "../kernel-error.js";
import { assertSendablePython } from "./python-source-check.js";

function refusal(code: string): { code: string; message: string; data: unknown } | undefined {
  try {
    assertSendablePython(code);
    return undefined;
  } catch (error) {
    if (!KernelError.isInstance(error)) throw error;
    return { code: error.code, message: error.message, data: error.data };
  }
}

describe("assertSendablePython", () => {
  it("lets ordinary code, and surrogate pairs (one character), through", () => {
    expect(refusal("print('naïve 😀')\nx = '\\x00'")).toBeUndefined();
    expect(refusal("'\ud83d\ude00'")).toBeUndefined();
  });

  it("refuses a NUL and a high or low surrogate alone, saying where and what to write", () => {
    expect(refusal("a = 1\nb = 'x\u0000'")).toMatchObject({
      code: "INVALID_CODE",
      message: expect.stringMatching(
        /^the cell contains a NUL character \(U\+0000\) at line 2, column 7, .*'\\x00'/,
      ),
      data: { line: 2, column: 7 },
    });
    expect(refusal("'\ud800x'")?.message).toMatch(
      /unpaired UTF-16 surrogate \(U\+D800\) at line 1, column 2.*'\\ud800'/,
    );
    expect(refusal("'x\udc00'")?.message).toMatch(
      /unpaired UTF-16 surrogate \(U\+DC00\) at line 1, column 3/,
    );
    expect(refusal("'\ude00\ud83d'")?.message).toMatch(/\(U\+DE00\) at line 1, column 2/);
  });
});
