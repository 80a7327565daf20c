import { TerminalQuestionPort } from "@tools/ask";
import {
  boundText,
  errorMessage,
  resultText,
  type AnthropicToolSchema,
  type ApprovalPolicy,
  type OpenAiToolSchema,
} from "@tools/registry";
import type { WorkerToolbox } from "@tools/vibe";
import { createDemoRun } from "../create-demo-run.js";
import { modelBackend, modelSettings, type Provider } from "./model-env.js";

/** Options of {@link runModelAgent}. */
export interface ModelAgentOptions {
  readonly provider: Provider;
  readonly task: string;
  readonly workingDirectory: string;
  readonly approval: ApprovalPolicy;
  readonly pythonPath?: string;
  readonly maxTurns?: number;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** What the model is told about its situation. */
const instructions = [
  "You are a coding agent working in one workspace through the tools you are given (files, search,",
  "shell, language servers, structural search and rewrite, a debugger, code kernels, questions to",
  "the human). Positions are a 1-based line plus a symbol on that line. Do the task, then answer",
  "with a short summary of what you found or changed.",
].join(" ");

/** Most characters of a tool result shown on the terminal (the model gets the whole result). */
const shownChars = 600;

/**
 * `--model openai|anthropic "task"`: an agent loop with a real model (the environment's API key
 * and base URL) working in a demo run on the task, on the main surface; each tool call and its
 * result are printed as they happen, then the model's answer. Reuses @tools/vibe's model backend
 * (its agent loop) with the main surface as the toolbox. Resolves with the exit code.
 */
export async function runModelAgent(options: ModelAgentOptions): Promise<number> {
  const env = options.env ?? process.env;
  const settings = modelSettings(options.provider, env);
  const backend = modelBackend(options.provider, env, {
    instructions,
    oneModel: true,
    ...(options.maxTurns === undefined ? {} : { maxTurns: options.maxTurns }),
  });
  const port = process.stdin.isTTY ? new TerminalQuestionPort() : undefined;
  const demo = createDemoRun({
    workingDirectory: options.workingDirectory,
    approval: options.approval,
    ...(port === undefined ? {} : { questionPort: port }),
    ...(options.pythonPath === undefined ? {} : { pythonPath: options.pythonPath }),
  });
  const out = process.stdout;
  out.write(
    `harness-demo --model ${options.provider}: ${settings.model} at ${settings.baseURL ?? "the provider's API"}; run ${demo.run.id} in ${demo.run.workingDirectory} (approval ${options.approval})\n`,
  );
  const controller = new AbortController();
  const onSignal = () => controller.abort(new Error("interrupted"));
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  const toolbox: WorkerToolbox = {
    openAiTools: () => demo.registry.schema(demo.run, "main", "openai") as OpenAiToolSchema[],
    anthropicTools: () => demo.registry.schema(demo.run, "main", "anthropic") as AnthropicToolSchema[],
    async call(tool, args) {
      out.write(`→ ${tool} ${JSON.stringify(args)}\n`);
      const result = await demo.registry.invoke(demo.run, {
        tool,
        args,
        surface: "main",
        signal: controller.signal,
        caller: `the ${options.provider} model`,
      });
      const text = resultText(result);
      out.write(
        `← ${result.isError ? `error ${result.error?.code ?? ""}` : "ok"}\n${boundText(text, { maxChars: shownChars, maxLines: 12 }).text}\n`,
      );
      return {
        text: result.isError ? `error (${result.error?.code ?? "TOOL_FAILED"}): ${text}` : text,
        isError: result.isError,
      };
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
      progress: (message) => process.stderr.write(`  … ${message}\n`),
    });
    out.write(`\n${answer}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`harness-demo --model: ${errorMessage(error)}\n`);
    return 1;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    port?.dispose();
    await demo.dispose();
  }
}
