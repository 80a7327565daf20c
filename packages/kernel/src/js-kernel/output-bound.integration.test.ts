import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KernelClient } from "../client/kernel-client.js";
import type { KernelOutput } from "../client/kernel-output.js";
import { countLines } from "../eval/cut-text.js";
import { OutputCollector } from "../eval/output-collector.js";
import { defaultOutputLimits } from "../eval/output-limits.js";
import { startKernel } from "../launch/start-kernel.js";

const limits = { maxChars: 2000, maxLines: 50 };

describe("the JavaScript kernel's output channel", () => {
  let kernel: KernelClient | undefined;
  const run = async (code: string) => {
    const outputs: KernelOutput[] = [];
    const outcome = await kernel!.execute(code, { onOutput: (output) => outputs.push(output) });
    const omitted = outputs.filter((output) => output.type === "omitted");
    const text = outputs.map((output) => (output.type === "stream" ? output.text : "")).join("");
    return { outcome, outputs, omitted, text };
  };

  beforeAll(async () => {
    kernel = await startKernel({
      language: "javascript",
      cwd: process.cwd(),
      shellTool: "shell",
      readyTimeoutMs: 30_000,
      outputLimits: limits,
    });
  });
  afterAll(async () => {
    await kernel?.dispose();
  });

  it("sends the head and the tail of a flooding cell and counts the rest, keeping the kernel's state", async () => {
    // Every line used to cross the channel, and a tight loop queued them all in the executor first
    // (5e6 lines: 3.8 GB).
    await run("const kept = 41");
    const { outcome, omitted, text } = await run("for (let i = 0; i < 200000; i++) console.log(i)");
    expect(outcome.status).toBe("ok");
    expect(text.length).toBeLessThanOrEqual(limits.maxChars * 3);
    expect(text).toMatch(/^0\n1\n2\n/);
    expect(text).toMatch(/\n199998\n199999\n$/);
    expect(omitted).toHaveLength(1);
    let printed = 0;
    for (let i = 0; i < 200_000; i++) printed += `${i}\n`.length;
    expect(omitted).toEqual([
      { type: "omitted", chars: printed - text.length, lines: 200_000 - countLines(text) },
    ]);
    const { outputs } = await run("kept + 1");
    expect(outputs).toEqual([{ type: "display", kind: "result", data: { "text/plain": "42" } }]);
  });

  it("bounds one huge write and a flood of display() calls alike", async () => {
    const write = await run("process.stdout.write('x'.repeat(10_000_000))");
    expect(write.text.length).toBeLessThanOrEqual(limits.maxChars * 3);
    expect(write.omitted).toEqual([{ type: "omitted", chars: 10_000_000 - write.text.length, lines: 0 }]);
    const displays = await run("for (let i = 0; i < 100000; i++) display(i)");
    const shown = displays.outputs.filter((output) => output.type === "display");
    expect(shown.length).toBeLessThanOrEqual(limits.maxLines * 3);
    expect(shown.at(-1)).toEqual({ type: "display", kind: "display", data: { "text/plain": "99999" } });
    expect(displays.omitted).toHaveLength(1);
    expect(shown.length + (displays.omitted[0] as { lines: number }).lines).toBe(100_000);
  });

  it("sends no more images than the result shows, and counts the rest for its note", async () => {
    // 300 distinct 48 KB images (each twice): only the first 8 cross the channel (~512 KB, not 19 MB).
    const { outcome, outputs } = await run(
      "for (let i = 0; i < 300; i++) { const png = Buffer.alloc(48_000, i % 251); png.writeUInt32BE(i); display.png(png); display.png(png) }\n'done'",
    );
    expect(outcome.status).toBe("ok");
    const images = outputs.filter((output) => output.type === "display" && "image/png" in output.data);
    expect(images).toHaveLength(defaultOutputLimits.maxImages);
    const collector = new OutputCollector({ ...defaultOutputLimits, ...limits });
    for (const output of outputs) collector.add(output);
    const parts = collector.parts();
    expect(parts.filter((part) => part.type === "image")).toHaveLength(defaultOutputLimits.maxImages);
    const text = parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
    expect(text).toMatch(/^\[image\/png, 48,000 bytes, not shown: over the limit of 8 images per cell\]\n/);
    expect(text).toContain("'done'");
    expect(text).toMatch(
      /… 292 images were left out \(over the limit of 8 images per cell\); show fewer images per cell \(close the ones not needed, or show the rest in later cells\)\.$/,
    );
  });

  it("sends a cut echo as one execute_result, rendered as the whole echo is", async () => {
    const { outputs } = await run("'e'.repeat(5000) + '\\n' + 'f'.repeat(5000)");
    expect(outputs.filter((output) => output.type === "display" && output.kind === "result")).toHaveLength(1);
    const through = new OutputCollector({ ...defaultOutputLimits, ...limits });
    for (const output of outputs) through.add(output);
    const whole = new OutputCollector({ ...defaultOutputLimits, ...limits });
    // What the executor echoes: inspect()'s text of the value.
    const value = `${"e".repeat(5000)}\n${"f".repeat(5000)}`;
    whole.add({ type: "display", kind: "result", data: { "text/plain": inspect(value, { depth: 4 }) } });
    expect(through.parts()).toEqual(whole.parts());
  });
});
