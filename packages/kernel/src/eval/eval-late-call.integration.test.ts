import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  defineTool,
  resultText,
  textResult,
  type Registry,
  type Run,
  type ToolResult,
} from "@tools/registry";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { ci, makeRun, makeWorkspace, pythonFound } from "../__fixtures__/workspace.js";

const describePython = describe.skipIf(!pythonFound && !ci);

/** Waits until `path` exists (a cell's thread writes it), for at most 30 s. */
async function untilExists(path: string): Promise<void> {
  for (const deadline = Date.now() + 30_000; !existsSync(path);) {
    if (Date.now() > deadline) throw new Error(`${path} never appeared: the thread's call got no answer`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Says it was entered (a file), then waits until the call is cancelled: a call still in flight. */
const gateTool = defineTool({
  name: "gate",
  tier: "read",
  parallelSafe: true,
  description: 'Waits until cancelled. Example: {"entered": "/tmp/x"}',
  input: z.object({ entered: z.string() }),
  execute: async (args, context) => {
    writeFileSync(args.entered, "");
    await new Promise<void>((resolve) => {
      if (context.signal.aborted) resolve();
      else context.signal.addEventListener("abort", () => resolve(), { once: true });
    });
    return textResult("the gate was cancelled");
  },
});

describePython("a Python thread that calls tool() or input() after its cell finished", () => {
  let workspace: ReturnType<typeof makeWorkspace>;
  let registry: Registry;
  let run: Run;
  const cell = (code: string): Promise<ToolResult> =>
    registry.invoke(run, { tool: "eval", args: { code, description: "run a python test cell here" } });

  beforeAll(() => {
    expect(pythonFound).toBe(true);
    workspace = makeWorkspace();
    ({ registry, run } = makeRun(workspace.directory, {}, [gateTool]));
  });
  afterAll(async () => {
    await run?.dispose();
    workspace?.remove();
  });

  it("gets a ToolError and an EOFError at once, and later tool(), !cmd and cells are not blocked", async () => {
    const go = join(workspace.directory, "late-call.go");
    const done = join(workspace.directory, "late-call.txt");
    // The thread waits for the test to say the cell has answered: its calls are late for certain.
    const started = await cell(
      [
        "import threading, time, os",
        // input as the cell sees it (ipykernel's between cells reads the kernel's own stdin).
        "def late(ask=input):",
        `    while not os.path.exists(${JSON.stringify(go)}):`,
        "        time.sleep(0.02)",
        "    lines = []",
        "    try:",
        "        lines.append('read: ' + tool('read', {'path': 'notes.txt'}))",
        "    except ToolError as error:",
        "        lines.append(f'ToolError {error.code}: {error}')",
        "    try:",
        "        lines.append('input: ' + ask('q? '))",
        "    except EOFError as error:",
        "        lines.append(f'EOFError: {error}')",
        // The global input() at call time: what a user's thread gets after the cell ended.
        "    try:",
        "        lines.append('global input: ' + __import__('builtins').input('q? '))",
        "    except Exception as error:",
        "        lines.append(f'{type(error).__name__}: {error}')",
        "    try:",
        "        lines.append('global getpass: ' + __import__('getpass').getpass('pw? '))",
        "    except Exception as error:",
        "        lines.append(f'{type(error).__name__}: {error}')",
        `    with open(${JSON.stringify(done)} + '.tmp', 'w') as file:`,
        "        file.write('\\n'.join(lines))",
        `    os.rename(${JSON.stringify(done)} + '.tmp', ${JSON.stringify(done)})`,
        "threading.Thread(target=late, daemon=True).start()",
        "print('started')",
      ].join("\n"),
    );
    expect(resultText(started)).toBe("started");
    writeFileSync(go, "");
    await untilExists(done);
    const [toolLine, inputLine, globalInputLine, globalGetpassLine] = readFileSync(done, "utf8").split("\n");
    expect(toolLine).toBe(
      'ToolError CELL_FINISHED: the cell that called tool("read") has finished, so the call was not run: call tools from the cell, or wait for the thread in it (thread.join())',
    );
    expect(inputLine).toBe(
      "EOFError: input() was called after its cell had finished (from a thread or a timer the cell started), so nobody was asked: ask from the cell, or wait for the thread in it (thread.join())",
    );
    // Between cells ipykernel puts back the input() it found before the cell: ours, which says
    // why (Python's own read the kernel's stdin: "EOF when reading a line"), at once.
    expect(globalInputLine).toBe(
      "EOFError: input() was called after its cell had finished (from a thread or a timer the cell started), so nobody was asked: ask from the cell, or wait for the thread in it (thread.join())",
    );
    expect(globalGetpassLine).toBe(
      "EOFError: getpass() was called after its cell had finished (from a thread or a timer the cell started), so nobody was asked: ask from the cell, or wait for the thread in it (thread.join())",
    );
    // The bridge's lock was let go: the shell tool, tool() and input() of later cells run.
    const echo = await cell("!echo one");
    expect(echo.isError).toBe(false);
    expect(resultText(echo)).toContain("one");
    const read = await cell("tool('read', {'path': 'notes.txt'}).split()");
    expect(resultText(read)).toBe("['alpha', 'beta']");
    const asked = await cell("input('q? ')");
    expect(asked.error?.code).toBe("CELL_ERROR");
    expect(resultText(asked)).toContain("input() is not available in eval");
  });

  it("gets an answer to a call still in flight when its cell finished, and the bridge is free after", async () => {
    const entered = join(workspace.directory, "gate.entered");
    const done = join(workspace.directory, "gate.txt");
    // The cell ends once its thread's call is running in the harness: the answer comes after it.
    const started = await cell(
      [
        "import threading, time, os",
        "def call():",
        "    try:",
        `        line = 'gate: ' + tool('gate', {'entered': ${JSON.stringify(entered)}})`,
        "    except ToolError as error:",
        "        line = f'ToolError {error.code}'",
        `    with open(${JSON.stringify(done)} + '.tmp', 'w') as file:`,
        "        file.write(line)",
        `    os.rename(${JSON.stringify(done)} + '.tmp', ${JSON.stringify(done)})`,
        "threading.Thread(target=call, daemon=True).start()",
        `while not os.path.exists(${JSON.stringify(entered)}):`,
        "    time.sleep(0.02)",
        "print('in flight')",
      ].join("\n"),
    );
    expect(resultText(started)).toBe("in flight");
    await untilExists(done);
    // The cell's end cancelled the call: whichever answer the thread got, it got one.
    expect(readFileSync(done, "utf8")).toMatch(/^(gate: |ToolError )/);
    expect(resultText(await cell("tool('read', {'path': 'notes.txt'}).split()"))).toBe("['alpha', 'beta']");
  });

  it("answers a thread's call in flight when its cell is interrupted, and the bridge is free after", async () => {
    const entered = join(workspace.directory, "interrupted.entered");
    const done = join(workspace.directory, "interrupted.txt");
    const controller = new AbortController();
    // The cell waits for its thread (t.join()) while the thread's call runs: cancelling the cell
    // interrupts it, and SIGINT reaches the main thread only.
    const cancelled = registry.invoke(run, {
      tool: "eval",
      args: {
        code: [
          "import threading, os",
          "def call():",
          "    try:",
          `        line = 'gate: ' + tool('gate', {'entered': ${JSON.stringify(entered)}})`,
          "    except ToolError as error:",
          "        line = f'ToolError {error.code}: {error}'",
          `    with open(${JSON.stringify(done)} + '.tmp', 'w') as file:`,
          "        file.write(line)",
          `    os.rename(${JSON.stringify(done)} + '.tmp', ${JSON.stringify(done)})`,
          "t = threading.Thread(target=call, daemon=True)",
          "t.start()",
          "t.join()",
        ].join("\n"),
        description: "run a python test cell here",
      },
      signal: controller.signal,
    });
    await untilExists(entered);
    controller.abort(new Error("the operator pressed stop"));
    expect((await cancelled).error?.code).toBe("CANCELLED");
    await untilExists(done);
    expect(readFileSync(done, "utf8")).toBe(
      'ToolError INTERRUPTED: the cell was interrupted while this call ran; its result was not kept (tool("gate") from a thread the cell started)',
    );
    expect(resultText(await cell("tool('read', {'path': 'notes.txt'}).split()"))).toBe("['alpha', 'beta']");
  });
});

describe("a JavaScript timer that calls tool() after its cell finished", () => {
  let workspace: ReturnType<typeof makeWorkspace>;
  let registry: Registry;
  let run: Run;
  const cell = (code: string): Promise<ToolResult> =>
    registry.invoke(run, {
      tool: "eval",
      args: { code, description: "run a javascript test cell here", language: "javascript" },
    });

  beforeAll(() => {
    workspace = makeWorkspace({ venv: false });
    ({ registry, run } = makeRun(workspace.directory));
  });
  afterAll(async () => {
    await run?.dispose();
    workspace?.remove();
  });

  it("gets a rejected promise at once, and later calls run", async () => {
    const go = join(workspace.directory, "late-timer.go");
    const done = join(workspace.directory, "late-timer.txt");
    // The timer waits for the test to say the cell has answered: its call is late for certain.
    const started = await cell(
      [
        "const fs = require('fs')",
        "const poll = setInterval(async () => {",
        `  if (!fs.existsSync(${JSON.stringify(go)})) return`,
        "  clearInterval(poll)",
        "  let line",
        "  try { line = 'read: ' + await tool('read', { path: 'notes.txt' }) }",
        "  catch (error) { line = `${error.name} ${error.code}: ${error.message}` }",
        `  fs.writeFileSync(${JSON.stringify(done)} + '.tmp', line)`,
        `  fs.renameSync(${JSON.stringify(done)} + '.tmp', ${JSON.stringify(done)})`,
        "}, 20)",
        "'scheduled'",
      ].join("\n"),
    );
    expect(resultText(started)).toBe("'scheduled'");
    writeFileSync(go, "");
    await untilExists(done);
    expect(readFileSync(done, "utf8")).toBe(
      'ToolError CELL_FINISHED: the cell that called tool("read") has finished, so the call was not run: call tools from the cell, or await the timer\'s work in it (await new Promise(...))',
    );
    const read = await cell("(await tool('read', { path: 'notes.txt' })).split('\\n')[0]");
    expect(resultText(read)).toBe("'alpha'");
  });
});
