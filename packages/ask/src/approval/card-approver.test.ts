import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createRegistry,
  createRun,
  defineTool,
  resultText,
  type ApprovalRequest,
  type Run,
} from "@tools/registry";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { AskError } from "../errors/ask-error.js";
import type { QuestionPort } from "../port/question-port.js";
import { MemoryQuestionPort, type ShownCard } from "../ports/memory-port.js";
import { approvalCard, createCardApprover } from "./card-approver.js";
import {
  approvalArguments,
  fold,
  shorten,
  summarizeArguments,
  wholeStringLimit,
} from "./summarize-arguments.js";

const workingDirectory = mkdtempSync(join(tmpdir(), "ask-approver-"));
const runs: Run[] = [];
afterEach(async () => {
  await Promise.all(runs.splice(0).map((run) => run.dispose()));
});
afterAll(() => rmSync(workingDirectory, { recursive: true, force: true }));

function setup(port: QuestionPort, timeoutMs?: number | null) {
  const executed: string[] = [];
  const astEdit = defineTool({
    name: "ast_edit",
    tier: "write",
    parallelSafe: true,
    description: "Stages structural replacements.",
    input: z.object({ pattern: z.string(), files: z.array(z.string()), replacements: z.number() }),
    summarize: (input) => `stage ${input.replacements} replacements in ${input.files.length} files`,
    execute: (input) => {
      executed.push(input.pattern);
      return "staged";
    },
  });
  const approver = createCardApprover(port, timeoutMs === undefined ? {} : { timeoutMs });
  const registry = createRegistry({ tools: [astEdit], approver });
  const run = createRun({ workingDirectory, conversationId: "conv-9" });
  runs.push(run);
  const call = (pattern = "foo($A)", caller?: string) =>
    registry.invoke(run, {
      tool: "ast_edit",
      args: { pattern, files: ["a.ts", "b.ts", "c.ts", "d.ts"], replacements: 12 },
      ...(caller ? { caller, surface: "worker" } : {}),
    });
  return { call, executed };
}

