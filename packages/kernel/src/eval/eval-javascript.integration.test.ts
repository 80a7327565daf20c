import { resultText, type Registry, type Run, type ToolResult } from "@tools/registry";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeRun, makeWorkspace } from "../__fixtures__/workspace.js";

describe("eval on the JavaScript kernel", () => {
  let workspace: ReturnType<typeof makeWorkspace>;
  let registry: Registry;
  let run: Run;
  const cellIn = (target: { registry: Registry; run: Run }, code: string): Promise<ToolResult> =>
    target.registry.invoke(target.run, {
      tool: "eval",
      args: { code, description: "run a javascript test cell here", language: "javascript" },
    });
  const cell = (code: string): Promise<ToolResult> => cellIn({ registry, run }, code);

  beforeAll(() => {
    workspace = makeWorkspace({ venv: false });
    // The default budget: only the interrupt test below needs a short one, and a short budget
    // on a loaded machine can expire in the silence before a bridged call.
    ({ registry, run } = makeRun(workspace.directory));
  });
  afterAll(async () => {
    await run?.dispose();
    workspace?.remove();
  });

  it("keeps bindings between cells, awaits at top level and echoes the last expression", async () => {
    const first = await cell("const base = 40\nfunction add(a, b) { return a + b }\nconsole.log('defined')");
    expect(resultText(first)).toBe("defined");
    const second = await cell(
      "const two = await new Promise((r) => setTimeout(() => r(2), 10))\nadd(base, two)",
    );
    expect(second.isError).toBe(false);
    expect(resultText(second)).toBe("42");
  });

  it("captures console and display() in order, and errors with a stack", async () => {
    const result = await cell("console.log('one')\ndisplay({ k: 1 })\nconsole.error('two')\nnull.x");
    expect(result.isError).toBe(true);
    const text = resultText(result);
    expect(text.indexOf("one")).toBeLessThan(text.indexOf("{ k: 1 }"));
    expect(text.indexOf("{ k: 1 }")).toBeLessThan(text.indexOf("two"));
    expect(text).toContain("TypeError: Cannot read properties of null");
  });

  it("bridges await tool() into the registry", async () => {
    const result = await cell(
      "const text = await tool('read', { path: 'notes.txt' })\ntext.trim().split('\\n')",
    );
    expect(resultText(result)).toBe("[ 'alpha', 'beta' ]");
  });

  it("interrupts while(true){} and a never-settling promise, keeping state", async () => {
    const short = makeRun(workspace.directory, { inactivityMs: 1500, interruptGraceMs: 5000 });
    try {
      await cellIn(short, "const base = 40");
      const loop = await cellIn(short, "while (true) {}");
      expect(loop.error?.code).toBe("KERNEL_TIMEOUT");
      expect(resultText(loop)).toMatch(/KeyboardInterrupt[\s\S]*state is kept/);
      const wait = await cellIn(short, "await new Promise(() => {})");
      expect(wait.error?.code).toBe("KERNEL_TIMEOUT");
      expect(resultText(wait)).toContain("state is kept");
      expect(resultText(await cellIn(short, "base + 2"))).toBe("42");
    } finally {
      await short.run.dispose();
    }
  });

  it("leaves no kernel or executor process after run.dispose()", async () => {
    const pids = resultText(await cell("[process.ppid, process.pid].join(' ')"))
      .replace(/'/g, "")
      .split(" ")
      .map(Number);
    expect(pids).toHaveLength(2);
    for (const pid of pids) expect(alive(pid)).toBe(true);
    await run.dispose();
    for (const pid of pids) expect(alive(pid)).toBe(false);
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
