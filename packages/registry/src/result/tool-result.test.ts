import { describe, expect, it } from "vitest";
import { resultText, textResult, toToolResult, type ToolOutput } from "./tool-result.js";

const asOutput = (value: unknown): ToolOutput => value as ToolOutput;

describe("toToolResult", () => {
  it("fails a call whose tool returned something that is not a result, saying what came back", () => {
    const cases: [unknown, string][] = [
      [{ text: "hi" }, "an object that is not a result"],
      [["hi"], "an array"],
      [42, "a number"],
      [
        { content: [{ type: "text", text: 42 }], isError: false, changedFiles: [] },
        "a result whose content[0] is no text or image part",
      ],
      [
        { content: ["hi"], isError: false, changedFiles: [] },
        "a result whose content[0] is no text or image part",
      ],
      [{ ...textResult("ok"), changedFiles: [7] }, "a result whose changedFiles are not all paths"],
    ];
    for (const [output, said] of cases) {
      const result = toToolResult(asOutput(output));
      expect(result.error?.code).toBe("TOOL_FAILED");
      expect(resultText(result)).toBe(
        `the tool returned ${said} instead of text or a result ({ content, isError, changedFiles }); this is a bug in the tool`,
      );
    }
  });

  it("gives an error result without its error one, so a harness reading error.code finds it", () => {
    const result = toToolResult({ ...textResult("the index is stale"), isError: true });
    expect(result.error).toEqual({ code: "TOOL_FAILED", message: "the index is stale" });
    const image = { type: "image" as const, mimeType: "image/png", data: new Uint8Array([1]) };
    const whole = { content: [image], isError: false, changedFiles: ["/w/a.png"] };
    expect(toToolResult(whole)).toBe(whole);
  });
});
