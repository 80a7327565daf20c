import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createRegistry,
  createRun,
  defineTool,
  resultText,
  type CallEvent,
  type Run,
  type ToolResult,
} from "@tools/registry";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { questionPortKey, targetSpaceKey } from "../port/question-port.js";
import { MemoryQuestionPort } from "../ports/memory-port.js";
import { askUserTool } from "../tools/ask-user-tool.js";
import { buildCard } from "./card.js";
import { renderCard } from "./render-card.js";
import { checkReply, parseReply } from "./reply.js";

const secretCard = buildCard({ question: "Password for db:", secret: true });

describe("a secret card", () => {
  it("takes typed text only: no options, no permission card, free text always", () => {
    expect(secretCard).toMatchObject({ secret: true, allowFreeText: true, options: [] });
    expect(buildCard({ question: "Name?" })).not.toHaveProperty("secret");
    expect(() => buildCard({ question: "Which?", options: [{ label: "a" }], secret: true })).toThrow(
      /a secret card has options: a secret is typed, never picked/,
    );
    expect(() => buildCard({ kind: "permission", question: "Allow?", secret: true })).toThrow(
      /a permission card cannot be secret/,
    );
    expect(() => buildCard({ question: "Key?", allowFreeText: false, secret: true })).toThrow(
      /a secret card must allow free text/,
    );
  });

  it("says on the card that what is typed is hidden, and that only a lone 0 declines", () => {
    const text = renderCard(secretCard);
    expect(text).toContain("(secret: what you type is hidden and never shown back)");
    expect(text).toContain("  0. Decline to answer (a lone 0; Ctrl+C in a terminal declines too)");
    expect(text).toContain(
      "Type the secret and press Enter: it is not shown as you type, and not shown back.",
    );
    expect(text).not.toContain('"0: reason"');
  });

  it("reads the line as the secret, kept as typed; a lone 0 declines; 0: is part of a secret", () => {
    expect(parseReply(secretCard, " pa ss ")).toEqual({ kind: "answer", selected: [], text: " pa ss " });
    expect(parseReply(secretCard, "0:hunter2")).toEqual({ kind: "answer", selected: [], text: "0:hunter2" });
    expect(parseReply(secretCard, "2")).toEqual({ kind: "answer", selected: [], text: "2" });
    expect(parseReply(secretCard, "0")).toEqual({ kind: "decline" });
    expect(() => parseReply(secretCard, "   ")).toThrow(/Nothing was typed/);
    expect(() => parseReply(secretCard, "x".repeat(10_001))).toThrow(/10001 characters, at most 10000/);
  });

  it("checks a structured reply without trimming it or quoting it back", () => {
    expect(checkReply(secretCard, { kind: "answer", selected: [], text: " s3 " })).toEqual({
      kind: "answer",
      selected: [],
      text: " s3 ",
    });
    expect(() => checkReply(secretCard, { kind: "answer", selected: ["a"], text: "s3cr3t" })).toThrow(
      /a secret card has none/,
    );
    let message = "";
    try {
      checkReply(secretCard, { kind: "answer", selected: [], text: "  " });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/the reply is empty/);
  });
});

const workingDirectory = mkdtempSync(join(tmpdir(), "ask-secret-"));
const runs: Run[] = [];
afterEach(async () => {
  await Promise.all(runs.splice(0).map((run) => run.dispose()));
});
afterAll(() => rmSync(workingDirectory, { recursive: true, force: true }));

function wiredRun(port: MemoryQuestionPort): Run {
  const run = createRun({
    workingDirectory,
    resources: [
      [questionPortKey, port],
      [targetSpaceKey, { id: "c" }],
    ],
  });
  runs.push(run);
  return run;
}

/** Stands in for eval's getpass(): asks ask_user as a nested call that takes the secret out of band. */
function getpassTool(received: string[]) {
  return defineTool({
    name: "getpass_cell",
    tier: "read",
    parallelSafe: true,
    description: "Asks for a password as a cell's getpass() does.",
    input: z.object({ secret: z.boolean() }),
    async execute(input, context) {
      const result = await context.invoke(
        "ask_user",
        { question: "Password:" },
        {
          origin: "cell",
          ...(input.secret ? { receiveSecret: (value: string) => received.push(value) } : {}),
        },
      );
      return result;
    },
  });
}

