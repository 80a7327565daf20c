import { ToolsError } from "@tools/registry";
import { describe, expect, it } from "vitest";
import { createCardApprover } from "../approval/card-approver.js";
import { MemoryQuestionPort } from "../ports/memory-port.js";
import { createAskUserTool } from "../tools/ask-user-tool.js";
import { buildCard, cardLimits, longestTimeoutMs, type CardInput } from "./card.js";

function problemsOf(input: CardInput): string {
  try {
    buildCard(input);
  } catch (error) {
    expect(ToolsError.isInstance(error) && error.code).toBe("ASK_INVALID_QUESTION");
    return (error as Error).message;
  }
  throw new Error("expected buildCard to throw");
}

describe("buildCard", () => {
  it("refuses numbered choices in the question or context of a question with options, not elsewhere", () => {
    const options = [{ label: "no" }, { label: "yes" }];
    expect(problemsOf({ question: "Which?\n1. yes\n2. no", options })).toMatch(
      /question has a numbered list/,
    );
    expect(problemsOf({ question: "Which?", context: "(1) yes\n(2) no", options })).toMatch(
      /context has a numbered list/,
    );
    // Without options a typed answer is free: a number means what the question's list says.
    expect(buildCard({ question: "Which?\n1. yes\n2. no" }).question).toContain("1. yes");
    // A permission card is the harness's text, never refused.
    expect(buildCard({ kind: "permission", question: "Allow x?", context: "1. a\n2. b", options }).kind).toBe(
      "permission",
    );
  });

  it("normalises a question with options", () => {
    const card = buildCard({
      question: "  Which database?  ",
      context: " migrations depend on it ",
      options: [
        { label: " Postgres\n(prod) ", description: "   " },
        { label: "SQLite", description: " local\n dev " },
      ],
    });
    expect(card).toEqual({
      kind: "question",
      question: "Which database?",
      context: "migrations depend on it",
      options: [{ label: "Postgres (prod)" }, { label: "SQLite", description: "local dev" }],
      allowFreeText: false,
      multiSelect: false,
      timeoutMs: null,
    });
  });

  it("allows free text by default when there are no options", () => {
    expect(buildCard({ question: "Why?" }).allowFreeText).toBe(true);
    expect(buildCard({ question: "Why?", options: [{ label: "a" }] }).allowFreeText).toBe(false);
  });

  it("says where a question over its limit can go: context's limit, and a file beyond it", () => {
    // Before: "move background into context" alone, and a 10 000-character question moved there
    // was refused again, at 4 000.
    expect(problemsOf({ question: "x".repeat(10_001) })).toMatch(
      /question is 10001 characters, at most 2000: .*context \(at most 4000 characters; put longer material in a file and give its path\)/,
    );
    expect(problemsOf({ question: "Q", context: "x".repeat(4_001) })).toMatch(
      /context is 4001 characters, at most 4000: .*put longer material in a file and give its path/,
    );
  });

  it("counts characters, not UTF-16 units, and shortens a caller between whole characters", () => {
    // Before: a question of 1 500 emoji (3 000 units) was "3000 characters, at most 2000".
    expect(buildCard({ question: "🙂".repeat(cardLimits.question) }).question).toHaveLength(
      2 * cardLimits.question,
    );
    expect(problemsOf({ question: "🙂".repeat(cardLimits.question + 1) })).toMatch(
      /question is 2001 characters/,
    );
    expect(problemsOf({ question: "Q", context: "🙂".repeat(cardLimits.context + 1) })).toMatch(
      /context is 4001 characters/,
    );
    expect(
      buildCard({ question: "Q", options: [{ label: "🙂".repeat(cardLimits.label) }] }).options,
    ).toHaveLength(1);
    expect(problemsOf({ question: "Q", options: [{ label: "🙂".repeat(cardLimits.label + 1) }] })).toMatch(
      /options\[0\]\.label is 201 characters/,
    );
    const caller = buildCard({ question: "Q", caller: `a${"🙂".repeat(cardLimits.caller)}` }).caller ?? "";
    expect(caller).toBe(`a${"🙂".repeat(cardLimits.caller - 2)}…`);
  });

  it("requires at least one option or free text", () => {
    expect(problemsOf({ question: "Why?", allowFreeText: false })).toMatch(
      /no options and allow_free_text is false: offer at least one option or allow a typed answer/,
    );
  });

  it("rejects duplicate labels, case-insensitively, naming both", () => {
    expect(
      problemsOf({ question: "Q", options: [{ label: "Yes" }, { label: "no" }, { label: " yes" }] }),
    ).toMatch(/options\[2\]\.label 'yes' repeats options\[0\]/);
  });

  it("bounds sizes and lists every problem at once", () => {
    const message = problemsOf({
      question: "x".repeat(cardLimits.question + 1),
      options: Array.from({ length: cardLimits.options + 1 }, (_, index) => ({ label: `option ${index}` })),
    });
    expect(message).toMatch(/question is 2001 characters, at most 2000/);
    expect(message).toMatch(/13 options, at most 12/);
    expect(problemsOf({ question: "Q", options: [{ label: "" }] })).toMatch(/options\[0\]\.label is empty/);
    expect(problemsOf({ question: "   " })).toMatch(/question is empty/);
    expect(problemsOf({ question: "Q", timeoutMs: -1 })).toMatch(/timeout -1 ms is not a positive number/);
    // Node fires a longer timer at once: such a question would time out unasked.
    expect(problemsOf({ question: "Q", timeoutMs: longestTimeoutMs + 1 })).toMatch(
      /timeout 2147483648 ms is longer than a timer can wait \(2147483647 ms, about 24.8 days\): use null/,
    );
    expect(buildCard({ question: "Q", timeoutMs: longestTimeoutMs }).timeoutMs).toBe(longestTimeoutMs);
  });

  it("refuses a factory's timeout no card could use, when the factory is called", () => {
    expect(() => createAskUserTool({ timeoutMs: 30 * 24 * 3_600_000 })).toThrow(
      "createAskUserTool({ timeoutMs }): timeout 2592000000 ms is longer than a timer can wait",
    );
    expect(() => createCardApprover(new MemoryQuestionPort(), { timeoutMs: 0 })).toThrow(
      "createCardApprover({ timeoutMs }): timeout 0 ms is not a positive number",
    );
    expect(() => createAskUserTool({ timeoutMs: null })).not.toThrow();
    // A harness in JavaScript passing a string (from a config file) is told what it passed.
    expect(() => createAskUserTool({ timeoutMs: "60000" as unknown as number })).toThrow(
      'createAskUserTool({ timeoutMs }): timeout "60000" is a string, not a number of milliseconds: give one (60000 for a minute), or null for no timeout',
    );
    // A BigInt, which JSON.stringify cannot write, is named as written.
    expect(() => createAskUserTool({ timeoutMs: 10n as unknown as number })).toThrow(
      expect.objectContaining({
        code: "ASK_INVALID_OPTION",
        message:
          "createAskUserTool({ timeoutMs }): timeout 10n is a bigint, not a number of milliseconds: give one (60000 for a minute), or null for no timeout",
      }),
    );
  });

  it("refuses a label that is a number typing would read otherwise: another option's number, or 0", () => {
    const replicas = problemsOf({
      question: "How many replicas?",
      options: [{ label: "3" }, { label: "5" }, { label: "10" }],
    });
    expect(replicas).toContain(
      "options[0].label '3' is also the number of option 3 ('10'): typing 3 picks by number, so it would choose that one, not this; write the label with a word ('3 replicas'), or order the options so each number is its own",
    );
    expect(replicas).not.toMatch(/options\[1\]|options\[2\]/);
    expect(problemsOf({ question: "Retries?", options: [{ label: "0" }, { label: "1" }] })).toMatch(
      /options\[0\]\.label '0' is what the human types to decline, so typing it could not choose it: write it with a word \('0 retries'\)[\s\S]*options\[1\]\.label '1' is also the number of option 1 \('0'\)/,
    );
    // A number that is its own position, or past the last option, reads as that option either way.
    expect(
      buildCard({ question: "Q", options: [{ label: "1" }, { label: "2" }, { label: "10" }] }).options,
    ).toHaveLength(3);
    expect(
      buildCard({ question: "Q", options: [{ label: "2024" }, { label: "2025" }] }).options,
    ).toHaveLength(2);
  });

  it("is lenient about multi-select with one option", () => {
    expect(buildCard({ question: "Q", options: [{ label: "a" }], multiSelect: true }).multiSelect).toBe(
      false,
    );
    expect(
      buildCard({ question: "Q", options: [{ label: "a" }, { label: "b" }], multiSelect: true }).multiSelect,
    ).toBe(true);
  });
});
