import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRegistry, createRun, resultText, toolJsonSchema, type Run } from "@tools/registry";
import { AskError } from "../errors/ask-error.js";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { questionPortKey, targetSpaceKey, type QuestionPort } from "../port/question-port.js";
import { MemoryQuestionPort } from "../ports/memory-port.js";
import { askUserTool, createAskUserTool } from "./ask-user-tool.js";

const workingDirectory = mkdtempSync(join(tmpdir(), "ask-tool-"));
const runs: Run[] = [];

function wiredRun(port: QuestionPort): Run {
  const run = createRun({
    workingDirectory,
    conversationId: "c-7",
    resources: [
      [questionPortKey, port],
      [targetSpaceKey, { id: "c-7" }],
    ],
  });
  runs.push(run);
  return run;
}

afterEach(async () => {
  await Promise.all(runs.splice(0).map((run) => run.dispose()));
});
afterAll(() => rmSync(workingDirectory, { recursive: true, force: true }));

const question = {
  question: "Which database?",
  context: "The migrations depend on it.",
  options: [{ label: "Postgres", description: "what production runs" }, { label: "SQLite" }],
  allow_free_text: true,
};

describe("ask_user through the registry", () => {
  it("is registered only when both a question port and a target space are wired", () => {
    const registry = createRegistry({ tools: [askUserTool] });
    const port = new MemoryQuestionPort();
    const portOnly = createRun({ workingDirectory, resources: [[questionPortKey, port]] });
    const targetOnly = createRun({ workingDirectory, resources: [[targetSpaceKey, { id: "c" }]] });
    runs.push(portOnly, targetOnly);
    expect(registry.toolsFor(portOnly, "main").map((tool) => tool.name)).toEqual([]);
    expect(registry.toolsFor(targetOnly, "main").map((tool) => tool.name)).toEqual([]);
    expect(registry.toolsFor(wiredRun(port), "plan").map((tool) => tool.name)).toEqual(["ask_user"]);
  });

  it("takes the SPEC's arguments and is read tier, so plan mode and a read-only subagent see it too", () => {
    const schema = toolJsonSchema(askUserTool) as {
      properties: Record<string, { items?: { properties: object; required: string[] } }>;
      required: string[];
    };
    expect(Object.keys(schema.properties).sort()).toEqual([
      "allow_free_text",
      "context",
      "multi_select",
      "options",
      "question",
    ]);
    expect(schema.required).toEqual(["question"]);
    expect(Object.keys(schema.properties["options"]?.items?.properties ?? {})).toEqual([
      "label",
      "description",
    ]);
    expect(schema.properties["options"]?.items?.required).toEqual(["label"]);
    // The SPEC's instruction to the model: a question written as a chat message ends the turn.
    expect(askUserTool.description).toContain(
      "never to write the question as a chat message, which ends your turn",
    );
    const registry = createRegistry({ tools: [askUserTool] });
    const run = wiredRun(new MemoryQuestionPort());
    for (const surface of ["main", "plan", "readonly"])
      expect(registry.toolsFor(run, surface).map((tool) => tool.name)).toEqual(["ask_user"]);
  });

  it("returns the answer: chosen labels and the typed note", async () => {
    const port = new MemoryQuestionPort({ respond: (card) => card.reply("2: only for tests") });
    const result = await createRegistry({ tools: [askUserTool] }).invoke(wiredRun(port), {
      tool: "ask_user",
      args: question,
    });
    expect(result.isError).toBe(false);
    expect(resultText(result)).toBe(
      'The operator answered.\nChosen option: "SQLite"\nTheir note: "only for tests"',
    );
    expect(port.shown[0]?.target).toEqual({ id: "c-7" });
    expect(port.shown[0]?.text).toContain("Waiting up to 15 min");
  });

  it("returns several options on a multi-select card", async () => {
    const port = new MemoryQuestionPort({ respond: (card) => card.reply("1,2") });
    const result = await createRegistry({ tools: [askUserTool] }).invoke(wiredRun(port), {
      tool: "ask_user",
      args: { ...question, multi_select: true },
    });
    expect(resultText(result)).toBe('The operator answered.\nChosen options: "Postgres", "SQLite"');
  });

  it("treats a decline as a success that says: carry on under a stated assumption, do not ask again", async () => {
    const port = new MemoryQuestionPort({ respond: (card) => card.reply("0") });
    const result = await createRegistry({ tools: [askUserTool] }).invoke(wiredRun(port), {
      tool: "ask_user",
      args: question,
    });
    expect(result.isError).toBe(false);
    expect(resultText(result)).toMatch(
      /^The operator declined to answer\. This is not an answer\. Carry on under an assumption/,
    );
    expect(resultText(result)).toContain("do not ask this question again");
    expect(resultText(result)).not.toContain("answered");
  });

  it("does not show a declined question again in the run: the asker gets the decline back", async () => {
    const port = new MemoryQuestionPort({ respond: (card) => card.reply("0: not now") });
    const registry = createRegistry({ tools: [askUserTool] });
    const run = wiredRun(port);
    await registry.invoke(run, { tool: "ask_user", args: question });
    // The same question and context, spaced and cased otherwise, with other options.
    const again = await registry.invoke(run, {
      tool: "ask_user",
      args: {
        question: "  which   DATABASE? ",
        context: "the migrations  depend on it.",
        options: [{ label: "MySQL" }],
      },
    });
    expect(again.error?.code).toBe("ASK_DECLINED_BEFORE");
    expect(resultText(again)).toMatch(
      /^The operator already declined this question in this run \("not now"\), so it was not shown again\. This is not an answer\. Carry on under an assumption/,
    );
    expect(port.shown).toHaveLength(1);
    // Another question, the same one in another context (a generic "Proceed?" for another
    // step), another asker's same question and another run's are asked.
    await registry.invoke(run, { tool: "ask_user", args: { question: "Which port?" } });
    await registry.invoke(run, {
      tool: "ask_user",
      args: { ...question, context: "For the test suite only." },
    });
    await registry.invoke(run, { tool: "ask_user", args: question, caller: 'worker w2 "writer"' });
    await registry.invoke(wiredRun(port), { tool: "ask_user", args: question });
    expect(port.shown).toHaveLength(5);
  });

  it("asks an answered question again when asked (only a decline says not to)", async () => {
    const port = new MemoryQuestionPort({ respond: (card) => card.reply("1") });
    const registry = createRegistry({ tools: [askUserTool] });
    const run = wiredRun(port);
    await registry.invoke(run, { tool: "ask_user", args: question });
    const again = await registry.invoke(run, { tool: "ask_user", args: question });
    expect(resultText(again)).toBe('The operator answered.\nChosen option: "Postgres"');
    expect(port.shown).toHaveLength(2);
  });

  it("refuses a question whose text numbers its own choices while options are given, showing nothing", async () => {
    const port = new MemoryQuestionPort();
    const result = await createRegistry({ tools: [askUserTool] }).invoke(wiredRun(port), {
      tool: "ask_user",
      args: {
        question: "Deploy now?\n\n  1. yes, deploy\n  2. no\n",
        options: [{ label: "no" }, { label: "yes" }],
      },
    });
    expect(result.error?.code).toBe("ASK_INVALID_QUESTION");
    expect(resultText(result)).toContain(
      "question has a numbered list ('1. yes, deploy', '2. no') while options are given",
    );
    expect(resultText(result)).toContain("Put the choices only in options");
    expect(port.shown).toHaveLength(0);
  });

  it("says who asks when the harness names the caller (a background worker)", async () => {
    const port = new MemoryQuestionPort({ respond: (card) => card.reply("1") });
    const registry = createRegistry({ tools: [askUserTool] });
    const run = wiredRun(port);
    await registry.invoke(run, { tool: "ask_user", args: question, caller: 'worker w2 "writer"' });
    await registry.invoke(run, { tool: "ask_user", args: question });
    expect(port.shown[0]?.card.caller).toBe('worker w2 "writer"');
    expect(port.shown[0]?.text).toContain('\nAsked by worker w2 "writer":\nWhich database?\n');
    expect(port.shown[1]?.card.caller).toBeUndefined();
    expect(port.shown[1]?.text).not.toContain("Asked by");
  });

  it('reports "0: reason" as a decline with the reason, never as an answer', async () => {
    const port = new MemoryQuestionPort({ respond: (card) => card.reply("0: I don't care, pick one") });
    const result = await createRegistry({ tools: [askUserTool] }).invoke(wiredRun(port), {
      tool: "ask_user",
      args: { question: "Which name?" },
    });
    expect(result.isError).toBe(false);
    expect(resultText(result)).toMatch(
      /^The operator declined to answer \("I don't care, pick one"\)\. This is not an answer\./,
    );
    expect(resultText(result)).not.toContain("answered");
    expect(port.shown[0]?.text).toContain('"0: reason"');
  });

  it("fails a timed-out question with the same instruction, using the configured timeout", async () => {
    const port = new MemoryQuestionPort();
    const registry = createRegistry({ tools: [createAskUserTool({ timeoutMs: 40 })] });
    const result = await registry.invoke(wiredRun(port), { tool: "ask_user", args: question });
    expect(result.isError).toBe(true);
    expect(result.error?.code).toBe("ASK_TIMED_OUT");
    expect(resultText(result)).toMatch(
      /^No answer within 40 ms: the operator may be away\. This is not an answer\. Carry on/,
    );
    expect(port.shown[0]?.state).toBe("taken down");
  });

  it("says so when the question was never shown, rather than that the operator did not answer", async () => {
    // Fake port whose queue never reaches the card: it can tell when a card is drawn, and never draws it.
    const stuck: QuestionPort = {
      attached: () => true,
      reportsShown: true,
      ask: (_request, signal) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener("abort", () => reject(new Error("taken down")), { once: true });
        }),
    };
    const registry = createRegistry({ tools: [createAskUserTool({ timeoutMs: 40 })] });
    const result = await registry.invoke(wiredRun(stuck), { tool: "ask_user", args: question });
    expect(result.error?.code).toBe("ASK_TIMED_OUT");
    expect(resultText(result)).toMatch(
      /^The question was never shown: for 40 ms other questions to the operator were still open ahead of it .*This is not an answer\. Carry on/,
    );
    expect(resultText(result)).not.toContain("may be away");
  });

  it("fails at once with nobody attached, never blocking", async () => {
    const port = new MemoryQuestionPort({ attached: false });
    const registry = createRegistry({ tools: [createAskUserTool({ timeoutMs: null })] });
    const result = await registry.invoke(wiredRun(port), { tool: "ask_user", args: question });
    expect(result.error?.code).toBe("ASK_NO_HUMAN");
    expect(resultText(result)).toMatch(
      /No human is attached to answer, so the question was not asked\. Carry on/,
    );
    expect(port.shown).toHaveLength(0);
  });

  it("says the question was shown when the human's channel closes before an answer", async () => {
    const port = new MemoryQuestionPort();
    const registry = createRegistry({ tools: [createAskUserTool({ timeoutMs: null })] });
    const result = registry.invoke(wiredRun(port), { tool: "ask_user", args: question });
    await port.nextCard();
    port.detach();
    const ended = await result;
    expect(ended.error?.code).toBe("ASK_NO_HUMAN");
    expect(resultText(ended)).toMatch(
      /^The question was shown, but the operator's channel closed before an answer \(the human left before answering\)\. This is not an answer\. Carry on/,
    );
    expect(resultText(ended)).not.toContain("was not asked");
  });

  it("says the question was sent when a port that cannot tell whether it drew the card loses its human", async () => {
    // A port like a JSON-lines operator: it emits the card and cannot say when a human saw it.
    let asked: (lose: (error: Error) => void) => void = () => undefined;
    const handed = new Promise<(error: Error) => void>((resolve) => (asked = resolve));
    const lines: QuestionPort = {
      attached: () => true,
      ask: () => new Promise((_resolve, reject) => asked(reject)),
    };
    const registry = createRegistry({ tools: [createAskUserTool({ timeoutMs: null })] });
    const result = registry.invoke(wiredRun(lines), { tool: "ask_user", args: question });
    const lose = await handed;
    lose(new AskError({ code: "ASK_NO_HUMAN", message: "the operator's input ended before an answer" }));
    const ended = await result;
    expect(ended.error?.code).toBe("ASK_NO_HUMAN");
    expect(resultText(ended)).toMatch(
      /^The question was sent to the operator, but their channel closed before an answer \(the operator's input ended before an answer\); they may have seen it\. This is not an answer\. Carry on/,
    );
  });

  it("refuses an unknown key in an option, naming it and the keys an option takes", async () => {
    const port = new MemoryQuestionPort({ respond: (card) => card.reply("1") });
    const registry = createRegistry({ tools: [askUserTool] });
    const extra = await registry.invoke(wiredRun(port), {
      tool: "ask_user",
      args: { question: "q?", options: [{ label: "a", extra: 1 }] },
    });
    expect(extra.error?.code).toBe("INVALID_ARGUMENTS");
    expect(resultText(extra)).toContain(
      "- options[0]: unknown key 'extra'; an option takes only label, description",
    );
    const typo = await registry.invoke(wiredRun(port), {
      tool: "ask_user",
      args: { question: "q?", options: [{ label: "a" }, { label: "b", desc: "the second" }] },
    });
    expect(resultText(typo)).toContain(
      "- options[1]: unknown key 'desc' (did you mean 'description'?); an option takes only label, description",
    );
    expect(port.shown).toHaveLength(0);
    // The exported schema says so too.
    const items = (toolJsonSchema(askUserTool).properties as Record<string, { items?: unknown }>)["options"]
      ?.items;
    expect(items).toMatchObject({ additionalProperties: false });
    // OpenAI strict mode's null for a left-out description is still accepted.
    const nulled = await registry.invoke(wiredRun(port), {
      tool: "ask_user",
      args: { question: "q?", options: [{ label: "a", description: null }] },
    });
    expect(resultText(nulled)).toBe('The operator answered.\nChosen option: "a"');
  });

  it("ends the wait when the run ends (no time limit)", async () => {
    const port = new MemoryQuestionPort();
    const run = wiredRun(port);
    const result = createRegistry({ tools: [createAskUserTool({ timeoutMs: null })] }).invoke(run, {
      tool: "ask_user",
      args: question,
    });
    const card = await port.nextCard();
    expect(card.text).toContain("No time limit");
    await run.dispose();
    const ended = await result;
    expect(ended.isError).toBe(true);
    expect(ended.error?.code).toBe("ASK_CANCELLED");
  });

  it("explains an invalid question without showing it", async () => {
    const port = new MemoryQuestionPort();
    const result = await createRegistry({ tools: [askUserTool] }).invoke(wiredRun(port), {
      tool: "ask_user",
      args: { question: "Pick", options: [{ label: "a" }, { label: "A" }] },
    });
    expect(result.error?.code).toBe("ASK_INVALID_QUESTION");
    expect(resultText(result)).toContain("options[1].label 'A' repeats options[0]");
    expect(port.shown).toHaveLength(0);
  });
});
