import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { resultText } from "@tools/registry";
import { beforeAll, describe, expect, it } from "vitest";
import { diagnosticsOnWrite } from "../diagnostics/diagnostics-on-write.js";
import { ci, packageBin } from "../test-support/fixtures.js";
import { useServerFixture } from "../test-support/server-suite.js";
import { writeTool } from "../test-support/write-tool.js";
import { lspRenameTool } from "./lsp-rename-tool.js";
import { lspTool } from "./lsp-tool.js";

const found = existsSync(join(packageBin, "pyright-langserver"));

describe.skipIf(!found && !ci)("lsp against pyright", () => {
  beforeAll(() => {
    expect(found, `pyright-langserver missing in ${packageBin}; run pnpm install`).toBe(true);
  });
  const server = useServerFixture({
    fixture: "py-project",
    server: "pyright",
    tools: [lspTool, lspRenameTool, writeTool],
    binDirectories: [packageBin],
    diagnosticsTimeoutMs: 15_000,
    resultWrappers: [diagnosticsOnWrite({ boundMs: 30_000 })],
    expectProcesses: true,
  });
  const { invoke, text } = server;

  it("finds a definition in another module", async () => {
    const answer = await text({ action: "definition", file: "pkg/main.py", line: 4, symbol: "scale" });
    expect(answer).toContain("pkg/geometry.py:11:5  def scale(circle: Circle, factor: float) -> Circle:");
  });

  it("gives hover with the docstring, references and symbols", async () => {
    const hover = await text({ action: "hover", file: "pkg/main.py", line: 4, symbol: "scale" });
    expect(hover).toContain("Returns a scaled copy.");
    const refs = await text({ action: "references", file: "pkg/geometry.py", line: 1, symbol: "Circle" });
    expect(refs).toContain("pkg/main.py:3:8  unit = Circle(1.0)");
    const outline = await text({ action: "symbols", file: "pkg/geometry.py" });
    expect(outline).toMatch(/class Circle/);
    expect(outline).toMatch(/ {2}method area/);
  });

  it("reports diagnostics and only new ones on write", async () => {
    const main = join(server.dir, "pkg", "main.py");
    const original = readFileSync(main, "utf8");
    expect(await text({ action: "diagnostics", file: "pkg/main.py" })).toBe("no diagnostics in pkg/main.py");
    const broken = original.replace("print(big.area())", "print(big.perimeter())");
    const first = resultText(await invoke("write", { file: "pkg/main.py", content: broken }));
    expect(first).toContain("1 new diagnostic in pkg/main.py");
    expect(first).toMatch(/pkg\/main\.py:5:\d+ error .*perimeter/);
    const moved = resultText(await invoke("write", { file: "pkg/main.py", content: `\n\n${broken}` }));
    expect(moved).toContain("no new diagnostics in pkg/main.py (1 reported earlier still present)");
    const fixed = resultText(await invoke("write", { file: "pkg/main.py", content: original }));
    expect(fixed).toContain("pkg/main.py: clean (no errors or warnings)");
  });

  it('runs pyright --outputjson for diagnostics "*"', async () => {
    const main = join(server.dir, "pkg", "main.py");
    const original = readFileSync(main, "utf8");
    writeFileSync(main, original.replace("scale(unit, 2.0)", "scale(unit)"));
    try {
      const answer = await text({ action: "diagnostics", file: "*" });
      expect(answer).toMatch(/python \(pyright --outputjson in \.\): 1 problems/);
      expect(answer).toMatch(
        /pkg\/main\.py:4:\d+ error \[reportCallIssue\] Argument missing for parameter "factor"/,
      );
    } finally {
      writeFileSync(main, original);
    }
  });

  it("renames across files", async () => {
    const result = await invoke("lsp_rename", {
      file: "pkg/geometry.py",
      line: 11,
      symbol: "scale",
      new_name: "resize",
    });
    const answer = resultText(result);
    expect(result.isError, answer).toBe(false);
    expect(answer).toContain("pkg/main.py: 2 edits");
    expect(readFileSync(join(server.dir, "pkg", "main.py"), "utf8")).toContain("big = resize(unit, 2.0)");
    expect(readFileSync(join(server.dir, "pkg", "geometry.py"), "utf8")).toContain("def resize(");
  });
});
