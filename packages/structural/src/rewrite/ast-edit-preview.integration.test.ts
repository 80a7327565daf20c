import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRegistry, createRun, resultText, type Run } from "@tools/registry";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { createStructuralParser, structuralParserKey } from "../parser/structural-parser.js";
import { structuralTools } from "../tools/structural-tools.js";

const parser = createStructuralParser({ workers: 0 });
afterAll(() => parser.dispose());

let dir: string;
let run: Run;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "structural-preview-"));
  run = createRun({ workingDirectory: dir, resources: [[structuralParserKey, parser]] });
});
afterEach(async () => {
  await run.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe("ast_edit's preview size", () => {
  it("stays small for one replacement on a 1.5 MB line, and the staged edit is exact", async () => {
    const bundle = `${"var a=1;".repeat(187_500)}console.log(1);`;
    writeFileSync(join(dir, "bundle.min.js"), bundle);
    const registry = createRegistry({ tools: [...structuralTools], approval: "auto" });
    const proposed = await registry.invoke(run, {
      tool: "ast_edit",
      args: { pattern: "console.log($A)", rewrite: "void 0", language: "javascript" },
    });
    const text = resultText(proposed);
    expect(proposed.isError).toBe(false);
    expect(text).toContain("1 replacement in 1 file");
    expect(text.length).toBeLessThan(2_000);
    expect(text).toMatch(/^-\[… \d+ chars …\].*console\.log\(1\);$/m);
    expect(text).toMatch(/^\+\[… \d+ chars …\].*void 0;$/m);
    const id = /edit_id "([^"]+)"/.exec(text)?.[1];
    const accepted = await registry.invoke(run, { tool: "resolve", args: { edit_id: id, action: "accept" } });
    expect(accepted.isError).toBe(false);
    expect(readFileSync(join(dir, "bundle.min.js"), "utf8")).toBe(`${"var a=1;".repeat(187_500)}void 0;`);
  }, 60_000);

  it("stops at 8,000 characters over all files and says how much was left out", async () => {
    for (let file = 0; file < 3; file++)
      writeFileSync(join(dir, `f${file}.ts`), `log(${"'y', ".repeat(40)}${file});\n`.repeat(20));
    const registry = createRegistry({ tools: [...structuralTools], approval: "auto" });
    const proposed = await registry.invoke(run, {
      tool: "ast_edit",
      args: { pattern: "log($$$A)", rewrite: "info($$$A)", language: "typescript" },
    });
    const text = resultText(proposed);
    expect(proposed.isError).toBe(false);
    const diff = text.slice(text.indexOf("--- a/"), text.lastIndexOf("\n… "));
    expect(diff.length).toBeLessThanOrEqual(8_000);
    expect(text).toMatch(
      /… \d+ more diff lines not shown \(the preview stops at 60 lines or 8000 characters/,
    );
  });
});
