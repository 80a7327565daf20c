import { readFile } from "node:fs/promises";
import { askCard, buildCard, cardLimits, renderCard, type CardReply } from "@tools/ask";
import { ToolsError } from "@tools/registry";
import { describe, expect, it } from "vitest";
import { JsonLinesOperatorPort, type CardEvent } from "./json-lines-operator.js";

const readmePath = new URL("../../README.md", import.meta.url);

describe("JsonLinesOperatorPort", () => {
  it("takes the README's structured reply for the README's example card, as written", async () => {
    const readme = await readFile(readmePath, "utf8");
    // The example card line and the structured reply the README pairs with it.
    const cardLine = /`(\{"event": "card", "card_id": "card_1", "card": \{[^`]*\})`/.exec(readme)?.[1];
    const replyLine = /`(\{"card_id": "card_1", "answer": \{"selected"[^`]*\})`/.exec(readme)?.[1];
    expect(cardLine).toBeDefined();
    expect(replyLine).toBeDefined();
    const flag = (name: string) => new RegExp(`"${name}": (true|false)`).exec(cardLine!)?.[1] === "true";
    const labels = [...cardLine!.matchAll(/\{"label": "([^"]+)"\}/g)].map((match) => match[1]!);
    expect(labels.length).toBeGreaterThan(0);
    const card = buildCard({
      question: "Which region first?",
      options: [...labels, "south"].map((label) => ({ label })),
      allowFreeText: flag("allowFreeText"),
      multiSelect: flag("multiSelect"),
    });

    const events: CardEvent[] = [];
    const port = new JsonLinesOperatorPort((event) => events.push(event));
    const request = { id: "card_1", target: { id: "c1" }, card, text: renderCard(card) };
    const reply: Promise<CardReply> = port.ask(request, new AbortController().signal);
    expect(port.handleLine(JSON.parse(replyLine!) as Record<string, unknown>)).toBe(true);
    expect(events.filter((event) => event.event === "card_error")).toEqual([]);
    expect(await reply).toMatchObject({ kind: "answer", selected: [labels[0]] });
  });

  it("reports a card shown when its line goes out, and fails it with the input's end when the peer leaves", async () => {
    const events: CardEvent[] = [];
    const port = new JsonLinesOperatorPort((event) => events.push(event));
    expect(port.reportsShown).toBe(true);
    const card = buildCard({
      question: "Which region first?",
      options: [{ label: "north" }, { label: "south" }],
    });
    const request = { id: "card_7", target: { id: "c1" }, card, text: renderCard(card) };
    let shown = 0;
    const reply = port.ask(request, new AbortController().signal, { shown: () => shown++ });
    expect(events.map((event) => event.event)).toEqual(["card"]);
    expect(shown).toBe(1);
    port.detach();
    await expect(reply).rejects.toThrow("the operator's input ended before an answer");
    expect(events.at(-1)).toEqual({
      event: "card_closed",
      card_id: "card_7",
      reason: "the operator's input ended before an answer",
      cause: "input_ended",
    });
  });

  it("says cause shutdown, not input_ended, when serve lets go for a signal or closed output", async () => {
    for (const reason of ["SIGTERM", "SIGINT", "output closed"] as const) {
      const events: CardEvent[] = [];
      const port = new JsonLinesOperatorPort((event) => events.push(event));
      const card = buildCard({ question: "Which region first?" });
      const reply = port.ask(
        { id: "card_1", target: { id: "c1" }, card, text: renderCard(card) },
        new AbortController().signal,
      );
      port.detach(reason);
      await expect(reply).rejects.toThrow(`serve is shutting down (${reason}) before an answer`);
      expect(events.at(-1)).toEqual({
        event: "card_closed",
        card_id: "card_1",
        reason: `serve is shutting down (${reason}) before an answer`,
        cause: "shutdown",
      });
    }
  });

  it('reads "0: reason" as a decline with that reason, on a free-text card and on a choice card', async () => {
    const events: CardEvent[] = [];
    const port = new JsonLinesOperatorPort((event) => events.push(event));
    const freeText = buildCard({ question: "Which name?" });
    const choice = buildCard({
      question: "Which region?",
      options: [{ label: "north" }, { label: "south" }],
    });
    const free = port.ask(
      { id: "card_1", target: { id: "c1" }, card: freeText, text: renderCard(freeText) },
      new AbortController().signal,
    );
    const chosen = port.ask(
      { id: "card_2", target: { id: "c1" }, card: choice, text: renderCard(choice) },
      new AbortController().signal,
    );
    port.handleLine({ card_id: "card_1", answer: "0: I don't care, pick one" });
    port.handleLine({ card_id: "card_2", answer: "0: not my call" });
    expect(events.filter((event) => event.event === "card_error")).toEqual([]);
    expect(await free).toEqual({ kind: "decline", reason: "I don't care, pick one" });
    expect(await chosen).toEqual({ kind: "decline", reason: "not my call" });
  });

  it("refuses a reply that both answers and declines, and keeps the card open", async () => {
    const events: CardEvent[] = [];
    const port = new JsonLinesOperatorPort((event) => events.push(event));
    const card = buildCard({ question: "Which region?", options: [{ label: "north" }, { label: "south" }] });
    const reply = port.ask(
      { id: "card_1", target: { id: "c1" }, card, text: renderCard(card) },
      new AbortController().signal,
    );
    expect(port.handleLine({ card_id: "card_1", answer: "1", decline: true })).toBe(true);
    expect(events.at(-1)).toMatchObject({ event: "card_error", card_id: "card_1" });
    expect(events.at(-1)).toHaveProperty("error", expect.stringMatching(/both "answer" and "decline"/));
    port.handleLine({ card_id: "card_1", decline: "yes" });
    expect(events.at(-1)).toHaveProperty("error", expect.stringMatching(/"decline" must be true/));
    port.handleLine({ card_id: "card_1", answer: "north" });
    expect(await reply).toEqual({ kind: "answer", selected: ["north"] });
  });

  it("refuses a reply with a field it does not take, naming it, and keeps the card open", async () => {
    const events: CardEvent[] = [];
    const port = new JsonLinesOperatorPort((event) => events.push(event));
    const card = buildCard({
      question: "Which region?",
      options: [{ label: "north" }, { label: "south" }],
      allowFreeText: true,
    });
    const reply = port.ask(
      { id: "card_1", target: { id: "c1" }, card, text: renderCard(card) },
      new AbortController().signal,
    );
    // Before: each was taken, the note or the reason dropped unseen.
    port.handleLine({ card_id: "card_1", answer: "2", note: "it is closer" });
    expect(events.at(-1)).toMatchObject({ event: "card_error", card_id: "card_1" });
    expect(events.at(-1)).toHaveProperty("error", expect.stringMatching(/no field "note".*"2: a note"/));
    port.handleLine({ card_id: "card_1", answer: "2", reason: "it is closer" });
    expect(events.at(-1)).toHaveProperty(
      "error",
      expect.stringMatching(/"reason" goes with "decline": true/),
    );
    port.handleLine({ card_id: "card_1", answer: { selected: ["south"], note: "x" } });
    expect(events.at(-1)).toHaveProperty("error", expect.stringMatching(/"answer" has no field "note"/));
    port.handleLine({ card_id: "card_1", decline: true, reasn: "busy" });
    expect(events.at(-1)).toHaveProperty("error", expect.stringMatching(/no field "reasn"/));
    expect(events.filter((event) => event.event === "card_error")).toHaveLength(4);
    // A peer's own line id is let be, as before.
    port.handleLine({ id: 7, card_id: "card_1", answer: "2: it is closer" });
    expect(await reply).toEqual({ kind: "answer", selected: ["south"], text: "it is closer" });
  });

  it("refuses an answer over the length limit with a card_error naming the limit, and keeps the card open", async () => {
    const events: CardEvent[] = [];
    const port = new JsonLinesOperatorPort((event) => events.push(event));
    const card = buildCard({ question: "Which name?" });
    const reply = port.ask(
      { id: "card_1", target: { id: "c1" }, card, text: renderCard(card) },
      new AbortController().signal,
    );
    port.handleLine({ card_id: "card_1", answer: "x".repeat(300_000) });
    expect(events.at(-1)).toMatchObject({ event: "card_error", card_id: "card_1" });
    expect(events.at(-1)).toHaveProperty(
      "error",
      expect.stringContaining(`The answer is 300000 characters, at most ${cardLimits.answer}: shorten it`),
    );
    port.handleLine({ card_id: "card_1", answer: { text: "y".repeat(300_000) } });
    expect(events.at(-1)).toHaveProperty("error", expect.stringContaining("at most"));
    port.handleLine({ card_id: "card_1", answer: "short" });
    expect(await reply).toEqual({ kind: "answer", selected: [], text: "short" });
  });

  it("says in the card line who asks when the harness named the caller", () => {
    const events: CardEvent[] = [];
    const port = new JsonLinesOperatorPort((event) => events.push(event));
    const card = buildCard({ question: "Which name?", caller: 'worker w2 "writer"' });
    void port
      .ask({ id: "card_1", target: { id: "c1" }, card, text: renderCard(card) }, new AbortController().signal)
      .catch(() => undefined);
    const line = JSON.parse(JSON.stringify(events[0])) as { card: { caller?: string; text: string } };
    expect(line.card.caller).toBe('worker w2 "writer"');
    expect(line.card.text).toContain('Asked by worker w2 "writer":');
    port.detach();
  });

  it("says in card_closed why a card was taken down: its timeout, a cancelled call, the end of the run", async () => {
    const events: CardEvent[] = [];
    const port = new JsonLinesOperatorPort((event) => events.push(event));
    const card = buildCard({ question: "Which name?", timeoutMs: 30 });
    const timedOut = await askCard(port, { id: "c1" }, card);
    expect(timedOut.kind).toBe("timed_out");
    expect(events.at(-1)).toMatchObject({
      event: "card_closed",
      reason: "taken down: timed out after 30 ms with no answer",
      cause: "timed_out",
    });
    const cancel = new AbortController();
    const cancelled = askCard(port, { id: "c1" }, { ...card, timeoutMs: null }, cancel.signal);
    await Promise.resolve();
    await Promise.resolve();
    cancel.abort();
    await cancelled;
    expect(events.at(-1)).toMatchObject({
      event: "card_closed",
      reason: "taken down: cancelled by the caller",
      cause: "cancelled",
    });
    const run = new AbortController();
    const ended = askCard(port, { id: "c1" }, { ...card, timeoutMs: null }, run.signal);
    await Promise.resolve();
    await Promise.resolve();
    run.abort(new ToolsError({ code: "RUN_DISPOSED", message: "the run has ended" }));
    await ended;
    expect(events.at(-1)).toMatchObject({
      event: "card_closed",
      reason: "taken down: the run ended",
      cause: "run_ended",
    });
  });
});
