import { Script } from "node:vm";
import { describe, expect, it } from "vitest";
import { cellTraceback } from "./cell-traceback.js";
import { compileCell, type CompiledCell } from "./compile-cell.js";

function failure(cells: Map<string, CompiledCell>, file: string, code: string): unknown {
  const compiled = compileCell(code);
  cells.set(file, compiled);
  try {
    return new Script(compiled.source, { filename: file }).runInThisContext() as Promise<unknown>;
  } catch (error) {
    return Promise.reject(error);
  }
}

describe("cellTraceback", () => {
  it("gives the cell's own lines, through a function from an earlier cell, and ends at the cell", async () => {
    const cells = new Map<string, CompiledCell>();
    await failure(cells, "cell-1.js", "function f(o) {\n  return o.x\n}");
    const error = (await (failure(cells, "cell-2.js", "const a = 1\nf(null)") as Promise<unknown>).catch(
      (caught: unknown) => caught,
    )) as Error;
    expect(cellTraceback(error.stack ?? "", cells)).toEqual([
      "TypeError: Cannot read properties of null (reading 'x')",
      expect.stringMatching(/^ {4}at f \(cell-1\.js:2:12\)$/),
      expect.stringMatching(/^ {4}at cell-2\.js:2:1$/),
    ]);
  });

  it("drops the kernel's own frames (process.emit, vm, the executor)", () => {
    const stack = [
      "Error: bad",
      "    at cell-3.js:2:7",
      "    at cell-3.js:3:18",
      "    at Script.runInThisContext (node:vm:137:12)",
      "    at execute (file:///k/dist/js-kernel/executor.js:150:30)",
      "    at process.emit (node:events:524:28)",
    ].join("\n");
    expect(cellTraceback(stack, new Map([["cell-3.js", compileCell("throw new Error('bad')")]]))).toEqual([
      "Error: bad",
      "    at cell-3.js:1:7",
    ]);
  });

  it("shows a syntax error on the cell's line, or at the end of the cell", () => {
    const cells = new Map<string, CompiledCell>();
    const syntax = (file: string, code: string): string[] => {
      const compiled = compileCell(code);
      cells.set(file, compiled);
      try {
        new Script(compiled.source, { filename: file });
      } catch (error) {
        return cellTraceback((error as Error).stack ?? "", cells);
      }
      return [];
    };
    expect(syntax("cell-4.js", "const a = 1\nconst b = a b")).toEqual([
      "cell-4.js:2",
      "const b = a b",
      "            ^",
      "",
      "SyntaxError: Unexpected identifier 'b'",
    ]);
    expect(syntax("cell-5.js", "foo(\n  1,")[0]).toBe(
      "cell-5.js: at the end of the cell (is a bracket, string or comment left open?)",
    );
  });
});
