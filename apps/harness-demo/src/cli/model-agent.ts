import { TerminalQuestionPort } from "@tools/ask";
import {
  boundText,
  errorMessage,
  maxCallIdLength,
  resultText,
  ToolsError,
  type AnthropicToolSchema,
  type ApprovalPolicy,
  type OpenAiToolSchema,
} from "@tools/registry";
import { vibeListKey, type WorkerBackend, type WorkerToolbox } from "@tools/vibe";
import { createDemoRun, noApproverHintFor } from "../create-demo-run.js";
import { modelBackend, modelLimits, modelSettings, type Provider } from "./model-env.js";
import { HeldLines } from "./held-lines.js";
import { holdSignals } from "./hold-signals.js";
import { followWorkers } from "./worker-notices.js";

/** Options of {@link runModelAgent}. */
export interface ModelAgentOptions {
  readonly provider: Provider;
  readonly task: string;
  readonly workingDirectory: string;
  readonly approval: ApprovalPolicy;
  readonly pythonPath?: string;
  /** `--max-turns` as given (over `HARNESS_DEMO_MAX_TURNS`, default 30). */
  readonly maxTurns?: string;
  /** `--model-timeout` in seconds as given (over `HARNESS_DEMO_MODEL_TIMEOUT`, default 120). */
  readonly timeoutSeconds?: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Turns vibe mode on (`--vibe`, `--vibe-command`): the backend the model's background workers run on. */
  readonly vibeBackend?: WorkerBackend;
}

/** What the model is told about its situation. */
const instructions = [
  "You are a coding agent working in one workspace through the tools you are given (files, search,",
  "shell, language servers, structural search and rewrite, a debugger, code kernels, questions to",
  "the human). Positions are a 1-based line plus a symbol on that line. Do the task, then answer",
  "with a short summary of what you found or changed.",
].join(" ");

/** Most characters of a tool call's arguments or result shown on the terminal (the model gets them whole). */
const shownChars = 600;

/** Text folded for the terminal as results are: at most {@link shownChars} characters, 12 lines. */
function fold(text: string): string {
  return boundText(text, { maxChars: shownChars, maxLines: 12 }).text;
}

/**
 * `--model openai|anthropic "task"`: an agent loop with a real model (the environment's API key
 * and base URL) working in a demo run on the task, on the main surface; each tool call and its
 * result are printed as they happen, then the model's answer. Reuses @tools/vibe's model backend
 * (its agent loop) with the main surface as the toolbox. Resolves with the exit code.
 */