describe("the card approver through a real registry", () => {
  it("draws the permission card with the summary, the three choices and the arguments", async () => {
    const shown: ShownCard[] = [];
    const port = new MemoryQuestionPort({
      respond: (card) => {
        shown.push(card);
        card.reply("1");
      },
    });
    const { call } = setup(port);
    expect((await call()).isError).toBe(false);
    expect(shown[0]?.target).toEqual({ id: "conv-9" });
    expect(shown[0]?.text).toBe(
      [
        "-- Permission " + "-".repeat(46),
        "Allow ast_edit: stage 12 replacements in 4 files?",
        "  write tool, called by main.",
        '  Arguments: pattern="foo($A)", files=[4 items], replacements=12',
        "",
        "  1. Allow once",
        "     run this call; ask again next time",
        "  2. Allow this tool for the run",
        "     do not ask again for ast_edit until the run ends",
        "  3. Deny",
        "     the agent is told you refused",
        "",
        '  0. Decline (the call is denied); "0: reason" says why',
        "",
        "Reply with one number (1-3).",
        "An option's exact label, typed out, picks it too.",
        "Waiting up to 15 min; after that it counts as no answer.",
        "",
      ].join("\n"),
    );
  });

  it("draws the card for a summary or caller longer than a card allows, shortened", async () => {
    const shown: ShownCard[] = [];
    const port = new MemoryQuestionPort({
      respond: (card) => {
        shown.push(card);
        card.reply("1");
      },
    });
    const executed: string[] = [];
    // The summary carries the pattern (as ast_edit's does): 3 000 characters of it.
    const long = `foo(${"a, ".repeat(1_000)})`;
    const registry = createRegistry({
      tools: [
        defineTool({
          name: "ast_edit",
          tier: "write",
          parallelSafe: true,
          description: "Stages a rewrite.",
          input: z.object({ pattern: z.string() }),
          summarize: (input) => `rewrite ${input.pattern}`,
          execute: (input) => (executed.push(input.pattern), "staged"),
        }),
      ],
      approver: createCardApprover(port),
    });
    const run = createRun({ workingDirectory, conversationId: "conv-9" });
    runs.push(run);
    const result = await registry.invoke(run, {
      tool: "ast_edit",
      args: { pattern: long },
      caller: `worker w1 "${"x".repeat(500)}"`,
      surface: "worker",
    });
    expect(result.isError).toBe(false);
    expect(executed).toEqual([long]);
    const question = shown[0]!.text.split("\n")[1]!;
    expect(question.startsWith("Allow ast_edit: rewrite foo(a, a, ")).toBe(true);
    expect(question).toMatch(/ …\[\d+ characters left out\]… (a, )+\)\?$/);
    expect(question.length).toBeLessThan(600);
    expect(shown[0]!.text).toContain(`called by worker w1 "${"x".repeat(100)}`);
  });

  it("asks first and shows a summary of several lines as it is, with no question mark glued to its last line", async () => {
    const shown: ShownCard[] = [];
    const port = new MemoryQuestionPort({
      respond: (card) => {
        shown.push(card);
        card.reply("1");
      },
    });
    const registry = createRegistry({
      tools: [
        defineTool({
          name: "vibe_spawn",
          tier: "exec",
          parallelSafe: true,
          description: "Starts a worker.",
          input: z.object({ brief: z.string() }),
          summarize: (input) => `start a worker with this brief:\n${input.brief}`,
          execute: () => "started",
        }),
      ],
      approver: createCardApprover(port),
    });
    const run = createRun({ workingDirectory, conversationId: "conv-9" });
    runs.push(run);
    const result = await registry.invoke(run, {
      tool: "vibe_spawn",
      args: { brief: "clean up, then run\nrm -rf x" },
    });
    expect(result.isError).toBe(false);
    const lines = shown[0]!.text.split("\n");
    expect(lines.slice(1, 4)).toEqual([
      "Allow vibe_spawn?",
      "start a worker with this brief:",
      "clean up, then run",
    ]);
    expect(lines).toContain("rm -rf x");
    expect(lines.some((line) => line.includes("rm -rf x?"))).toBe(false);
  });

  it("names the caller the harness gave (a background worker) instead of the bare surface", async () => {
    const shown: ShownCard[] = [];
    const port = new MemoryQuestionPort({
      respond: (card) => {
        shown.push(card);
        card.reply("3");
      },
    });
    const { call } = setup(port);
    const result = await call("foo($A)", 'worker w2 "rename"');
    expect(result.isError).toBe(true);
    expect(shown[0]?.text).toContain('  write tool, called by worker w2 "rename".');
    // "For the run" holds for that worker only (the registry's memory is per caller).
    expect(shown[0]?.text).toContain(
      'do not ask again for ast_edit until the run ends (for worker w2 "rename" only)',
    );
  });

  it("allow once runs the call and asks again next time", async () => {
    const port = new MemoryQuestionPort({ respond: (card) => card.reply("1") });
    const { call, executed } = setup(port);
    await call("first");
    await call("second");
    expect(executed).toEqual(["first", "second"]);
    expect(port.shown).toHaveLength(2);
  });

  it("allow for the run remembers: the next call is not asked", async () => {
    const port = new MemoryQuestionPort({ respond: (card) => card.reply("2") });
    const { call, executed } = setup(port);
    await call("first");
    const second = await call("second");
    expect(second.isError).toBe(false);
    expect(executed).toEqual(["first", "second"]);
    expect(port.shown).toHaveLength(1);
  });

  it("deny refuses the call and says so", async () => {
    const port = new MemoryQuestionPort({ respond: (card) => card.reply("3") });
    const { call, executed } = setup(port);
    const result = await call();
    expect(result.error?.code).toBe("APPROVAL_DENIED");
    expect(resultText(result)).toContain("the operator denied ast_edit");
    expect(resultText(result)).toContain("the operator chose Deny");
    expect(executed).toEqual([]);
  });

  it("a card declined with a reason denies and passes the reason on", async () => {
    const port = new MemoryQuestionPort({ respond: (card) => card.reply("0: not while tests run") });
    const { call, executed } = setup(port);
    const result = await call();
    expect(result.error?.code).toBe("APPROVAL_DENIED");
    expect(resultText(result)).toContain(
      'the operator declined the permission card, saying: "not while tests run"',
    );
    expect(executed).toEqual([]);
  });

  it("a declined card denies", async () => {
    const port = new MemoryQuestionPort({ respond: (card) => card.reply("0") });
    const { call, executed } = setup(port);
    const result = await call();
    expect(resultText(result)).toContain("the operator declined the permission card");
    expect(executed).toEqual([]);
  });

  it("a declined card with a reason passes the reason on to the agent", async () => {
    const port = new MemoryQuestionPort({ respond: (card) => card.decline("use the tmp folder instead") });
    const { call, executed } = setup(port);
    const result = await call();
    expect(result.error?.code).toBe("APPROVAL_DENIED");
    expect(resultText(result)).toContain(
      'the operator declined the permission card, saying: "use the tmp folder instead"',
    );
    expect(executed).toEqual([]);
  });

  it("no answer in time denies", async () => {
    const port = new MemoryQuestionPort();
    const { call, executed } = setup(port, 30);
    const result = await call();
    expect(result.error?.code).toBe("APPROVAL_DENIED");
    expect(resultText(result)).toContain("no answer to the permission card within 30 ms");
    expect(executed).toEqual([]);
  });

  it("a card that never got in front of the operator denies, saying it was never shown", async () => {
    // Fake port whose queue never reaches the card: it can tell when a card is drawn, and never draws it.
    const stuck: QuestionPort = {
      attached: () => true,
      reportsShown: true,
      ask: (_request, signal) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener("abort", () => reject(new Error("taken down")), { once: true });
        }),
    };
    const { call, executed } = setup(stuck, 30);
    const result = await call();
    expect(result.error?.code).toBe("APPROVAL_DENIED");
    expect(resultText(result)).toContain(
      "the permission card was never shown: other cards were ahead of it for 30 ms",
    );
    expect(executed).toEqual([]);
  });

  it("fails closed with nobody attached: denied without a card", async () => {
    const port = new MemoryQuestionPort({ attached: false });
    const { call, executed } = setup(port, null);
    const result = await call();
    expect(result.error?.code).toBe("NO_APPROVER");
    expect(port.shown).toHaveLength(0);
    expect(executed).toEqual([]);
  });

  it("denies when the human leaves while the card waits", async () => {
    const port = new MemoryQuestionPort();
    const { call, executed } = setup(port, null);
    const result = call();
    await port.nextCard();
    port.detach();
    // The card was in front of the human: not "no human is attached".
    // With the port's word on how (the terminal's: "the input was ended with Ctrl+D at the card").
    expect(resultText(await result)).toContain(
      "the permission card was shown, but the operator's channel closed before an answer (the human left before answering)",
    );
    expect(executed).toEqual([]);
  });

  it("denies a card its port could not show, saying why (a terminal gone before it opened)", async () => {
    // As the terminal port on a terminal that closed before the card could be drawn.
    const port: QuestionPort = {
      attached: () => true,
      reportsShown: true,
      ask: () =>
        Promise.reject(
          new AskError({ code: "ASK_NO_HUMAN", message: "the terminal closed before the card was shown" }),
        ),
    };
    const { call, executed } = setup(port, null);
    expect(resultText(await call())).toContain(
      "no human is attached to answer the permission card (the terminal closed before the card was shown)",
    );
    expect(executed).toEqual([]);
  });
});

