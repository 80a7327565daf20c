import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { inspect } from "node:util";
import {
  defineTool,
  resultText,
  textResult,
  ToolsError,
  type Registry,
  type Run,
  type ToolResult,
} from "@tools/registry";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { makeRun, makeWorkspace } from "../__fixtures__/workspace.js";
import { OutputCollector } from "./output-collector.js";
import { defaultOutputLimits } from "./output-limits.js";

/** Waits until `path` exists (a cell's timer writes it), for at most 30 s. */
async function untilExists(path: string): Promise<void> {
  for (const deadline = Date.now() + 30_000; !existsSync(path);) {
    if (Date.now() > deadline) throw new Error(`${path} never appeared`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * A barrier: each call waits until `n` calls are in flight at once and answers "met"; after 5 s
 * it gives up and says how many it saw (calls that run one at a time never meet).
 */
function barrierTool() {
  let inFlight = 0;
  const waiters = new Set<() => void>();
  return defineTool({
    name: "barrier",
    tier: "read",
    parallelSafe: true,
    description: 'Waits for n calls in flight. Example: {"n": 3}',
    input: z.object({ n: z.number() }),
    execute: async (args) => {
      inFlight++;
      let most = inFlight;
      for (const wake of waiters) wake();
      try {
        await new Promise<void>((resolve) => {
          const check = () => {
            most = Math.max(most, inFlight);
            if (inFlight < args.n) return;
            clearTimeout(timer);
            waiters.delete(check);
            resolve();
          };
          const timer = setTimeout(() => {
            waiters.delete(check);
            resolve();
          }, 5000);
          waiters.add(check);
          check();
        });
      } finally {
        inFlight--;
      }
      return textResult(most >= args.n ? "met" : `alone (${most} in flight)`);
    },
  });
}

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
    ({ registry, run } = makeRun(workspace.directory, {}, [barrierTool()]));
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

  it("shows a timer's output, an uncaught throw and an unhandled rejection after the cell, labelled", async () => {
    const flag = join(workspace.directory, "late-timer.flag");
    const go = join(workspace.directory, "late-timer.go");
    // The timer waits for the test to say the cell has answered: it is late for certain.
    const first = await cell(
      `const fs = require('fs')\nconst poll = setInterval(() => {\n  if (!fs.existsSync(${JSON.stringify(go)})) return\n  clearInterval(poll)\n  console.log('late timer')\n  setTimeout(() => { throw new Error('async boom') }, 0)\n  setTimeout(() => fs.writeFileSync(${JSON.stringify(flag)}, ''), 100)\n}, 20)\nPromise.reject(new Error('unhandled'))\nconsole.log('cell ran')`,
    );
    const firstText = resultText(first);
    expect(firstText).toMatch(
      /^cell ran\nUnhandled promise rejection: Error: unhandled\n\s+at cell-\d+\.js:9:/,
    );
    expect(firstText).not.toMatch(/executor\.js|node:internal/);
    writeFileSync(go, "");
    await untilExists(flag);
    const next = resultText(await cell("console.log('next cell')"));
    expect(next).toMatch(
      /^after the previous cell finished:\nlate timer\nUncaught exception: Error: async boom\n\s+at Timeout\._onTimeout \(cell-\d+\.js:6:\d+\)\n\(end of what came after the previous cell\)\n\nnext cell$/,
    );
    expect(resultText(await cell("console.log('and then')"))).toBe("and then");
  });

  it("echoes an anonymous function or class as Node's REPL does, not named after the echo's wrapper", async () => {
    // Before: the echo was a property `__echo: (…)`, which names an anonymous function after it:
    // `input => 1` showed as `[Function: __echo]`, a name the cell never wrote.
    expect(resultText(await cell("input => 1"))).toBe("[Function (anonymous)]");
    expect(resultText(await cell("(function () {})"))).toBe("[Function (anonymous)]");
    expect(resultText(await cell("(class {})"))).toBe("[class (anonymous)]");
    expect(resultText(await cell("const named = () => 2\nnamed"))).toBe("[Function: named]");
    expect(resultText(await cell("1, 2"))).toBe("2");
  });

  it("shows a failing tool() call at the cell's line, without the kernel's own frames", async () => {
    // Before: `at tool (file:///…/executor.js:169:15)` and `at process.processTicksAndRejections
    // (node:internal/process/task_queues…)` came before the cell's line.
    const failed = await cell("const before = 1\nawait tool('nope', {})");
    expect(failed.isError).toBe(true);
    expect(resultText(failed)).toMatch(
      /^ToolError: unknown tool 'nope'[^\n]*\n {4}at (async )?cell-\d+\.js:2:1$/,
    );
  });

  it("%%bash in a run without the shell tool says which tool it needs and what works instead", async () => {
    const bare = makeRun(workspace.directory, { shellTool: "terminal" });
    try {
      const text = resultText(await cellIn(bare, "%%bash\necho hi"));
      expect(text).toMatch(
        /^%%bash runs the command through the harness's shell tool 'terminal', which this run does not have \(unknown tool 'terminal'[^\n]*\)\. Run it from the cell instead: require\('child_process'\)\.execSync\(command, \{ encoding: 'utf8' \}\)$/,
      );
    } finally {
      await bare.run.dispose();
    }
  });

  it("applies carriage returns before bounding: 20 000 progress updates are the last one", async () => {
    const progress = await cell("for (let i = 0; i < 20000; i++) process.stdout.write(`\\r${i}`)");
    expect(resultText(progress)).toBe("19999");
  });

  it("captures console and display() in order, and errors with a stack", async () => {
    const result = await cell("console.log('one')\ndisplay({ k: 1 })\nconsole.error('two')\nnull.x");
    expect(result.isError).toBe(true);
    const text = resultText(result);
    expect(text.indexOf("one")).toBeLessThan(text.indexOf("{ k: 1 }"));
    expect(text.indexOf("{ k: 1 }")).toBeLessThan(text.indexOf("two"));
    expect(text).toContain("TypeError: Cannot read properties of null");
  });

  it("reports errors at the cell's own line and column, without the kernel's frames", async () => {
    const nullRead = resultText(await cell("const a = 1\nconst b = 2\nnull.x\nconst c = 3"));
    expect(nullRead).toMatch(
      /^TypeError: Cannot read properties of null \(reading 'x'\)\n {4}at cell-\d+\.js:3:6$/,
    );
    const thrown = resultText(await cell("throw new Error('bad')"));
    expect(thrown).toMatch(/^Error: bad\n {4}at cell-\d+\.js:1:7$/);
    await cell("function half(o) {\n  return o.value / 2\n}");
    const nested = resultText(await cell("// a comment first\nhalf(undefined)"));
    expect(nested).toMatch(/at half \(cell-\d+\.js:2:\d+\)\n {4}at cell-\d+\.js:2:1$/);
    for (const text of [nullRead, thrown, nested]) expect(text).not.toMatch(/process\.emit|node:|executor/);
    const syntax = resultText(await cell("const ok = 1\nconst broken = ok ok"));
    expect(syntax).toMatch(/^cell-\d+\.js:2\nconst broken = ok ok\n\s+\^+\n\nSyntaxError: /);
  });

  it("keeps a var declared in a block, a loop or a try, and a function declared in a block", async () => {
    for (const code of [
      "if (true) { var a = 1 }",
      "for (var i = 0; i < 3; i++) {}",
      "{ var b = 2 }",
      "try { var c = 3 } catch {}",
      "{ function greet() { return 'hi' } }",
    ]) {
      expect(resultText(await cell(code))).toBe("(no output)");
    }
    expect(resultText(await cell("[a + i + b + c, greet()]"))).toBe("[ 9, 'hi' ]");
    // A var of a nested function stays in it.
    expect(resultText(await cell("function setUp() { var inner = 1; { var inner2 = 2 } }\nsetUp()"))).toBe(
      "(no output)",
    );
    expect(resultText(await cell("[typeof inner, typeof inner2]"))).toBe("[ 'undefined', 'undefined' ]");
    // As `node -i` answers: the block's function binds the global only, whatever the cell does after.
    expect(resultText(await cell("{ function g() {} } g = 5; g"))).toBe("5");
    expect(resultText(await cell("let lf = 1; { function lf() {} }"))).toBe("(no output)");
    expect(resultText(await cell("[g, lf]"))).toBe("[ 5, 1 ]");
    // So does a top-level function's: the cell's assignment reaches the global a later cell reads.
    expect(resultText(await cell("function tf() {} tf = 5"))).toBe("5");
    expect(resultText(await cell("tf"))).toBe("5");
  });

  it("echoes the last expression when a comment follows it", async () => {
    expect(resultText(await cell("const v = [1, 2, 3]\nv.length\n// how many"))).toBe("3");
    expect(resultText(await cell("v.length; // how many\n"))).toBe("3");
  });

  it("echoes a last expression that shares its line, and keeps every declaration of a line", async () => {
    expect(resultText(await cell("1; 2"))).toBe("2");
    expect(resultText(await cell("const q = 1; q + 1"))).toBe("2");
    expect(resultText(await cell("const x1 = 1; const y1 = 2; let { z1 } = { z1: 3 }"))).toBe("(no output)");
    expect(resultText(await cell("[x1, y1, z1]"))).toBe("[ 1, 2, 3 ]");
    expect(resultText(await cell("const s1 = 'a;b' /* ; */; s1.split(';').length // ;"))).toBe("2");
    // A top-level return of the cell's own is not an echo (null has no __echo to read).
    expect(resultText(await cell("if (x1) return null"))).toBe("(no output)");
  });

  it("runs a cell with a NUL or an unpaired surrogate as JavaScript does", async () => {
    expect(resultText(await cell("['a\u0000b'.length, '\ud800'.length]"))).toBe("[ 3, 1 ]");
  });

  it("survives a cell that prints a thousand lines, keeping its state and the output's end", async () => {
    // zeromq allows one send in flight per socket and throws on a second once sends stop
    // completing at once (after 512): the kernel died at about 700 lines.
    await cell("const beforeFlood = 41");
    const lines = await cell("for (let i = 0; i < 1000; i++) console.log('line', i)");
    expect(lines.error).toBeUndefined();
    expect(resultText(lines)).toMatch(/^line 0\nline 1\n[\s\S]*\nline 998\nline 999$/);
    // At iopub's default high-water mark, messages past 1000 were dropped, the idle status too.
    const displays = await cell("for (let i = 0; i < 3000; i++) display(i)");
    expect(displays.error).toBeUndefined();
    expect(resultText(displays)).toMatch(/^0\n1\n[\s\S]*\n2998\n2999$/);
    expect(resultText(await cell("beforeFlood + 1"))).toBe("42");
  });

  it("shows the start, the end and one count of a cell printing 300 000 lines, and keeps its state", async () => {
    await cell("const beforeFlood2 = 41");
    const flood = await cell("for (let i = 0; i < 300000; i++) console.log(i)\n'done'");
    expect(flood.error).toBeUndefined();
    const text = resultText(flood);
    expect(text).toMatch(/^0\n1\n2\n/);
    expect(text).toMatch(/\n299998\n299999\n'done'$/);
    const markers =
      text.match(
        /… [\d,]+ lines \([\d,]+ characters\) of output omitted here; print less, or write large output to a file and read parts of it …/g,
      ) ?? [];
    expect(markers).toHaveLength(1);
    const shown = text.split("\n").filter((line) => /^\d+$/.test(line)).length;
    expect(shown + Number(/… ([\d,]+) lines/.exec(text)?.[1]?.replace(/,/g, ""))).toBe(300_000);
    expect(resultText(await cell("beforeFlood2 + 1"))).toBe("42");
  });

  it("shows the start and the end of a large echo and display(), as the result cuts them", async () => {
    // The kernel bounds what it sends per cell; what the result shows is what it showed when the
    // kernel sent everything: the collector alone, fed the output as the kernel made it.
    const unbounded = (text: string, kind: "display" | "result") => {
      const collector = new OutputCollector(defaultOutputLimits);
      collector.add({ type: "display", kind, data: { "text/plain": text } });
      return resultText({ content: collector.parts(), isError: false, changedFiles: [] });
    };
    // 100 objects: 602 lines, 22 282 characters.
    const rows = Array.from({ length: 100 }, (_, id) => ({
      id,
      name: `row ${id}`,
      text: "x".repeat(150),
      tags: ["a"],
    }));
    const echo = await cell(
      "Array.from({ length: 100 }, (_, id) => ({ id, name: `row ${id}`, text: 'x'.repeat(150), tags: ['a'] }))",
    );
    expect(echo.error).toBeUndefined();
    expect(resultText(echo)).toMatch(/^\[\n {2}\{\n {4}id: 0,\n {4}name: 'row 0',/);
    expect(resultText(echo)).toBe(unbounded(inspect(rows, { depth: 4 }), "result"));
    // One line of 50 000 characters: the start goes out cut mid-line.
    const line = await cell("display('y'.repeat(50_000))");
    expect(resultText(line)).toMatch(/^y{9000}/);
    expect(resultText(line)).toBe(unbounded("y".repeat(50_000), "display"));
    const lines = await cell("display(Array.from({ length: 1000 }, (_, i) => 'line ' + i).join('\\n'))");
    expect(resultText(lines)).toMatch(/^line 0\nline 1\n[\s\S]*\nline 998\nline 999$/);
    expect(resultText(lines)).toBe(
      unbounded(Array.from({ length: 1000 }, (_, i) => `line ${i}`).join("\n"), "display"),
    );
  });

  it("answers 700 bridged calls in flight at once", async () => {
    // The client sends each input_reply on one stdin socket: one send at a time, or zeromq throws.
    const result = await cell(
      "const texts = await Promise.all(Array.from({ length: 700 }, () => tool('read', { path: 'notes.txt' })));\n[texts.length, new Set(texts).size]",
    );
    expect(resultText(result)).toBe("[ 700, 1 ]");
  });

  it("reads a leading ! as JavaScript's not, never as a shell command", async () => {
    const shells: string[] = [];
    const off = registry.on((event) => {
      if (event.type === "call-start" && event.tool === "shell") shells.push(event.tool);
    });
    try {
      expect(resultText(await cell("const done = false\n!done"))).toBe("true");
      expect(resultText(await cell("!done && console.log('not done')"))).toBe("not done");
      expect(shells).toEqual([]);
      const reflex = await cell("!echo hi from shell");
      expect(resultText(reflex)).toMatch(
        /SyntaxError: [^\n]*\n\(a leading ! is JavaScript's not, not a shell command; run one with await tool\("shell", \{ command: "…" \}\)\)$/,
      );
      expect(shells).toEqual([]);
      expect(resultText(await cell("%cd .\nprocess.cwd() === require('node:process').cwd()"))).toMatch(
        /true$/,
      );
    } finally {
      off();
    }
  });

  it("runs %%bash where %cd went, though the shell tool starts in the run's folder", async () => {
    // A name sh would split or quote: the `cd` the command is given must be one word.
    const sub = join(workspace.directory, "sub dir's");
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, "inner.txt"), "inside\n");
    expect(resultText(await cell("%cd sub dir's"))).toBe(sub);
    expect(resultText(await cell("%%bash\ncat inner.txt\npwd"))).toBe(`inside\n${sub}`);
    await cell("%cd ..");
    expect(resultText(await cell("%%bash\npwd"))).toBe(workspace.directory);
  });

  it("%cd as Python's: -q, - for the previous folder, quotes, alone for home; $name refused; a missing folder in one line", async () => {
    const top = workspace.directory;
    mkdirSync(join(top, "js-cd", "in ner"), { recursive: true });
    // Each of these was taken as the folder's name, as written ("-q js-cd", "-").
    expect(resultText(await cell("%cd -q js-cd\nprocess.cwd()"))).toBe(`'${join(top, "js-cd")}'`);
    expect(resultText(await cell("%cd 'in ner'"))).toBe(join(top, "js-cd", "in ner"));
    expect(resultText(await cell("%cd -"))).toBe(join(top, "js-cd"));
    expect(resultText(await cell("%cd\nprocess.cwd() === require('node:os').homedir()"))).toMatch(/\ntrue$/);
    expect(resultText(await cell(`%cd -q ${top}\n%cd -q ~\n%cd -q -\nprocess.cwd()`))).toBe(`'${top}'`);
    const expanded = await cell("const d = 'js-cd'\n%cd $d\nconsole.log('not reached')");
    expect(expanded.isError).toBe(true);
    expect(resultText(expanded)).toBe(
      "CdError: %cd $d: JavaScript's %cd does not expand $name or {expr} (Python's does); quote a folder named so ('$d'), or go to a computed one with process.chdir(…)",
    );
    const missing = await cell("%cd nowhere\nconsole.log('not reached')");
    expect(missing.isError).toBe(true);
    expect(resultText(missing)).toBe(
      `CdError: %cd nowhere: no such folder: 'nowhere' (the cell is in ${top})`,
    );
    expect(resultText(await cell("process.cwd()"))).toBe(`'${top}'`);
  });

  it("runs %%bash in the kernel's environment: what a cell set in process.env, and deleted", async () => {
    await cell('process.env.JS_VAR = "from js\'s side"; delete process.env.HOME');
    expect(resultText(await cell('%%bash\necho "[$JS_VAR]"\nprintenv HOME; echo "status $?"'))).toBe(
      "[from js's side]\nstatus 1",
    );
  });

  it("asks a shell tool with a smaller longest time limit for the one its refusal names", async () => {
    const asked: unknown[] = [];
    const short = defineTool({
      name: "short_shell",
      tier: "exec",
      parallelSafe: false,
      description: 'Runs a shell command. Example: {"command": "ls"}',
      input: z.object({ command: z.string(), timeout_seconds: z.number().int().max(300).optional() }),
      execute: (args, context) => {
        asked.push(args.timeout_seconds);
        const run = spawnSync("/bin/bash", ["-c", args.command], {
          cwd: context.run.workingDirectory,
          encoding: "utf8",
        });
        return textResult(run.stdout);
      },
    });
    const own = makeRun(workspace.directory, { shellTool: "short_shell" }, [short]);
    try {
      expect(resultText(await cellIn(own, "%%bash\necho one"))).toBe("one");
      expect(resultText(await cellIn(own, "%%bash\necho two"))).toBe("two");
      // 600 refused once by the registry's argument check (nothing ran), then 300 from then on.
      expect(asked).toEqual([300, 300]);
    } finally {
      await own.run.dispose();
    }
  });

  it("keeps changed values out of %%bash's command text (the approval card): a private file, sourced and deleted", async () => {
    const calls: { command: string; mode?: number }[] = [];
    const recording = defineTool({
      name: "recording_shell",
      tier: "exec",
      parallelSafe: false,
      description: 'Runs a shell command; refuses one naming refuse-me. Example: {"command": "ls"}',
      input: z.object({ command: z.string(), timeout_seconds: z.number().optional() }),
      execute: (args, context) => {
        const file = /^\. '?([^' ;]*tools-env-[^' ;]*)'?;/.exec(args.command)?.[1];
        calls.push({
          command: args.command,
          ...(file === undefined ? {} : { mode: statSync(file).mode & 0o777 }),
        });
        if (args.command.includes("refuse-me"))
          throw new ToolsError({ code: "GUARDRAIL_REFUSED", message: "this command is refused here" });
        const run = spawnSync("/bin/bash", ["-c", args.command], {
          cwd: context.run.workingDirectory,
          encoding: "utf8",
        });
        return textResult(run.stdout);
      },
    });
    const own = makeRun(workspace.directory, { shellTool: "recording_shell" }, [recording]);
    try {
      await cellIn(own, 'process.env.API_TOKEN = "tok-s3cret"');
      expect(resultText(await cellIn(own, '%%bash\necho "[$API_TOKEN]"'))).toBe("[tok-s3cret]");
      expect(resultText(await cellIn(own, "%%bash\necho refuse-me"))).toContain("refused");
      expect(calls).toHaveLength(2);
      for (const call of calls) {
        expect(call.command).not.toContain("tok-s3cret");
        expect(call.mode).toBe(0o600);
        const file = /^\. '?([^' ;]*)'?;/.exec(call.command)?.[1] ?? "";
        expect(existsSync(file)).toBe(false);
      }
    } finally {
      await own.run.dispose();
    }
  });

  it("runs several bridged calls at once", async () => {
    const result = await cell(
      "const met = await Promise.all([1, 2, 3].map(() => tool('barrier', { n: 3 })))\nmet.join(' ')",
    );
    expect(resultText(result)).toBe("'met met met'");
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

  it("takes a line written without a break for activity: dots and a \\r progress line are not interrupted", async () => {
    const short = makeRun(workspace.directory, { inactivityMs: 1500, interruptGraceMs: 5000 });
    try {
      const pause = "await new Promise((done) => setTimeout(done, 600))";
      const dots = await cellIn(short, `for (let i = 0; i < 7; i++) { process.stdout.write("."); ${pause} }`);
      expect(dots.error).toBeUndefined();
      expect(resultText(dots)).toBe(".......");
      const progress = await cellIn(
        short,
        `for (let i = 1; i <= 7; i++) { process.stdout.write(\`\\r\${i}/7\`); ${pause} }\nconsole.log(" done")`,
      );
      expect(progress.error).toBeUndefined();
      expect(resultText(progress)).toBe("7/7 done");
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
