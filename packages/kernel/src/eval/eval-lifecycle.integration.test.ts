import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import {
  createRegistry,
  createRun,
  defineTool,
  resultText,
  textResult,
  type ToolResult,
} from "@tools/registry";
import { evalTool } from "./eval-tool.js";
import { afterEach, describe, expect, it } from "vitest";
import { cancelSoon, staged } from "../__fixtures__/cancel-soon.js";
import { cancelWhenFlagged } from "../__fixtures__/cancel-when-flagged.js";
import { z } from "zod";
import { identify, killStill, running } from "../__fixtures__/processes.js";
import { ci, makeRun, makeWorkspace, pythonFound, systemPython } from "../__fixtures__/workspace.js";
import { createKernelFactory, kernelFactoryKey, type KernelFactory } from "../factory/kernel-factory.js";

const describePython = describe.skipIf(!pythonFound && !ci);

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describePython("kernel lifecycle on a real ipykernel", () => {
  const cleanups: (() => Promise<unknown> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  function setup(options: Parameters<typeof makeRun>[1] = {}, tools: Parameters<typeof makeRun>[2] = []) {
    expect(pythonFound).toBe(true);
    const workspace = makeWorkspace();
    const made = makeRun(workspace.directory, options, tools);
    cleanups.push(workspace.remove, () => made.run.dispose());
    const cell = (code: string, extra: Record<string, unknown> = {}): Promise<ToolResult> =>
      made.registry.invoke(made.run, {
        tool: "eval",
        args: { code, description: "run a python lifecycle test cell", ...extra },
      });
    return { ...made, workspace, cell };
  }

  it("reset starts a clean kernel from the warm spare; dispose leaves no kernel and no socket directory", async () => {
    const { run, cell } = setup({ warmSpare: true });
    const info =
      "import os\nfrom ipykernel.kernelapp import IPKernelApp\nprint(os.getpid(), IPKernelApp.instance().connection_file)";
    const first = resultText(await cell(`kept = 1\n${info}`)).split(" ");
    const fresh = await cell(`print('kept' in globals())\n${info}`, { reset: true });
    const [flag, pid, file] = resultText(fresh).split(/\s+/).slice(-3);
    expect(resultText(fresh)).toContain("a clean python kernel was started");
    expect(flag).toBe("False");
    expect(pid).not.toBe(first[0]);
    const pids = [Number(first[0]), Number(pid)];
    const directories = [dirname(first[1]!), dirname(file!)];
    expect(existsSync(directories[1]!)).toBe(true);
    await run.dispose();
    for (const each of pids) expect(alive(each)).toBe(false);
    for (const each of directories) expect(existsSync(each)).toBe(false);
  });

  it("dispose ends a daemon a cell double-forked out of the kernel's group and session", async () => {
    const { run, cell, workspace } = setup();
    const pidFile = join(workspace.directory, "daemon.pid");
    // The shell exits at once: `sleep` is adopted by init, in a session of its own, its output on
    // /dev/null; only the process mark it inherited from the kernel leads to it.
    const started = await cell(
      `import subprocess\nsubprocess.run(["sh", "-c", "(setsid sleep 300 </dev/null >/dev/null 2>&1 & echo $! > ${pidFile})"], check=True)\nprint("started")`,
    );
    expect(resultText(started)).toContain("started");
    const daemon = Number(readFileSync(pidFile, "utf8").trim());
    const left = identify(daemon);
    try {
      expect(left).toBeDefined();
      await run.dispose();
      await expect.poll(() => running(daemon), { timeout: 5_000 }).toBe(false);
    } finally {
      killStill(left);
    }
  });

  it("a cell running when the run ends answers that the run ended, not that the cell would not stop", async () => {
    const { run, cell, registry } = setup();
    // The run ends once "loaded" has reached the call (its progress), not once the cell went past
    // it: a flag file the cell wrote after printing could be there before the output arrived.
    let loaded = false;
    cleanups.push(
      registry.on((event) => {
        if (event.type === "call-progress" && event.message.includes("loaded")) loaded = true;
      }),
    );
    const sleeping = cell(`import time\nprint("loaded", flush=True)\ntime.sleep(300)`);
    await expect.poll(() => loaded, { timeout: 30_000 }).toBe(true);
    await run.dispose();
    const result = await sleeping;
    expect(result.error?.code).toBe("RUN_DISPOSED");
    expect(resultText(result)).toContain(
      "eval was stopped: the run has ended, and its python kernel with it",
    );
    expect(resultText(result)).not.toContain("did not stop");
    // What the cell printed before the run ended is in the result, as for a cancel or a timeout.
    expect(resultText(result)).toMatch(/^loaded\n/);
  });

  it("a kernel that never starts the cell (stopped with SIGSTOP) is killed after the acknowledge bound, not the 5-minute one", async () => {
    const { cell } = setup({ acknowledgeMs: 1_000, interruptGraceMs: 500 });
    const pid = Number(resultText(await cell("import os\nkept = 1\nos.getpid()")).trim());
    const kernel = identify(pid);
    process.kill(pid, "SIGSTOP");
    try {
      const hung = await cell("kept + 1");
      expect(hung.error?.code).toBe("KERNEL_TIMEOUT");
      // Before: "and did not answer an interrupt", while none was sent (a cell gets one once it
      // has started).
      expect(hung.error?.message).toBe(
        "the python kernel did not start the cell within 1 s (it sent no busy status: it is hung or stopped), nor within the 0.5 s grace period after, so it was killed (no interrupt was sent: one goes only to a cell that has started): variables and imports are lost. The next call starts a fresh kernel.",
      );
      await expect.poll(() => running(pid), { timeout: 5_000 }).toBe(false);
      const fresh = await cell("'kept' in globals()");
      expect(resultText(fresh)).toMatch(/False$/);
    } finally {
      killStill(kernel);
    }
  });

  it("fails a cell at once when its kernel dies, then starts a fresh one and says state was lost", async () => {
    const { cell } = setup();
    await cell("x = 1");
    // (Output printed just before os._exit may or may not leave ipykernel's iopub thread: not asserted.)
    const crash = await cell("import os\nos._exit(3)");
    expect(crash.isError).toBe(true);
    expect(crash.error?.code).toBe("KERNEL_DIED");
    expect(resultText(crash)).toMatch(/exited with code 3; its state .* is lost/);
    const after = await cell("'x' in globals()");
    expect(resultText(after)).toMatch(/previous python kernel exited with code 3[\s\S]*False$/);
  });

  it.each(["os._exit", "SIGKILL"])(
    "ends what a kernel that died (%s) had started once the next cell runs on a fresh kernel",
    async (death) => {
      // The pool replaced a dead kernel without disposing of it: a child its cell started (in the
      // kernel's process group, carrying its mark) ran on until the run ended.
      const { cell } = setup();
      const started = resultText(
        await cell(
          "import os, subprocess\nchild = subprocess.Popen(['sleep', '600'])\nprint(os.getpid(), child.pid)",
        ),
      );
      const [kernel, child] = started.trim().split(" ").map(Number) as [number, number];
      const childProcess = identify(child);
      try {
        expect(running(child)).toBe(true);
        if (death === "SIGKILL") {
          process.kill(kernel, "SIGKILL");
          await expect.poll(() => running(kernel), { timeout: 5_000 }).toBe(false);
        } else {
          expect((await cell("os._exit(3)")).error?.code).toBe("KERNEL_DIED");
        }
        expect(running(child)).toBe(true);
        let after = await cell("import os\nos.getpid()");
        if (after.error?.code === "KERNEL_DIED") {
          // The kill reached the pool only as this cell was sent (its pid already gone from
          // /proc): the cell fails saying so, and the next one runs on a fresh kernel.
          expect(resultText(after)).toMatch(
            /^the python kernel was killed by SIGKILL; .* the next call starts a fresh kernel/,
          );
          after = await cell("import os\nos.getpid()");
          expect(after.isError).toBe(false);
        } else {
          expect(resultText(after)).toMatch(
            /previous python kernel (exited with code 3|was killed by SIGKILL)/,
          );
        }
        await expect.poll(() => running(child), { timeout: 5_000 }).toBe(false);
      } finally {
        killStill(childProcess);
      }
    },
  );

  it("says a dead JavaScript kernel's state is lost in one sentence, its stderr's tail after it", async () => {
    const { cell } = setup();
    const crash = await cell("process.exit(3)", { language: "javascript" });
    expect(crash.error?.code).toBe("KERNEL_DIED");
    // The kernel writes why its executor ended to stderr: that tail comes last, not mid-sentence.
    expect(crash.error?.message).toMatch(
      /^the javascript kernel exited with code 3; its state \(variables, imports\) is lost — the next call starts a fresh kernel; its stderr ends with:\n.+/,
    );
  });

  it("a cancel during the kernel's cold start answers at once; the start goes on for the next cell", async () => {
    expect(pythonFound).toBe(true);
    const workspace = makeWorkspace();
    // The real factory, its start held until the test lets it go: a cold start as slow as needed.
    const real = createKernelFactory({ warmSpare: false });
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let started: () => void = () => undefined;
    const starting = new Promise<void>((resolve) => (started = resolve));
    const factory: KernelFactory = {
      settings: real.settings,
      start: async (language, directory) => {
        started();
        await held;
        return real.start(language, directory);
      },
    };
    const registry = createRegistry({ tools: [evalTool], approval: "auto" });
    const run = createRun({
      workingDirectory: workspace.directory,
      resources: [[kernelFactoryKey, factory]],
    });
    cleanups.push(workspace.remove, () => run.dispose(), release);
    const controller = new AbortController();
    const cancelled = registry.invoke(run, {
      tool: "eval",
      args: { code: "1 + 1", description: "a cell cancelled while its kernel starts" },
      signal: controller.signal,
    });
    await starting;
    controller.abort(new Error("the operator pressed stop"));
    // Answered while the start is still held (before, the call waited for the kernel).
    const answer = await cancelled;
    expect(answer.error?.code).toBe("CANCELLED");
    release();
    const next = await registry.invoke(run, {
      tool: "eval",
      args: { code: "21 * 2", description: "the next cell, on the kernel that went on starting" },
    });
    expect(resultText(next)).toBe("42");
  });

  it("a cancelled cell's result keeps what it printed so far and says it was cancelled, as a timed-out one does", async () => {
    const { registry, run, workspace } = setup();
    const invoke = (code: string, language: string, signal?: AbortSignal): Promise<ToolResult> =>
      registry.invoke(run, {
        tool: "eval",
        args: { code, language, description: "run a cell that is cancelled midway" },
        ...(signal === undefined ? {} : { signal }),
      });
    for (const [language, code] of [
      [
        "python",
        (flag: string) =>
          `x = 7\nprint('step 1 done', flush=True)\nopen(${JSON.stringify(flag)}, 'w').close()\nimport time\ntime.sleep(300)`,
      ],
      [
        "javascript",
        (flag: string) =>
          `var x = 7\nconsole.log('step 1 done')\nrequire('fs').writeFileSync(${JSON.stringify(flag)}, '')\nawait new Promise(() => {})`,
      ],
    ] as const) {
      const flag = join(workspace.directory, `${language}-cancelled.flag`);
      const result = await cancelWhenFlagged(flag, (signal) => invoke(code(flag), language, signal));
      expect(result.error?.code).toBe("CANCELLED");
      const text = resultText(result);
      expect(text).toMatch(/^step 1 done\n/);
      expect(text).toMatch(
        /eval was cancelled: the call was cancelled and the cell was interrupted; the kernel's state is kept\.$/,
      );
      expect(result.error?.message).toBe(
        "eval was cancelled: the call was cancelled and the cell was interrupted; the kernel's state is kept.",
      );
      expect(resultText(await invoke("x * 6", language))).toBe("42");
    }
  });

  it("a cancel the cell never felt (it came before the cell started, or SIGINT was ignored) says the cell ran to its end", async () => {
    // Before: "the cell was interrupted", while it had run to its end (a cancel that reaches
    // ipykernel before it runs the cell is ignored, as SIGINT is here): run again, it ran twice.
    const { registry, run, workspace } = setup();
    const flag = join(workspace.directory, "ignores-sigint.flag");
    const result = await cancelWhenFlagged(flag, (signal) =>
      registry.invoke(run, {
        tool: "eval",
        args: {
          code:
            `import signal, time\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nruns = 1\n` +
            `open(${JSON.stringify(flag)}, 'w').close()\ntime.sleep(1)\nprint('ran to its end')\n` +
            `_ = signal.signal(signal.SIGINT, signal.default_int_handler)`,
          description: "run a cell that ignores the interrupt",
        },
        signal,
      }),
    );
    expect(result.error?.code).toBe("CANCELLED");
    expect(result.error?.message).toBe(
      "eval was cancelled: the call was cancelled, but the cell ran to its end (the interrupt did not reach it); the kernel's state is kept.",
    );
    expect(resultText(result)).toMatch(/^ran to its end\neval was cancelled: /);
  });

  it("a cell that catches the KeyboardInterrupt and ends ok says the interrupt reached it, not that it ran to its end", async () => {
    // Before: "the cell ran to its end (the interrupt did not reach it)": the cell's sleep was cut
    // short, which the caller could not tell from a cancel that came too late to matter.
    const { registry, run, workspace } = setup();
    const flag = join(workspace.directory, "catches.flag");
    const result = await cancelWhenFlagged(flag, (signal) =>
      registry.invoke(run, {
        tool: "eval",
        args: {
          code:
            `import time\ntry:\n    open(${JSON.stringify(flag)}, 'w').close()\n    time.sleep(300)\n` +
            `except KeyboardInterrupt:\n    print('caught', flush=True)\nprint('went on')`,
          description: "run a cell that catches the interrupt",
        },
        signal,
      }),
    );
    expect(result.error?.code).toBe("CANCELLED");
    expect(result.error?.message).toBe(
      "eval was cancelled: the call was cancelled and the interrupt reached the cell, which caught it and went on to its end; the kernel's state is kept.",
    );
    expect(resultText(result)).toMatch(/^caught\nwent on\n/);
  });

  it("a cell that caught more signals than the arrival pipe holds (64 KiB) still says the interrupt reached it", async () => {
    // Before: each signal caught in a statement takes a byte of the pipe the interrupt's arrival
    // is seen through; after 65 536 the interrupt's byte found no room, and the cell that caught
    // the KeyboardInterrupt was said to have run to its end, "the interrupt did not reach it".
    const { registry, run, workspace } = setup();
    const flag = join(workspace.directory, "many-signals.flag");
    const result = await cancelWhenFlagged(flag, (signal) =>
      registry.invoke(run, {
        tool: "eval",
        args: {
          code:
            "import signal, time\ncaught = []\nprevious = signal.signal(signal.SIGUSR1, lambda *args: caught.append(1))\n" +
            `try:\n    for _ in range(70_000):\n        signal.raise_signal(signal.SIGUSR1)\n` +
            `    open(${JSON.stringify(flag)}, 'w').close()\n    time.sleep(300)\n` +
            "except KeyboardInterrupt:\n    print('caught', len(caught), flush=True)\n" +
            "finally:\n    signal.signal(signal.SIGUSR1, previous)",
          description: "run a cell that catches many signals, then the interrupt",
        },
        signal,
      }),
    );
    expect(result.error?.message).toBe(
      "eval was cancelled: the call was cancelled and the interrupt reached the cell, which caught it and went on to its end; the kernel's state is kept.",
    );
    expect(resultText(result)).toMatch(/^caught 70000\n/);
  });

  it("a cell whose own SIGINT handler takes the interrupt says so, and whether the cell went on or ended with an error", async () => {
    // Before: "the cell ran to its end (the interrupt did not reach it)", while the interrupt had
    // reached the cell and its own handler had taken it (and ended the wait for it).
    const { registry, run, workspace } = setup();
    const invoke = (code: string, signal: AbortSignal): Promise<ToolResult> =>
      registry.invoke(run, {
        tool: "eval",
        args: { code, description: "run a cell with its own interrupt handler" },
        signal,
      });
    const taken =
      "eval was cancelled: the call was cancelled and the interrupt reached the cell, whose own SIGINT handler took it";
    const waits = (flag: string, handler: string, awaits: boolean) =>
      `import asyncio, signal, time
taken = []
${handler}
signal.signal(signal.SIGINT, handler)
` +
      `open(${JSON.stringify(flag)}, 'w').close()
deadline = time.monotonic() + 300
` +
      `while not taken and time.monotonic() < deadline:
    ${awaits ? "await asyncio.sleep(0.01)" : "time.sleep(0.01)"}
` +
      "print('went on', taken)";
    const appends = "def handler(*args):\n    taken.append('handler')";
    for (const awaits of [false, true]) {
      const flag = join(workspace.directory, `own-handler-${awaits}.flag`);
      const result = await cancelWhenFlagged(flag, (signal) => invoke(waits(flag, appends, awaits), signal));
      expect(result.error?.code, `awaits ${awaits}`).toBe("CANCELLED");
      expect(result.error?.message, `awaits ${awaits}`).toBe(
        `${taken}; the cell went on to its end; the kernel's state is kept.`,
      );
      expect(resultText(result)).toMatch(/^went on \['handler'\]\n/);
    }
    const flag = join(workspace.directory, "own-handler-raises.flag");
    const raises = "def handler(*args):\n    raise RuntimeError('the handler stops the cell')";
    const result = await cancelWhenFlagged(flag, (signal) => invoke(waits(flag, raises, false), signal));
    expect(result.error?.message).toBe(
      `${taken}, and the cell ended with an error; the kernel's state is kept.`,
    );
    expect(resultText(result)).toContain("RuntimeError: the handler stops the cell");
    expect(resultText(result)).not.toMatch(/^went on/m);
  });

  it("a cell's own handler that took the interrupt and was removed in the same statement says so; a caught KeyboardInterrupt followed by an own handler does not", async () => {
    // Before: the handler in place when the statement ended was taken for the one that had taken
    // the interrupt: a cell that caught the KeyboardInterrupt, then set a handler of its own, was
    // said to have had "its own SIGINT handler" take it; one whose own handler took it and was put
    // back within the statement was said to have caught it.
    const { registry, run, workspace } = setup();
    const invoke = (code: string, signal: AbortSignal): Promise<ToolResult> =>
      registry.invoke(run, {
        tool: "eval",
        args: { code, description: "run a cell that changes its interrupt handler" },
        signal,
      });
    const cancelled = "eval was cancelled: the call was cancelled and the interrupt reached the cell";
    const caughtThenOwn = join(workspace.directory, "caught-then-own.flag");
    const first = await cancelWhenFlagged(caughtThenOwn, (signal) =>
      invoke(
        `import signal, time\ntry:\n    open(${JSON.stringify(caughtThenOwn)}, 'w').close()\n    time.sleep(300)\n` +
          "except KeyboardInterrupt:\n    signal.signal(signal.SIGINT, lambda *args: None)\n    print('caught')",
        signal,
      ),
    );
    expect(first.error?.message).toBe(
      `${cancelled}, which caught it and went on to its end; the kernel's state is kept.`,
    );
    expect(resultText(first)).toMatch(/^caught\n/);
    const ownRemoved = join(workspace.directory, "own-removed.flag");
    const second = await cancelWhenFlagged(ownRemoved, (signal) =>
      invoke(
        "import signal, time\ndef wait_for_it():\n    taken = []\n" +
          "    previous = signal.signal(signal.SIGINT, lambda *args: taken.append('handler'))\n" +
          `    open(${JSON.stringify(ownRemoved)}, 'w').close()\n    deadline = time.monotonic() + 300\n` +
          "    while not taken and time.monotonic() < deadline:\n        time.sleep(0.01)\n" +
          "    signal.signal(signal.SIGINT, previous)\n    print('went on', taken)\nwait_for_it()",
        signal,
      ),
    );
    expect(second.error?.message).toBe(
      `${cancelled}, whose own SIGINT handler took it; the cell went on to its end; the kernel's state is kept.`,
    );
    expect(resultText(second)).toMatch(/^went on \['handler'\]\n/);
  });

  it("a cell whose asyncio loop took the interrupt (loop.add_signal_handler) says its own handler took it", async () => {
    // Before: "the cell ran to its end (the interrupt did not reach it)": add_signal_handler sets
    // the signal's wakeup fd to the loop's own, so the kernel, watching for the interrupt on one of
    // its own, never saw it arrive, while the loop's callback had run and ended the cell's wait.
    const { registry, run, workspace } = setup();
    // The kernel's own loop (a cell with top-level await runs on it) is the one a cell can use.
    const body = (flag: string, indent: string) =>
      [
        "loop = asyncio.get_running_loop()",
        "done = loop.create_future()",
        "got = []",
        "loop.add_signal_handler(signal.SIGINT, lambda: (got.append('callback'), done.done() or done.set_result(None)))",
        `loop.call_soon(lambda: open(${JSON.stringify(flag)}, 'w').close())`,
        "await asyncio.wait_for(done, 300)",
        "loop.remove_signal_handler(signal.SIGINT)",
      ]
        .map((line) => indent + line)
        .join("\n");
    const cells: Record<string, (flag: string) => string> = {
      // The loop takes the wakeup fd in one statement and waits in a later one.
      statements: (flag) => `import asyncio, signal\n${body(flag, "")}\nprint('went on', got)`,
      // It takes it inside the statement the kernel watches.
      "one statement": (flag) =>
        `import asyncio, signal\nasync def main():\n${body(flag, "    ")}\n    return got\nprint('went on', await main())`,
    };
    for (const [how, code] of Object.entries(cells)) {
      const flag = join(workspace.directory, `loop-${how.replace(" ", "-")}.flag`);
      const result = await cancelWhenFlagged(flag, (signal) =>
        registry.invoke(run, {
          tool: "eval",
          args: { code: code(flag), description: "wait in an asyncio loop that handles SIGINT" },
          signal,
        }),
      );
      expect(result.error?.message, how).toBe(
        "eval was cancelled: the call was cancelled and the interrupt reached the cell, whose own SIGINT handler took it; the cell went on to its end; the kernel's state is kept.",
      );
      expect(resultText(result), how).toMatch(/^went on \['callback'\]\n/);
    }
  });

  it("an interrupt landing in a __del__ a sync cell's code runs stops the cell instead of being dropped with Python's 'Exception ignored'", async () => {
    // Before: the KeyboardInterrupt was raised in the finalizer, whose exceptions Python prints
    // ("Exception ignored in") and drops: the cell went on, and the kernel was killed after the
    // grace period, its variables lost.
    const { registry, run, workspace, cell } = setup();
    await cell("import time\nclass Slow:\n    def __del__(self):\n        time.sleep(0.05)\nkept = 41");
    const loops: Record<string, string> = {
      "the cell's loop": "for i in range(10**9):\n    Slow()",
      "a function it calls": "def make():\n    while True:\n        Slow()\nmake()",
    };
    for (const [where, loop] of Object.entries(loops)) {
      const flag = join(workspace.directory, `sync-finalizer-${where.replaceAll(" ", "-")}.flag`);
      const result = await cancelWhenFlagged(flag, (signal) =>
        registry.invoke(run, {
          tool: "eval",
          args: {
            code: `open(${JSON.stringify(flag)}, 'w').close()\n${loop}\nprint('the cell ' + 'ran')`,
            description: "drop objects whose finalizer sleeps, in a loop",
          },
          signal,
        }),
      );
      expect(result.error?.message, where).toBe(
        "eval was cancelled: the call was cancelled and the cell was interrupted; the kernel's state is kept.",
      );
      const text = resultText(result);
      expect(text, where).not.toContain("Exception ignored");
      expect(text, where).toMatch(/\nKeyboardInterrupt: \n/);
      // Raised at the next instruction the cell's code runs (the loop's jump back), each frame
      // shown once: the cell's, and the function's it calls.
      expect(text.match(/\nCell In \[\d+\], line \d+/g)?.length, text).toBe(
        where === "the cell's loop" ? 1 : 2,
      );
      expect(text, where).toMatch(
        where === "the cell's loop" ? /----> 3 {5}Slow\(\)/ : /----> (3 {5}while True:|4 {9}Slow\(\))/,
      );
      expect(text, where).not.toContain("the cell ran");
      expect(resultText(await cell("kept")), where).toBe("41");
    }
    // A KeyboardInterrupt a __del__ raises itself, with no interrupt, is printed and dropped.
    const own = await cell(
      "class Raises:\n    def __del__(self):\n        raise KeyboardInterrupt('from __del__')\nRaises()\nprint('went on')",
    );
    expect(own.error).toBeUndefined();
    expect(resultText(own)).toContain("Exception ignored in");
    expect(resultText(own)).toMatch(/went on$/);
  });

  it("an interrupt the cell's own handler raises in the kernel's code at a statement's end leaves later interrupts told as reaching the cell", async () => {
    // With the cell's own handler in place (Python's, set back by the cell, or its function), a
    // SIGINT lands wherever the main thread is, the kernel's code at the statement's end too (the
    // first cell of 2000 one-line statements with one SIGINT at a random time, in each of 3 runs).
    // Before, the statement's watching was left on there, and every later statement, taken for one
    // run from a statement, watched no arrival: an interrupt the next cell caught was told as one
    // that "did not reach it" (and before that, the next cancel killed the kernel).
    // Here the cell sets its own handler, then Python's back, and a profile function sends the
    // SIGINT as the kernel's code at the statement's end starts, for the timing.
    const { registry, run, workspace, cell } = setup();
    const landed = await cell(
      "import os, signal, sys, time\nsignal.signal(signal.SIGINT, lambda signum, frame: None)\n" +
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n" +
        "def at_the_end(frame, event, arg):\n    if event == 'call' and frame.f_code.co_name == 'arrived':\n" +
        "        sys.setprofile(None)\n        os.kill(os.getpid(), signal.SIGINT)\nsys.setprofile(at_the_end)",
    );
    expect(resultText(landed)).toMatch(/KeyboardInterrupt/);
    const flag = join(workspace.directory, "after-landed.flag");
    const result = await cancelWhenFlagged(flag, (signal) =>
      registry.invoke(run, {
        tool: "eval",
        args: {
          code: `try:\n    open(${JSON.stringify(flag)}, 'w').close()\n    time.sleep(300)\nexcept KeyboardInterrupt:\n    print('caught')`,
          description: "wait until the interrupt comes, and catch it",
        },
        signal,
      }),
    );
    expect(result.error?.message).toBe(
      "eval was cancelled: the call was cancelled and the interrupt reached the cell, which caught it and went on to its end; the kernel's state is kept.",
    );
    expect(resultText(result)).toMatch(/^caught\n/);
  });

  it("a second interrupt landing in a __del__ while the first one lost there still waits to be raised is the same interrupt, raised once", async () => {
    // Python takes two SIGINTs arriving before its handler ran as one. Here the first one's
    // KeyboardInterrupt, lost in a __del__, waits for the cell's next instruction; a second one lost
    // in the next __del__ meanwhile was kept too, and raised before the cell's next statement.
    const { cell } = setup();
    const result = await cell(
      "import os, signal, threading, time\nclass Slow:\n    def __del__(self):\n        time.sleep(0.3)\n" +
        "def two_interrupts():\n    time.sleep(0.1)\n    os.kill(os.getpid(), signal.SIGINT)\n" +
        "    time.sleep(0.1)\n    os.kill(os.getpid(), signal.SIGINT)\n" +
        "try:\n    dropped = [Slow() for _ in range(4)]\n    sender = threading.Thread(target=two_interrupts)\n" +
        "    sender.start()\n    del dropped\n    print('not interrupted')\nexcept KeyboardInterrupt:\n    print('caught')\n" +
        "sender.join()\nprint('the next statement ran')",
    );
    expect(resultText(result)).toBe("caught\nthe next statement ran");
    expect(result.error).toBeUndefined();
  });

  it("a cell's trace function survives an interrupt raised again after a __del__, and stays off once the cell turned it off", async () => {
    // The interrupt is raised by a trace function of ours, and Python drops the global one when a
    // trace function raises: it is put back at the statement's end. Before, it was put back even
    // when the cell had turned it off itself meanwhile (sys.settrace(None) in a finally): every
    // later cell ran traced.
    const { registry, run, workspace, cell } = setup();
    await cell(
      "import sys, time\nclass Slow:\n    def __del__(self):\n        time.sleep(0.05)\n" +
        "calls = []\ndef tracer(frame, event, arg):\n    calls.append(event)",
    );
    const interrupted = async (name: string, body: string) => {
      const flag = join(workspace.directory, `${name}.flag`);
      const result = await cancelWhenFlagged(flag, (signal) =>
        registry.invoke(run, {
          tool: "eval",
          args: {
            code: body.replace("FLAG", JSON.stringify(flag)),
            description: "drop objects whose finalizer sleeps, under a trace function",
          },
          signal,
        }),
      );
      expect(resultText(result), name).toMatch(/^caught\n/);
    };
    const traced = "calls.clear()\n(lambda: 1)()\nprint(sys.gettrace() is tracer, len(calls) > 0)";
    // Turned off by the cell in the statement the interrupt reached.
    await interrupted(
      "turned-off",
      "def work():\n    sys.settrace(tracer)\n    try:\n        open(FLAG, 'w').close()\n        while True:\n            Slow()\n" +
        "    except KeyboardInterrupt:\n        print('caught')\n    finally:\n        sys.settrace(None)\nwork()",
    );
    expect(resultText(await cell(traced))).toBe("False False");
    // Left on by the cell: back after the statement the interrupt reached.
    await interrupted(
      "left-on",
      "sys.settrace(tracer)\ntry:\n    open(FLAG, 'w').close()\n    while True:\n        Slow()\nexcept KeyboardInterrupt:\n    print('caught')",
    );
    expect(resultText(await cell(traced))).toBe("True True");
    await cell("sys.settrace(None)");
  });

  it("a SIGINT a forked child took (os.fork, multiprocessing's fork) is not the parent's interrupt", async () => {
    // Before: the child inherited the kernel's wakeup fd, and wrote the SIGINT it caught into the
    // pipe the kernel watches for the interrupt: a later cancel landing after the cell's last
    // statement was said to have "reached the cell, which caught it", as if the cell had been cut
    // short.
    const { registry, run, workspace } = setup();
    const children: Record<string, string> = {
      "os.fork": `pid = os.fork()
if pid == 0:
    try:
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(5)
    except KeyboardInterrupt:
        pass
    os._exit(0)
os.waitpid(pid, 0)
`,
      multiprocessing: `def child():
    try:
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(5)
    except KeyboardInterrupt:
        pass
process = multiprocessing.get_context('fork').Process(target=child)
process.start()
process.join()
`,
    };
    for (const [how, child] of Object.entries(children)) {
      const flag = join(workspace.directory, `child-${how}.flag`);
      // The cancel lands in a post_run_cell hook, after the cell's last statement: dropped.
      const code = `import multiprocessing, os, signal, time
from IPython import get_ipython
${child}def after_the_cell(*args):
    get_ipython().events.unregister('post_run_cell', after_the_cell)
    previous = signal.getsignal(signal.SIGINT)
    taken = []
    def noting(*args):
        taken.append(1)
        previous(*args)
    signal.signal(signal.SIGINT, noting)
    open(${JSON.stringify(flag)}, 'w').close()
    deadline = time.monotonic() + 300
    while not taken and time.monotonic() < deadline:
        time.sleep(0.01)
    signal.signal(signal.SIGINT, previous)
get_ipython().events.register('post_run_cell', after_the_cell)
print('last statement')`;
      const result = await cancelWhenFlagged(flag, (signal) =>
        registry.invoke(run, {
          tool: "eval",
          args: { code, description: "fork a child that catches its own SIGINT" },
          signal,
        }),
      );
      expect(result.error?.message, how).toBe(
        "eval was cancelled: the call was cancelled, but the cell ran to its end (the interrupt did not reach it); the kernel's state is kept.",
      );
      expect(resultText(result), how).toMatch(/^last statement\n/);
    }
  });

  it("a cell that closes the kernel's interrupt-watching pipe leaves no thread spinning, and later cancels are still told right", async () => {
    // Before: with the pipe's write end closed, the thread emptying it woke at once from poll
    // (POLLHUP) forever: 87 % of a CPU (174 ticks in 2 s); and as the pipe was gone, a cancelled
    // cell that caught the KeyboardInterrupt was said not to have been reached by it.
    const { registry, run, workspace, cell } = setup();
    const spin =
      "import threading, time\ndef arrival_ticks():\n    total = 0\n    for thread in threading.enumerate():\n" +
      "        if thread.name == 'tools-signal-arrivals':\n            try:\n" +
      "                with open(f'/proc/self/task/{thread.native_id}/stat') as stat:\n" +
      "                    fields = stat.read().rsplit(')', 1)[1].split()\n" +
      "            except OSError:\n                continue\n            total += int(fields[11]) + int(fields[12])\n" +
      "    return total\nstart = arrival_ticks()\ntime.sleep(1)\nticks = arrival_ticks() - start\n" +
      // The thread of a pipe replaced wakes within a second (its poll's bound) and ends.
      "def arrival_threads():\n    return sum(thread.name == 'tools-signal-arrivals' for thread in threading.enumerate())\n" +
      "deadline = time.monotonic() + 10\nwhile arrival_threads() > 1 and time.monotonic() < deadline:\n    time.sleep(0.05)\n" +
      "print(arrival_threads(), ticks)";
    // The wakeup fd a statement finds set is the pipe's write end; its read end has the same inode.
    const ends: Record<string, string> = {
      "write end": "[write]",
      "read end": "[read]",
      "both ends": "[read, write]",
    };
    for (const [which, closed] of Object.entries(ends)) {
      const closing = await cell(
        // The real set_wakeup_fd: the cell's own says the cell's wakeup fd, not the kernel's pipe.
        "import os, signal\nwrite = signal.set_wakeup_fd.__wrapped__(-1)\nsignal.set_wakeup_fd.__wrapped__(write)\n" +
          "read = next(int(fd) for fd in os.listdir('/proc/self/fd') if int(fd) != write and " +
          "os.readlink(f'/proc/self/fd/{fd}') == os.readlink(f'/proc/self/fd/{write}'))\n" +
          `for fd in ${closed}:\n    os.close(fd)\nprint('closed')`,
      );
      expect(resultText(closing), which).toBe("closed");
      const [threads, ticks] = resultText(await cell(spin))
        .split(" ")
        .map(Number);
      expect(threads, which).toBe(1);
      // A spinning thread takes about 90 ticks a second (a whole CPU); a waiting one none.
      expect(ticks, which).toBeLessThan(20);
      const flag = join(workspace.directory, `closed-${which.replace(" ", "-")}.flag`);
      const result = await cancelWhenFlagged(flag, (signal) =>
        registry.invoke(run, {
          tool: "eval",
          args: {
            code: `import time\ntry:\n    open(${JSON.stringify(flag)}, 'w').close()\n    time.sleep(300)\nexcept KeyboardInterrupt:\n    print('caught')`,
            description: "wait until the interrupt comes, and catch it",
          },
          signal,
        }),
      );
      expect(result.error?.message, which).toBe(
        "eval was cancelled: the call was cancelled and the interrupt reached the cell, which caught it and went on to its end; the kernel's state is kept.",
      );
      expect(resultText(result), which).toMatch(/^caught\n/);
    }
  });

  it("signal.signal called from a signal handler while a statement is watched neither recurses nor hangs", async () => {
    // Before: the SIGINT arrivals were noted under a lock the main thread held; a handler (here a
    // timer's, every millisecond) calling signal.signal(SIGINT, ...) meanwhile waited for it on
    // the same thread, each next signal one level deeper: a RecursionError, or a hung cell.
    const { cell } = setup();
    const result = await cell(
      "import signal, time\ncount = [0]\ndef on_alarm(*args):\n    count[0] += 1\n" +
        "    signal.signal(signal.SIGINT, signal.getsignal(signal.SIGINT))\n" +
        "previous = signal.signal(signal.SIGALRM, on_alarm)\nsignal.setitimer(signal.ITIMER_REAL, 0.001, 0.001)\n" +
        "try:\n    deadline = time.monotonic() + 3\n    while time.monotonic() < deadline:\n" +
        "        signal.signal(signal.SIGINT, signal.getsignal(signal.SIGINT))\n" +
        "finally:\n    signal.setitimer(signal.ITIMER_REAL, 0)\n    signal.signal(signal.SIGALRM, previous)\n" +
        "print('done', count[0] > 100)",
    );
    expect(result.error).toBeUndefined();
    expect(resultText(result)).toBe("done True");
  });

  it("signal.signal takes its arguments by keyword, as Python's does, and fails with Python's own messages", async () => {
    // Before: the wrapper noting SIGINT's handler changes took them by position only: a TypeError
    // ("got some positional-only arguments passed as keyword arguments") where Python's works.
    const { cell } = setup();
    const probe = `import signal
def error(call):
    try:
        call()
    except Exception as failure:
        return f"{type(failure).__name__}: {failure}"
    return "ok"
def handler(*args):
    pass
print(error(lambda: signal.signal(signalnum=signal.SIGINT, handler=handler)), signal.getsignal(signal.SIGINT) is handler)
print(error(lambda: signal.signal(signal.SIGINT, handler=signal.default_int_handler)))
print(error(lambda: signal.signal(signal.SIGINT)))
print(error(lambda: signal.signal(signal.SIGINT, handler, 3)))
print(error(lambda: signal.signal(signal.SIGINT, sig=handler)))
print(error(lambda: signal.signal(signal.SIGINT, 5)))`;
    const own = execFileSync(systemPython, ["-c", probe], { encoding: "utf8" }).trim();
    expect(own.split("\n")[0]).toBe("ok True");
    const result = await cell(probe);
    expect(result.error).toBeUndefined();
    expect(resultText(result)).toBe(own);
  });

  it("a kernel that dies when interrupted says it died and how, not that it was killed for not stopping", async () => {
    // Before: "the cell did not stop when interrupted, so its python kernel was killed", while it
    // had stopped, by exiting on its own.
    const { registry, run, workspace, cell } = setup();
    const flag = join(workspace.directory, "exits.flag");
    const result = await cancelWhenFlagged(flag, (signal) =>
      registry.invoke(run, {
        tool: "eval",
        args: {
          code:
            `import os, signal, time\nsignal.signal(signal.SIGINT, lambda *a: os._exit(7))\n` +
            `open(${JSON.stringify(flag)}, 'w').close()\ntime.sleep(300)`,
          description: "run a cell that exits when interrupted",
        },
        signal,
      }),
    );
    expect(result.error?.code).toBe("CANCELLED");
    expect(result.error?.message).toBe(
      "eval was cancelled: the call was cancelled, and the python kernel exited with code 7 once interrupted: its state is lost.",
    );
    expect(resultText(await cell("'flag' in globals()"))).toMatch(/False$/);
  });

  it("a cancel that interrupts a %%time cell (which shows the KeyboardInterrupt and ends ok) says the cell was interrupted", async () => {
    // Before: "the cell ran to its end (the interrupt did not reach it)" under the interrupt's
    // traceback, since %%time catches it and its reply is ok: run again, it ran twice in part.
    const { registry, run, workspace } = setup();
    const flag = join(workspace.directory, "timed.flag");
    const result = await cancelWhenFlagged(flag, (signal) =>
      registry.invoke(run, {
        tool: "eval",
        args: {
          code: `%%time\nimport time\nopen(${JSON.stringify(flag)}, 'w').close()\ntime.sleep(20)\nprint('the cell ' + 'ran')`,
          description: "run a timed cell that is cancelled",
        },
        signal,
      }),
    );
    expect(result.error?.code).toBe("CANCELLED");
    expect(result.error?.message).toBe(
      "eval was cancelled: the call was cancelled and the cell was interrupted; the kernel's state is kept.",
    );
    expect(resultText(result)).toContain("KeyboardInterrupt");
    expect(resultText(result)).not.toContain("the cell ran");
  });

  it("a cancel that lands while ipykernel prepares the cell (an input transformer runs) keeps the kernel; none of the cell runs", async () => {
    // Before: the SIGINT raised KeyboardInterrupt in ipykernel's own code, which sent no reply,
    // so the kernel was killed ("did not stop when interrupted") and its variables were lost. The
    // slow transformer holds the kernel where a cancel sent just after the call lands by chance.
    const { registry, run, workspace, cell } = setup();
    const flag = join(workspace.directory, "transforming.flag");
    await cell(
      `import time\ndef slow_transform(lines):\n    if any('kept += 1' in line for line in lines):\n` +
        `        open(${JSON.stringify(flag)}, 'w').close()\n        time.sleep(0.5)\n    return lines\n` +
        `get_ipython().input_transformers_post.append(slow_transform)\nkept = 41`,
    );
    const result = await cancelWhenFlagged(flag, (signal) =>
      registry.invoke(run, {
        tool: "eval",
        args: {
          code: "kept += 1\nprint('the cell ' + 'ran')",
          description: "run a cell cancelled while it is prepared",
        },
        signal,
      }),
    );
    expect(result.error?.code).toBe("CANCELLED");
    expect(result.error?.message).toBe(
      "eval was cancelled: the call was cancelled before the cell's code started, so none of it ran; the kernel's state is kept.",
    );
    expect(resultText(result)).not.toContain("the cell ran");
    expect(resultText(await cell("kept"))).toBe("41");
  });

  it("a cancel that reaches the kernel before it begins the cell is not lost: the cell is interrupted once it starts", async () => {
    // Before: ipykernel ignores SIGINT until it starts handling the request, so the cancel was
    // lost and the cell ran to its end. A callback on the kernel's event loop (as a GUI event
    // loop's is) holds the kernel between two requests, where a cancel sent 0–5 ms after the
    // call lands by chance.
    const { registry, run, workspace, cell } = setup();
    const held = join(workspace.directory, "loop-held.flag");
    const release = join(workspace.directory, "loop-release.flag");
    await cell(
      `import os, time\ndef hold():\n    open(${JSON.stringify(held)}, 'w').close()\n    deadline = time.monotonic() + 20\n` +
        `    while not os.path.exists(${JSON.stringify(release)}) and time.monotonic() < deadline:\n        time.sleep(0.01)\n` +
        `get_ipython().kernel.io_loop.add_callback(hold)\nkept = 41`,
    );
    await expect.poll(() => existsSync(held), { timeout: 30_000 }).toBe(true);
    const controller = new AbortController();
    const cancelled = registry.invoke(run, {
      tool: "eval",
      args: {
        code: "import time\ntime.sleep(1)\nkept += 1\nprint('the cell ' + 'ran')",
        description: "run a cell cancelled before the kernel starts it",
      },
      signal: controller.signal,
    });
    // The request is sent and waits for the kernel; then the cancel; then the kernel goes on.
    await new Promise((resolve) => setTimeout(resolve, 300));
    controller.abort(new Error("the operator pressed stop"));
    await new Promise((resolve) => setTimeout(resolve, 200));
    writeFileSync(release, "");
    const result = await cancelled;
    expect(result.error?.code).toBe("CANCELLED");
    expect(result.error?.message).toMatch(
      /^eval was cancelled: the call was cancelled (before the cell's code started|and the cell was interrupted)/,
    );
    expect(resultText(result)).not.toContain("the cell ran");
    expect(resultText(await cell("kept"))).toBe("41");
  });

  it("a cancel whose cell the kernel does not start within the grace period says so, not that an interrupt failed", async () => {
    // Before: "the cell did not stop when interrupted", while no interrupt was sent: the kernel,
    // held between two requests (here by a callback on its event loop), never started the cell.
    const { registry, run, workspace, cell } = setup({ interruptGraceMs: 500 });
    const held = join(workspace.directory, "held-past-grace.flag");
    const pid = Number(
      resultText(
        await cell(
          `import os, time\ndef hold():\n    open(${JSON.stringify(held)}, 'w').close()\n    time.sleep(20)\n` +
            `get_ipython().kernel.io_loop.add_callback(hold)\nos.getpid()`,
        ),
      ).trim(),
    );
    await expect.poll(() => existsSync(held), { timeout: 30_000 }).toBe(true);
    const controller = new AbortController();
    const cancelled = registry.invoke(run, {
      tool: "eval",
      args: { code: "print('the cell ' + 'ran')", description: "run a cell the held kernel never starts" },
      signal: controller.signal,
    });
    // The request is sent and waits for the kernel (nothing outside it shows that); then the cancel.
    await new Promise((resolve) => setTimeout(resolve, 300));
    controller.abort(new Error("the operator pressed stop"));
    const result = await cancelled;
    expect(result.error?.code).toBe("CANCELLED");
    expect(result.error?.message).toBe(
      "eval was cancelled: the call was cancelled, and the python kernel did not start the cell within the 0.5 s grace period, so it was killed (no interrupt was sent: one goes only to a cell that has started): its state is lost.",
    );
    await expect.poll(() => running(pid), { timeout: 5_000 }).toBe(false);
  });

  it("a cell finds Python's own SIGINT handler in place while it runs, as under ipykernel", async () => {
    // The kernel keeps an interrupt landing outside the cell's statements for the next one; a
    // library checking for Python's handler (asyncio's Runner does) still finds it in the cell.
    const { cell } = setup();
    const result = await cell(
      "import signal\nprint(signal.getsignal(signal.SIGINT) is signal.default_int_handler)\n" +
        "def inner():\n    return signal.getsignal(signal.SIGINT) is signal.default_int_handler\ninner()",
    );
    expect(resultText(result)).toBe("True\nTrue");
  });

  it("a wakeup fd the cell set gets the signals of its later statements and cells, as under ipykernel", async () => {
    // The kernel watches for the interrupt's arrival on a wakeup fd of its own while a statement
    // runs. Before, it took the place of the cell's one (asyncio's add_signal_handler sets one)
    // in every statement after the one that set it: the signals went to the kernel's pipe.
    const { cell } = setup();
    const text = (code: string) => cell(code).then((result) => resultText(result));
    expect(
      await text(
        "import os, signal\nr, w = os.pipe()\nos.set_blocking(r, False)\nos.set_blocking(w, False)\n" +
          "signal.signal(signal.SIGUSR2, lambda *a: None)\nsignal.set_wakeup_fd(w)\n" +
          "signal.raise_signal(signal.SIGUSR2)\nos.read(r, 16)",
      ),
    ).toBe("b'\\x0c'");
    expect(await text("signal.raise_signal(signal.SIGUSR2)\nos.read(r, 16)")).toBe("b'\\x0c'");
    expect(await text("signal.set_wakeup_fd(-1) == w")).toBe("True");
  });

  it("a wakeup fd the cell set has each signal's byte before the signal's handler runs, each byte once, as under ipykernel", async () => {
    // Python's C handler writes the signal's number to the wakeup fd as the signal arrives, before
    // any Python handler runs. Before, the kernel's pipe stood in for the cell's fd and a thread
    // passed what arrived on: in 300 signals raised one after another, 297 bytes were not there
    // yet when the handler ran, nor when os.kill returned.
    const { registry, run, workspace, cell } = setup();
    const text = (code: string) => cell(code).then((result) => resultText(result));
    const loop =
      "def raised(count=300):\n    empty_in_handler = empty_after = received = 0\n    for _ in range(count):\n" +
      "        os.kill(os.getpid(), signal.SIGUSR1)\n        empty_in_handler += peeked.pop() == 0\n" +
      "        try:\n            got = b.recv(4096)\n        except BlockingIOError:\n            got = b''\n" +
      "        empty_after += not got\n        received += len(got)\n" +
      // Each byte once: nothing more comes later.
      "    time.sleep(0.2)\n    try:\n        received += len(b.recv(4096))\n    except BlockingIOError:\n        pass\n" +
      "    return empty_in_handler, empty_after, received\n";
    const setupCell =
      "import os, signal, socket, time\na, b = socket.socketpair()\na.setblocking(False)\nb.setblocking(False)\n" +
      "peeked = []\ndef on_usr1(signum, frame):\n    try:\n        peeked.append(len(b.recv(16, socket.MSG_PEEK)))\n" +
      "    except BlockingIOError:\n        peeked.append(0)\nsignal.signal(signal.SIGUSR1, on_usr1)\n" +
      loop;
    // The fd set in the statement that raises the signals, and in an earlier cell.
    expect(
      await text(
        `${setupCell}def set_and_raise():\n    signal.set_wakeup_fd(a.fileno())\n    return raised()\nset_and_raise()`,
      ),
    ).toBe("(0, 0, 300)");
    expect(await text("raised()")).toBe("(0, 0, 300)");
    // With the cell's fd in place the interrupt is still seen to arrive (here to Python's own
    // handler, which the cell still finds in place), and each signal's byte still reaches the fd.
    const flag = join(workspace.directory, "own-fd.flag");
    const result = await cancelWhenFlagged(flag, (signal) =>
      registry.invoke(run, {
        tool: "eval",
        args: {
          code:
            "print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)\n" +
            `try:\n    open(${JSON.stringify(flag)}, 'w').close()\n    time.sleep(300)\nexcept KeyboardInterrupt:\n    print('caught', b.recv(16))`,
          description: "wait until the interrupt comes, and catch it",
        },
        signal,
      }),
    );
    expect(result.error?.message).toBe(
      "eval was cancelled: the call was cancelled and the interrupt reached the cell, which caught it and went on to its end; the kernel's state is kept.",
    );
    expect(resultText(result)).toMatch(/^True\ncaught b'\\x02'\n/);
    expect(await text("signal.set_wakeup_fd(-1) == a.fileno()")).toBe("True");
  });

  it("cancels sent 1–5 ms after short and long cells are submitted never kill the kernel, nor let a long cell run to its end", async () => {
    // Before (on this machine, 60 such cancels): 8 killed the kernel and lost its variables, and
    // 3 of the 30 long cells ran to their end as if never cancelled. A statistical check of the
    // two deterministic ones above, at the timing an operator's stop has.
    const { registry, run, cell } = setup();
    await cell("x = 0");
    let expected = 0;
    for (let round = 0; round < 30; round++) {
      const long = round % 2 === 1;
      const controller = new AbortController();
      const call = registry.invoke(run, {
        tool: "eval",
        args: {
          code: long ? "import time\ntime.sleep(0.3)\nx += 1" : "x += 1",
          description: `run a ${long ? "long" : "short"} cell cancelled at once`,
        },
        signal: controller.signal,
      });
      const firedAfter = cancelSoon(controller, 1 + (Math.floor(round / 2) % 5));
      const result = await call;
      const message = result.error?.message ?? "";
      expect(message, `round ${round}`).not.toMatch(/killed/);
      if (long && staged(await firedAfter)) expect(message, `round ${round}`).not.toMatch(/ran to its end/);
      // A short cell may finish before the cancel (ok, or "ran to its end"): it counts then.
      if (result.error === undefined || /ran to its end/.test(message)) expected++;
      expect(resultText(await cell("x")), `round ${round}`).toBe(String(expected));
    }
  });

  it("interrupts a cell that is silent past the inactivity budget and keeps the namespace", async () => {
    const { cell } = setup({ inactivityMs: 2000 });
    await cell("y = 7");
    const stuck = await cell("import time\nprint('start', flush=True)\nwhile True:\n    time.sleep(0.05)");
    expect(stuck.error?.code).toBe("KERNEL_TIMEOUT");
    expect(resultText(stuck)).toMatch(
      /start[\s\S]*KeyboardInterrupt[\s\S]*produced no output for 2 s and was interrupted; the kernel's state is kept/,
    );
    expect(resultText(await cell("y * 6"))).toBe("42");
  });

  it("interrupts a cell that keeps printing past its time limit in all and keeps the namespace", async () => {
    const { cell } = setup({ cellTimeLimitMs: 3000, limits: { maxChars: 2000, maxLines: 40 } });
    await cell("y = 7");
    const spam = await cell("i = 0\nwhile True:\n    i += 1\n    print('spam line', i)");
    expect(spam.error?.code).toBe("KERNEL_TIMEOUT");
    const text = resultText(spam);
    expect(text).toMatch(/^spam line 1\n/);
    expect(text).toMatch(/of output omitted here/);
    expect(text).toMatch(
      /KeyboardInterrupt[\s\S]*ran past its time limit of 3 s in all \(time in tool\(\) calls not counted\) and was interrupted; the kernel's state is kept/,
    );
    expect(text.length).toBeLessThan(6000);
    expect(resultText(await cell("y * 6"))).toBe("42");
  });

  it("pauses the budget while a bridged call is in flight, and applies approval inside a cell", async () => {
    // A real long call: a child process that outlives two inactivity budgets. (This test once
    // failed now and then with the budget expiring during the call: not load, but the bridge
    // request dropped by the kernel because stdin had not linked yet; see the start test.)
    const slow = defineTool({
      name: "slow",
      tier: "read",
      parallelSafe: true,
      description: "Runs a child process that takes a while.",
      input: z.object({}),
      execute: async () => {
        const { execFile } = await import("node:child_process");
        await new Promise((resolve) => execFile(systemPython, ["-c", "import time; time.sleep(5)"], resolve));
        return textResult("done slowly");
      },
    });
    const deny = defineTool({
      name: "deploy",
      tier: "exec",
      parallelSafe: true,
      description: "Needs approval.",
      input: z.object({}),
      execute: () => textResult("deployed"),
    });
    const { registry, run, cell } = setup({ inactivityMs: 2000 }, [slow, deny]);
    await cell("warm = 1");
    const slowResult = await cell("print('asking', flush=True)\nprint(tool('slow'))");
    expect(resultText(slowResult)).toBe("asking\ndone slowly");
    expect(slowResult.isError).toBe(false);
    // Approval applies inside a cell exactly as for the model: an "ask" registry whose approver
    // allows eval and denies deploy.
    const asking = createRegistry({
      tools: [evalTool, deny],
      approval: "ask",
      approver: {
        attached: () => true,
        request: async (request) =>
          request.tool === "eval" ? { allow: true } : { allow: false, reason: "not today" },
      },
    });
    expect(registry.allTools().length).toBeGreaterThan(0);
    const denied = await asking.invoke(run, {
      tool: "eval",
      args: {
        code: "try:\n    tool('deploy')\nexcept ToolError as e:\n    print(e.code, str(e))",
        description: "try a deploy that needs approval",
      },
    });
    expect(resultText(denied)).toMatch(/^APPROVAL_DENIED the operator denied deploy .*not today/);
  });

  it("says which interpreter lacks ipykernel and what to install", async () => {
    const { run, cell, workspace } = setup();
    const bare = join(workspace.directory, "bare");
    execFileSync(systemPython, ["-m", "venv", "--without-pip", bare]);
    const { registry: other, run: bareRun } = makeRun(workspace.directory, {
      pythonPath: join(bare, "bin", "python"),
    });
    cleanups.push(() => bareRun.dispose());
    const result = await other.invoke(bareRun, {
      tool: "eval",
      args: { code: "1", description: "try a python without ipykernel" },
    });
    expect(result.error?.code).toBe("KERNEL_NOT_FOUND");
    expect(resultText(result)).toContain(
      `${join(bare, "bin", "python")} (from the configured interpreter) has no ipykernel`,
    );
    expect(resultText(result)).toContain("-m pip install ipykernel");
    expect(run.disposed).toBe(false);
    expect(typeof cell).toBe("function");
  });
});

describe("an interpreter that does not answer", () => {
  it(
    "is reported as a timeout naming it, and is stopped with what it started",
    { timeout: 40_000 },
    async () => {
      const workspace = makeWorkspace({ venv: false });
      const hung = join(workspace.directory, "hung-python");
      const pidFile = join(workspace.directory, "hung.pids");
      // Never answers, and keeps a process of its own running meanwhile.
      writeFileSync(hung, `#!/bin/bash\nsleep 9876 &\necho "$$ $!" > ${pidFile}\nwait\n`, { mode: 0o755 });
      const { registry, run } = makeRun(workspace.directory, { pythonPath: hung });
      let pids: number[] = [];
      let started: ReturnType<typeof identify>[] = [];
      try {
        const result = await registry.invoke(run, {
          tool: "eval",
          args: { code: "1", description: "try an interpreter that hangs" },
        });
        pids = readFileSync(pidFile, "utf8").trim().split(" ").map(Number);
        started = pids.map(identify);
        expect(result.error?.code).toBe("KERNEL_TIMEOUT");
        expect(resultText(result)).toContain(
          `the Python interpreter ${hung} (from the configured interpreter) did not answer within 15 s`,
        );
        expect(resultText(result)).not.toContain("pip install");
        expect(pids.filter(running)).toEqual([]);
      } finally {
        killStill(...started);
        await run.dispose();
        workspace.remove();
      }
    },
  );
});