export async function runModelAgent(options: ModelAgentOptions): Promise<number> {
  const env = options.env ?? process.env;
  const settings = modelSettings(options.provider, env);
  const limits = modelLimits(env, {
    ...(options.maxTurns === undefined ? {} : { maxTurns: options.maxTurns }),
    ...(options.timeoutSeconds === undefined ? {} : { timeoutSeconds: options.timeoutSeconds }),
  });
  const backend = modelBackend(options.provider, env, {
    instructions,
    oneModel: true,
    maxTurns: limits.maxTurns,
    requestTimeoutMs: limits.requestTimeoutMs,
  });
  const port = process.stdin.isTTY ? new TerminalQuestionPort() : undefined;
  // What is written while a card is open (a worker's notice, the model's next call) waits for it.
  const lines = new HeldLines();
  const demo = createDemoRun({
    workingDirectory: options.workingDirectory,
    approval: options.approval,
    ...(port === undefined ? {} : { questionPort: lines.port(port) }),
    noApproverHint: noApproverHintFor({ mode: "model", approval: options.approval }),
    ...(options.pythonPath === undefined ? {} : { pythonPath: options.pythonPath }),
    ...(options.vibeBackend === undefined ? {} : { vibeBackend: options.vibeBackend }),
  });
  const out = { write: (text: string) => lines.write(process.stdout, text) };
  out.write(
    `harness-demo --model ${options.provider}: ${settings.model} at ${settings.baseURL ?? "the provider's API"}; run ${demo.run.id} in ${demo.run.workingDirectory} (approval ${options.approval}; at most ${limits.maxTurns} turns, ${limits.requestTimeoutMs / 1000} s per request${options.vibeBackend ? `; vibe on ${options.vibeBackend.description}` : ""})\n`,
  );
  // Background workers (vibe mode) show as they start, work and end, between the model's calls.
  const list = demo.run.get(vibeListKey);
  const unfollow = list
    ? followWorkers(list, (notice) =>
        lines.write(
          process.stdout,
          `  ${notice.text}\n`,
          notice.kind === "progress" ? `${notice.worker.id} attempt ${notice.worker.attempts}` : undefined,
        ),
      )
    : undefined;
  const controller = new AbortController();
  // Held until the run has ended (see holdSignals): a second Ctrl+C does not cut its shutdown short.
  const releaseSignals = holdSignals("harness-demo --model", () =>
    controller.abort(new Error("interrupted")),
  );
  const toolbox: WorkerToolbox = {
    openAiTools: () => demo.registry.schema(demo.run, "main", "openai") as OpenAiToolSchema[],
    anthropicTools: () => demo.registry.schema(demo.run, "main", "anthropic") as AnthropicToolSchema[],
    async call(tool, args, callId) {
      out.write(`→ ${tool} ${fold(JSON.stringify(args) ?? "")}\n`);
      const result = await demo.registry.invoke(demo.run, {
        tool,
        args,
        // The model's id of the call: events and the approval card name the call it made. One
        // longer than the registry takes (a server's own scheme) leaves the registry to name it.
        ...(callId === undefined || callId.length > maxCallIdLength ? {} : { callId }),
        surface: "main",
        signal: controller.signal,
        caller: `the ${options.provider} model`,
      });
      const text = resultText(result);
      out.write(`← ${result.isError ? `error ${result.error?.code ?? ""}` : "ok"}\n${fold(text)}\n`);
      return {
        text: result.isError ? `error (${result.error?.code ?? "TOOL_FAILED"}): ${text}` : text,
        isError: result.isError,
      };
    },
    refused(tool, args, error) {
      // Answered by the backend itself (arguments not JSON, a call cut at the token limit).
      const code = /^error \(([A-Z_]+)\)/.exec(error)?.[1] ?? "INVALID_ARGUMENTS";
      out.write(`→ ${tool} ${fold(args)}\n← error ${code} (not run)\n${fold(error)}\n`);
    },
  };
  try {
    const answer = await backend.perform({
      workerId: "agent",
      label: "task",
      tier: "good",
      brief: options.task,
      workingDirectory: demo.run.workingDirectory,
      signal: controller.signal,
      toolbox,
      progress: (message) => lines.write(process.stderr, `  … ${message}\n`),
    });
    out.write(`\n${answer}\n`);
    const left =
      list?.list().filter((worker) => worker.status === "running" || worker.status === "queued") ?? [];
    if (left.length > 0) {
      // The model answered without waiting for them: they end with the run, and the operator is told.
      out.write(
        `${left.length} background ${left.length === 1 ? "worker was" : "workers were"} still ${left.every((worker) => worker.status === "queued") ? "queued" : "running"} at the answer and ${left.length === 1 ? "is" : "are"} stopped with the run: ${left.map((worker) => `${worker.id} "${worker.label}"`).join(", ")}\n`,
      );
    }
    return 0;
  } catch (error) {
    lines.flush();
    process.stderr.write(`harness-demo --model: ${failureText(error, limits.maxTurns)}\n`);
    return 1;
  } finally {
    unfollow?.();
    port?.dispose();
    lines.flush();
    try {
      await demo.dispose();
    } finally {
      releaseSignals();
    }
  }
}

/** Why the run failed; the turn limit in --model's own terms (no worker, no vibe_send). */
function failureText(error: unknown, maxTurns: number): string {
  if (ToolsError.isInstance(error) && error.code === "TURN_LIMIT") {
    const done = typeof error.data?.["done"] === "string" ? ` (it did ${error.data["done"]})` : "";
    return `stopped after ${maxTurns} model ${maxTurns === 1 ? "turn" : "turns"} without a final answer${done}; give it a narrower task, or raise the limit with --max-turns N (or HARNESS_DEMO_MAX_TURNS; now ${maxTurns})`;
  }
  return errorMessage(error);
}
