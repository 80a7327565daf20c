import { afterEach, describe, expect, it, vi } from "vitest";
import { ToolsError, errorMessage } from "@tools/registry";
import { buildCard } from "../card/card.js";
import type { CardEvents, QuestionPort } from "../port/question-port.js";
import { MemoryQuestionPort } from "../ports/memory-port.js";
import { askCard } from "./ask-card.js";

const target = { id: "conversation-1" };
const card = buildCard({
  question: "Which database?",
  options: [{ label: "Postgres" }, { label: "SQLite" }, { label: "MySQL" }],
  allowFreeText: true,
  multiSelect: true,
});

describe("askCard on the in-memory port", () => {
  it("returns the answer: labels and text", async () => {
    const port = new MemoryQuestionPort();
    const outcome = askCard(port, target, card);
    const shown = await port.nextCard();
    expect(shown.target).toEqual(target);
    expect(shown.text).toContain("  3. MySQL");
    shown.reply("1,3: both, for now");
    await expect(outcome).resolves.toEqual({
      kind: "answered",
      selected: ["Postgres", "MySQL"],
      text: "both, for now",
    });
    expect(shown.state).toBe("replied");
  });

  it("returns declined, with the reason", async () => {
    const port = new MemoryQuestionPort({ respond: (shown) => shown.decline("not my call") });
    await expect(askCard(port, target, card)).resolves.toEqual({ kind: "declined", reason: "not my call" });
  });

  it("times out with the card's timeout and takes the card down", async () => {
    const port = new MemoryQuestionPort();
    const outcome = await askCard(port, target, buildCard({ question: "Why?", timeoutMs: 30 }));
    expect(outcome).toEqual({ kind: "timed_out", timeoutMs: 30 });
    expect(port.shown[0]?.state).toBe("taken down");
    expect(port.shown[0]?.text).toContain("Waiting up to 30 ms");
  });

  it("fails at once with nobody attached, showing nothing", async () => {
    const port = new MemoryQuestionPort({ attached: false });
    await expect(askCard(port, target, card)).resolves.toEqual({ kind: "no_human" });
    expect(port.shown).toHaveLength(0);
  });

  it("reports no human when the human leaves while the card waits", async () => {
    const port = new MemoryQuestionPort();
    const outcome = askCard(port, target, card);
    await port.nextCard();
    port.detach();
    await expect(outcome).resolves.toEqual({
      kind: "no_human",
      reached: "shown",
      reason: "the human left before answering",
    });
  });

  it("is cancelled by the caller's signal", async () => {
    const port = new MemoryQuestionPort();
    const controller = new AbortController();
    const outcome = askCard(port, target, card, controller.signal);
    await port.nextCard();
    controller.abort(new Error("run ended"));
    await expect(outcome).resolves.toEqual({ kind: "cancelled", reason: "run ended" });
  });
});

describe("askCard with a misbehaving port", () => {
  it("settles on timeout even when the port ignores its signal (fake port that hangs)", async () => {
    const hangs: QuestionPort = { attached: () => true, ask: () => new Promise(() => undefined) };
    await expect(askCard(hangs, target, buildCard({ question: "Why?", timeoutMs: 20 }))).resolves.toEqual({
      kind: "timed_out",
      timeoutMs: 20,
    });
  });

  it("refuses an empty answer instead of reporting it as answered (fake port that replies empty)", async () => {
    const empty: QuestionPort = {
      attached: () => true,
      ask: () => Promise.resolve({ kind: "answer", selected: [] }),
    };
    await expect(askCard(empty, target, card)).rejects.toMatchObject({ code: "ASK_INVALID_REPLY" });
  });

  it("refuses a reply that is no card reply, naming the shape, not as a port that failed to show it (fake port that resolves with the typed line)", async () => {
    const typedLine = {
      attached: () => true,
      ask: () => Promise.resolve("2"),
    } as unknown as QuestionPort;
    await expect(askCard(typedLine, target, card)).rejects.toMatchObject({
      code: "ASK_INVALID_REPLY",
      message: expect.stringContaining(`the reply '"2"' is not a card reply`) as unknown,
    });
  });

  it("wraps a port failure (fake port that throws)", async () => {
    const broken: QuestionPort = {
      attached: () => true,
      ask: () => Promise.reject(new Error("socket closed")),
    };
    await expect(askCard(broken, target, card)).rejects.toMatchObject({
      code: "ASK_PORT_FAILED",
      message: "the question could not be shown: the question port failed (socket closed)",
    });
  });
});