describe("ask_user asked for a secret (receiveSecret)", () => {
  it("shows a secret card, hands the answer to the caller and never puts it in a result or a wrapper's view", async () => {
    const port = new MemoryQuestionPort({ respond: (card) => card.reply("hunter2 two") });
    const received: string[] = [];
    const seenByWrapper: string[] = [];
    const registry = createRegistry({
      tools: [askUserTool, getpassTool(received)],
      resultWrappers: [
        {
          name: "log",
          wrap: (result: ToolResult) => {
            seenByWrapper.push(JSON.stringify(result));
            return result;
          },
        },
      ],
    });
    const events: CallEvent[] = [];
    registry.on((event) => events.push(event));
    const result = await registry.invoke(wiredRun(port), { tool: "getpass_cell", args: { secret: true } });
    expect(result.isError).toBe(false);
    expect(received).toEqual(["hunter2 two"]);
    expect(resultText(result)).toBe(
      "The operator answered. Their answer is a secret: it went to the caller and is not shown here.",
    );
    const card = port.shown[0];
    expect(card?.card.secret).toBe(true);
    expect(card?.text).toContain("(secret: what you type is hidden and never shown back)");
    for (const seen of [...seenByWrapper, JSON.stringify(events), card?.text ?? ""]) {
      expect(seen).not.toContain("hunter2");
    }
  });

  it("passes a secret card's decline on as a decline, giving the caller nothing", async () => {
    const port = new MemoryQuestionPort({ respond: (card) => card.reply("0") });
    const received: string[] = [];
    const registry = createRegistry({ tools: [askUserTool, getpassTool(received)] });
    const result = await registry.invoke(wiredRun(port), { tool: "getpass_cell", args: { secret: true } });
    expect(resultText(result)).toMatch(/^The operator declined to answer\. This is not an answer\./);
    expect(received).toEqual([]);
  });

  it("asks a cell's prompt again after a decline: a rerun or the next program asks in the same words", async () => {
    const port = new MemoryQuestionPort({
      respond: (card) => card.reply(port.shown.length % 2 === 1 ? "0" : "pw"),
    });
    const received: string[] = [];
    const registry = createRegistry({ tools: [askUserTool, getpassTool(received)] });
    const run = wiredRun(port);
    await registry.invoke(run, { tool: "getpass_cell", args: { secret: true } });
    const again = await registry.invoke(run, { tool: "getpass_cell", args: { secret: true } });
    expect(again.isError).toBe(false);
    expect(received).toEqual(["pw"]);
    await registry.invoke(run, { tool: "getpass_cell", args: { secret: false } });
    const plainAgain = await registry.invoke(run, { tool: "getpass_cell", args: { secret: false } });
    expect(resultText(plainAgain)).toBe('The operator answered.\nTheir answer: "pw"');
    expect(port.shown).toHaveLength(4);
  });

  it("asks an ordinary card when the caller takes no secret, and a model has no argument to make one secret", async () => {
    const port = new MemoryQuestionPort({ respond: (card) => card.reply("plain") });
    const registry = createRegistry({ tools: [askUserTool, getpassTool([])] });
    const run = wiredRun(port);
    const plain = await registry.invoke(run, { tool: "getpass_cell", args: { secret: false } });
    expect(resultText(plain)).toBe('The operator answered.\nTheir answer: "plain"');
    expect(port.shown[0]?.card).not.toHaveProperty("secret");
    const byModel = await registry.invoke(run, {
      tool: "ask_user",
      args: { question: "Password:", secret: true },
    });
    // ask_user has no `secret` argument: the call is refused, and no card is shown.
    expect(byModel.error?.code).toBe("INVALID_ARGUMENTS");
    expect(byModel.error?.message).toMatch(/secret/);
    expect(port.shown).toHaveLength(1);
  });
});
