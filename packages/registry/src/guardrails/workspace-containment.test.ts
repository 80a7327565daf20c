import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createRegistry } from "../registry.js";
import { resultText } from "../result/tool-result.js";
import { stateKey } from "../run/resource-key.js";
import { createRun } from "../run/run.js";
import { defineTool } from "../tool/define-tool.js";
import { resolveInside } from "./workspace-containment.js";
import { tempDir } from "../testing/fixture-tools.js";

describe("workspace containment", () => {
  const root = tempDir();
  const outside = tempDir("tools-outside-");
  mkdirSync(join(root, "src"));
  writeFileSync(join(root, "src", "a.ts"), "x");
  writeFileSync(join(outside, "secret"), "s");
  symlinkSync(outside, join(root, "escape"));
  symlinkSync(join(root, "src"), join(root, "alias"));
  symlinkSync(join(outside, "not-yet"), join(root, "dangling"));
  symlinkSync(join(root, "loop-b"), join(root, "loop-a"));
  symlinkSync(join(root, "loop-a"), join(root, "loop-b"));
  symlinkSync(join(root, "src", "later.ts"), join(root, "dangling-inside"));

  it("refuses a call whose tool's paths(input) gives something other than a list of paths, naming the bug", async () => {
    const pathsOf = (name: string, paths: (input: { at: string }) => unknown) =>
      defineTool({
        name,
        tier: "read",
        description: "Reads.",
        parallelSafe: true,
        input: z.object({ at: z.string() }),
        paths: paths as never,
        execute: () => "read",
      });
    const registry = createRegistry({
      tools: [pathsOf("one_string", (input) => input.at), pathsOf("numbers", () => [12])],
    });
    const run = createRun({ workingDirectory: root });
    try {
      const lone = await registry.invoke(run, { tool: "one_string", args: { at: "/etc/passwd" } });
      expect(lone.error?.code).toBe("INVALID_DEFINITION");
      expect(resultText(lone)).toBe(
        "one_string was not called: its paths(input) gave string, not a list of paths; this is a bug in the tool",
      );
      const numbers = await registry.invoke(run, { tool: "numbers", args: { at: "a" } });
      expect(resultText(numbers)).toBe(
        "numbers was not called: its paths(input) gave a list with something other than paths in it, not a list of paths; this is a bug in the tool",
      );
    } finally {
      await run.dispose();
    }
  });

  it("resolves relative and absolute paths inside the working directory", () => {
    expect(resolveInside(root, "src/a.ts")).toBe(join(root, "src", "a.ts"));
    expect(resolveInside(root, join(root, "src", "a.ts"))).toBe(join(root, "src", "a.ts"));
    expect(resolveInside(root, ".")).toBe(root);
    expect(resolveInside(root, "src/../src/a.ts")).toBe(join(root, "src", "a.ts"));
  });

  it("judges against the working directory normalised, however it is spelled", () => {
    expect(resolveInside(`${root}/`, "src/a.ts")).toBe(join(root, "src", "a.ts"));
    expect(resolveInside(`${root}/./`, ".")).toBe(root);
    expect(resolveInside(`${root}/src/..`, "src")).toBe(join(root, "src"));
    expect(() => resolveInside(`${root}/`, `${root}-sibling/file`)).toThrow(/outside the working directory/);
    expect(() => resolveInside(`${root}/src/..`, "../x")).toThrow(/outside the working directory/);
    expect(resolveInside("/", join(root, "src", "a.ts"))).toBe(join(root, "src", "a.ts"));
  });

  it("accepts the working directory spelled through a symlink, handing on the real path", () => {
    const alias = join(outside, "root-alias");
    symlinkSync(root, alias);
    expect(resolveInside(root, join(alias, "src", "a.ts"))).toBe(join(root, "src", "a.ts"));
    expect(resolveInside(root, join(alias, "new", "file.ts"))).toBe(join(root, "new", "file.ts"));
    expect(resolveInside(root, alias)).toBe(root);
    // Through the alias and out again by a symlink inside: still refused.
    expect(() => resolveInside(root, join(alias, "escape", "secret"))).toThrow(
      `path '${join(alias, "escape", "secret")}' resolves to ${join(outside, "secret")}, outside the working directory ${root}; use a path inside it`,
    );
  });

  it("accepts a file that does not exist yet inside", () => {
    expect(resolveInside(root, "new/dir/file.ts")).toBe(join(root, "new", "dir", "file.ts"));
  });

  it("accepts a symlink that stays inside", () => {
    expect(resolveInside(root, "alias/a.ts")).toBe(join(root, "alias", "a.ts"));
  });

  it("refuses .. escapes and absolute paths outside, saying where they land", () => {
    expect(() => resolveInside(root, "../x")).toThrow(/outside the working directory/);
    expect(() => resolveInside(root, "/etc/passwd")).toThrow(
      `path '/etc/passwd' resolves to /etc/passwd, outside the working directory ${root}; use a path inside it`,
    );
    expect(() => resolveInside(root, `${root}-sibling/file`)).toThrow(/outside the working directory/);
  });

  it("refuses a symlink escape, existing or not yet written", () => {
    expect(() => resolveInside(root, "escape/secret")).toThrow(/goes through a symlink/);
    expect(() => resolveInside(root, "escape/new-file")).toThrow(/goes through a symlink/);
    expect(() => resolveInside(root, "escape")).toThrow(/goes through a symlink/);
  });

  it("refuses a dangling symlink that points outside, and a symlink loop", () => {
    expect(() => resolveInside(root, "dangling")).toThrow(/goes through a symlink/);
    expect(() => resolveInside(root, "dangling/deeper/still/file.ts")).toThrow(/goes through a symlink/);
    expect(() => resolveInside(root, "loop-a/x")).toThrow(/symlink loop/);
  });

  it("accepts a dangling symlink that points inside", () => {
    expect(resolveInside(root, "dangling-inside")).toBe(join(root, "dangling-inside"));
    expect(resolveInside(root, "dangling-inside/x/y.ts")).toBe(join(root, "dangling-inside", "x", "y.ts"));
    expect(resolveInside(root, "alias/new/deep/file.ts")).toBe(join(root, "alias", "new", "deep", "file.ts"));
  });

  it("refuses empty paths and NUL bytes", () => {
    expect(() => resolveInside(root, "")).toThrow(/empty/);
    expect(() => resolveInside(root, "a\0b")).toThrow(/NUL/);
  });
});

