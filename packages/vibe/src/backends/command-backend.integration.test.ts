import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createKit, reachStatus, type Kit } from "../__fixtures__/test-kit.js";
import type { VibeList } from "../list/vibe-list.js";
import { createCommandBackend } from "./command-backend.js";

const script = fileURLToPath(new URL("../__fixtures__/agent-cli.mjs", import.meta.url));
const models = { fast: "cli-fast", good: "cli-good" };

/** True while the process exists and is not a zombie. */
function alive(pid: number): boolean {
  const stat = `/proc/${pid}/stat`;
  if (!existsSync(stat)) return false;
  try {
    return readFileSync(stat, "utf8").split(") ")[1]?.[0] !== "Z";
  } catch {
    return false;
  }
}

/** Waits (bounded) until none of the processes is alive; returns those still alive. */
async function gone(pids: number[], ms = 5000): Promise<number[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const left = pids.filter(alive);
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The pids the hanging script printed, once its worker reports them (bounded). */
function printedPids(list: VibeList, id: string): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the script never printed its pids")), 10_000);
    const off = list.on((event) => {
      const match = event.worker.id === id ? /^pids (\d+) (\d+)/.exec(event.worker.activity ?? "") : null;
      if (!match) return;
      clearTimeout(timer);
      off();
      resolve([Number(match[1]), Number(match[2])]);
    });
  });
}

