import { describe, expect, it } from "vitest";
import { buildCard, cardLimits } from "./card.js";
import { checkReply, parseReply, type CardReply } from "./reply.js";
import { renderCard } from "./render-card.js";

const options = [{ label: "Postgres" }, { label: "SQLite" }, { label: "MySQL" }];
const single = buildCard({ question: "Q", options });
const multi = buildCard({ question: "Q", options, multiSelect: true, allowFreeText: true });
const textOnly = buildCard({ question: "Why?" });

describe("parseReply", () => {
  it("reads a number, several numbers, a note after a number, free text and decline", () => {
    expect(parseReply(single, " 2 ")).toEqual({ kind: "answer", selected: ["SQLite"] });
    expect(parseReply(multi, "3, 1,3")).toEqual({ kind: "answer", selected: ["MySQL", "Postgres"] });
    expect(parseReply(multi, "2: keep the old API")).toEqual({
      kind: "answer",
      selected: ["SQLite"],
      text: "keep the old API",
    });
    expect(parseReply(multi, "whatever is cheapest")).toEqual({
      kind: "answer",
      selected: [],
      text: "whatever is cheapest",
    });
    expect(parseReply(textOnly, "42")).toEqual({ kind: "answer", selected: [], text: "42" });
    expect(parseReply(single, "0")).toEqual({ kind: "decline" });
  });

  it("never takes an empty, out-of-range or disallowed line as an answer", () => {
    expect(() => parseReply(single, "  ")).toThrow(
      /Nothing was typed: type a number from 1 to 3, or 0 to decline/,
    );
    expect(() => parseReply(single, "4")).toThrow(/There is no option 4: type a number from 1 to 3, or 0/);
    expect(() => parseReply(single, "1,7")).toThrow(/There is no option 7/);
    expect(() => parseReply(single, "1,2")).toThrow(/This question takes one choice, not 2/);
    expect(() => parseReply(single, "1: but")).toThrow(/takes no typed note/);
  });

  it('reads "1 3" as two choices on a multi-select card, and says how to pick several when refusing', () => {
    const pickSeveral = buildCard({ question: "Q", options, multiSelect: true });
    expect(parseReply(pickSeveral, "1 3")).toEqual({ kind: "answer", selected: ["Postgres", "MySQL"] });
    expect(parseReply(pickSeveral, " 3  1, 2 ")).toEqual({
      kind: "answer",
      selected: ["MySQL", "Postgres", "SQLite"],
    });
    expect(parseReply(multi, "1 3: both")).toEqual({
      kind: "answer",
      selected: ["Postgres", "MySQL"],
      text: "both",
    });
    expect(() => parseReply(pickSeveral, "1 4")).toThrow(
      'There is no option 4: type a number from 1 to 3 (several separated by commas: "1,3"), or 0 to decline.',
    );
    expect(() => parseReply(pickSeveral, "Postgres and MySQL")).toThrow(/several separated by commas: "1,3"/);
    // A single-choice card keeps "1 3" as it was: typed text where free text is taken.
    const singleWithText = buildCard({ question: "Q", options, allowFreeText: true });
    expect(parseReply(singleWithText, "1 3")).toEqual({ kind: "answer", selected: [], text: "1 3" });
    expect(() => parseReply(single, "1 3")).toThrow(
      "'1 3' is not an option: type a number from 1 to 3, or 0 to decline.",
    );
  });

  it("names a number that is no option as it was typed", () => {
    expect(() => parseReply(single, "99999999999999999999")).toThrow(
      "There is no option 99999999999999999999: type a number from 1 to 3, or 0 to decline.",
    );
  });

  it("asks for typed text on a card with no options, naming no number range", () => {
    const freeOnly = buildCard({ question: "free", allowFreeText: true });
    expect(() => parseReply(freeOnly, "")).toThrow("Nothing was typed: type your answer, or 0 to decline.");
    expect(() => parseReply(textOnly, " ")).toThrow("Nothing was typed: type your answer, or 0 to decline.");
  });

  it("takes a number that is no option as typed text when the card allows free text", () => {
    const withText = buildCard({ question: "Which year?", options, allowFreeText: true });
    expect(parseReply(withText, "2024")).toEqual({ kind: "answer", selected: [], text: "2024" });
    expect(parseReply(withText, " 4 ")).toEqual({ kind: "answer", selected: [], text: "4" });
    expect(parseReply(multi, "2, 12")).toEqual({ kind: "answer", selected: [], text: "2, 12" });
    expect(parseReply(withText, "2024: the year we ship")).toEqual({
      kind: "answer",
      selected: [],
      text: "2024: the year we ship",
    });
    // A number that is an option still chooses it, and 0 still declines.
    expect(parseReply(withText, "3")).toEqual({ kind: "answer", selected: ["MySQL"] });
    expect(parseReply(withText, "0")).toEqual({ kind: "decline" });
  });
});

