import { afterEach, describe, expect, it, vi } from "vitest";
import { createRegistry, createRun, surfaces, ToolsError, type ToolContext } from "@tools/registry";
import { createKit, reachStatus, type Kit } from "../__fixtures__/test-kit.js";
import { HeldBackend } from "../__fixtures__/held-backend.js";
import type { WorkerBackend, WorkerTask } from "../backends/worker-backend.js";
import { vibeWaitTool } from "../tools/vibe-wait.js";
import { createVibeList, vibeListKey } from "./vibe-list.js";

describe("VibeList (in-process held backend)", () => {
  let kit: Kit | undefined;
  afterEach(async () => {
    await kit?.cleanup();
    kit = undefined;
  });

  it("vibe_spawn returns the id at once and the worker finishes in the background", async () => {
    const backend = new HeldBackend();
    kit = createKit({ backend });
    const spawned = await kit.call("vibe_spawn", { brief: "count the notes", label: "counter" });
    expect(spawned.isError).toBe(false);
    expect(spawned.text).toContain('Spawned w1 "counter" (fast); it is running');
    expect(kit.list.get("w1").status).toBe("running");
    // Counts agree with their nouns: one worker is "1 worker".
    const listed = await kit.call("vibe_list");
    expect(listed.text.split("\n")[0]).toBe("1 worker, 1 running (at most 2 at once, 16 queued or running):");
    const attempt = await backend.attempt(0);
    expect(attempt.task.brief).toBe("count the notes");
    expect(attempt.task.tier).toBe("fast");
    attempt.answer("there is 1 note");
    const waited = await kit.call("vibe_wait", { worker_id: "w1" });
    expect(waited.text).toMatch(/^w1 "counter" \(fast\) is done after .+\. Its result:\n\nthere is 1 note$/);
  });

  it("queues workers beyond the concurrency limit and starts them as slots free up", async () => {
    const backend = new HeldBackend();
    kit = createKit({ backend, concurrency: 1 });
    await kit.call("vibe_spawn", { brief: "a", label: "first" });
    const second = await kit.call("vibe_spawn", { brief: "b", label: "second", tier: "good" });
    expect(second.text).toContain(
      "is queued: 1 worker already runs (the limit); it starts when one finishes.",
    );
    const third = await kit.call("vibe_spawn", { brief: "c", label: "third" });
    expect(third.text).toContain(
      "is queued: 1 worker already runs (the limit) and 1 queued worker starts before it; it starts when 2 workers have finished.",
    );
    const listed = await kit.call("vibe_list");
    expect(listed.text).toContain('w1 "first" (fast) running');
    expect(listed.text).toContain('w2 "second" (good) queued');
    (await backend.attempt(0)).answer("first done");
    await reachStatus(kit.list, "w2", "running");
    expect((await backend.attempt(1)).task.tier).toBe("good");
  });

  it("a worker sees no vibe_* tool and cannot reach one from inside another tool's call", async () => {
    const backend = new HeldBackend();
    kit = createKit({ backend });
    await kit.call("vibe_spawn", { brief: "look around", label: "looker" });
    const { task, answer } = await backend.attempt(0);
    const names = task.toolbox.openAiTools().map((tool) => tool.function.name);
    expect(names).toEqual(["read_note", "write_note", "hang", "relay"]);
    expect((await task.toolbox.call("vibe_list", {})).text).toContain(
      "vibe_list is not available to a background worker",
    );
    // From inside a tool (as an eval cell's tool(...) call) the registry refuses it too.
    const nested = await task.toolbox.call("relay", { tool: "vibe_spawn", args: { brief: "b", label: "l" } });
    expect(nested.text).toBe(
      "NOT_ON_SURFACE: vibe_spawn is not available to a background worker; use the tools its schema lists",
    );
    expect((await task.toolbox.call("relay", { tool: "read_note", args: { file: "note.txt" } })).text).toBe(
      "the note says 42",
    );
    expect(kit.list.list().map((worker) => worker.id)).toEqual(["w1"]);
    answer("done");
  });

  it("refuses a label that would read as an option or span lines (it may reach the worker's command line)", async () => {
    kit = createKit({ backend: new HeldBackend() });
    for (const label of [
      "--dangerously-skip-permissions",
      " padded",
      "two\nlines",
      "two\u2028lines",
      "tab\there",
    ]) {
      const refused = await kit.call("vibe_spawn", { brief: "b", label });
      expect(refused.error?.code).toBe("INVALID_ARGUMENTS");
      expect(refused.text).toContain("label: one line of text not starting with '-' or a space");
    }
    expect(kit.list.list()).toEqual([]);
  });

  it("refuses a label with bidi controls or other invisible format characters, which can make it display as another, naming the character", async () => {
    kit = createKit({ backend: new HeldBackend() });
    for (const [label, named] of [
      // Shown as "fix tests ‮…" reversed: "exe.tset" reads as "test.exe".
      ["fix \u202Eexe.tset", "U+202E (right-to-left override)"],
      ["fix \u202Atests", "U+202A (left-to-right embedding)"],
      ["a\u202Cb", "U+202C (pop directional formatting)"],
      ["\u2067tests\u2069 w1", "U+2067 (right-to-left isolate)"],
      ["tests\u2069", "U+2069 (pop directional isolate)"],
      ["fix\u200Btests", "U+200B (zero width space)"],
      ["fix\u200Ftests", "U+200F (right-to-left mark)"],
      ["fix\u2060tests", "U+2060 (word joiner)"],
      ["fix\uFEFFtests", "U+FEFF (zero width no-break space)"],
      ["fix\u00ADtests", "U+00AD (soft hyphen)"],
      // Tag characters spell hidden ASCII a model reads and a person does not see.
      ["fix \u{E0069}\u{E0067}tests", "U+E0069 (tag character)"],
      ["fix\u200Dtests", "U+200D (zero width joiner)"],
      // Joiners after an accent on a Latin letter join nothing either.
      ["cafe\u0301\u200Dtests", "U+200D (zero width joiner)"],
      // A run of variation selectors draws nothing and can carry hidden bytes; one selects nothing alone.
      [
        `ok 😀${"\u{E0100}\u{E0101}\u{E0102}"}`,
        "U+E0100 (variation selector, kept in a label only after an emoji)",
      ],
      ["ok ❤\uFE0F\uFE0F", "U+FE0F (variation selector, kept in a label only after an emoji)"],
      ["\uFE0Fok", "U+FE0F (variation selector, kept in a label only after an emoji)"],
      // One selector per letter hid ~4 bits a letter ("fix tests" carrying bytes): a selector is
      // kept only where it picks an emoji's form (text or emoji: ❤︎, ❤️), never after a letter,
      // a digit outside a keycap, an ideograph (its variants need a registry no label needs) or
      // a Mongolian letter.
      ["f\uFE01i\uFE07x tests", "U+FE01 (variation selector, kept in a label only after an emoji)"],
      ["fix\uFE0F tests", "U+FE0F (variation selector, kept in a label only after an emoji)"],
      ["v1\uFE0E", "U+FE0E (variation selector, kept in a label only after an emoji)"],
      ["\u2269\uFE00 bound", "U+FE00 (variation selector, kept in a label only after an emoji)"],
      ["葛\u{E0100}飾", "U+E0100 (variation selector, kept in a label only after an emoji)"],
      ["\u1820\u180B", "U+180B (variation selector, kept in a label only after an emoji)"],
      // Tags beyond the flag they draw.
      [
        "flag \u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}\u{E0069}",
        "U+E0069 (tag character)",
      ],
    ]) {
      const refused = await kit.call("vibe_spawn", { brief: "b", label });
      expect(refused.error?.code).toBe("INVALID_ARGUMENTS");
      expect(refused.text).toContain(`label: has ${named}, an invisible formatting character`);
    }
    expect(kit.list.list()).toEqual([]);
    // Joiners where they join: an emoji sequence, a Persian word written with a non-joiner.
    for (const label of [
      "family 👩\u200D👩\u200D👧",
      "coder 👩🏽\u200D💻",
      "heart ❤\uFE0F",
      "می\u200Cخواهم",
      "café 日本 🇫🇷",
      // Joiners of scripts that join: Sri Lanka in Sinhala, a Devanagari half form, a Malayalam
      // chillu at a word's end, a Persian non-joiner after a vowel sign.
      "ශ්\u200Dරී ලංකා",
      "क्\u200Dष",
      "അവന്\u200D test",
      "مَ\u200Cن",
      // Emoji drawn with tags and selectors: the flag of England, a keycap, an ideograph's variant.
      "docs \u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}",
      "1\uFE0F\u20E3 first",
      "text heart \u2764\uFE0E, smile \u263A\uFE0F",
      "pride \u{1F3F3}\uFE0F\u200D\u{1F308}",
      "葛飾",
    ]) {
      expect((await kit.call("vibe_spawn", { brief: "b", label })).isError).toBe(false);
    }
  });

  it("refuses a brief or message of nothing but invisible characters as blank", async () => {
    const backend = new HeldBackend();
    kit = createKit({ backend });
    for (const brief of ["\u200B", "\u200B\u200C\u200D", " \u2060 \uFEFF\n", "\u200B\t\u2066\u2069"]) {
      const blank = await kit.call("vibe_spawn", { brief, label: "blank" });
      expect(blank.error?.code).toBe("INVALID_ARGUMENTS");
      expect(blank.text).toContain(
        "brief: blank (only spaces or invisible characters): write the task itself",
      );
    }
    expect(kit.list.list()).toEqual([]);
    await kit.call("vibe_spawn", { brief: "count the notes", label: "counter" });
    const attempt = await backend.attempt(0);
    const sent = await kit.call("vibe_send", { worker_id: "w1", message: "\u200B\u200D \uFEFF" });
    expect(sent.error?.code).toBe("INVALID_ARGUMENTS");
    expect(sent.text).toContain("message: blank (only spaces or invisible characters): say what to add");
    expect(backend.aborted).toEqual([]);
    expect(kit.list.get("w1").brief).toBe("count the notes");
    attempt.answer("2 notes");
  });

  it("refuses a blank brief or message, saying what to write, and starts nothing", async () => {
    const backend = new HeldBackend();
    kit = createKit({ backend });
    const blank = await kit.call("vibe_spawn", { brief: " \n\t ", label: "blank" });
    expect(blank.error?.code).toBe("INVALID_ARGUMENTS");
    expect(blank.text).toContain("brief: blank (only spaces or invisible characters): write the task itself");
    expect(kit.list.list()).toEqual([]);
    await kit.call("vibe_spawn", { brief: "count the notes", label: "counter" });
    const attempt = await backend.attempt(0);
    const sent = await kit.call("vibe_send", { worker_id: "w1", message: "  \n " });
    expect(sent.error?.code).toBe("INVALID_ARGUMENTS");
    expect(sent.text).toContain(
      'message: blank (only spaces or invisible characters): say what to add to the brief (to rerun it as it is: "Try again.")',
    );
    // The attempt in progress goes on untouched.
    expect(backend.aborted).toEqual([]);
    expect(kit.list.get("w1").brief).toBe("count the notes");
    attempt.answer("2 notes");
    await reachStatus(kit.list, "w1", "done");
    expect(kit.list.get("w1").attempts).toBe(1);
  });

  it("refuses an empty brief, label, message or worker id with one line saying what to give, not a bare length", async () => {
    const backend = new HeldBackend();
    kit = createKit({ backend });
    const problems = (text: string) => text.split("\n").filter((line) => line.startsWith("- "));
    const emptyBrief = await kit.call("vibe_spawn", { brief: "", label: "empty" });
    expect(problems(emptyBrief.text)).toEqual([
      "- brief: empty: write the task itself (goal, files, constraints, how to check it)",
    ]);
    const emptyLabel = await kit.call("vibe_spawn", { brief: "b", label: "" });
    expect(problems(emptyLabel.text)).toEqual([
      '- label: empty: name the worker in a few words (e.g. "fix login test")',
    ]);
    const longLabel = await kit.call("vibe_spawn", { brief: "b", label: "x".repeat(81) });
    expect(problems(longLabel.text)).toEqual([
      "- label: longer than 80 characters: name the worker in a few words; the task itself goes in the brief",
    ]);
    expect(kit.list.list()).toEqual([]);
    await kit.call("vibe_spawn", { brief: "count the notes", label: "counter" });
    const attempt = await backend.attempt(0);
    const emptyMessage = await kit.call("vibe_send", { worker_id: "w1", message: "" });
    expect(problems(emptyMessage.text)).toEqual([
      '- message: empty: say what to add to the brief (to rerun it as it is: "Try again.")',
    ]);
    for (const [tool, more] of [
      ["vibe_wait", {}],
      ["vibe_kill", {}],
      ["vibe_send", { message: "more" }],
    ] as const) {
      const emptyId = await kit.call(tool, { worker_id: "", ...more });
      expect(emptyId.error?.code).toBe("INVALID_ARGUMENTS");
      expect(problems(emptyId.text)).toEqual([
        "- worker_id: empty: give the id vibe_spawn answered (e.g. w1; vibe_list shows every worker's id)",
      ]);
    }
    expect(kit.list.get("w1").brief).toBe("count the notes");
    attempt.answer("2 notes");
  });

  it("the list's own API (a harness calling spawn and send) refuses what vibe_spawn and vibe_send refuse, with the same code and problem", async () => {
    const backend = new HeldBackend();
    kit = createKit({ backend });
    const refusals: [{ brief: string; label: string }, string][] = [
      [{ brief: "b", label: "" }, "label: "],
      [{ brief: "b", label: "x".repeat(81) }, "label: "],
      [{ brief: "b", label: "--dangerously-skip-permissions" }, "label: one line of text"],
      [{ brief: "b", label: "two\nlines" }, "label: one line of text"],
      [{ brief: "b", label: "fix \u202Eexe.tset" }, "label: has U+202E (right-to-left override)"],
      [{ brief: "", label: "empty" }, "brief: "],
      [{ brief: " \n\t ", label: "blank" }, "brief: blank (only spaces or invisible characters)"],
      [{ brief: "\u200B\u2060", label: "blank" }, "brief: blank (only spaces or invisible characters)"],
    ];
    for (const [request, problem] of refusals) {
      const viaTool = await kit.call("vibe_spawn", request);
      expect(viaTool.error?.code).toBe("INVALID_ARGUMENTS");
      const line = viaTool.text.split("\n").find((text) => text.startsWith(`- ${problem}`));
      expect(line).toBeDefined();
      let thrown: unknown;
      try {
        kit.list.spawn(request);
      } catch (error) {
        thrown = error;
      }
      expect(ToolsError.isInstance(thrown) && thrown.code).toBe("INVALID_ARGUMENTS");
      expect((thrown as Error).message).toContain(line!);
    }
    expect(kit.list.list()).toEqual([]);
    // A harness without types: a tier that is none.
    expect(() => kit!.list.spawn({ brief: "b", label: "l", tier: "turbo" as "fast" })).toThrow(/tier: /);
    expect(kit.list.list()).toEqual([]);

    kit.list.spawn({ brief: "count the notes", label: "counter" });
    const attempt = await backend.attempt(0);
    const viaTool = await kit.call("vibe_send", { worker_id: "w1", message: "\u200B " });
    const line = viaTool.text.split("\n").find((text) => text.startsWith("- message: blank"));
    expect(line).toBeDefined();
    // Refused at once, as a send to a closed list is: nothing is cancelled.
    expect(() => kit!.list.send("w1", "\u200B ")).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENTS", message: expect.stringContaining(line!) }),
    );
    expect(backend.aborted).toEqual([]);
    expect(kit.list.get("w1").brief).toBe("count the notes");
    attempt.answer("2 notes");
  });

  it("a backend's stopMs beyond what a timer can wait still gives a kill its wait (not a 1 ms one)", async () => {
    // A custom backend's attempts end 100 ms after they are told to stop; its stopMs is past the
    // timer's range (a graceMs of weeks): the wait must not overflow into an immediate give-up.
    const slowToStop: WorkerBackend = {
      description: "attempts that take 100 ms to stop (test)",
      gated: true,
      stopMs: 2 ** 31,
      perform: (task) =>
        new Promise<string>((_resolve, reject) => {
          task.signal.addEventListener("abort", () => setTimeout(() => reject(task.signal.reason), 100), {
            once: true,
          });
        }),
    };
    kit = createKit({ backend: slowToStop });
    await kit.call("vibe_spawn", { brief: "slow", label: "slow" });
    await reachStatus(kit.list, "w1", "running");
    const killed = await kit.call("vibe_kill", { worker_id: "w1" });
    expect(killed.text).toBe('Killed w1 "slow"; it and everything it started have stopped.');
  });

  it("refuses a stop bound or a backend's stopMs that is no number of milliseconds", async () => {
    const registry = createRegistry({ tools: [] });
    const run = createRun({ workingDirectory: process.cwd() });
    try {
      expect(() =>
        createVibeList({ registry, run, backend: new HeldBackend(), stopTimeoutMs: Number.NaN }),
      ).toThrow("stopTimeoutMs must be a number of milliseconds of at least 0, got NaN");
      const odd: WorkerBackend = {
        description: "odd (test)",
        gated: true,
        stopMs: -5,
        perform: () => Promise.resolve(""),
      };
      expect(() => createVibeList({ registry, run, backend: odd })).toThrow(
        "the backend's stopMs must be a number of milliseconds of at least 0, got -5",
      );
    } finally {
      await run.dispose();
    }
  });

  it("a kill racing a re-brief, both past the stop's bound, stops the attempt the re-brief started", async () => {
    // Attempts that ignore their abort: a worker slower to stop than the wait (a model request
    // that does not honour its signal); they end when the test lets them.
    const tasks: WorkerTask[] = [];
    const stubborn: WorkerBackend = {
      description: "attempts that do not stop when told (test)",
      gated: true,
      perform: (task) => {
        tasks.push(task);
        return new Promise<string>(() => undefined);
      },
    };
    kit = createKit({ backend: stubborn, stopTimeoutMs: 50 });
    await kit.call("vibe_spawn", { brief: "slow", label: "slow" });
    await reachStatus(kit.list, "w1", "running");
    const sending = kit.call("vibe_send", { worker_id: "w1", message: "and more" });
    const killing = kit.call("vibe_kill", { worker_id: "w1" });
    const [, killed] = await Promise.all([sending, killing]);
    expect(killed.text).toBe(
      'Killed w1 "slow": it was told to stop but had not stopped when the wait ended; what it started may still be ending. It counts as killed, and ends with the run at the latest.',
    );
    expect(kit.list.get("w1").status).toBe("killed");
    // Every attempt was told to stop, the one the re-brief started too (before, nothing could reach it).
    expect(tasks.map((task) => task.signal.aborted)).toEqual(tasks.map(() => true));
    expect(tasks).toHaveLength(2);
  });

  it("vibe_send cancels the running attempt and reruns with the message appended", async () => {
    const backend = new HeldBackend();
    kit = createKit({ backend });
    await kit.call("vibe_spawn", { brief: "fix the bug", label: "fixer" });
    await backend.attempt(0);
    const sent = await kit.call("vibe_send", { worker_id: "w1", message: "also add a test" });
    expect(sent.text).toContain("its run in progress was cancelled and it starts over");
    expect(backend.aborted).toEqual(["w1"]);
    const rerun = await backend.attempt(1);
    expect(rerun.task.brief).toBe("fix the bug\n\nalso add a test");
    rerun.answer("fixed, with a test");
    const waited = await kit.call("vibe_wait", { worker_id: "w1" });
    expect(waited.text).toContain("fixed, with a test");
    expect(kit.list.get("w1").attempts).toBe(2);
  });

  it("vibe_send reruns a finished worker", async () => {
    const backend = new HeldBackend();
    kit = createKit({ backend });
    await kit.call("vibe_spawn", { brief: "one", label: "again" });
    (await backend.attempt(0)).answer("once");
    await reachStatus(kit.list, "w1", "done");
    const sent = await kit.call("vibe_send", { worker_id: "w1", message: "two" });
    expect(sent.text).toContain("it had finished, so it runs again");
    expect((await backend.attempt(1)).task.brief).toBe("one\n\ntwo");
  });

  it("vibe_wait returns at its timeout saying the worker is still running, with elapsed time", async () => {
    const backend = new HeldBackend();
    kit = createKit({ backend });
    await kit.call("vibe_spawn", { brief: "slow", label: "slow one" });
    const waited = await kit.call("vibe_wait", { worker_id: "w1", timeout_seconds: 0.05 });
    expect(waited.isError).toBe(false);
    expect(waited.text).toMatch(
      /^w1 "slow one" \(fast\) is still running: only this wait ended \(after 50ms\); the worker keeps working in the background\. Elapsed \S+\./,
    );
    expect(waited.text).toContain(
      'To wait longer: vibe_wait {"worker_id":"w1","timeout_seconds":600} (600 s is the most one call waits).',
    );
    expect(waited.text).toContain("vibe_kill w1 to stop it");
    expect(kit.list.get("w1").status).toBe("running");
  });

  it("vibe_wait with a timeout of 0 or over 600 s says what it takes, and how to check without waiting", async () => {
    kit = createKit({ backend: new HeldBackend() });
    await kit.call("vibe_spawn", { brief: "slow", label: "slow one" });
    for (const seconds of [0, -5]) {
      const refused = await kit.call("vibe_wait", { worker_id: "w1", timeout_seconds: seconds });
      expect(refused.error?.code).toBe("INVALID_ARGUMENTS");
      expect(refused.text).toContain(
        "timeout_seconds: must be more than 0: to check on a worker without waiting, call vibe_list",
      );
    }
    const long = await kit.call("vibe_wait", { worker_id: "w1", timeout_seconds: 3600 });
    expect(long.text).toContain("timeout_seconds: must be at most 600 (a longer wait is several calls)");
  });

  it("vibe_wait without timeout_seconds waits the stated default, and says it was the default", async () => {
    const backend = new HeldBackend();
    kit = createKit({ backend });
    await kit.call("vibe_spawn", { brief: "slow", label: "slow one" });
    await backend.attempt(0);
    expect(vibeWaitTool.description).toContain("timeout_seconds, default 60, at most 600");
    vi.useFakeTimers();
    try {
      const waiting = vibeWaitTool.execute({ worker_id: "w1" }, { run: kit.run } as ToolContext);
      let settled = false;
      void Promise.resolve(waiting).then(() => (settled = true));
      await vi.advanceTimersByTimeAsync(59_900);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(100);
      expect(await waiting).toMatch(
        /^w1 "slow one" \(fast\) is still running: only this wait ended \(after 1m 00s, the default wait\); the worker keeps working/,
      );
    } finally {
      vi.useRealTimers();
    }
  });

  it("vibe_kill stops a running worker and a queued one; a killed worker reports it", async () => {
    const backend = new HeldBackend();
    kit = createKit({ backend, concurrency: 1 });
    await kit.call("vibe_spawn", { brief: "a", label: "runner" });
    await kit.call("vibe_spawn", { brief: "b", label: "waiter" });
    await backend.attempt(0);
    const killedQueued = await kit.call("vibe_kill", { worker_id: "w2" });
    expect(killedQueued.text).toBe(
      'Killed w2 "waiter" while it was queued: it never started, so it changed nothing.',
    );
    const killedRunning = await kit.call("vibe_kill", { worker_id: "w1" });
    expect(killedRunning.isError).toBe(false);
    expect(backend.aborted).toEqual(["w1"]);
    expect(kit.list.get("w1").status).toBe("killed");
    expect(kit.list.get("w2").status).toBe("killed");
    expect(backend.attempts).toHaveLength(1); // the queued one never started
    const again = await kit.call("vibe_kill", { worker_id: "w1" });
    expect(again.text).toContain("had already been killed; nothing to stop");
    const waited = await kit.call("vibe_wait", { worker_id: "w1" });
    expect(waited.text).toContain("was killed after");
    // Re-briefed while another runs, w1 queues again; killed there, its new run never started.
    await kit.call("vibe_spawn", { brief: "c", label: "third" });
    await backend.attempt(1);
    await kit.call("vibe_send", { worker_id: "w1", message: "once more" });
    expect(kit.list.get("w1").status).toBe("queued");
    const killedRequeued = await kit.call("vibe_kill", { worker_id: "w1" });
    expect(killedRequeued.text).toBe(
      'Killed w1 "runner" while it was queued: its new run never started (what its earlier runs did stays).',
    );
    expect((await kit.call("vibe_wait", { worker_id: "w1" })).text).toMatch(
      /^w1 "runner" \(fast\) was killed before its new run started \(queued for .+\): killed by vibe_kill while it was queued$/,
    );
  });

  it("a worker killed while queued is reported as killed before it started, with how long it was queued", async () => {
    const backend = new HeldBackend();
    kit = createKit({ backend, concurrency: 1 });
    await kit.call("vibe_spawn", { brief: "a", label: "runner" });
    await kit.call("vibe_spawn", { brief: "b", label: "waiter" });
    await backend.attempt(0);
    await kit.call("vibe_kill", { worker_id: "w2" });
    expect(kit.list.get("w2").killedWhileQueued).toBe(true);
    expect(kit.list.get("w2").lastResult).toBe("killed by vibe_kill while it was queued");
    const waited = await kit.call("vibe_wait", { worker_id: "w2" });
    expect(waited.text).toMatch(
      /^w2 "waiter" \(fast\) was killed before it started \(queued for \d+(\.\d)?m?s\): killed by vibe_kill while it was queued$/,
    );
    const listed = await kit.call("vibe_list");
    expect(listed.text).toMatch(
      /\n- w2 "waiter" \(fast\) killed before it started \(queued \d+(\.\d)?m?s\)\n/,
    );
    // Re-briefed, it queues again behind w1; killed there, its new run is the one that never started.
    await kit.call("vibe_send", { worker_id: "w2", message: "now" });
    await kit.call("vibe_kill", { worker_id: "w2" });
    expect((await kit.call("vibe_wait", { worker_id: "w2" })).text).toMatch(
      /^w2 "waiter" \(fast\) was killed before it started \(queued for /,
    );
    // A worker killed while it ran is not.
    (await backend.attempt(0)).answer("a done");
    await reachStatus(kit.list, "w1", "done");
    await kit.call("vibe_send", { worker_id: "w1", message: "more" });
    await backend.attempt(1);
    await kit.call("vibe_kill", { worker_id: "w1" });
    expect(kit.list.get("w1").killedWhileQueued).toBeUndefined();
    expect((await kit.call("vibe_wait", { worker_id: "w1" })).text).toMatch(
      /^w1 "runner" \(fast\) was killed after /,
    );
  });

  it("a failing attempt is reported as failed with its message", async () => {
    const backend = new HeldBackend();
    kit = createKit({ backend });
    await kit.call("vibe_spawn", { brief: "x", label: "doomed" });
    (await backend.attempt(0)).fail("the model is unreachable");
    const waited = await kit.call("vibe_wait", { worker_id: "w1" });
    expect(waited.text).toContain('w1 "doomed" (fast) failed after');
    expect(waited.text).toContain("the model is unreachable");
  });

  it("unknown ids are errors that list the known ids", async () => {
    const backend = new HeldBackend();
    kit = createKit({ backend });
    const none = await kit.call("vibe_wait", { worker_id: "w7" });
    expect(none.isError).toBe(true);
    expect(none.error?.code).toBe("UNKNOWN_WORKER");
    expect(none.text).toContain("no worker has been spawned in this run");
    await kit.call("vibe_spawn", { brief: "x", label: "only" });
    for (const [tool, args] of [
      ["vibe_send", { worker_id: "w9", message: "m" }],
      ["vibe_wait", { worker_id: "w9" }],
      ["vibe_kill", { worker_id: "w9" }],
    ] as const) {
      const result = await kit.call(tool, args);
      expect(result.error?.code).toBe("UNKNOWN_WORKER");
      expect(result.text).toContain("no worker 'w9'; known workers: w1 (only, running)");
    }
  });

  it("an unknown id's error names the 20 most recent workers and counts the older ones", async () => {
    kit = createKit({ backend: new HeldBackend(), maxActive: 30 });
    for (let i = 1; i <= 25; i++) await kit.call("vibe_spawn", { brief: "x", label: `job ${i}` });
    const result = await kit.call("vibe_wait", { worker_id: "w99" });
    expect(result.error?.code).toBe("UNKNOWN_WORKER");
    expect(result.text).toContain("no worker 'w99'; known workers: w6 (job 6, queued), w7 (job 7, queued)");
    expect(result.text).toContain("w25 (job 25, queued) (and 5 older ones, w1 to w5).");
    expect(result.text).not.toContain("w5 (job 5");
  });

  it("vibe_list bounds each last result", async () => {
    const backend = new HeldBackend();
    kit = createKit({ backend });
    expect((await kit.call("vibe_list")).text).toBe("No workers yet. Start one with vibe_spawn.");
    await kit.call("vibe_spawn", { brief: "x", label: "talker" });
    (await backend.attempt(0)).answer("word ".repeat(2000));
    await reachStatus(kit.list, "w1", "done");
    const listed = await kit.call("vibe_list");
    expect(listed.text).toMatch(/w1 "talker" \(fast\) done \S+/);
    expect(listed.text).toContain("last result: word word");
    expect(listed.text).toMatch(/\n {2}… \d+ characters of the result left out here …\n {2}word word/);
    expect(listed.text.length).toBeLessThan(600);
  });

  it("vibe_wait and vibe_list cut a long result between characters, never inside an emoji", async () => {
    const backend = new HeldBackend();
    kit = createKit({ backend, concurrency: 4 });
    // Each start and end falls on either half of a pair somewhere in vibe_wait's or vibe_list's cuts.
    const results = ["", "a"].flatMap((start) =>
      ["", "b"].map((end) => `${start}${"😀".repeat(12_000)}${end}`),
    );
    for (const [index, result] of results.entries()) {
      await kit.call("vibe_spawn", { brief: "x", label: `emoji ${index}` });
      (await backend.attempt(index)).answer(result);
      await reachStatus(kit.list, `w${index + 1}`, "done");
    }
    const loneHalf = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    const listed = await kit.call("vibe_list");
    expect(listed.text).toContain("of the result left out here");
    expect(listed.text).not.toMatch(loneHalf);
    for (const index of results.keys()) {
      const waited = await kit.call("vibe_wait", { worker_id: `w${index + 1}` });
      expect(waited.text).toContain("of the result left out here");
      expect(waited.text).not.toMatch(loneHalf);
    }
  });

  it("a long progress line is cut to 200 characters between whole characters, never half an emoji", async () => {
    const backend = new HeldBackend();
    kit = createKit({ backend, concurrency: 4 });
    for (let index = 0; index < 4; index++) await kit.call("vibe_spawn", { brief: "x", label: `w ${index}` });
    const attempts = await Promise.all([0, 1, 2, 3].map((index) => backend.attempt(index)));
    const loneHalf = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    // Progress lines one letter apart: whichever parity the cut has, one of them puts it inside an emoji.
    for (const start of ["", "a"]) {
      for (const attempt of attempts) attempt.task.progress(`${start}${"😀".repeat(3000)}`);
      const activity = kit.list.get("w1").activity!;
      expect(activity.length).toBeLessThanOrEqual(200);
      expect(activity.endsWith("😀…")).toBe(true);
      const listed = await kit.call("vibe_list");
      expect(listed.text).not.toMatch(loneHalf);
    }
  });

  it("disposing the run kills running and queued workers", async () => {
    const backend = new HeldBackend();
    kit = createKit({ backend, concurrency: 1 });
    await kit.call("vibe_spawn", { brief: "a", label: "one" });
    await kit.call("vibe_spawn", { brief: "b", label: "two" });
    await backend.attempt(0);
    const report = await kit.run.dispose();
    expect(report.failed).toEqual([]);
    expect(backend.aborted).toEqual(["w1"]);
    expect(kit.list.list().map((worker) => worker.status)).toEqual(["killed", "killed"]);
    expect(kit.list.get("w2").lastResult).toBe("the run ended while it was queued");
    expect(kit.list.get("w2").killedWhileQueued).toBe(true);
    expect(() => kit?.list.spawn({ brief: "c", label: "late" })).toThrow(/the run has ended/);
  });

  it("turning vibe mode off mid-run (disposing the list) takes the five tools off the run and says so", async () => {
    const backend = new HeldBackend();
    kit = createKit({ backend, concurrency: 1 });
    const vibe = ["vibe_spawn", "vibe_send", "vibe_wait", "vibe_kill", "vibe_list"];
    await kit.call("vibe_spawn", { brief: "a", label: "one" });
    await kit.call("vibe_spawn", { brief: "b", label: "two" });
    await backend.attempt(0);
    const waiting = kit.call("vibe_wait", { worker_id: "w1", timeout_seconds: 30 });

    await kit.list.dispose();
    expect(kit.run.disposed).toBe(false);
    expect(kit.list.closed).toBe(true);
    for (const surface of ["main", surfaces.plan] as const) {
      const names = kit.registry.toolsFor(kit.run, surface).map((tool) => tool.name);
      expect(names.filter((name) => vibe.includes(name))).toEqual([]);
    }
    // The wait in flight tells why its worker stopped, and that is not the end of the run.
    expect((await waiting).text).toMatch(
      /^w1 "one" \(fast\) was killed after .+: vibe mode was turned off; it/,
    );
    expect(kit.list.get("w2").lastResult).toBe("vibe mode was turned off while it was queued");
    for (const tool of vibe) {
      const refused = await kit.call(tool, { worker_id: "w1", brief: "c", label: "late", message: "m" });
      expect(refused.error?.code).toBe("TOOL_NOT_WIRED");
      expect(refused.text).toBe(
        `${tool} is not available in this run: vibe mode is off (it was turned off and its workers were stopped); the operator can turn it on again to use background workers, until then do the work yourself`,
      );
    }
    expect(() => kit?.list.spawn({ brief: "c", label: "late" })).toThrow(
      /^no worker can start: vibe mode is off/,
    );

    // Turning it on again: a new list is wired, and the tools are back.
    const again = new HeldBackend();
    kit.run.wire(vibeListKey, createVibeList({ registry: kit.registry, run: kit.run, backend: again }));
    expect(kit.registry.toolsFor(kit.run, "main").map((tool) => tool.name)).toEqual(
      expect.arrayContaining(vibe),
    );
    expect((await kit.call("vibe_spawn", { brief: "c", label: "back" })).text).toContain(
      'Spawned w1 "back" (fast); it is running',
    );
    (await again.attempt(0)).answer("fine");
  });
});
