import { Script, runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { compileCell } from "./compile-cell.js";

async function run(context: Record<string, unknown>, code: string): Promise<unknown> {
  const value = (await runInNewContext(compileCell(code).source, context)) as { __echo: unknown } | undefined;
  return value?.__echo;
}

/** Where the cell's error is reported: the stack's first cell position, mapped back. */
async function errorAt(code: string): Promise<string> {
  const compiled = compileCell(code);
  try {
    await (new Script(compiled.source, { filename: "cell-1.js" }).runInNewContext({}) as Promise<unknown>);
  } catch (error) {
    const [, line = "", column = ""] = /cell-1\.js:(\d+):(\d+)/.exec((error as Error).stack ?? "") ?? [];
    return `${compiled.cellLine(Number(line))}:${column}`;
  }
  return "no error";
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

  it("echoes the last expression when comments or blank lines follow it", async () => {
    const context: Record<string, unknown> = {};
    context.globalThis = context;
    expect(await run(context, "const v = [1, 2, 3]\nv.length\n// how many")).toBe(3);
    expect(await run(context, "v.length; // how many\n\n/* done */\n")).toBe(3);
    expect(await run(context, "[\n  v[0],\n// the first\n]")).toEqual([1]);
    expect(await run(context, "const w = 2 // a declaration is not echoed")).toBeUndefined();
  });

  it("maps positions back to the cell's own lines and columns", async () => {
    expect(await errorAt("const a = 1\nconst b = 2\nnull.x\nconst c = 3")).toBe("3:6");
    expect(await errorAt("throw new Error('bad')")).toBe("1:7");
    expect(await errorAt("const a = 1\nconst b = 2\nundefinedFn()")).toBe("3:1");
    expect(await errorAt("const a = 1\nlet b = a.b.c")).toBe("2:13");
    const compiled = compileCell("const a = 1\na + 1\n// end");
    const lines = compiled.source.split("\n");
    expect(compiled.cellLine(1)).toBeUndefined();
    expect(lines.map((_, index) => compiled.cellLine(index + 1))).toEqual([
      undefined,
      1,
      undefined,
      2,
      undefined,
      3,
      undefined,
    ]);
  });
});
