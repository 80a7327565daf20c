import { mkdirSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { trackedRuns } from "../testing/tracked-runs.js";
import { z } from "zod";
import { defineTool } from "../tool/define-tool.js";
import { createRegistry } from "../registry.js";
import type { Run } from "../run/run.js";
import { resultText } from "../result/tool-result.js";
import { ToolsError } from "../errors/tools-error.js";
import type { ApprovalDecision, ApprovalPolicy, ApprovalRequest, Approver } from "./approval.js";
import { needsApproval } from "./approval-gate.js";
import type { CallInfo } from "./guardrail.js";
import {
  echoTool,
  fakeSupervisorKey,
  runProgramTool,
  tempDir,
  writeNoteTool,
} from "../testing/fixture-tools.js";

const trackedRun = trackedRuns();
const newRun = (): Run => trackedRun({ resources: [[fakeSupervisorKey, { name: "f" }]] });

class ScriptedApprover implements Approver {
  readonly requests: ApprovalRequest[] = [];
  constructor(
    private readonly answers: ApprovalDecision[],
    private present = true,
  ) {}
  attached(): boolean {
    return this.present;
  }
  detach(): void {
    this.present = false;
  }
  request(request: ApprovalRequest): Promise<ApprovalDecision> {
    this.requests.push(request);
    const answer = this.answers.shift();
    if (!answer) return Promise.reject(new Error("no scripted answer left"));
    return Promise.resolve(answer);
  }
}

const tools = [echoTool, writeNoteTool, runProgramTool];
const write = { tool: "write_note", args: { path: "notes/a.md", text: "hello" } };

describe("approval gate", () => {
  it("tells listeners while a call waits for the approver (asked, then answered) and names the caller", async () => {
    const approver = new ScriptedApprover([{ allow: true }]);
    const registry = createRegistry({ tools, approver });
    const seen: string[] = [];
    registry.on((event) => {
      seen.push(event.type === "call-approval" ? `approval ${event.state} by ${event.caller}` : event.type);
    });
    await registry.invoke(newRun(), { ...write, caller: "worker w1" });
    expect(seen).toEqual([
      "call-start",
      "approval asked by worker w1",
      "approval answered by worker w1",
      "call-end",
    ]);
  });

  it("lets read tools pass without asking", async () => {
    const approver = new ScriptedApprover([]);
    const registry = createRegistry({ tools, approver });
    const result = await registry.invoke(newRun(), { tool: "echo", args: { text: "a" } });
    expect(result.isError).toBe(false);
    expect(approver.requests).toHaveLength(0);
  });

  it("fails closed when no approver is connected, telling listeners of no card", async () => {
    const registry = createRegistry({ tools, noApproverHint: "Start the harness with --approval auto." });
    const seen: string[] = [];
    registry.on((event) => seen.push(event.type));
    const result = await registry.invoke(newRun(), write);
    expect(seen).toEqual(["call-start", "call-end"]);
    expect(result.error?.code).toBe("NO_APPROVER");
    expect(resultText(result)).toBe(
      "write_note (write tool, called by the main agent) needs approval and no approver is attached, so it was denied. Start the harness with --approval auto.",
    );
  });

  it("fails closed when the approver is connected but nobody is attached", async () => {
    const approver = new ScriptedApprover([{ allow: true }], false);
    const registry = createRegistry({ tools, approver });
    const result = await registry.invoke(newRun(), { tool: "run_program", args: { program: "make" } });
    expect(result.error?.code).toBe("NO_APPROVER");
    expect(approver.requests).toHaveLength(0);
  });

  it("asks with a summary and runs the tool when allowed", async () => {
    const approver = new ScriptedApprover([{ allow: true }]);
    const registry = createRegistry({ tools, approver });
    const run = newRun();
    const result = await registry.invoke(run, write);
    expect(resultText(result)).toBe("wrote notes/a.md");
    expect(approver.requests[0]).toMatchObject({
      tool: "write_note",
      tier: "write",
      surface: "main",
      origin: "model",
      summary: "write 5 characters to notes/a.md",
      conversationId: run.conversationId,
    });
  });

  it("denies with the operator's reason and tells the model not to repeat the call", async () => {
    const approver = new ScriptedApprover([{ allow: false, reason: "not on Fridays" }]);
    const registry = createRegistry({ tools, approver });
    const result = await registry.invoke(newRun(), write);
    expect(result.error?.code).toBe("APPROVAL_DENIED");
    expect(resultText(result)).toContain(
      "the operator denied write_note (write tool, called by the main agent): not on Fridays",
    );
    expect(resultText(result)).toContain("Do not repeat the same call");
  });

  it("answers a call cancelled while its card is open as cancelled, not as the operator's refusal", async () => {
    // An approver denies when the card is taken down (as the card approver does on abort).
    let asked: () => void = () => undefined;
    const waiting: Approver = {
      attached: () => true,
      request: (_request, signal) =>
        new Promise((resolve) => {
          signal.addEventListener(
            "abort",
            () => resolve({ allow: false, reason: "the card was cancelled" }),
            {
              once: true,
            },
          );
          asked();
        }),
    };
    const whenAsked = (): Promise<void> => new Promise((resolve) => (asked = resolve));
    const registry = createRegistry({ tools, approver: waiting });
    const controller = new AbortController();
    const cardOpen = whenAsked();
    const cancelled = registry.invoke(newRun(), { ...write, signal: controller.signal });
    await cardOpen;
    controller.abort();
    const result = await cancelled;
    expect(result.error?.code).toBe("CANCELLED");
    expect(resultText(result)).toContain("write_note was cancelled");
    expect(resultText(result)).not.toContain("denied");

    // The run ending while the card is open: stopped with the run, and nobody denied it either.
    const run = newRun();
    const endOpen = whenAsked();
    const ended = registry.invoke(run, write);
    await endOpen;
    await run.dispose();
    const stopped = await ended;
    expect(stopped.error?.code).toBe("RUN_DISPOSED");
    expect(resultText(stopped)).toContain("write_note was stopped: the run has ended");
  });

  it("stops a call whose approver never settles, when the call is cancelled or the run ends", async () => {
    // An approver breaking its contract (it ignores the signal): the card's wait still ends.
    let asked: () => void = () => undefined;
    const deaf: Approver = {
      attached: () => true,
      request: () => {
        asked();
        return new Promise<ApprovalDecision>(() => undefined);
      },
    };
    const whenAsked = (): Promise<void> => new Promise((resolve) => (asked = resolve));
    const registry = createRegistry({ tools, approver: deaf });
    const controller = new AbortController();
    const cardOpen = whenAsked();
    const cancelled = registry.invoke(newRun(), { ...write, signal: controller.signal });
    await cardOpen;
    controller.abort();
    expect((await cancelled).error?.code).toBe("CANCELLED");

    const run = newRun();
    const endOpen = whenAsked();
    const ended = registry.invoke(run, write);
    await endOpen;
    await run.dispose();
    expect((await ended).error?.code).toBe("RUN_DISPOSED");
  });

  it("allows only an answer of allow: true; an answer that is no decision denies, saying what came back", async () => {
    const answers: unknown[] = [{ allow: "no" }, undefined, { allow: 1 }, true];
    const approver: Approver = {
      attached: () => true,
      request: () => Promise.resolve(answers.shift() as ApprovalDecision),
    };
    const registry = createRegistry({ tools, approver });
    const run = newRun();
    const texts: string[] = [];
    for (let index = 0; index < 4; index += 1) {
      const result = await registry.invoke(run, write);
      expect(result.error?.code).toBe("APPROVAL_DENIED");
      texts.push(resultText(result));
    }
    expect(texts).toEqual([
      expect.stringContaining(
        'the approver answered allow: "no" instead of { allow: true } or { allow: false }',
      ),
      expect.stringContaining("the approver answered undefined instead of"),
      expect.stringContaining("the approver answered allow: 1 instead of"),
      expect.stringContaining("the approver answered boolean true instead of"),
    ]);
  });

  it("fails closed with NO_APPROVER for an approver whose attached() is missing or throws", async () => {
    const request = (): Promise<ApprovalDecision> => Promise.resolve({ allow: true });
    const broken = [
      { request } as unknown as Approver,
      {
        attached: () => {
          throw new Error("socket closed");
        },
        request,
      },
    ];
    for (const approver of broken) {
      const result = await createRegistry({ tools, approver }).invoke(newRun(), write);
      expect(result.error?.code).toBe("NO_APPROVER");
    }
  });

  it("shows the arguments on the card when the tool's summary gives no text", async () => {
    const summaries: unknown[] = [];
    const approver: Approver = {
      attached: () => true,
      request: (request) => {
        summaries.push(request.summary);
        return Promise.resolve({ allow: true });
      },
    };
    for (const summarize of [() => undefined, () => "  ", () => 42]) {
      const tool = defineTool({
        name: "note",
        tier: "write",
        description: "Writes a note.",
        parallelSafe: true,
        input: z.object({ text: z.string() }),
        summarize: summarize as never,
        execute: () => "noted",
      });
      expect(
        (
          await createRegistry({ tools: [tool], approver }).invoke(newRun(), {
            tool: "note",
            args: { text: "hi" },
          })
        ).isError,
      ).toBe(false);
    }
    expect(summaries).toEqual(['{"text":"hi"}', '{"text":"hi"}', '{"text":"hi"}']);
  });

  it("remembers 'allow for the run' per tool and per run", async () => {
    const approver = new ScriptedApprover([{ allow: true, remember: "run" }, { allow: false }]);
    const registry = createRegistry({ tools, approver });
    const run = newRun();
    expect((await registry.invoke(run, write)).isError).toBe(false);
    expect((await registry.invoke(run, write)).isError).toBe(false);
    expect(approver.requests).toHaveLength(1);
    const other = await registry.invoke(newRun(), write);
    expect(other.error?.code).toBe("APPROVAL_DENIED");
    expect(approver.requests).toHaveLength(2);
  });

  it("remembers 'allow for the run' in the registry that asked, not in another on the same run", async () => {
    // Another registry's tool of that name is its own definition under its own approver: before,
    // an answer given to the first opened the second's write_note on the same run unasked.
    const first = new ScriptedApprover([{ allow: true, remember: "run" }]);
    const second = new ScriptedApprover([{ allow: false, reason: "not here" }]);
    const one = createRegistry({ tools, approver: first });
    const two = createRegistry({ tools, approver: second });
    const run = newRun();
    expect((await one.invoke(run, write)).isError).toBe(false);
    const other = await two.invoke(run, write);
    expect(other.error?.code).toBe("APPROVAL_DENIED");
    expect(second.requests).toHaveLength(1);
    expect((await one.invoke(run, write)).isError).toBe(false);
    expect(first.requests).toHaveLength(1);
  });

  it("remembers 'allow for the run' for the surface and caller it was given to, not for a worker", async () => {
    const approver = new ScriptedApprover([
      { allow: true, remember: "run" },
      { allow: true, remember: "run" },
      { allow: false, reason: "not this one" },
    ]);
    const registry = createRegistry({ tools, approver });
    const run = newRun();
    const asWorker = (caller: string) => ({ ...write, surface: "worker", caller });
    expect((await registry.invoke(run, write)).isError).toBe(false);
    // The main agent's allowance does not open the tool to a background worker.
    expect((await registry.invoke(run, asWorker("worker w1"))).isError).toBe(false);
    expect((await registry.invoke(run, asWorker("worker w1"))).isError).toBe(false);
    expect((await registry.invoke(run, asWorker("worker w2"))).error?.code).toBe("APPROVAL_DENIED");
    expect((await registry.invoke(run, write)).isError).toBe(false);
    expect(approver.requests.map((request) => request.caller ?? request.surface)).toEqual([
      "main",
      "worker w1",
      "worker w2",
    ]);
  });

  it("treats an approver that throws as a denial", async () => {
    const approver = new ScriptedApprover([]);
    const registry = createRegistry({ tools, approver });
    const result = await registry.invoke(newRun(), write);
    expect(result.error?.code).toBe("APPROVAL_DENIED");
    expect(resultText(result)).toContain("the approver failed (no scripted answer left)");
  });

  it("under the auto policy asks nobody on main but still gates a background worker", async () => {
    const registry = createRegistry({ tools, approval: "auto" });
    const run = newRun();
    expect((await registry.invoke(run, write)).isError).toBe(false);
    const worker = await registry.invoke(run, { ...write, surface: "worker" });
    expect(worker.error?.code).toBe("NO_APPROVER");
    expect(resultText(worker)).toContain("called by a background worker");
  });

  it("checks guardrails before asking, so a refused path never reaches the operator", async () => {
    const approver = new ScriptedApprover([{ allow: true }]);
    const registry = createRegistry({ tools, approver });
    const result = await registry.invoke(newRun(), { tool: "write_note", args: { path: "../x", text: "" } });
    expect(result.error?.code).toBe("GUARDRAIL_REFUSED");
    expect(approver.requests).toHaveLength(0);
  });
});

describe("approval gate: who is calling", () => {
  it("names the caller the harness gave, on the card and in the refusal, and nested calls inherit it", async () => {
    const approver = new ScriptedApprover([{ allow: false }]);
    const registry = createRegistry({ tools, approver });
    const result = await registry.invoke(newRun(), {
      ...write,
      surface: "worker",
      caller: 'worker w2 "rename"',
    });
    expect(approver.requests[0]?.caller).toBe('worker w2 "rename"');
    expect(resultText(result)).toContain(
      'the operator denied write_note (write tool, called by worker w2 "rename")',
    );
  });

  it("checks the paths again after the operator's answer: a swap made while the card was open is refused", async () => {
    const run = newRun();
    const outside = tempDir("tools-outside-");
    mkdirSync(join(run.workingDirectory, "notes"));
    let executed = false;
    const tool = defineTool({
      name: "write_note",
      tier: "write",
      description: "Records that it ran.",
      parallelSafe: true,
      input: z.object({ path: z.string(), text: z.string() }),
      paths: (input) => [input.path],
      execute: () => ((executed = true), "wrote"),
    });
    const approver = new ScriptedApprover([{ allow: true }]);
    const swapping: Approver = {
      attached: () => true,
      request: (request) => {
        // While the operator reads the card, the folder becomes a symlink out of the workspace.
        rmSync(join(run.workingDirectory, "notes"), { recursive: true });
        symlinkSync(outside, join(run.workingDirectory, "notes"));
        return approver.request(request);
      },
    };
    const registry = createRegistry({ tools: [tool], approver: swapping });
    const result = await registry.invoke(run, write);
    expect(result.error?.code).toBe("GUARDRAIL_REFUSED");
    expect(resultText(result)).toContain(`path 'notes/a.md' goes through a symlink to ${outside}`);
    expect(executed).toBe(false);
    expect(approver.requests).toHaveLength(1);
  });
});

describe("approval policy", () => {
  it.each(["Ask", "deny", "never", "", " auto", 1, true, {}])(
    "refuses the unknown policy %j when the registry is created, listing the valid ones",
    (policy) => {
      let thrown: unknown;
      try {
        createRegistry({ tools, approval: policy as ApprovalPolicy });
      } catch (error) {
        thrown = error;
      }
      expect(ToolsError.isInstance(thrown)).toBe(true);
      const error = thrown as ToolsError;
      expect(error.code).toBe("INVALID_APPROVAL_POLICY");
      expect(error.message).toMatch(
        /^unknown approval policy .*; valid policies: "ask" \(.*\), "auto" \(.*\)$/,
      );
      expect(error.data).toEqual({ policy, valid: ["ask", "auto"] });
    },
  );

  it("takes ask, auto, and no policy at all (ask)", () => {
    expect(createRegistry({ tools, approval: "ask" }).approvalPolicy).toBe("ask");
    expect(createRegistry({ tools, approval: "auto" }).approvalPolicy).toBe("auto");
    expect(createRegistry({ tools }).approvalPolicy).toBe("ask");
    expect(createRegistry({ tools, approval: undefined }).approvalPolicy).toBe("ask");
  });

  it("asks for an exec call under any policy but auto, so a bad value slipped past the check fails closed", () => {
    const run = newRun();
    const registry = createRegistry({ tools });
    const call: CallInfo = {
      callId: "c1",
      tool: runProgramTool,
      input: { program: "make" },
      run,
      surface: registry.surface("main"),
      origin: "model",
      depth: 0,
      signal: run.signal,
      caller: undefined,
      resolvedPaths: new Map(),
    };
    for (const policy of ["ask", "Ask", "deny", "never"]) {
      expect(needsApproval(call, policy as ApprovalPolicy, registry), policy).toBe(true);
    }
    expect(needsApproval(call, "auto", registry)).toBe(false);
  });
});
