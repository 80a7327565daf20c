import Anthropic from "@anthropic-ai/sdk";
import { VibeError } from "../errors/vibe-error.js";
import { anthropicApiKey, anthropicCredentialError } from "./api-key.js";
import { throwIfAborted } from "../internal/abort.js";
import { noPooling, type ModelBackendOptions } from "./model-backend-options.js";
import { modelError } from "./openai-backend.js";
import type { WorkerBackend, WorkerTask } from "./worker-backend.js";
import { defaultWorkerInstructions, modelTurnLimit } from "./worker-instructions.js";

/**
 * A model backend on the Anthropic Messages API through the official `@anthropic-ai/sdk`. The
 * same agent loop as {@link createOpenAiBackend}: tool_use blocks run through the registry and go
 * back as tool_result blocks until the model ends its turn without tool use. The credential is
 * `apiKey`, else what the SDK finds (`ANTHROPIC_API_KEY`, `ANTHROPIC_AUTH_TOKEN`, a profile), else
 * a placeholder key when `baseURL` names a server; a worker that finds none fails with
 * `INVALID_BACKEND_CONFIG` saying what to set.
 */
export function createAnthropicBackend(options: ModelBackendOptions): WorkerBackend {
  const apiKey = anthropicApiKey(options);
  const client = new Anthropic({
    // Left out, the SDK reads ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN or its credential profiles.
    ...(apiKey === undefined ? {} : { apiKey }),
    ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
    maxRetries: options.maxRetries ?? 2,
    timeout: options.requestTimeoutMs ?? 600_000,
    ...noPooling(options),
  });
  const maxTurns = options.maxTurns ?? 30;
  const maxTokens = options.maxTokens ?? 8192;
  const instructions = options.instructions ?? defaultWorkerInstructions;
  return {
    gated: true,
    description: `Anthropic API at ${client.baseURL} (fast: ${options.models.fast}, good: ${options.models.good})`,
    async perform(task: WorkerTask): Promise<string> {
      const model = options.models[task.tier];
      const tools = task.toolbox.anthropicTools() as Anthropic.Messages.Tool[];
      const messages: Anthropic.Messages.MessageParam[] = [{ role: "user", content: task.brief }];
      for (let turn = 1; turn <= maxTurns; turn++) {
        throwIfAborted(task.signal);
        task.progress(`turn ${turn}: waiting for ${model}`);
        let response;
        try {
          response = await client.messages.create(
            {
              model,
              max_tokens: maxTokens,
              system: instructions,
              messages,
              ...(tools.length > 0 ? { tools } : {}),
            },
            { signal: task.signal },
          );
        } catch (error) {
          throw (
            (task.signal.aborted ? undefined : anthropicCredentialError(error)) ??
            modelError(error, task.signal, model)
          );
        }
        messages.push({
          role: "assistant",
          content: response.content as Anthropic.Messages.ContentBlockParam[],
        });
        const uses = response.content.filter(
          (block): block is Anthropic.Messages.ToolUseBlock => block.type === "tool_use",
        );
        if (uses.length === 0) {
          return response.content
            .filter((block): block is Anthropic.Messages.TextBlock => block.type === "text")
            .map((block) => block.text)
            .join("\n");
        }
        const results: Anthropic.Messages.ToolResultBlockParam[] = [];
        for (const use of uses) {
          throwIfAborted(task.signal);
          task.progress(`turn ${turn}: calling ${use.name}`);
          const outcome = await task.toolbox.call(use.name, use.input);
          results.push({
            type: "tool_result",
            tool_use_id: use.id,
            content: outcome.text,
            is_error: outcome.isError,
          });
        }
        messages.push({ role: "user", content: results });
      }
      throw new VibeError({ code: "TURN_LIMIT", message: modelTurnLimit(maxTurns, task.label) });
    },
  };
}
