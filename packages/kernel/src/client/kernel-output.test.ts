import { describe, expect, it } from "vitest";
import { cutMetadata, streamRunsKey, toKernelOutput, toKernelOutputs } from "./kernel-output.js";

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

describe("toKernelOutputs", () => {
  it("splits a stream message's runs of stdout and stderr into outputs, in order", () => {
    const runs = [
      ["stdout", "a\n"],
      ["stderr", "b\n"],
      ["stdout", "c\n"],
    ];
    expect(toKernelOutputs("stream", { name: "stdout", text: "", [streamRunsKey]: runs }, false)).toEqual([
      { type: "stream", name: "stdout", text: "a\n" },
      { type: "stream", name: "stderr", text: "b\n" },
      { type: "stream", name: "stdout", text: "c\n" },
    ]);
  });

  it("reads a message without well-formed runs as one output, and bookkeeping as none", () => {
    const plain = { name: "stderr", text: "x", [streamRunsKey]: [["stdout", 3]] };
    expect(toKernelOutputs("stream", plain, false)).toEqual([{ type: "stream", name: "stderr", text: "x" }]);
    expect(toKernelOutputs("status", { execution_state: "idle" }, false)).toEqual([]);
  });
});