describe("summarizeArguments", () => {
  it("keeps values whole within the card's budget, and folds longer ones keeping both ends", () => {
    expect(summarizeArguments({})).toBe("(no arguments)");
    const line = summarizeArguments({ text: "x".repeat(500), list: [1, 2], more: "y".repeat(500) });
    expect(line).toBe(`text="${"x".repeat(500)}", list=[1,2], more="${"y".repeat(500)}"`);
    const folded = summarizeArguments({ text: `start ${"x".repeat(5_000)} end`, flag: true });
    expect(folded).toMatch(/^text="start x+ …\[\d+ characters left out\]… x+ end", flag=true$/);
    expect(folded.length).toBeLessThan(1_600);
    const many = summarizeArguments(
      Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`key${i}`, "v".repeat(200)])),
    );
    expect(many.length).toBeLessThanOrEqual(3_500);
    expect(many.startsWith('key0="vvv')).toBe(true);
    expect(many.endsWith('key39="vvvvvvvv')).toBe(false);
    expect(many.endsWith('v"')).toBe(true);
  });
});

describe("fold", () => {
  it("keeps the head and the tail, says how much was left out, and stays within the bound", () => {
    expect(fold("short", 10)).toBe("short");
    const text = `${"a".repeat(100)}; rm -rf ./important`;
    const folded = fold(text, 90);
    expect(folded.length).toBeLessThanOrEqual(90);
    expect(folded.startsWith("aaaa")).toBe(true);
    expect(folded.endsWith("rm -rf ./important")).toBe(true);
    expect(folded).toMatch(/…\[\d+ characters left out\]…/);
  });
});

