import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough, Writable } from "node:stream";
import { createRegistry, createRun, resultText } from "@tools/registry";
import { describe, expect, it, vi, type Mock } from "vitest";
import { askCard } from "../ask/ask-card.js";
import { buildCard } from "../card/card.js";
import { questionPortKey, targetSpaceKey } from "../port/question-port.js";
import { createAskUserTool } from "../tools/ask-user-tool.js";
import { pasteGapMs } from "./bracketed-paste.js";
import { TerminalQuestionPort, resizeQuietMs } from "./terminal-port.js";
import { rowsOf } from "./wrap-lines.js";

// Piped streams stand in for the terminal here, to check queueing and cancellation quickly; the
// real-terminal behaviour is in terminal-port.integration.test.ts.
function piped(attached = true) {
  const input = new PassThrough();
  const output = new PassThrough();
  let written = "";
  output.on("data", (chunk: Buffer) => {
    written += chunk.toString("utf8");
  });
  const port = new TerminalQuestionPort({ input, output, attached: () => attached });
  return { port, input, written: () => written };
}

async function until(what: string, check: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const target = { id: "t" };
const first = buildCard({ question: "First?", options: [{ label: "a" }, { label: "b" }] });
const second = buildCard({ question: "Second?", options: [{ label: "c" }, { label: "d" }] });

/** The signals a card listens for while it is up. */
const signals = ["SIGTERM", "SIGHUP", "SIGINT", "SIGCONT", "SIGTSTP"] as const;

/** Output marked as a TTY, so the port reads key by key as it does at a terminal; `listeners` counts what a card listens to. */
function keyed() {
  const input = new PassThrough();
  const output = Object.assign(new PassThrough(), { isTTY: true, columns: 80 });
  let written = "";
  output.on("data", (chunk: Buffer) => {
    written += chunk.toString("utf8");
  });
  const port = new TerminalQuestionPort({ input, output, attached: () => true });
  const listeners = () => [
    output.listenerCount("resize"),
    input.listenerCount("keypress"),
    process.listenerCount("exit"),
    ...signals.map((signal) => process.listenerCount(signal)),
  ];
  return { port, input, output, written: () => written, listeners };
}

/**
 * Runs `body` on a keyed terminal (its raw-mode settings recorded in `raw`) under a host that
 * listens for SIGTSTP and does not stop (a host that stops runs again before its listener
 * returns); the signal raised reaches the listeners at once, as a real one does in the next poll
 * phase.
 */
async function underHostThatDoesNotStop(
  body: (t: ReturnType<typeof keyed>, raw: boolean[], host: Mock<() => void>) => Promise<void>,
): Promise<void> {
  const t = keyed();
  const raw: boolean[] = [];
  Object.assign(t.input, { isTTY: true, setRawMode: (mode: boolean) => raw.push(mode) });
  const host = vi.fn<() => void>();
  process.on("SIGTSTP", host);
  const kill = vi.spyOn(process, "kill").mockImplementation((_pid, signal) => {
    process.emit("SIGTSTP", signal as "SIGTSTP");
    return true;
  });
  try {
    await body(t, raw, host);
  } finally {
    kill.mockRestore();
    process.removeListener("SIGTSTP", host);
  }
}

describe("TerminalQuestionPort (piped streams)", () => {
  it("is not attached when the streams are not TTYs", () => {
    expect(new TerminalQuestionPort({ input: new PassThrough(), output: new PassThrough() }).attached()).toBe(
      false,
    );
  });

  it("shows one card at a time: the second waits until the first is answered", async () => {
    const { port, input, written } = piped();
    const one = askCard(port, target, first);
    const two = askCard(port, target, second);
    await until("the first card", () => written().includes("First?"));
    expect(written()).not.toContain("Second?");
    await until("the prompt", () => written().endsWith("> "));
    input.write("2\n");
    await expect(one).resolves.toEqual({ kind: "answered", selected: ["b"] });
    await until("the second card", () => written().includes("Second?"));
    await until("the prompt", () => written().endsWith("> "));
    input.write("1\n");
    await expect(two).resolves.toEqual({ kind: "answered", selected: ["c"] });
  });

  it("says that the lines pasted after the reply went nowhere, before the answer is given", async () => {
    const { port, input, written } = piped();
    const asked = askCard(port, target, buildCard({ question: "Why?", timeoutMs: null }));
    await until("the prompt", () => written().endsWith("> "));
    input.write("first line\nsecond line\nthird line\n");
    await expect(asked).resolves.toEqual({ kind: "answered", selected: [], text: "first line" });
    expect(written()).toContain(
      '-> answered: "first line"\n  (2 more lines pasted after the reply went nowhere: a reply is one line)\n',
    );
    expect(written()).not.toContain("second line");
  });

  it("counts a paste ended by CRLF as a terminal sends it: the \\n after a return is no line", async () => {
    const alone = keyed();
    const one = askCard(alone.port, target, first);
    await until("the prompt", () => alone.written().includes("> "));
    alone.input.write("1\r\n");
    await expect(one).resolves.toEqual({ kind: "answered", selected: ["a"] });
    expect(alone.written()).not.toContain("went nowhere");
    const pasted = keyed();
    const two = askCard(pasted.port, target, first);
    await until("the prompt", () => pasted.written().includes("> "));
    pasted.input.write("1\r\nsecond\r\n");
    await expect(two).resolves.toEqual({ kind: "answered", selected: ["a"] });
    expect(pasted.written()).toContain("(1 more line pasted after the reply went nowhere");
  });

  it("says the card was taken down, not that the terminal closed, when the port is disposed", async () => {
    const { port, written } = piped();
    const one = askCard(port, target, first);
    await until("the prompt", () => written().endsWith("> "));
    port.dispose();
    await expect(one).resolves.toEqual({
      kind: "no_human",
      reached: "shown",
      reason: "the card was taken down (the run is ending)",
    });
    expect(written()).toContain("(no answer recorded: the card was taken down (the run is ending))");
    expect(written()).not.toContain("the terminal closed");
  });

  it("adds no note when the reply came alone", async () => {
    const { port, input, written } = piped();
    const asked = askCard(port, target, first);
    await until("the prompt", () => written().endsWith("> "));
    input.write("1\n");
    await expect(asked).resolves.toEqual({ kind: "answered", selected: ["a"] });
    expect(written()).not.toContain("went nowhere");
  });

  it("drops a queued card whose call is cancelled, without showing it", async () => {
    const { port, input, written } = piped();
    const one = askCard(port, target, first);
    const controller = new AbortController();
    const two = askCard(port, target, second, controller.signal);
    await until("the first card", () => written().includes("First?"));
    controller.abort(new Error("call cancelled"));
    await expect(two).resolves.toEqual({ kind: "cancelled", reason: "call cancelled" });
    await until("the prompt", () => written().endsWith("> "));
    input.write("1\n");
    await expect(one).resolves.toEqual({ kind: "answered", selected: ["a"] });
    expect(written()).not.toContain("Second?");
  });

  it("ignores lines typed before the card appeared", async () => {
    const { port, input, written } = piped();
    input.write("1\n");
    const one = askCard(port, target, first);
    await until("the type-ahead note", () =>
      written().includes("(ignored what was typed before the card appeared)"),
    );
    await until("the prompt", () => written().endsWith("> "));
    input.write("2\n");
    await expect(one).resolves.toEqual({ kind: "answered", selected: ["b"] });
  });

  it("never writes a secret card's answer back: its answered line says only that it was answered", async () => {
    const { port, input, written } = piped();
    const secret = buildCard({ question: "Password:", secret: true });
    const asked = askCard(port, target, secret);
    await until("the prompt", () => written().endsWith("> "));
    input.write("0: hunter2\n");
    await expect(asked).resolves.toEqual({ kind: "answered", selected: [], text: "0: hunter2" });
    expect(written()).toContain("-> answered (a secret, not shown)");
    expect(written()).not.toContain("hunter2");
  });

  it("reports no human when input ends while a card waits, and the card says it ended", async () => {
    const { port, input, written } = piped();
    const one = askCard(port, target, first);
    await until("the prompt", () => written().endsWith("> "));
    input.end();
    await expect(one).resolves.toEqual({
      kind: "no_human",
      reached: "shown",
      reason: "the terminal closed before an answer",
    });
    expect(written()).toMatch(/\n> \n {2}\(no answer recorded: the terminal closed before an answer\)\n$/);
  });
});

describe("TerminalQuestionPort: a queued card's time starts when it is drawn", () => {
  it("gives a parallel ask_user its whole timeout after the card ahead of it is answered", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ask-queue-"));
    const { port, input, written } = piped();
    const run = createRun({
      workingDirectory: dir,
      resources: [
        [questionPortKey, port],
        [targetSpaceKey, { id: "t" }],
      ],
    });
    try {
      const registry = createRegistry({ tools: [createAskUserTool({ timeoutMs: 1_000 })] });
      const started = Date.now();
      const one = registry.invoke(run, { tool: "ask_user", args: { question: "First?" } });
      const two = registry.invoke(run, { tool: "ask_user", args: { question: "Second?" } });
      await until("the first card", () => written().includes("First?"));
      await until("the prompt", () => written().endsWith("> "));
      // Answer the first card late: most of the second card's time passes while it is queued.
      await new Promise((resolve) => setTimeout(resolve, 700 - (Date.now() - started)));
      input.write("answer one\n");
      expect(resultText(await one)).toBe('The operator answered.\nTheir answer: "answer one"');
      await until("the second card", () => written().includes("Second?"));
      await until("the prompt", () => written().endsWith("> "));
      // Past the timeout counted from the call, well within it counted from the drawing.
      await new Promise((resolve) => setTimeout(resolve, 1_250 - (Date.now() - started)));
      input.write("answer two\n");
      const second = await two;
      expect(second.error).toBeUndefined();
      expect(resultText(second)).toBe('The operator answered.\nTheir answer: "answer two"');
    } finally {
      port.dispose();
      await run.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("bounds the wait in the queue too, and says the card was never shown", async () => {
    const { port, input, written } = piped();
    const one = askCard(port, target, first);
    const queued = buildCard({ question: "Second?", options: [{ label: "c" }], timeoutMs: 150 });
    await expect(askCard(port, target, queued)).resolves.toEqual({
      kind: "timed_out",
      timeoutMs: 150,
      neverShown: true,
    });
    expect(written()).not.toContain("Second?");
    await until("the prompt", () => written().endsWith("> "));
    input.write("1\n");
    await expect(one).resolves.toEqual({ kind: "answered", selected: ["a"] });
    expect(written()).not.toContain("Second?");
  });
});

describe("TerminalQuestionPort on a terminal: bracketed paste and resize are set up and undone", () => {
  const pasteOn = "\u001b[?2004h";
  const pasteOff = "\u001b[?2004l";
  const freeText = buildCard({ question: "Why?", timeoutMs: null });

  it.each([
    ["an answer", (t: ReturnType<typeof keyed>) => t.input.write("1\r"), "answered"],
    ["Ctrl+C", (t: ReturnType<typeof keyed>) => t.input.write("\u0003"), "declined"],
    ["the end of input", (t: ReturnType<typeof keyed>) => t.input.end(), "no_human"],
    ["the port disposed", (t: ReturnType<typeof keyed>) => t.port.dispose(), "no_human"],
  ] as const)(
    "turns bracketed paste off and stops listening when the card ends by %s",
    async (_, end, kind) => {
      const t = keyed();
      // Keypress decoding, once set up on the input, stays: count from after the first card.
      const before = t.listeners();
      const asked = askCard(t.port, target, first);
      await until("the prompt", () => t.written().includes("> "));
      expect(t.written().split(pasteOn)).toHaveLength(2);
      expect(t.output.listenerCount("resize")).toBeGreaterThan(before[0] ?? 0);
      // A signal that would end the process turns paste mode off first, while the card is up.
      expect(["SIGTERM", "SIGHUP", "SIGINT"].map((signal) => process.listenerCount(signal))).toEqual(
        before.slice(3, 6).map((count) => count + 1),
      );
      end(t);
      expect((await asked).kind).toBe(kind);
      expect(t.written().split(pasteOff)).toHaveLength(2);
      expect(t.written().lastIndexOf(pasteOff)).toBeGreaterThan(t.written().lastIndexOf(pasteOn));
      expect(t.output.listenerCount("resize")).toBe(before[0]);
      expect(t.listeners().slice(2)).toEqual(before.slice(2));
      // Readline's own keypress listener is gone too; only the decoder it set up stays.
      expect(t.input.listenerCount("keypress")).toBeLessThanOrEqual(1);
    },
  );

  it("takes the card down, paste mode off and nothing listening, when drawing it throws", async () => {
    const t = keyed();
    const before = t.listeners();
    const request = { id: "c1", target, card: first, text: "First?\n" };
    const failing = {
      shown: () => {
        throw new Error("the asker failed");
      },
    };
    await expect(t.port.ask(request, new AbortController().signal, failing)).rejects.toThrow(
      "the asker failed",
    );
    expect(t.written().split(pasteOff)).toHaveLength(2);
    expect(t.written().lastIndexOf(pasteOff)).toBeGreaterThan(t.written().lastIndexOf(pasteOn));
    expect([t.output.listenerCount("resize"), process.listenerCount("exit")]).toEqual([before[0], before[2]]);
    // The next card reads the reply alone: the failed one took nothing of it.
    const next = askCard(t.port, target, second);
    await until("the next prompt", () => t.written().split("Second?")[1]?.includes("> ") === true);
    t.input.write("2\r");
    await expect(next).resolves.toEqual({ kind: "answered", selected: ["d"] });
    expect(t.written().match(/-> answered/g)).toHaveLength(1);
    expect(t.written().split(pasteOff)).toHaveLength(3);
  });

  it("moves up over the lines typed before the card appeared when it redraws after a resize", async () => {
    const t = keyed();
    // Two lines typed ahead: readline shows each under the card, then the card's note.
    t.input.write("3\r4\r");
    const asked = askCard(t.port, target, first);
    await until(
      "the prompt",
      () => t.written().includes("(ignored what was typed") && t.written().includes("> "),
    );
    const drawnFrom = t.written().indexOf("-- Question");
    // Every row from the card's first to the prompt's ends with a line break: none is wider than 80.
    const rowsAbove = (t.written().slice(drawnFrom).match(/\n/g) ?? []).length;
    const before = t.written().length;
    t.output.emit("resize");
    await until("the redraw", () => t.written().slice(before).includes("-- Question"));
    // Each row up to the card's first is cleared, one at a time, before the card is drawn again.
    const cleared = t.written().slice(before).split("-- Question")[0] ?? "";
    expect(cleared.split("\u001b[2K\u001b[A")).toHaveLength(rowsAbove + 1);
    t.input.write("1\r");
    await expect(asked).resolves.toEqual({ kind: "answered", selected: ["a"] });
  });

  it("draws the card again once for a burst of resizes (a window's edge being dragged)", async () => {
    const t = keyed();
    const asked = askCard(t.port, target, first);
    await until("the prompt", () => t.written().includes("> "));
    const before = t.written().length;
    for (const columns of [79, 70, 60, 50, 40]) {
      t.output.columns = columns;
      t.output.emit("resize");
    }
    await until("the redraw", () => t.written().slice(before).includes("First?"));
    // Long enough for any other redraw of the burst to have been written.
    await new Promise((resolve) => setTimeout(resolve, resizeQuietMs * 4));
    expect(t.written().slice(before).split("First?")).toHaveLength(2);
    t.input.write("1\r");
    await expect(asked).resolves.toEqual({ kind: "answered", selected: ["a"] });
  });

  it("on a SIGTERM the host listens for, turns paste mode off and leaves the rest to the host", async () => {
    const t = keyed();
    const host = vi.fn();
    process.on("SIGTERM", host);
    const kill = vi.spyOn(process, "kill").mockImplementation(() => true);
    try {
      const before = t.listeners();
      const asked = askCard(t.port, target, first);
      await until("the prompt", () => t.written().includes("> "));
      process.emit("SIGTERM", "SIGTERM");
      expect(host).toHaveBeenCalledTimes(1);
      // Not re-raised: with a listener of its own, Node would not have ended the process either.
      expect(kill).not.toHaveBeenCalled();
      expect(t.written().lastIndexOf(pasteOff)).toBeGreaterThan(t.written().lastIndexOf(pasteOn));
      expect(t.listeners().slice(2)).toEqual(before.slice(2));
      // The host may carry on: the card still takes its answer.
      t.input.write("1\r");
      await expect(asked).resolves.toEqual({ kind: "answered", selected: ["a"] });
      expect(t.written().split(pasteOn)).toHaveLength(2);
    } finally {
      kill.mockRestore();
      process.removeListener("SIGTERM", host);
    }
  });

  it("on a SIGHUP nobody else listens for, turns paste mode off and raw mode off, then re-raises it", async () => {
    // The real signal is sent in terminal-port.integration.test.ts; here process.kill is caught.
    const t = keyed();
    const raw: boolean[] = [];
    Object.assign(t.input, { isTTY: true, setRawMode: (mode: boolean) => raw.push(mode) });
    const kill = vi.spyOn(process, "kill").mockImplementation(() => true);
    try {
      expect(process.listenerCount("SIGHUP")).toBe(0);
      const asked = askCard(t.port, target, first);
      await until("the prompt", () => t.written().includes("> "));
      // Typed, then the cursor moved two characters back into the line.
      const left = "\u001b[1D";
      t.input.write("a no\u001b[D\u001b[D");
      await until("the cursor moved", () => t.written().endsWith(left));
      process.emit("SIGHUP", "SIGHUP");
      expect(kill.mock.calls).toEqual([[process.pid, "SIGHUP"]]);
      expect(raw.at(-1)).toBe(false);
      // Back to the line's end, then on a line of its own that the card was cut off: never a bare
      // line break where the cursor was.
      const drawn = t.written().replaceAll(pasteOff, "");
      expect(drawn.slice(drawn.lastIndexOf("a no"))).toBe(
        `a no${left}${left}\u001b[2C\n  (no answer recorded: the process was ended by SIGHUP before an answer)\n`,
      );
      expect(t.written().lastIndexOf(pasteOff)).toBeGreaterThan(t.written().lastIndexOf(pasteOn));
      expect(process.listenerCount("SIGHUP")).toBe(0);
      t.port.dispose();
      await asked;
    } finally {
      kill.mockRestore();
    }
  });

  it("on a SIGTSTP from outside nobody else listens for, gives the terminal back, stops, and draws the card again on SIGCONT", async () => {
    // The real signal is sent in terminal-port.integration.test.ts; here process.kill is caught.
    const t = keyed();
    const raw: boolean[] = [];
    Object.assign(t.input, { isTTY: true, setRawMode: (mode: boolean) => raw.push(mode) });
    const kill = vi.spyOn(process, "kill").mockImplementation(() => true);
    try {
      const asked = askCard(t.port, target, first);
      await until("the prompt", () => t.written().includes("> "));
      process.emit("SIGTSTP", "SIGTSTP");
      // Stopped by the signal's default action: the card's listener is gone when it is raised again.
      expect(kill.mock.calls).toEqual([[process.pid, "SIGTSTP"]]);
      expect(process.listenerCount("SIGTSTP")).toBe(0);
      expect(raw.at(-1)).toBe(false);
      expect(t.written().lastIndexOf(pasteOff)).toBeGreaterThan(t.written().lastIndexOf(pasteOn));
      const before = t.written().length;
      process.emit("SIGCONT", "SIGCONT");
      expect(raw.at(-1)).toBe(true);
      expect(t.written().slice(before)).toContain(pasteOn);
      expect(t.written().slice(before)).toContain("First?");
      expect(process.listenerCount("SIGTSTP")).toBe(1);
      t.input.write("2\r");
      await expect(asked).resolves.toEqual({ kind: "answered", selected: ["b"] });
      expect(process.listenerCount("SIGTSTP")).toBe(0);
    } finally {
      kill.mockRestore();
    }
  });

  it.each([
    ["a SIGTSTP from outside", (_t: ReturnType<typeof keyed>) => process.emit("SIGTSTP", "SIGTSTP")],
    ["Ctrl+Z", (t: ReturnType<typeof keyed>) => t.input.write("\u001a")],
  ] as const)(
    "carries on with the terminal set up again when %s stops nothing (the kernel drops it for an orphaned process group)",
    async (_what, stop) => {
      // A process run directly by tmux, ssh -t or docker run -it: the stop signal is dropped, no SIGCONT ever comes.
      const t = keyed();
      const raw: boolean[] = [];
      Object.assign(t.input, { isTTY: true, setRawMode: (mode: boolean) => raw.push(mode) });
      const kill = vi.spyOn(process, "kill").mockImplementation(() => true);
      try {
        const asked = askCard(t.port, target, first);
        await until("the prompt", () => t.written().includes("> "));
        t.input.write("2");
        // Readline puts the cursor after the prompt (column 3) before echoing what is typed.
        const typed = () => t.written().replaceAll("\u001b[3G", "");
        await until("the typed line", () => typed().endsWith("> 2"));
        stop(t);
        await until("the stop", () => kill.mock.calls.length === 1);
        expect(raw.at(-1)).toBe(false);
        // Key by key again, in paste mode, the card drawn anew with the typed line; listening as before.
        await until("raw mode on again", () => raw.at(-1) === true);
        expect(t.written().lastIndexOf(pasteOn)).toBeGreaterThan(t.written().lastIndexOf(pasteOff));
        await until("the card drawn again", () => t.written().split("First?").length === 3);
        expect(typed().slice(typed().lastIndexOf("First?"))).toContain("> 2");
        expect(process.listenerCount("SIGCONT")).toBe(0);
        expect(process.listenerCount("SIGTSTP")).toBe(1);
        t.input.write("\r");
        await expect(asked).resolves.toEqual({ kind: "answered", selected: ["b"] });
        expect(process.listenerCount("SIGTSTP")).toBe(0);
      } finally {
        kill.mockRestore();
      }
    },
  );

  it("listens for one SIGCONT however often Ctrl+Z stops nothing (the host takes SIGTSTP): drawn again once, nothing left listening", async () => {
    const t = keyed();
    const host = vi.fn();
    process.on("SIGTSTP", host);
    const kill = vi.spyOn(process, "kill").mockImplementation(() => true);
    try {
      const asked = askCard(t.port, target, first);
      await until("the prompt", () => t.written().includes("> "));
      t.input.write("\u001a");
      t.input.write("\u001a");
      await until("both stops", () => kill.mock.calls.length === 2);
      expect(process.listenerCount("SIGCONT")).toBe(1);
      process.emit("SIGCONT", "SIGCONT");
      expect(t.written().split("First?")).toHaveLength(3);
      t.input.write("1\r");
      await expect(asked).resolves.toEqual({ kind: "answered", selected: ["a"] });
      expect(process.listenerCount("SIGCONT")).toBe(0);
      expect(process.listeners("SIGTSTP")).toEqual([host]);
    } finally {
      kill.mockRestore();
      process.removeListener("SIGTSTP", host);
    }
  });

  it("sets the terminal up again and draws the card anew once a host that listens for SIGTSTP has not stopped on Ctrl+Z", async () => {
    await underHostThatDoesNotStop(async (t, raw, host) => {
      const asked = askCard(t.port, target, first);
      await until("the prompt", () => t.written().includes("> "));
      t.input.write("2");
      await until("the typed line", () => t.written().replaceAll("\u001b[3G", "").endsWith("> 2"));
      t.input.write("\u001a");
      await until("the host's listener", () => host.mock.calls.length === 1);
      // Not stopped yet: the host may still stop the process a moment later.
      expect(raw.at(-1)).toBe(false);
      await until("the card set up again", () => raw.at(-1) === true);
      // Raw mode on again (a cooked terminal would echo keys and send Ctrl+C as a SIGINT that kills
      // the process), the card drawn anew with the typed line; paste mode waits for the next key
      // (the host may still stop the process, and the shell would get it).
      expect(t.written().lastIndexOf(pasteOn)).toBeLessThan(t.written().lastIndexOf(pasteOff));
      expect(t.written().split("First?")).toHaveLength(3);
      // A SIGCONT still to come (the host stopped the process later still) sets it up and draws it again.
      expect(process.listenerCount("SIGCONT")).toBe(1);
      // A paste the terminal sent unmarked, in one read: read as a paste, its line break submits nothing.
      t.input.write("1\r2");
      await until(
        "paste mode on again",
        () => t.written().lastIndexOf(pasteOn) > t.written().lastIndexOf(pasteOff),
      );
      // As drawn, with the escape sequences (paste mode, cursor moves) left out.
      // eslint-disable-next-line no-control-regex -- the escape sequences to leave out
      const drawn = () => t.written().replace(/\u001b\[[0-9;?]*[A-Za-z]/g, "");
      await until("the pasted line", () => drawn().endsWith("> 21 2"));
      // A paste longer than one read: the reads that follow it at once are the paste's too.
      t.input.write("3\r4");
      await until("the rest of the paste", () => drawn().endsWith("> 21 23 4"));
      // Once the reads have stopped for unmarkedPasteGapMs, the paste is over: Ctrl+U empties the
      // line; typed keys, one a read, submit.
      await until("the paste over", () => t.input.listenerCount("data") === 1);
      t.input.write("\u0015");
      t.input.write("2");
      t.input.write("\r");
      await expect(asked).resolves.toEqual({ kind: "answered", selected: ["b"] });
      expect(t.input.listenerCount("data")).toBe(1);
      expect(process.listenerCount("SIGCONT")).toBe(0);
      expect(process.listeners("SIGTSTP")).toEqual([host]);
    });
  });

  it("declines on Ctrl+C pressed right after a paste sent unmarked: a control key alone ends the paste", async () => {
    await underHostThatDoesNotStop(async (t, raw) => {
      const asked = askCard(t.port, target, first);
      await until("the prompt", () => t.written().includes("> "));
      t.input.write("\u001a");
      await until("the card set up again", () => raw.length > 2 && raw.at(-1) === true);
      // The paste, then Ctrl+C well within unmarkedPasteGapMs of it (the same tick).
      t.input.write("1\r2");
      t.input.write("\u0003");
      await expect(asked).resolves.toEqual({ kind: "declined", reason: "dismissed with Ctrl+C" });
    });
  });

  it("draws the whole card again on a resize when the terminal does not know its height (0 rows)", async () => {
    const t = keyed();
    Object.assign(t.output, { rows: 0 });
    const asked = askCard(t.port, target, first);
    await until("the prompt", () => t.written().includes("> "));
    const before = t.written().length;
    t.output.emit("resize");
    // The rows cleared and the card drawn again come in one write.
    await until("the redraw", () => t.written().slice(before).includes("\u001b[2K"));
    expect(t.written().slice(before)).toContain("First?");
    expect(t.written().slice(before)).not.toContain("not shown");
    t.input.write("1\r");
    await expect(asked).resolves.toEqual({ kind: "answered", selected: ["a"] });
  });

  it("fits the card's end, the refused replies under it and the prompt in the screen on a resize", async () => {
    const t = keyed();
    Object.assign(t.output, { rows: 12 });
    const asked = askCard(t.port, target, first);
    await until("the prompt", () => t.written().includes("> "));
    // Seven refused replies: their lines and notes alone (14 rows) are taller than the screen.
    for (let reply = 1; reply <= 7; reply++) {
      t.input.write(`9${reply}\r`);
      await until(`refusal ${reply}`, () => t.written().split("  ! ").length === reply + 1);
    }
    const before = t.written().length;
    t.output.emit("resize");
    await until("the redraw", () => t.written().slice(before).includes("lines above not shown"));
    // From the first row drawn again (after the rows cleared) to the prompt under it.
    const redraw = t.written().slice(before);
    const drawn = redraw
      .slice(redraw.lastIndexOf("\u001b[2K\r") + "\u001b[2K\r".length)
      .replaceAll("\u001b[K", "");
    const rows = drawn.slice(0, drawn.lastIndexOf("\n") + 1);
    // The prompt's row and a spare one under it.
    expect(rowsOf(rows, 80)).toBeLessThanOrEqual(12 - 2);
    expect(rows).toMatch(/^… \(\d+ lines above not shown: make the window taller to see the whole card\)\n/);
    // The latest refusal is the last thing above the prompt.
    expect(rows).toMatch(/> 97\n {2}! [^\n]+\n$/);
    t.input.write("1\r");
    await expect(asked).resolves.toEqual({ kind: "answered", selected: ["a"] });
  });

  it.each([
    [3, 40, "… (15 lines above not shown)\n"],
    [2, 40, ""],
    [1, 80, ""],
  ] as const)(
    "draws nothing past the screen on a resize to %i rows of %i columns: the saying of what is cut shortened or left out",
    async (height, width, expected) => {
      const t = keyed();
      const asked = askCard(t.port, target, first);
      await until("the prompt", () => t.written().includes("> "));
      Object.assign(t.output, { rows: height, columns: width });
      const before = t.written().length;
      t.output.emit("resize");
      // The redraw ends with readline drawing the prompt again.
      await until("the redraw", () => t.written().slice(before).includes("\u001b[2K\r"));
      // Readline draws the prompt again and puts the cursor after it (column 3).
      await until("the prompt drawn again", () => t.written().endsWith("> \u001b[3G"));
      const redraw = t.written().slice(before);
      const drawn = redraw
        .slice(redraw.lastIndexOf("\u001b[2K\r") + "\u001b[2K\r".length)
        .replaceAll("\u001b[K", "");
      // The prompt's row and a spare one, and what is left above them.
      expect(drawn.slice(0, drawn.lastIndexOf("\n") + 1)).toBe(expected);
      t.input.write("1\r");
      await expect(asked).resolves.toEqual({ kind: "answered", selected: ["a"] });
    },
  );

  it("leaves a SIGTSTP the host listens for to the host: the card stays up", async () => {
    const t = keyed();
    const host = vi.fn();
    process.on("SIGTSTP", host);
    const kill = vi.spyOn(process, "kill").mockImplementation(() => true);
    try {
      const asked = askCard(t.port, target, first);
      await until("the prompt", () => t.written().includes("> "));
      const before = t.written().length;
      process.emit("SIGTSTP", "SIGTSTP");
      expect(host).toHaveBeenCalledTimes(1);
      expect(kill).not.toHaveBeenCalled();
      expect(t.written().slice(before)).not.toContain(pasteOff);
      t.input.write("1\r");
      await expect(asked).resolves.toEqual({ kind: "answered", selected: ["a"] });
    } finally {
      kill.mockRestore();
      process.removeListener("SIGTSTP", host);
    }
  });

  it("writes the Ctrl+C decline on a line of its own, after the whole line being typed", async () => {
    const t = keyed();
    const asked = askCard(t.port, target, buildCard({ question: "Why?", timeoutMs: null }));
    await until("the prompt", () => t.written().includes("> "));
    // Typed, then the cursor moved two characters back into the line.
    const left = "\u001b[1D";
    t.input.write("a reason\u001b[D\u001b[D");
    await until("the cursor moved", () => t.written().endsWith(left));
    t.input.write("\u0003");
    await expect(asked).resolves.toEqual({ kind: "declined", reason: "dismissed with Ctrl+C" });
    // Back to the line's end (two columns right), then a line break before the note (paste mode
    // turned off between them writes nothing on the screen).
    const drawn = t.written().replaceAll(pasteOff, "");
    expect(drawn.slice(drawn.lastIndexOf("a reason"))).toBe(
      `a reason${left}${left}\u001b[2C\n  -> declined (Ctrl+C)\n`,
    );
  });

  it("turns bracketed paste off when the card is taken down by its signal", async () => {
    const t = keyed();
    const controller = new AbortController();
    const asked = askCard(t.port, target, first, controller.signal);
    await until("the prompt", () => t.written().includes("> "));
    controller.abort(new Error("call cancelled"));
    await expect(asked).resolves.toEqual({ kind: "cancelled", reason: "call cancelled" });
    expect(t.written().split(pasteOff)).toHaveLength(2);
    expect(t.written().indexOf(pasteOff)).toBeGreaterThan(t.written().indexOf(pasteOn));
    expect(t.written()).toContain("(no answer recorded: cancelled by the caller)");
    expect(t.output.listenerCount("resize")).toBe(0);
  });

  it("folds the note a card ends with at spaces to a narrow terminal's width, as the card is", async () => {
    const t = keyed();
    t.output.columns = 40;
    const controller = new AbortController();
    const asked = askCard(t.port, target, first, controller.signal);
    await until("the prompt", () => t.written().includes("> "));
    controller.abort(new Error("call cancelled"));
    await expect(asked).resolves.toEqual({ kind: "cancelled", reason: "call cancelled" });
    // Before: one line of 47 columns, which the terminal broke after "cal".
    expect(t.written().replaceAll(pasteOff, "")).toContain(
      "\n  (no answer recorded: cancelled by the\n  caller)\n",
    );
  });

  it("reads a paste as text: its line breaks are spaces and never submit, its markers and keys are not kept", async () => {
    const t = keyed();
    const asked = askCard(t.port, target, freeText);
    await until("the prompt", () => t.written().includes("> "));
    // Typed "see: ", then a paste with CRLF line breaks, a blank line, a trailing newline, a
    // backspace, an arrow key's escape and Ctrl+C's byte, then typed " ok" and Enter.
    t.input.write("see: ");
    t.input.write("\u001b[200~first line\r\nsecond\r\rthird\u007f\u001b[A\u0003\r\u001b[201~");
    await new Promise((resolve) => setImmediate(resolve));
    expect(t.written()).not.toContain("-> answered");
    t.input.write(" ok\r");
    await expect(asked).resolves.toEqual({
      kind: "answered",
      selected: [],
      text: "see: first line second third ok",
    });
    expect(t.written()).toContain('-> answered: "see: first line second third ok"\n');
    expect(t.written()).not.toContain("went nowhere");
  });

  it("does not undo or redo on the bytes of Ctrl+_ and Ctrl+^ inside a paste", async () => {
    const t = keyed();
    const asked = askCard(t.port, target, freeText);
    await until("the prompt", () => t.written().includes("> "));
    t.input.write("typed ");
    await new Promise((resolve) => setImmediate(resolve));
    t.input.write("\u001b[200~abc\u001fdef\u001e\u001b[201~");
    await new Promise((resolve) => setImmediate(resolve));
    t.input.write("\r");
    await expect(asked).resolves.toEqual({ kind: "answered", selected: [], text: "typed abcdef" });
  });

  it.each([
    ["Enter submits the reply", "\r", { kind: "answered", selected: [], text: "a note" }],
    ["Ctrl+C declines", "\u0003", { kind: "declined", reason: "dismissed with Ctrl+C" }],
  ] as const)(
    "ends a paste whose end marker never comes once its burst is over: then %s",
    async (_, key, reply) => {
      const t = keyed();
      const asked = askCard(t.port, target, freeText);
      await until("the prompt", () => t.written().includes("> "));
      // A terminal that sends the start marker only: the paste's line break is still not a submit.
      t.input.write("\u001b[200~a note\r");
      await new Promise((resolve) => setImmediate(resolve));
      expect(t.written()).not.toContain("-> ");
      // The human, a while after the paste, presses a key: it is typed, not pasted.
      await new Promise((resolve) => setTimeout(resolve, pasteGapMs + 200));
      t.input.write(key);
      await expect(asked).resolves.toEqual(reply);
      expect(t.written().split(pasteOff)).toHaveLength(2);
    },
  );

  it("keeps a pasted secret exactly: the newline copied with it is dropped, not a space", async () => {
    const t = keyed();
    const asked = askCard(
      t.port,
      target,
      buildCard({ question: "Password:", secret: true, timeoutMs: null }),
    );
    await until("the prompt", () => t.written().includes("> "));
    t.input.write("\u001b[200~ hunter2 \n\u001b[201~");
    await new Promise((resolve) => setImmediate(resolve));
    t.input.write("\r");
    await expect(asked).resolves.toEqual({ kind: "answered", selected: [], text: " hunter2 " });
    expect(t.written()).not.toContain("hunter2");
  });
});

describe("TerminalQuestionPort: the terminal goes away while a card is up", () => {
  // A terminal that went away (its tmux server or ssh session killed) cannot be made to fail at a
  // chosen step, so these streams fail as a tty's do then: setting raw mode emits an EIO 'error'
  // on the input (from readline's own close too), and every write fails with EIO, emitted as
  // 'error' on the output a tick later. The real terminal is in terminal-port.integration.test.ts.
  function gone() {
    const eio = (syscall: string) => Object.assign(new Error(`${syscall} EIO`), { code: "EIO", syscall });
    const state = { rawFails: false, writeFails: false };
    const raw: boolean[] = [];
    const input = Object.assign(new PassThrough(), {
      isTTY: true,
      setRawMode(mode: boolean) {
        if (state.rawFails) input.emit("error", eio("setRawMode"));
        else raw.push(mode);
        return input;
      },
    });
    let written = "";
    const output = Object.assign(
      new Writable({
        write(chunk: Buffer, _encoding, callback) {
          if (state.writeFails) return callback(eio("write"));
          written += chunk.toString("utf8");
          callback();
        },
        // As process.stdout's: an error does not end the stream, so each later write fails again.
        destroy(error, callback) {
          callback(error);
          (this as unknown as { _undestroy(): void })._undestroy();
        },
      }),
      { isTTY: true, columns: 80 },
    );
    const port = new TerminalQuestionPort({ input, output, attached: () => true });
    const errorListeners = () => [input.listenerCount("error"), output.listenerCount("error")];
    return { port, input, output, state, raw, written: () => written, errorListeners };
  }
  const closed = { kind: "no_human", reached: "shown", reason: "the terminal closed before an answer" };
  const neverShown = { kind: "no_human", reason: "the terminal closed before the card was shown" };
  const nextImmediate = () => new Promise((resolve) => setImmediate(resolve));

  it("ends as the terminal closing when setting raw mode back fails at the end of input, with nothing left listening", async () => {
    const t = gone();
    const hostErrors: unknown[] = [];
    const before = [...t.errorListeners(), ...signals.map((signal) => process.listenerCount(signal))];
    const asked = askCard(t.port, target, first);
    await until("the prompt", () => t.written().includes("> "));
    t.state.rawFails = true;
    t.state.writeFails = true;
    // Before: readline's close emitted "setRawMode EIO" with nobody listening, crashing the host.
    t.input.end();
    await expect(asked).resolves.toEqual(closed);
    await nextImmediate();
    await nextImmediate();
    expect([...t.errorListeners(), ...signals.map((signal) => process.listenerCount(signal))]).toEqual(
      before,
    );
    // After the card the host's streams are as it left them: their errors are the host's again.
    t.output.on("error", (error) => hostErrors.push(error));
    t.output.write("the host's own line\n");
    await nextImmediate();
    expect(hostErrors).toHaveLength(1);
  });

  it("ends as the terminal closing when a write fails while the card is up", async () => {
    const t = gone();
    const before = t.errorListeners();
    const asked = askCard(t.port, target, first);
    await until("the prompt", () => t.written().includes("> "));
    t.state.writeFails = true;
    // Readline echoes the key: that write fails.
    t.input.write("2");
    await expect(asked).resolves.toEqual(closed);
    // Typing on goes nowhere: the card's readline is closed, and its input no longer read by it.
    t.input.write("\r");
    await nextImmediate();
    await nextImmediate();
    expect(t.errorListeners()).toEqual(before);
    expect(t.input.listenerCount("keypress")).toBeLessThanOrEqual(1);
  });

  it("still dies by a SIGHUP nobody else listens for when setting raw mode off then fails", async () => {
    // The real signal is sent in terminal-port.integration.test.ts; here process.kill is caught.
    const t = gone();
    const kill = vi.spyOn(process, "kill").mockImplementation(() => true);
    try {
      const asked = askCard(t.port, target, first);
      await until("the prompt", () => t.written().includes("> "));
      t.state.rawFails = true;
      t.state.writeFails = true;
      process.emit("SIGHUP", "SIGHUP");
      expect(kill.mock.calls).toEqual([[process.pid, "SIGHUP"]]);
      await expect(asked).resolves.toEqual(closed);
      expect(process.listenerCount("SIGHUP")).toBe(0);
    } finally {
      kill.mockRestore();
    }
  });

  it("ends a card queued behind one the terminal closed under at once, never shown", async () => {
    const t = gone();
    const one = askCard(t.port, target, first);
    const two = askCard(t.port, target, second);
    await until("the prompt", () => t.written().includes("> "));
    t.input.end();
    await expect(one).resolves.toEqual(closed);
    await expect(two).resolves.toEqual(neverShown);
    expect(t.written()).not.toContain("Second?");
  });

  it("ends a card opened on a terminal already gone as never shown, leaving nothing of readline listening", async () => {
    const t = gone();
    t.state.rawFails = true;
    const before = [...t.errorListeners(), t.input.listenerCount("keypress"), t.input.listenerCount("end")];
    // Before: readline, setting raw mode as it is made, threw the EIO (the card failed as the port
    // failing, ASK_PORT_FAILED) and left its listeners on the input.
    await expect(askCard(t.port, target, first)).resolves.toEqual(neverShown);
    await expect(askCard(t.port, target, second)).resolves.toEqual(neverShown);
    expect(t.written()).toBe("");
    await nextImmediate();
    expect([...t.errorListeners(), t.input.listenerCount("keypress"), t.input.listenerCount("end")]).toEqual(
      before,
    );
    // A host that handles its input's errors itself gets them, and nothing throws them at it.
    const hostErrors: unknown[] = [];
    t.input.on("error", (error) => hostErrors.push(error));
    expect(() => t.input.setRawMode(true)).not.toThrow();
    expect(hostErrors).toHaveLength(1);
  });
});
