import OpenAI from "openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { VibeError } from "../errors/vibe-error.js";
import { openAiApiKey } from "./api-key.js";
import { abortReason, throwIfAborted } from "../internal/abort.js";
import { noPooling, type ModelBackendOptions } from "./model-backend-options.js";
import type { WorkerBackend, WorkerTask } from "./worker-backend.js";
import { defaultWorkerInstructions, modelTurnLimit } from "./worker-instructions.js";

/**
 * A model backend on the OpenAI-compatible Chat Completions API (OpenAI, or any server that
 * speaks it: vLLM, Ollama, LiteLLM, …) through the official `openai` SDK. Each worker is an agent
 * loop: the brief and the worker surface's tools go to the tier's model, its tool calls run
 * through the registry, their results go back, until it answers without tool calls. The key is
 * `apiKey`, else `OPENAI_API_KEY`, else a placeholder when `baseURL` names a server (a local one
 * often needs none); with neither it throws `INVALID_BACKEND_CONFIG` saying what to set.
 */
export function createOpenAiBackend(options: ModelBackendOptions): WorkerBackend {
  const client = new OpenAI({
    apiKey: openAiApiKey(options),
    ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
    maxRetries: options.maxRetries ?? 2,
    timeout: options.requestTimeoutMs ?? 600_000,
    ...noPooling(options),
  });
  const maxTurns = options.maxTurns ?? 30;
  const instructions = options.instructions ?? defaultWorkerInstructions;
  return {
    gated: true,
    description: `OpenAI-compatible API at ${client.baseURL} (fast: ${options.models.fast}, good: ${options.models.good})`,
    async perform(task: WorkerTask): Promise<string> {
      const model = options.models[task.tier];
      const tools = task.toolbox.openAiTools();
      const messages: ChatCompletionMessageParam[] = [
        { role: "system", content: instructions },
        { role: "user", content: task.brief },
      ];
      for (let turn = 1; turn <= maxTurns; turn++) {
        throwIfAborted(task.signal);
        task.progress(`turn ${turn}: waiting for ${model}`);
        let completion;
        try {
          completion = await client.chat.completions.create(
            {
              model,
              messages,
              ...(tools.length > 0 ? { tools: tools as OpenAI.Chat.Completions.ChatCompletionTool[] } : {}),
              ...(options.maxTokens === undefined ? {} : { max_completion_tokens: options.maxTokens }),
            },
            { signal: task.signal },
          );
        } catch (error) {
          throw modelError(error, task.signal, model);
        }
        const message = completion.choices[0]?.message;
        if (!message) throw new VibeError({ code: "WORKER_FAILED", message: `${model} returned no choices` });
        const calls = (message.tool_calls ?? []).filter((call) => call.type === "function");
        messages.push({
          role: "assistant",
          content: message.content ?? null,
          ...(calls.length > 0 ? { tool_calls: calls } : {}),
        });
        if (calls.length === 0) return message.content ?? "";
        for (const call of calls) {
          throwIfAborted(task.signal);
          task.progress(`turn ${turn}: calling ${call.function.name}`);
          const parsed = parseArguments(call.function.arguments);
          const outcome = parsed.ok
            ? await task.toolbox.call(call.function.name, parsed.value)
            : { text: parsed.message, isError: true };
          messages.push({ role: "tool", tool_call_id: call.id, content: outcome.text });
        }
      }
      throw new VibeError({ code: "TURN_LIMIT", message: modelTurnLimit(maxTurns, task.label) });
    },
  };
}

/** Tool-call arguments are JSON text; a model may send broken JSON, which it must hear about. */
export function parseArguments(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  if (text.trim() === "") return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return {
      ok: false,
      message: `error (INVALID_ARGUMENTS): the arguments are not valid JSON (${(error as Error).message}); send a JSON object matching the tool's schema`,
    };
  }
}

/** An SDK failure as the worker's failure: the abort reason when cancelled, else the API error. */
export function modelError(error: unknown, signal: AbortSignal, model: string): Error {
  if (signal.aborted) return abortReason(signal);
  const message = error instanceof Error ? error.message : String(error);
  return new VibeError({
    code: "WORKER_FAILED",
    message: `the model request to ${model} failed: ${message}`,
    cause: error,
  });
}