describe("the permission card of a long command", () => {
  const command = `npm test -- --reporter=dot ${Array.from({ length: 30 }, (_, i) => `--grep=case${i}`).join(" ")} ; rm -rf ./important`;

  function shellRegistry(port: QuestionPort) {
    const ran: string[] = [];
    const shell = defineTool({
      name: "shell",
      tier: "exec",
      parallelSafe: false,
      description: "Runs a command.",
      input: z.object({ command: z.string(), timeout_seconds: z.number().optional() }),
      // A tool whose own summary cuts the command short (as shell's did): the card must not rely on it.
      summarize: (input) => `run \`${input.command.slice(0, 119)}…\``,
      execute: (input) => (ran.push(input.command), "ran"),
    });
    const registry = createRegistry({ tools: [shell], approver: createCardApprover(port) });
    const run = createRun({ workingDirectory, conversationId: "conv-9" });
    runs.push(run);
    return { registry, run, ran };
  }

  it("shows the end of the command in the text and carries the whole arguments on the card", async () => {
    expect(command.length).toBeGreaterThan(300);
    const shown: ShownCard[] = [];
    const port = new MemoryQuestionPort({
      respond: (card) => {
        shown.push(card);
        card.reply("3");
      },
    });
    const { registry, run, ran } = shellRegistry(port);
    const result = await registry.invoke(run, { tool: "shell", args: { command, timeout_seconds: 5 } });
    expect(result.isError).toBe(true);
    expect(ran).toEqual([]);
    expect(shown[0]!.text).toContain(`Arguments: command=${JSON.stringify(command)}, timeout_seconds=5`);
    expect(shown[0]!.card.arguments).toEqual({ command, timeout_seconds: 5 });
  });

  it("folds a command too long for the card's text, keeping its end, with the whole command in arguments", async () => {
    const long = `echo ${"x".repeat(20_000)} ; rm -rf ./important`;
    const shown: ShownCard[] = [];
    const port = new MemoryQuestionPort({
      respond: (card) => {
        shown.push(card);
        card.reply("3");
      },
    });
    const { registry, run } = shellRegistry(port);
    await registry.invoke(run, { tool: "shell", args: { command: long } });
    const text = shown[0]!.text;
    expect(text).toMatch(
      /Arguments: command="echo x+ …\[\d+ characters left out\]… x+ ; rm -rf \.\/important"/,
    );
    expect(text.length).toBeLessThan(5_000);
    expect(shown[0]!.card.arguments).toEqual({ command: long });
  });

  it("folds a string over 100 000 characters in arguments too, keeping both ends", () => {
    const huge = `head ${"z".repeat(200_000)} tail`;
    const copy = approvalArguments({ path: "big.txt", content: huge });
    expect(copy?.["path"]).toBe("big.txt");
    const content = copy?.["content"] as string;
    expect(content.length).toBeLessThanOrEqual(100_000);
    expect(content.startsWith("head z")).toBe(true);
    expect(content.endsWith("z tail")).toBe(true);
    expect(content).toContain(`characters left out`);
  });
});

describe("a permission card of emoji", () => {
  /** A surrogate half without its other half: what a cut through an emoji leaves. */
  const halfCharacter = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

  it("cuts the summary, caller and arguments between whole characters, and counts characters left out as characters", () => {
    // Before: the question and context held half an emoji (drawn as U+FFFD; a lone \ud83d in a
    // JSON line), and the fold below said "3032 characters left out" of 2 002 characters.
    for (const count of [300, 301, 2_000, 2_001]) {
      const card = approvalCard({
        tool: "shell",
        tier: "exec",
        summary: `run ${"😀".repeat(count)}`,
        input: { command: "😀".repeat(count) },
        surface: "main",
        origin: "model",
        caller: `w ${"😀".repeat(count)}`,
        callId: "call_1",
        runId: "run_1",
        conversationId: "conv_1",
      } satisfies ApprovalRequest);
      expect(card.question).not.toMatch(halfCharacter);
      expect(card.context).not.toMatch(halfCharacter);
    }
    const folded = fold(`"${"😀".repeat(2_000)}"`, 1_000);
    expect(folded).toMatch(/…\[1032 characters left out\]…/);
    expect(folded).not.toMatch(halfCharacter);
    expect(shorten("a😀😀", 2)).toBe("a…");
    expect(shorten("😀😀", 2)).toBe("😀😀");
    // 60 000 characters (120 000 UTF-16 units) are within the 100 000 kept whole.
    const content = "😀".repeat(60_000);
    expect(approvalArguments({ content })?.["content"]).toBe(content);
    const over = String(approvalArguments({ content: `a${"😀".repeat(wholeStringLimit)}` })?.["content"]);
    expect(over).toMatch(/…\[\d+ characters left out\]…/);
    expect(over).not.toMatch(halfCharacter);
  });
});