describe("command backend with a real agent-CLI script", () => {
  let kit: Kit | undefined;
  afterEach(async () => {
    await kit?.cleanup();
    kit = undefined;
  });

  function setUp(mode: string, command?: string[]): Kit {
    kit = createKit({
      backend: createCommandBackend({
        command: command ?? [process.execPath, script, mode, "{tier}", "{model}"],
        models,
      }),
    });
    return kit;
  }

  it("sends the brief on stdin and takes the output as the result", async () => {
    const { call, run } = setUp("answer");
    await call("vibe_spawn", { brief: "tidy the imports", label: "tidy", tier: "good" });
    await call("vibe_send", { worker_id: "w1", message: "and sort them" });
    const waited = await call("vibe_wait", { worker_id: "w1", timeout_seconds: 30 });
    expect(waited.text).toContain('w1 "tidy" (good) is done after');
    expect(waited.text).toContain(`worker w1 (good, cli-good) in ${run.workingDirectory}`);
    expect(waited.text).toMatch(/final answer: tidy the imports \|  \| and sort them$/);
  });

  it("a script that exits non-zero fails the worker with its stderr", async () => {
    const { call, list } = setUp("fail");
    await call("vibe_spawn", { brief: "x", label: "crasher" });
    const waited = await call("vibe_wait", { worker_id: "w1", timeout_seconds: 30 });
    expect(list.get("w1").status).toBe("failed");
    expect(waited.text).toContain("exited with code 3");
    expect(waited.text).toContain("agent crashed: the brief made no sense");
  });

  it("a CLI that did work, then failed with an error on stderr: the failure keeps the end of its stdout too", async () => {
    // A real `sh` standing in for an agent CLI: it edits and reports on stdout, then fails.
    const cli =
      "cat > /dev/null; echo 'edited src/api.ts'; echo '3 of 5 tests fixed'; echo 'Error: rate limited by the model API' >&2; exit 1";
    kit = createKit({ backend: createCommandBackend({ command: ["sh", "-c", cli] }) });
    await kit.call("vibe_spawn", { brief: "Fix the tests.", label: "fixer" });
    await reachStatus(kit.list, "w1", "failed");
    const waited = await kit.call("vibe_wait", { worker_id: "w1" });
    expect(waited.text).toContain(
      "exited with code 1; its last output (stderr):\nError: rate limited by the model API\nIts stdout ended with:\nedited src/api.ts\n3 of 5 tests fixed",
    );
  });

  it("a failure quoting a long line of its output cuts it between characters, never inside an emoji", async () => {
    kit = createKit({
      backend: createCommandBackend({
        command: [process.execPath, script, "wide-fail"],
        maxResultChars: 40_000,
      }),
    });
    await kit.call("vibe_spawn", { brief: "x", label: "wide" });
    await reachStatus(kit.list, "w1", "failed");
    const message = kit.list.get("w1").lastResult ?? "";
    expect(message).toContain("exited with code 1; its last output:");
    expect(message).toMatch(/😀c$/);
    expect(message).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
  });

  it("a long output: the result is its end from a whole line, saying the start is left out", async () => {
    kit = createKit({
      backend: createCommandBackend({
        command: [process.execPath, script, "long", "300"],
        maxResultChars: 200,
      }),
    });
    await kit.call("vibe_spawn", { brief: "count the steps", label: "counter" });
    await reachStatus(kit.list, "w1", "done");
    const result = kit.list.get("w1").lastResult ?? "";
    const lines = result.split("\n");
    expect(lines[0]).toMatch(
      /^\(the start of the CLI's output is left out, \d+ characters; its end follows\)$/,
    );
    expect(lines[1]).toMatch(/^step \d+$/);
    expect(lines.at(-1)).toBe("final answer: count the steps");
    // Every character printed is kept or counted.
    const printed = [
      ...Array.from({ length: 300 }, (_, i) => `step ${i}\n`),
      "final answer: count the steps\n",
    ].join("");
    const left = Number(/left out, (\d+) characters/.exec(result)?.[1]);
    expect(left + lines.slice(1).join("\n").length + 1).toBe(printed.length);
  });

  it("a long last line without a newline: the result is still maxResultChars at most, saying how much is left out", async () => {
    kit = createKit({
      backend: createCommandBackend({
        command: [process.execPath, "-e", "process.stdout.write('x'.repeat(3000))"],
        maxResultChars: 200,
      }),
    });
    await kit.call("vibe_spawn", { brief: "one long line", label: "wide" });
    await reachStatus(kit.list, "w1", "done");
    expect(kit.list.get("w1").lastResult).toBe(
      `(the start of the CLI's output is left out, 2800 characters; its end follows)\n${"x".repeat(200)}`,
    );
  });

  it("a long coloured output: the count of what is left out is of characters the model would have read, escape codes not counted", async () => {
    kit = createKit({
      backend: createCommandBackend({
        command: [process.execPath, script, "long-colour", "300"],
        maxResultChars: 200,
      }),
    });
    await kit.call("vibe_spawn", { brief: "count the steps", label: "counter" });
    await reachStatus(kit.list, "w1", "done");
    const result = kit.list.get("w1").lastResult ?? "";
    const lines = result.split("\n");
    expect(lines[1]).toMatch(/^step \d+$/);
    expect(lines.at(-1)).toBe("final answer: count the steps");
    // The output as plain text: every character of it is kept or counted, and no more.
    const plain = [
      ...Array.from({ length: 300 }, (_, i) => `step ${i}\n`),
      "final answer: count the steps\n",
    ].join("");
    const left = Number(/left out, (\d+) characters/.exec(result)?.[1]);
    expect(left + lines.slice(1).join("\n").length + 1).toBe(plain.length);
  });

  it("vibe_list shows the end of a long result too: the final answer a CLI prints last", async () => {
    kit = createKit({
      backend: createCommandBackend({ command: [process.execPath, script, "long", "300"] }),
    });
    await kit.call("vibe_spawn", { brief: "count the steps", label: "counter" });
    await reachStatus(kit.list, "w1", "done");
    const listed = await kit.call("vibe_list");
    expect(listed.text).toContain("last result: step 0\n");
    expect(listed.text).toMatch(/\n {2}… \d+ lines \(\d+ characters\) of the result left out here …\n/);
    expect(listed.text).toMatch(/\n {2}step 299\n {2}final answer: count the steps$/);
    expect(listed.text.length).toBeLessThan(600);
  });

  it("vibe_wait on a result longer than it shows keeps its end: the final answer a CLI prints last", async () => {
    kit = createKit({
      backend: createCommandBackend({ command: [process.execPath, script, "long", "3000"] }),
    });
    await kit.call("vibe_spawn", { brief: "count the steps", label: "counter" });
    const waited = await kit.call("vibe_wait", { worker_id: "w1", timeout_seconds: 30 });
    expect(waited.text).toContain('w1 "counter" (fast) is done after');
    expect(waited.text).toMatch(/final answer: count the steps$/);
    expect(waited.text).toMatch(/\n… \d+ lines \(\d+ characters\) of the result left out here …\n/);
    expect(waited.text.length).toBeLessThan(21_000);
  });

  it("colour codes and carriage-return rewrites are left out of the result and the progress line", async () => {
    const { call, list } = setUp("colour");
    const activity: string[] = [];
    list.on((event) => {
      if (event.worker.activity) activity.push(event.worker.activity);
    });
    await call("vibe_spawn", { brief: "paint it", label: "painter" });
    const waited = await call("vibe_wait", { worker_id: "w1", timeout_seconds: 30 });
    expect(waited.text).toMatch(/Its result:\n\nworking 100%\nfinal answer: paint it$/);
    expect(activity.length).toBeGreaterThan(0);
    for (const line of activity) {
      expect(line).not.toContain("\u001b");
      expect(line).not.toContain("\r");
    }
  });

  it("a colour code split between two chunks of output leaves no fragment of it in the progress line", async () => {
    const folder = mkdtempSync(join(tmpdir(), "vibe-split-"));
    const go = join(folder, "go");
    try {
      const { call, list } = setUp("split-escape", [process.execPath, script, "split-escape", go]);
      const activity: string[] = [];
      const first = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("the script never wrote its first half")), 10_000);
        list.on((event) => {
          if (event.type !== "activity" || !event.worker.activity) return;
          activity.push(event.worker.activity);
          clearTimeout(timer);
          resolve();
        });
      });
      await call("vibe_spawn", { brief: "x", label: "split" });
      await first;
      // The script writes the rest of the escape only now: it reaches the backend as another chunk.
      writeFileSync(go, "");
      const waited = await call("vibe_wait", { worker_id: "w1", timeout_seconds: 30 });
      expect(waited.text).toMatch(/Its result:\n\nworking hard\nfinal answer: done$/);
      expect(activity[0]).toBe("working ");
      for (const line of activity) {
        for (const fragment of ["\u001b", "[3", "2m"]) expect(line).not.toContain(fragment);
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("backspaces erase what they go back over and NUL, bells, other control characters and bidi overrides are left out, in the result and the progress line", async () => {
    const { call, list } = setUp("controls");
    const activity: string[] = [];
    list.on((event) => {
      if (event.worker.activity) activity.push(event.worker.activity);
    });
    await call("vibe_spawn", { brief: "x", label: "controls" });
    const waited = await call("vibe_wait", { worker_id: "w1", timeout_seconds: 30 });
    expect(waited.text).toMatch(
      /Its result:\n\nspinning done\nthe cat\nbold text\nrun exe.tset now\nfinal answer:\tok$/,
    );
    expect(activity.length).toBeGreaterThan(0);
    // No control character but tab: no backspace, NUL, bell or form feed.
    for (const line of activity)
      expect(line.split("").filter((char) => char < " " && char !== "\t")).toEqual([]);
    expect(activity.join("\n")).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/);
    expect(activity.at(-1)).toBe("final answer:\tok");
  });

  it("a long progress line is cut between characters, never inside an emoji", async () => {
    const { call, list } = setUp("wide");
    const activity = new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("the script never printed its line")), 10_000);
      const off = list.on((event) => {
        if (event.type !== "activity" || !event.worker.activity) return;
        clearTimeout(timer);
        off();
        resolve(event.worker.activity);
      });
    });
    await call("vibe_spawn", { brief: "x", label: "wide" });
    const line = await activity;
    expect(line.endsWith("…")).toBe(true);
    expect(line).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    expect((await call("vibe_kill", { worker_id: "w1" })).text).toContain("Killed w1");
  });

  it("a command that cannot start fails the worker saying so", async () => {
    const { call } = setUp("", ["/nonexistent/agent-cli-for-vibe-tests"]);
    await call("vibe_spawn", { brief: "x", label: "missing" });
    const waited = await call("vibe_wait", { worker_id: "w1", timeout_seconds: 30 });
    expect(waited.text).toContain("failed after");
    expect(waited.text).toContain("could not start '/nonexistent/agent-cli-for-vibe-tests'");
  });

  it.each([
    ["a file that is not executable", "agent.sh"],
    ["a folder", "."],
  ])(
    "a command that cannot be run (%s) is a set-up failure: vibe_wait says a retry cannot help",
    async (_, name) => {
      const folder = mkdtempSync(join(tmpdir(), "vibe-unrunnable-"));
      try {
        writeFileSync(join(folder, "agent.sh"), "#!/bin/sh\necho hi\n", { mode: 0o644 });
        const program = join(folder, name);
        kit = createKit({ backend: createCommandBackend({ command: [program] }) });
        await kit.call("vibe_spawn", { brief: "x", label: "unrunnable" });
        const waited = await kit.call("vibe_wait", { worker_id: "w1", timeout_seconds: 30 });
        expect(waited.text).toContain(`could not start '${program}': it cannot be run`);
        expect(waited.text).toContain("EACCES");
        expect(waited.text).toContain("A retry cannot help");
        expect(waited.text).not.toContain("retry with more guidance");
        expect(kit.list.get("w1").failure).toBe("setup");
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    },
  );

  it("refuses {model} in the command without a model for each tier, never running it with an empty one", () => {
    expect(() => createCommandBackend({ command: ["agent", "--model", "{model}"] })).toThrow(
      "the command uses {model}, but no model is given for fast and good: pass models { fast, good }",
    );
    expect(() =>
      createCommandBackend({ command: ["agent", "--model={model}"], models: { fast: "small", good: "" } }),
    ).toThrow("no model is given for good");
    expect(createCommandBackend({ command: ["agent", "--model", "{model}"], models }).gated).toBe(false);
  });

  it("refuses a graceMs no timer can wait: before, the kill's wait became a 1 ms one and dispose ended with the CLI running", () => {
    for (const graceMs of [Number.NaN, -1, Number.POSITIVE_INFINITY, 3_000_000_000]) {
      expect(() => createCommandBackend({ command: ["agent"], graceMs })).toThrow(
        `graceMs must be a number of milliseconds from 0 to 2147483647, got ${String(graceMs)}`,
      );
    }
    expect(createCommandBackend({ command: ["agent"], graceMs: 0 }).stopMs).toBeGreaterThan(0);
  });

  it("refuses a misspelt placeholder, which would reach the CLI as written, and leaves the CLI's own braces alone", () => {
    expect(() => createCommandBackend({ command: ["agent", "--model", "{modle}"], models })).toThrow(
      "the command has {modle}, which is no placeholder (it would reach the CLI as written): did you mean {model}? The placeholders are {tier}, {model}, {label}, {workerId}, {cwd}",
    );
    expect(() => createCommandBackend({ command: ["agent", "--id={workerid}"] })).toThrow(
      "did you mean {workerId}?",
    );
    expect(() => createCommandBackend({ command: ["agent", "--tier={teir}", "--log={worker_id}"] })).toThrow(
      "the command has {teir}",
    );
    const own = createCommandBackend({ command: ["agent", "--config", '{"quiet":true}', "--files={paths}"] });
    expect(own.description).toBe('command agent --config {"quiet":true} --files={paths}');
    // Words of their own next to a placeholder's name are the CLI's template, not slips.
    const template = "{time} {level} {id} {dir} {mode} {models} {labels} {node}";
    expect(createCommandBackend({ command: ["agent", "--log-format", template] }).description).toBe(
      `command agent --log-format ${template}`,
    );
  });

  it("a script that exits is done although a process it left holds its output, which then ends", async () => {
    const { call, list } = setUp("holdout");
    const holder = new Promise<number>((resolve) => {
      const off = list.on((event) => {
        const match = /left holder (\d+)/.exec(event.worker.activity ?? "");
        if (match) {
          off();
          resolve(Number(match[1]));
        }
      });
    });
    await call("vibe_spawn", { brief: "x", label: "holdout" });
    const pid = await holder;
    try {
      const waited = await call("vibe_wait", { worker_id: "w1", timeout_seconds: 15 });
      expect(list.get("w1").status).toBe("done");
      expect(waited.text).toContain(`final answer: left holder ${pid} running`);
      expect(waited.text).toContain("leaving 1 background process that held its output open; it was ended");
      expect(await gone([pid])).toEqual([]);
      const killed = await call("vibe_kill", { worker_id: "w1" });
      expect(killed.text).toContain("had already finished (done); nothing to stop");
    } finally {
      // Should the backend have left it, the test does not.
      if (alive(pid)) process.kill(pid, "SIGKILL");
    }
  });

  it("a process the script left holding its output gets SIGTERM and the time to clean up before SIGKILL", async () => {
    const { call, run } = setUp("holdout-trap");
    await call("vibe_spawn", { brief: "x", label: "holdout" });
    const waited = await call("vibe_wait", { worker_id: "w1", timeout_seconds: 15 });
    const pid = Number(/left holder (\d+)/.exec(waited.text)?.[1]);
    try {
      expect(pid).toBeGreaterThan(0);
      expect(waited.text).toMatch(
        /leaving \d background process(es)? that held its output open; (it was|they were) ended/,
      );
      expect(readFileSync(join(run.workingDirectory, "holder-cleaned"), "utf8")).toBe("cleaned\n");
      expect(await gone([pid])).toEqual([]);
    } finally {
      // Should the backend have left it, the test does not.
      if (pid > 0 && alive(pid)) process.kill(pid, "SIGKILL");
    }
  });

  it("a daemon the script double-forked onto /dev/null ends when the script exits, found by its mark", async () => {
    const { call, list } = setUp("daemon");
    await call("vibe_spawn", { brief: "x", label: "daemon" });
    const waited = await call("vibe_wait", { worker_id: "w1", timeout_seconds: 15 });
    const pid = Number(/left daemon (\d+)/.exec(waited.text)?.[1]);
    try {
      expect(list.get("w1").status).toBe("done");
      expect(pid).toBeGreaterThan(0);
      expect(waited.text).toContain("(the CLI exited, leaving 1 background process running; it was ended)");
      expect(await gone([pid])).toEqual([]);
    } finally {
      // Should the backend have left it, the test does not.
      if (pid > 0 && alive(pid)) process.kill(pid, "SIGKILL");
    }
  });

  it("disposing the run waits out the backend's grace: a script ignoring SIGTERM is gone once dispose resolves", async () => {
    // A list's stop bound shorter than the backend's grace between SIGTERM and SIGKILL.
    kit = createKit({
      backend: createCommandBackend({ command: [process.execPath, script, "stubborn"], graceMs: 1500 }),
      stopTimeoutMs: 200,
    });
    const { call, list, run } = kit;
    const pids = printedPids(list, "w1");
    await call("vibe_spawn", { brief: "x", label: "stubborn" });
    const [pid] = await pids;
    try {
      await run.dispose();
      expect(alive(pid as number)).toBe(false);
      expect(list.get("w1").status).toBe("killed");
      expect(list.get("w1").lastResult).not.toContain("did not stop in time");
    } finally {
      if (pid !== undefined && alive(pid)) process.kill(pid, "SIGKILL");
    }
  });

  it("vibe_kill ends the script and the process it started", async () => {
    const { call, list } = setUp("hang");
    const pids = printedPids(list, "w1");
    await call("vibe_spawn", { brief: "run forever", label: "forever" });
    const started = await pids;
    expect(started.filter(alive)).toEqual(started);
    const killed = await call("vibe_kill", { worker_id: "w1" });
    expect(killed.text).toContain("Killed w1");
    expect(list.get("w1").status).toBe("killed");
    expect(await gone(started)).toEqual([]);
  });

  it("disposing the run ends running scripts and their children", async () => {
    const { call, list, run } = setUp("hang");
    const first = printedPids(list, "w1");
    const second = printedPids(list, "w2");
    await call("vibe_spawn", { brief: "a", label: "a" });
    await call("vibe_spawn", { brief: "b", label: "b" });
    const started = [...(await first), ...(await second)];
    const report = await run.dispose();
    expect(report.failed).toEqual([]);
    expect(list.list().map((worker) => worker.status)).toEqual(["killed", "killed"]);
    expect(await gone(started)).toEqual([]);
  });
});