describe("parseReply: declining with a reason", () => {
  const withText = buildCard({ question: "Which year?", options, allowFreeText: true });
  it('reads "0: reason" as a decline with that reason on every kind of card', () => {
    expect(parseReply(textOnly, "0: I don't care, pick one")).toEqual({
      kind: "decline",
      reason: "I don't care, pick one",
    });
    expect(parseReply(single, "0: not my call")).toEqual({ kind: "decline", reason: "not my call" });
    expect(parseReply(multi, " 0 :  ask the team ")).toEqual({ kind: "decline", reason: "ask the team" });
    expect(parseReply(withText, "0:")).toEqual({ kind: "decline" });
  });

  it('keeps a time such as "0:30" as typed text where free text is allowed', () => {
    expect(parseReply(textOnly, "0:30")).toEqual({ kind: "answer", selected: [], text: "0:30" });
  });

  it('keeps a time or a ratio such as "2:30" as typed text, never option 2 with the note "30"', () => {
    const when = buildCard({
      question: "When should the deploy run?",
      options: [{ label: "now" }, { label: "tonight" }],
      allowFreeText: true,
    });
    // Before: option 2 ("tonight") with the note "30" / "30 pm" / "1".
    expect(parseReply(when, "2:30")).toEqual({ kind: "answer", selected: [], text: "2:30" });
    expect(parseReply(when, "2:30 pm")).toEqual({ kind: "answer", selected: [], text: "2:30 pm" });
    expect(parseReply(multi, "2:1")).toEqual({ kind: "answer", selected: [], text: "2:1" });
    // A note after a colon and a space, or starting with a letter, is still a note.
    expect(parseReply(when, "2: 30 minutes after the backup")).toEqual({
      kind: "answer",
      selected: ["tonight"],
      text: "30 minutes after the backup",
    });
    expect(parseReply(when, "2:after the backup")).toEqual({
      kind: "answer",
      selected: ["tonight"],
      text: "after the backup",
    });
    // Where no typed text is taken, refused and asked again, as any reply that is not a choice.
    expect(() => parseReply(single, "2:30")).toThrow("'2:30' is not an option");
  });
});

describe("parseReply: numbers and labels", () => {
  const years = buildCard({
    question: "Which year?",
    options: [{ label: "2024" }, { label: "2025" }, { label: "North wing" }],
    allowFreeText: true,
  });
  it("takes an option's exact label (any case, spaces collapsed) as that option", () => {
    expect(parseReply(single, "sqlite")).toEqual({ kind: "answer", selected: ["SQLite"] });
    expect(parseReply(multi, " MySQL ")).toEqual({ kind: "answer", selected: ["MySQL"] });
    expect(parseReply(years, "north   WING")).toEqual({ kind: "answer", selected: ["North wing"] });
  });

  it("reads a number in range as the option's number, and a label that is a number as that option", () => {
    expect(parseReply(years, "2024")).toEqual({ kind: "answer", selected: ["2024"] });
    expect(parseReply(years, "2")).toEqual({ kind: "answer", selected: ["2025"] });
    expect(parseReply(years, "2026")).toEqual({ kind: "answer", selected: [], text: "2026" });
  });

  it("takes an option labelled with numbers on a multi-select card as that option, before the numbers", () => {
    const seats = buildCard({
      question: "Which seats?",
      options: [{ label: "A" }, { label: "B" }, { label: "C" }, { label: "1 3" }],
      multiSelect: true,
    });
    expect(parseReply(seats, "1 3")).toEqual({ kind: "answer", selected: ["1 3"] });
    expect(parseReply(seats, "1,3")).toEqual({ kind: "answer", selected: ["A", "C"] });
  });

  it("still refuses what is neither an option's number nor its label where free text is not taken", () => {
    expect(() => parseReply(single, "Oracle")).toThrow(/'Oracle' is not an option/);
    expect(() => parseReply(single, "Postgres please")).toThrow(/is not an option/);
  });

  it("quotes a long refused reply folded, never whole (a pasted megabyte is not echoed back)", () => {
    const pasted = `start${"x".repeat(1_000_000)}end`;
    let message = "";
    try {
      parseReply(single, pasted);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^'startx+…x+end' \(1,000,008 characters\) is not an option/);
    expect(message.length).toBeLessThan(300);
    expect(() => checkReply(single, { kind: "answer", selected: [pasted] })).toThrow(
      /^the reply chose 'startx+…x+end' \(1,000,008 characters\), not on the card/,
    );
  });

  it("says on the card that a label picks its option, and how a number is read", () => {
    expect(renderCard(single)).toContain(
      "Reply with one number (1-3).\nAn option's exact label, typed out, picks it too.\n",
    );
    expect(renderCard(years)).toContain(
      "\nA number from 1 to 3 or an option's exact label picks that option; anything else is your own answer.\n",
    );
  });
});