describe("workspace containment in the chain", () => {
  it("hands the tool the path it already checked, resolved once per call", async () => {
    const { createRegistry } = await import("../registry.js");
    const { createRun } = await import("../run/run.js");
    const { writeNoteTool } = await import("../testing/fixture-tools.js");
    const { resultText } = await import("../result/tool-result.js");
    const root = tempDir();
    const run = createRun({ workingDirectory: root });
    const registry = createRegistry({ tools: [writeNoteTool], approval: "auto" });
    const result = await registry.invoke(run, {
      tool: "write_note",
      args: { path: "docs/../a.md", text: "x" },
    });
    expect(resultText(result)).toBe("wrote docs/../a.md");
    expect(result.changedFiles).toEqual([join(root, "a.md")]);
    await run.dispose();
  });

  it("checks paths a tool takes from the run's state, not only its arguments", async () => {
    const root = tempDir();
    const outside = tempDir("tools-outside-");
    symlinkSync(outside, join(root, "link"));
    const stagedKey = stateKey<Map<string, string>>("staged paths", () => new Map());
    const executed: string[] = [];
    const applyTool = defineTool({
      name: "apply_staged",
      tier: "write",
      parallelSafe: false,
      description: "Writes what was staged under an id.",
      input: z.object({ id: z.string() }),
      paths: (input, run) => {
        const path = run.state(stagedKey).get(input.id);
        return path === undefined ? [] : [path];
      },
      execute: (input, context) => {
        executed.push(context.resolvePath(context.run.state(stagedKey).get(input.id)!));
        return "applied";
      },
    });
    const run = createRun({ workingDirectory: root });
    run.state(stagedKey).set("inside", "docs/a.md").set("escape", "link/a.md");
    const registry = createRegistry({ tools: [applyTool], approval: "auto" });
    const refused = await registry.invoke(run, { tool: "apply_staged", args: { id: "escape" } });
    expect(refused.error?.code).toBe("GUARDRAIL_REFUSED");
    expect(resultText(refused)).toContain(`path 'link/a.md' goes through a symlink to ${outside}`);
    const applied = await registry.invoke(run, { tool: "apply_staged", args: { id: "inside" } });
    expect(applied.isError).toBe(false);
    expect(executed).toEqual([join(root, "docs", "a.md")]);
    await run.dispose();
  });
});

describe("the containment guardrail on its own", () => {
  it("refuses an escape even when the call carries no resolved-path memo", async () => {
    const { workspaceContainment } = await import("./workspace-containment.js");
    const { createRun } = await import("../run/run.js");
    const { writeNoteTool } = await import("../testing/fixture-tools.js");
    const run = createRun({ workingDirectory: tempDir() });
    const call = {
      callId: "c",
      tool: writeNoteTool,
      input: { path: "../escape", text: "" },
      run,
      surface: (await import("../surface/surface.js")).surfaces.main,
      origin: "model" as const,
      depth: 0,
      signal: run.signal,
    };
    expect(() => workspaceContainment().check(call as never)).toThrow(/outside the working directory/);
    await run.dispose();
  });
});
