import { createRegistry, createRun, resultText } from "@tools/registry";
import { beforeAll, describe, expect, it } from "vitest";
import { createLspSupervisor } from "../supervisor/supervisor.js";
import { ci, tempTree } from "../test-support/fixtures.js";
import { lspTool } from "../tools/lsp-tool.js";
import { findBinary } from "./find-binary.js";

describe.skipIf(!findBinary("gopls", [], []).found && !ci)("gopls in a go.work workspace", () => {
  beforeAll(() => {
    expect(findBinary("gopls", [], []).found, "gopls not found on PATH").toBe(true);
  });

  it("runs one gopls for both modules, and navigates from one into the other", async () => {
    // Module a imports module b, which only go.work makes resolvable (no require, no replace).
    const tree = tempTree("go-work", {
      "go.work": "go 1.19\n\nuse (\n\t./a\n\t./b\n)\n",
      "a/go.mod": "module example.com/a\n\ngo 1.19\n",
      "a/a.go":
        'package a\n\nimport "example.com/b"\n\n// Use calls into module b.\nfunc Use() int { return b.Value() }\n',
      "b/go.mod": "module example.com/b\n\ngo 1.19\n",
      "b/b.go": "package b\n\n// Value is one.\nfunc Value() int { return 1 }\n",
    });
    const run = createRun({ workingDirectory: tree.dir });
    const supervisor = createLspSupervisor(run, { diagnosticsTimeoutMs: 20_000 });
    const registry = createRegistry({ tools: [lspTool] });
    const lsp = async (args: Record<string, unknown>) =>
      resultText(await registry.invoke(run, { tool: "lsp", args }));
    try {
      expect(await lsp({ action: "definition", file: "a/a.go", line: 6, symbol: "Value" })).toContain(
        "b/b.go:4:6  func Value() int { return 1 }",
      );
      // A question about a file of module b goes to the same server, which sees module a's use.
      expect(await lsp({ action: "references", file: "b/b.go", line: 4, symbol: "Value" })).toContain(
        "a/a.go:6:",
      );
      const processes = supervisor.processes();
      expect(processes, JSON.stringify(processes)).toHaveLength(1);
      expect(processes[0]).toMatchObject({ language: "go", root: tree.dir, state: "running" });
      expect(await lsp({ action: "status" })).toMatch(/^go: root \. \(marker go\.work\), binary found/m);
      // A search without file asks the workspace's server, and names no module as not searched.
      expect(await lsp({ action: "symbols", query: "Value" })).toBe(
        "1 symbol matches 'Value':\nfunction Value (in example.com/b)  b/b.go:4:6  func Value() int { return 1 }",
      );
    } finally {
      await run.dispose();
      tree.remove();
    }
  });
});