describe("typed text is bounded", () => {
  const long = "x".repeat(cardLimits.answer + 1);
  it("refuses typed text longer than the limit, saying the limit, so the human can shorten it", () => {
    expect(() => parseReply(textOnly, long)).toThrow(
      `The answer is ${cardLimits.answer + 1} characters, at most ${cardLimits.answer}: shorten it`,
    );
    expect(() => parseReply(multi, `2: ${long}`)).toThrow(/The note is \d+ characters, at most/);
    expect(() => parseReply(single, `0: ${long}`)).toThrow(/The reason is \d+ characters, at most/);
    expect(() => checkReply(textOnly, { kind: "answer", selected: [], text: long })).toThrow(
      /The answer is \d+ characters, at most/,
    );
    expect(() => checkReply(single, { kind: "decline", reason: long })).toThrow(/The reason is/);
  });

  it("takes text of exactly the limit", () => {
    const most = "y".repeat(cardLimits.answer);
    expect(parseReply(textOnly, most)).toEqual({ kind: "answer", selected: [], text: most });
  });

  it("counts characters, not UTF-16 units: an emoji is one character", () => {
    // Before: 5 001 emoji were "10002 characters, at most 10000" and the limit's own text refused.
    const emoji = "😀".repeat(cardLimits.answer);
    expect(parseReply(textOnly, emoji)).toEqual({ kind: "answer", selected: [], text: emoji });
    expect(() => parseReply(textOnly, `${emoji}😀`)).toThrow(
      `The answer is ${cardLimits.answer + 1} characters, at most ${cardLimits.answer}`,
    );
  });

  it("folds a quoted reply between whole characters and counts it in characters", () => {
    let message = "";
    try {
      parseReply(single, "😀".repeat(100));
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^'(😀)+…(😀)+' \(100 characters\) is not an option/);
    expect(message).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
  });
});

describe("checkReply", () => {
  it("orders labels as on the card and drops duplicates", () => {
    expect(checkReply(multi, { kind: "answer", selected: ["MySQL", "Postgres", "MySQL"] })).toEqual({
      kind: "answer",
      selected: ["Postgres", "MySQL"],
    });
  });

  it("refuses empty answers, unknown labels, several on single choice and text where none is taken", () => {
    expect(() => checkReply(multi, { kind: "answer", selected: [], text: "  " })).toThrow(
      /the reply is empty/,
    );
    expect(() => checkReply(single, { kind: "answer", selected: ["Oracle"] })).toThrow(
      /'Oracle', not on the card/,
    );
    expect(() => checkReply(single, { kind: "answer", selected: ["Postgres", "MySQL"] })).toThrow(
      /single-choice/,
    );
    expect(() => checkReply(single, { kind: "answer", selected: ["MySQL"], text: "x" })).toThrow(
      /takes no typed answer/,
    );
  });

  it("takes a null text or reason as absent (a reply that went through JSON)", () => {
    const viaJson = JSON.parse('{"kind":"answer","selected":["MySQL"],"text":null}') as CardReply;
    expect(checkReply(multi, viaJson)).toEqual({ kind: "answer", selected: ["MySQL"] });
    const declined = JSON.parse('{"kind":"decline","reason":null}') as CardReply;
    expect(checkReply(multi, declined)).toEqual({ kind: "decline" });
  });

  it("refuses what is not a reply at all, naming the shape a port resolves with", () => {
    const notReplies: unknown[] = [
      "2",
      undefined,
      { selected: ["MySQL"] },
      { kind: "answer", selected: "MySQL" },
      { kind: "answer", selected: [2] },
      { kind: "answer", selected: [], text: 42 },
      { kind: "decline", reason: { why: "busy" } },
    ];
    for (const reply of notReplies) {
      expect(() => checkReply(multi, reply as never)).toThrow(
        expect.objectContaining({
          code: "ASK_INVALID_REPLY",
          message: expect.stringMatching(
            /^the reply .* is not a card reply: a port resolves with \{ kind: "answer", selected: \[labels\], text\? \} or \{ kind: "decline", reason\? \}/,
          ) as unknown,
        }),
      );
    }
    expect(() => checkReply(multi, "2" as never)).toThrow(/^the reply '"2"' is not a card reply/);
  });

  it("refuses a note on a permission card by pointing at 0: reason", () => {
    const permission = buildCard({
      kind: "permission",
      question: "Allow shell: rm -rf build?",
      options: [{ label: "Allow once" }, { label: "Allow this tool for the run" }, { label: "Deny" }],
      allowFreeText: false,
    });
    expect(() => parseReply(permission, "3: too risky")).toThrow(
      /takes no typed note.*"0: reason" declines and says why/,
    );
    expect(parseReply(permission, "0: too risky")).toEqual({ kind: "decline", reason: "too risky" });
  });
});
