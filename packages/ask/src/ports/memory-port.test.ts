import { describe, expect, it } from "vitest";
import { askCard } from "../ask/ask-card.js";
import { buildCard } from "../card/card.js";
import { AskError } from "../errors/ask-error.js";
import { MemoryQuestionPort } from "./memory-port.js";

const target = { id: "conversation" };
const card = buildCard({ question: "Which?", options: [{ label: "a" }, { label: "b" }], timeoutMs: null });

/** The error `reply` throws, for its code and message. */
function thrownBy(reply: () => void): unknown {
  try {
    reply();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("MemoryQuestionPort", () => {
  it("refuses a second reply to a card with a typed error, keeping the first", async () => {
    const port = new MemoryQuestionPort();
    const outcome = askCard(port, target, card);
    const shown = await port.nextCard();
    shown.reply("1");
    const second = thrownBy(() => shown.reply("2"));
    expect(second).toBeInstanceOf(AskError);
    expect(second).toMatchObject({ code: "ASK_INVALID_REPLY" });
    expect((second as AskError).message).toMatch(
      /card card_\d+ was already replied to: a card takes one reply/,
    );
    await expect(outcome).resolves.toEqual({ kind: "answered", selected: ["a"] });
  });

  it("refuses a reply to a card taken down with a typed error saying nobody waits for it", async () => {
    const port = new MemoryQuestionPort();
    const controller = new AbortController();
    const outcome = askCard(port, target, card, controller.signal);
    const shown = await port.nextCard();
    controller.abort(new Error("the caller moved on"));
    await expect(outcome).resolves.toMatchObject({ kind: "cancelled" });
    expect(shown.state).toBe("taken down");
    for (const late of [() => shown.answer({ selected: ["a"] }), () => shown.decline("too late")]) {
      const error = thrownBy(late);
      expect(error).toBeInstanceOf(AskError);
      expect(error).toMatchObject({ code: "ASK_INVALID_REPLY" });
      expect((error as AskError).message).toMatch(/was taken down .* before this reply: nobody waits for it/);
    }
  });
});
