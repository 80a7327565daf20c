import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { compileCell } from "./compile-cell.js";

async function run(context: Record<string, unknown>, code: string): Promise<unknown> {
  const value = (await runInNewContext(compileCell(code), context)) as { __echo: unknown } | undefined;
  return value?.__echo;
}

describe("compileCell", () => {
  it("keeps top-level bindings across cells and allows redeclaring them", async () => {
    const context: Record<string, unknown> = {};
    context.globalThis = context;
    expect(await run(context, "const x = 20\nlet y;\nfunction f() { return x + 1 }")).toBeUndefined();
    expect(await run(context, "const x = 40\nf() + 1")).toBe(42);
    expect(await run(context, "const { a, b } = { a: 1, b: 2 }\nclass K {}")).toBeUndefined();
    expect(await run(context, "[a + b, typeof K, y]")).toEqual([3, "function", undefined]);
  });

  it("supports top-level await and echoes a multi-line last expression", async () => {
    const context: Record<string, unknown> = {};
    context.globalThis = context;
    expect(await run(context, "const v = await Promise.resolve(5)\nMath.max(\n  v,\n  2,\n);")).toBe(5);
    expect(await run(context, "if (v) {\n  v\n}")).toBeUndefined();
  });
});
