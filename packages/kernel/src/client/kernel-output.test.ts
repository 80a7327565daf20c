import { describe, expect, it } from "vitest";
import { cutMetadata, toKernelOutput } from "./kernel-output.js";

describe("toKernelOutput", () => {
  const cut = { data: { "text/plain": "a" }, metadata: { [cutMetadata]: true } };
  const omitted = { chars: 5, lines: 1, images: 2 };

  it("reads our own marks from our JavaScript kernel", () => {
    expect(toKernelOutput("display_data", cut, true)).toEqual({
      type: "display",
      kind: "display",
      data: { "text/plain": "a" },
      cut: true,
    });
    expect(toKernelOutput("output_omitted", omitted, true)).toEqual({ type: "omitted", ...omitted });
  });

  it("ignores them from any other kernel, where a cell can set them", () => {
    expect(toKernelOutput("execute_result", cut, false)).toEqual({
      type: "display",
      kind: "result",
      data: { "text/plain": "a" },
    });
    expect(toKernelOutput("output_omitted", omitted, false)).toBeUndefined();
  });
});