describe("askCard: the timeout counts from when the card is shown", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Fake port that queues: the test says when the card is drawn and when it is answered. */
  function queueingPort(reportsShown: boolean) {
    let events: CardEvents | undefined;
    let answer: (() => void) | undefined;
    const port: QuestionPort = {
      attached: () => true,
      reportsShown,
      ask: (_request, signal, given) =>
        new Promise((resolve, reject) => {
          events = given;
          answer = () => resolve({ kind: "answer", selected: ["Postgres"] });
          signal.addEventListener("abort", () => reject(new Error("taken down")), { once: true });
        }),
    };
    return {
      port,
      draw: () => events?.shown(),
      answer: () => answer?.(),
      stop: () => events?.stopped?.(),
      resume: () => events?.continued?.(),
    };
  }
  const timed = buildCard({ question: "Which?", options: [{ label: "Postgres" }], timeoutMs: 1_000 });

  it("gives a card drawn late its whole time from the drawing", async () => {
    vi.useFakeTimers();
    const { port, draw, answer } = queueingPort(true);
    const outcome = askCard(port, target, timed);
    await vi.advanceTimersByTimeAsync(900);
    draw();
    await vi.advanceTimersByTimeAsync(900); // 1.8 s after the call, 0.9 s after the drawing
    draw(); // a second report changes nothing
    await vi.advanceTimersByTimeAsync(50);
    answer();
    await expect(outcome).resolves.toEqual({ kind: "answered", selected: ["Postgres"] });
  });

  it("times out a drawn card after its time, from the drawing", async () => {
    vi.useFakeTimers();
    const { port, draw } = queueingPort(true);
    const outcome = askCard(port, target, timed);
    await vi.advanceTimersByTimeAsync(500);
    draw();
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(outcome).resolves.toEqual({ kind: "timed_out", timeoutMs: 1_000 });
  });

  it("bounds the wait to be drawn by the same length and says the card was never shown", async () => {
    vi.useFakeTimers();
    const { port } = queueingPort(true);
    const outcome = askCard(port, target, timed);
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(outcome).resolves.toEqual({ kind: "timed_out", timeoutMs: 1_000, neverShown: true });
  });

  it("stops a drawn card's time while the port says it is stopped, and goes on from there", async () => {
    vi.useFakeTimers();
    const { port, draw, stop, resume, answer } = queueingPort(true);
    const outcome = askCard(port, target, timed);
    await vi.advanceTimersByTimeAsync(0); // the port has the card
    draw();
    await vi.advanceTimersByTimeAsync(600);
    stop(); // Ctrl+Z: the shell has the terminal
    await vi.advanceTimersByTimeAsync(5_000);
    resume(); // fg: 0.4 s left
    await vi.advanceTimersByTimeAsync(300);
    answer();
    await expect(outcome).resolves.toEqual({ kind: "answered", selected: ["Postgres"] });
  });

  it("times a card out once its time left after a stop has passed", async () => {
    vi.useFakeTimers();
    const { port, draw, stop, resume } = queueingPort(true);
    const outcome = askCard(port, target, timed);
    await vi.advanceTimersByTimeAsync(0); // the port has the card
    draw();
    await vi.advanceTimersByTimeAsync(600);
    stop();
    await vi.advanceTimersByTimeAsync(5_000);
    resume();
    await vi.advanceTimersByTimeAsync(400);
    await expect(outcome).resolves.toEqual({ kind: "timed_out", timeoutMs: 1_000 });
  });

  it("counts from the call when the port cannot tell when it drew the card", async () => {
    vi.useFakeTimers();
    const { port, draw } = queueingPort(false);
    const outcome = askCard(port, target, timed);
    await vi.advanceTimersByTimeAsync(900);
    draw();
    await vi.advanceTimersByTimeAsync(100);
    await expect(outcome).resolves.toEqual({ kind: "timed_out", timeoutMs: 1_000 });
  });
});

describe("askCard: why a card is taken down", () => {
  const card = buildCard({ question: "Which?", options: [{ label: "a" }, { label: "b" }], timeoutMs: 30 });

  async function takenDownWith(abort?: (controller: AbortController) => void): Promise<string> {
    let why = "";
    const port: QuestionPort = {
      attached: () => true,
      ask: (_request, signal) =>
        new Promise((_resolve, reject) => {
          const down = () => {
            why = errorMessage(signal.reason);
            reject(new Error("taken down"));
          };
          if (signal.aborted) down();
          else signal.addEventListener("abort", down);
        }),
    };
    const controller = new AbortController();
    const asked = askCard(port, { id: "c" }, abort ? { ...card, timeoutMs: null } : card, controller.signal);
    abort?.(controller);
    await asked;
    return why;
  }

  it("tells the port a timeout, with its length", async () => {
    expect(await takenDownWith()).toBe("timed out after 30 ms with no answer");
  });

  it("tells the port the caller cancelled", async () => {
    expect(await takenDownWith((controller) => controller.abort())).toBe("cancelled by the caller");
  });

  it("tells the port the run ended", async () => {
    expect(
      await takenDownWith((controller) =>
        controller.abort(new ToolsError({ code: "RUN_DISPOSED", message: "the run has ended" })),
      ),
    ).toBe("the run ended");
  });
});
