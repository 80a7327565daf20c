import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as api from "./index.js";

describe("the public API", () => {
  it("exports exactly these names", () => {
    expect(Object.keys(api).sort()).toEqual([
      "applyPatchTool",
      "createDemoRun",
      "editTool",
      "grepTool",
      "harnessTools",
      "noApproverHint",
      "readTool",
      "shellTool",
      "toolPackages",
      "writeTool",
    ]);
  });

  it("wires the harness tools with their tiers into the demo run", async () => {
    const dir = await mkdtemp(join(tmpdir(), "harness-demo-api-"));
    const demo = api.createDemoRun({ workingDirectory: dir });
    try {
      expect(demo.registry.toolsFor(demo.run, "main").map((tool) => `${tool.name}:${tool.tier}`)).toEqual([
        "read:read",
        "grep:read",
        "write:write",
        "edit:write",
        "apply_patch:write",
        "shell:exec",
        "ast_grep:read",
        "ast_edit:write",
        "resolve:write",
        "ask_user:read",
        "eval:exec",
        "debug:exec",
        "lsp:read",
        "lsp_rename:write",
      ]);
      expect(demo.registry.approvalPolicy).toBe("ask");
      // Vibe mode is off without a worker backend: its tools are not registered for the run.
      expect(demo.registry.toolsFor(demo.run, "main").some((tool) => tool.name.startsWith("vibe_"))).toBe(
        false,
      );
      expect(demo.registry.toolsFor(demo.run, "readonly").map((tool) => tool.name)).toEqual([
        "read",
        "grep",
        "ast_grep",
        "ask_user",
        "lsp",
      ]);
    } finally {
      await demo.dispose();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
