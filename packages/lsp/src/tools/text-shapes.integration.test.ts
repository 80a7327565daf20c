import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ci, packageBin } from "../test-support/fixtures.js";
import { useServerFixture } from "../test-support/server-suite.js";
import { lspTool } from "./lsp-tool.js";

const found = existsSync(join(packageBin, "typescript-language-server"));

/** Files of unusual shape: old Mac line ends, one very long line. */
describe.skipIf(!found && !ci)("lsp on files of unusual shape, against typescript-language-server", () => {
  beforeAll(() => {
    expect(found, `typescript-language-server missing in ${packageBin}; run pnpm install`).toBe(true);
  });
  const server = useServerFixture({
    fixture: "ts-project",
    server: "typescript-language-server",
    tools: [lspTool],
    binDirectories: [packageBin],
    diagnosticsTimeoutMs: 15_000,
    expectProcesses: true,
  });

  it("counts a bare carriage return as no line end, as read does, though the server does", async () => {
    writeFileSync(
      join(server.dir, "src", "cr.ts"),
      "export const cr1 = 1;\rexport const cr2 = 2;\rexport const cr3 = cr2 + cr1;\r",
    );
    const outline = await server.text({ action: "symbols", file: "src/cr.ts" });
    expect(outline.split("\n").slice(1)).toEqual([
      "constant cr1  :1",
      "constant cr2  :1",
      "constant cr3  :1",
    ]);
    const references = await server.text({ action: "references", file: "src/cr.ts", line: 1, symbol: "cr1" });
    expect(references).toMatch(/^src\/cr\.ts:1:14 {2}export const cr1 = 1;/m);
    expect(references).toMatch(/^src\/cr\.ts:1:70 {2}export const cr1 = 1;/m);
  });

  it("shows a 24 KB line around each reference, not whole in every row", async () => {
    const uses = Array.from({ length: 60 }, (_, i) => `k${i}: huge(${i}) + "${"x".repeat(400)}".length`);
    const content = `export function huge(n: number): number { return n; }\nexport const table = { ${uses.join(", ")} };\n`;
    expect(content.length).toBeGreaterThan(24_000);
    writeFileSync(join(server.dir, "src", "huge.ts"), content);
    const answer = await server.text({ action: "references", file: "src/huge.ts", line: 1, symbol: "huge" });
    expect(answer).toMatch(/^61 references of 'huge':\n/);
    expect(answer).toMatch(/\n… 11 more references$/);
    expect(answer).not.toContain("xx xx");
    const rows = answer.split("\n").filter((row) => row.startsWith("src/huge.ts:2:"));
    expect(rows.length).toBeGreaterThan(40);
    for (const row of rows) {
      expect(row).toContain("huge(");
      expect(row.length).toBeLessThan(240);
    }
    expect(answer.length).toBeLessThan(15_000);
  });
});
