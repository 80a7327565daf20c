import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createRegistry, createRun, resultText, type ToolResult } from "@tools/registry";
import { describe, expect, it } from "vitest";
import { createLspSupervisor } from "../supervisor/supervisor.js";
import { ci, packageBin, tempTree } from "../test-support/fixtures.js";
import { lspRenameTool } from "./lsp-rename-tool.js";
import { lspTool } from "./lsp-tool.js";

/**
 * A name asked about where a comment or a string names it: on the asked line (the nearby lines
 * are tried, as for a name not on the line), or next to it (the line where it is code is used).
 */
async function withTree(
  files: Record<string, string>,
  use: (
    call: (tool: string, args: Record<string, unknown>) => Promise<ToolResult>,
    dir: string,
  ) => Promise<void>,
): Promise<void> {
  const tree = tempTree("comments", files);
  const run = createRun({ workingDirectory: tree.dir });
  createLspSupervisor(run, { diagnosticsTimeoutMs: 20_000, binDirectories: [packageBin] });
  const registry = createRegistry({ tools: [lspTool, lspRenameTool], approval: "auto" });
  try {
    await use((tool, args) => registry.invoke(run, { tool, args }), tree.dir);
  } finally {
    await run.dispose();
    tree.remove();
  }
}

const util = [
  "export interface Shape {",
  "  area(): number;",
  "}",
  "export class Square implements Shape {",
  "  constructor(public side: number) {}",
  "  area(): number { return this.side * this.side; }",
  "}",
  "",
  "export function describe(shape: Shape): string {",
  "  // describe returns the label of a shape",
  '  const label = "shape area";',
  "  return `${label}: ${shape.area()}`;",
  "}",
  "",
].join("\n");

const tsProject = {
  "package.json": '{ "name": "comments", "private": true }\n',
  "tsconfig.json": '{ "compilerOptions": { "strict": true, "noEmit": true } }\n',
  "src/util.ts": util,
};

describe.skipIf(!existsSync(join(packageBin, "typescript-language-server")) && !ci)(
  "a name in a comment or string on typescript-language-server",
  () => {
    it("takes the nearby line where the name is code, not a nearer comment naming it", async () => {
      await withTree(tsProject, async (call, dir) => {
        const lsp = async (args: Record<string, unknown>) => resultText(await call("lsp", args));
        const used =
          "'describe' is not on line 11; used line 9: export function describe(shape: Shape): string {";
        expect(
          (await lsp({ action: "definition", file: "src/util.ts", line: 11, symbol: "describe" })).split(
            "\n",
          ),
        ).toEqual([
          used,
          "1 definition of 'describe':",
          "src/util.ts:9:17  export function describe(shape: Shape): string {",
        ]);
        const hover = await lsp({ action: "hover", file: "src/util.ts", line: 11, symbol: "describe" });
        expect(hover.split("\n")[0]).toBe(used);
        expect(hover).toContain("function describe(shape: Shape): string");
        // A rename names the line to call again with: the declaration's, not the comment's.
        const renamed = await call("lsp_rename", {
          file: "src/util.ts",
          line: 11,
          symbol: "describe",
          new_name: "summarize",
        });
        expect(renamed.error?.code).toBe("LSP_SYMBOL_NOT_FOUND");
        expect(resultText(renamed)).toContain("'describe' is not on line 11; it is on line 9.");
        expect(readFileSync(join(dir, "src", "util.ts"), "utf8")).toBe(util);
      });
    });
  },
);
