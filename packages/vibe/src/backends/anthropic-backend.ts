import { rejectOnAbort } from "@tools/registry";
import Anthropic from "@anthropic-ai/sdk";
import { VibeError } from "../errors/vibe-error.js";
import { anthropicApiKey, anthropicCredentialError } from "./api-key.js";
import { throwIfAborted } from "../internal/abort.js";
import { CallTally } from "./call-tally.js";
import { noPooling, type ModelBackendOptions } from "./model-backend-options.js";
import {
  argumentsText,
  bodyStart,
  emptyReplyError,
  emptyReplyNudge,
  isRecord,
  notAReply,
  replySeen,
  type ReplySeen,
} from "./model-reply.js";
import { modelError } from "./model-error.js";
import { RequestWatch } from "./request-watch.js";
import type { WorkerBackend, WorkerTask, WorkerToolOutcome } from "./worker-backend.js";
import { defaultWorkerInstructions, turnLimitError } from "./worker-instructions.js";

/** Stop reasons of a reply the token limit cut short. */
const cutShort = new Set(["max_tokens", "model_context_window_exceeded"]);

/**
 * A model backend on the Anthropic Messages API through the official `@anthropic-ai/sdk`. The
 * same agent loop as {@link createOpenAiBackend}: tool_use blocks run through the registry and go
 * back as tool_result blocks until the model ends its turn without tool use. The credential is
 * `apiKey`, else what the SDK finds (`ANTHROPIC_API_KEY`, `ANTHROPIC_AUTH_TOKEN`, a profile), else
 * a placeholder key when `baseURL` names a server; a worker that finds none fails with
 * `INVALID_BACKEND_CONFIG` saying what to set.
 *
 * A reply that is not a message, a refusal (`stop_reason` "refusal") or one cut at `max_tokens`
 * fails the worker, saying so; an empty answer is told so once ({@link emptyReplyNudge}) and fails
 * the worker when the next is empty too; a tool_use cut at `max_tokens` is not run (the
 * model hears why); `pause_turn` lets the model go on.
 */
export function createAnthropicBackend(options: ModelBackendOptions): WorkerBackend {
  const apiKey = anthropicApiKey(options);
  const timeoutMs = options.requestTimeoutMs ?? 600_000;
  const maxRetries = options.maxRetries ?? 2;
  const clientWith = (fetch?: typeof globalThis.fetch) =>
    new Anthropic({
      // Left out, the SDK reads ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN or its credential profiles.
      ...(apiKey === undefined ? {} : { apiKey }),
      ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
      maxRetries,
      timeout: timeoutMs,
      ...(fetch === undefined ? {} : { fetch }),
    });
  const baseURL = clientWith().baseURL;
  const maxTurns = options.maxTurns ?? 30;
  const maxTokens = options.maxTokens ?? 8192;
  const instructions = options.instructions ?? defaultWorkerInstructions;
  return {
    gated: true,
    description: `Anthropic API at ${baseURL} (fast: ${options.models.fast}, good: ${options.models.good})`,
    async perform(task: WorkerTask): Promise<string> {
      const model = options.models[task.tier];
      // A client per attempt: its requests are watched for this worker's progress line.
      const watch = new RequestWatch(noPooling(options).fetch ?? globalThis.fetch, { timeoutMs, maxRetries });
      const client = clientWith(watch.fetch);
      const tools = task.toolbox.anthropicTools() as Anthropic.Messages.Tool[];
      const messages: Anthropic.Messages.MessageParam[] = [{ role: "user", content: task.brief }];
      const tally = new CallTally();
      // What it did so far, for vibe_wait while it runs and for the result of a kill.
      task.soFar?.((stopped) => tally.soFar(stopped));
      /** The turn whose empty reply the model was told about (once per attempt). */
      let nudgedAt: number | undefined;
      for (let turn = 1; turn <= maxTurns; turn++) {
        throwIfAborted(task.signal);
        tally.turns = turn;
        task.progress(`turn ${turn}: waiting for ${model}`);
        watch.begin((note) => task.progress(`turn ${turn}: ${model}: ${note}`), task.signal);
        let reply;
        try {
          reply = await rejectOnAbort(
            client.messages
              .create(
                {
                  model,
                  max_tokens: maxTokens,
                  system: instructions,
                  messages,
                  ...(tools.length > 0 ? { tools } : {}),
                },
                { signal: task.signal },
              )
              .withResponse(),
            task.signal,
          );
        } catch (error) {
          throw (
            (task.signal.aborted ? undefined : anthropicCredentialError(error)) ??
            modelError(
              error,
              task.signal,
              model,
              watch,
              "the backend's apiKey (or ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN)",
              baseURL,
            )
          );
        }
        const seen = replySeen(baseURL, model, reply);
        const body = seen.body;
        if (!isRecord(body) || !Array.isArray(body["content"]))
          throw notAReply(seen, "a message of the Messages API");
        const content = (body["content"] as unknown[]).filter(
          isRecord,
        ) as unknown as Anthropic.Messages.ContentBlock[];
        const stop = body["stop_reason"];
        messages.push({ role: "assistant", content: content as Anthropic.Messages.ContentBlockParam[] });
        // The server paused a long turn of its own; sending the history back lets it go on.
        if (stop === "pause_turn") continue;
        const uses = content.filter(
          (block): block is Anthropic.Messages.ToolUseBlock => block.type === "tool_use",
        );
        if (uses.length === 0) {
          const answer = finalAnswer(seen, content, stop, tally, maxTokens);
          if (answer !== undefined) return answer;
          const empty = `${model} answered with an empty reply (stop_reason ${JSON.stringify(stop ?? null)}, no text and no tool use)`;
          if (nudgedAt !== undefined || turn === maxTurns) throw emptyReplyError(empty, nudgedAt, tally);
          // Once. The empty turn leaves the history (the API refuses an assistant turn with no
          // content), so the nudge joins the user turn before it: the brief or the tool results.
          nudgedAt = turn;
          messages.pop();
          appendUserText(messages, emptyReplyNudge);
          task.progress(`turn ${turn}: ${model} sent an empty reply; asking it once for its final answer`);
          continue;
        }
        const results: Anthropic.Messages.ToolResultBlockParam[] = [];
        for (const [index, use] of uses.entries()) {
          throwIfAborted(task.signal);
          task.progress(`turn ${turn}: calling ${use.name}`);
          let outcome: WorkerToolOutcome;
          if (cutShort.has(String(stop)) && index === uses.length - 1) {
            // The reply ended inside this call: its input may be incomplete (a write cut short).
            const text = `error (INCOMPLETE_CALL): your reply was cut at the token limit (stop_reason "${String(stop)}", max_tokens ${maxTokens}) inside this call, so it was not run; send it again with less in it (e.g. split a long write)`;
            task.toolbox.refused?.(use.name, argumentsText(use.input), text);
            outcome = { text, isError: true };
          } else {
            tally.calling = use.name;
            outcome = await task.toolbox.call(
              use.name,
              use.input,
              typeof use.id === "string" && use.id !== "" ? use.id : undefined,
            );
            // A call cut short by a stop is no call made: what it did says it was in it.
            throwIfAborted(task.signal);
            tally.calling = undefined;
          }
          tally.count(use.name, outcome.isError);
          results.push({
            type: "tool_result",
            tool_use_id: use.id,
            content: outcome.text,
            is_error: outcome.isError,
          });
        }
        messages.push({ role: "user", content: results });
      }
      throw turnLimitError(maxTurns, task.label, tally);
    },
  };
}

/**
 * Adds `text` to the last message, a user turn, as a text block after what it holds; a new user
 * turn if the last is not one.
 */
function appendUserText(messages: Anthropic.Messages.MessageParam[], text: string): void {
  const last = messages.at(-1);
  if (last?.role !== "user") {
    messages.push({ role: "user", content: text });
    return;
  }
  const blocks: Anthropic.Messages.ContentBlockParam[] =
    typeof last.content === "string" ? [{ type: "text", text: last.content }] : [...last.content];
  last.content = [...blocks, { type: "text", text }];
}

/**
 * The answer of a reply without tool use; undefined when it is empty (no text, and none of the
 * failures below); throws when it is no answer: cut, refused.
 */
function finalAnswer(
  seen: ReplySeen,
  content: readonly Anthropic.Messages.ContentBlock[],
  stop: unknown,
  tally: CallTally,
  maxTokens: number,
): string | undefined {
  const model = seen.model;
  const fail = (text: string) =>
    new VibeError({ code: "WORKER_FAILED", message: `${text} (after ${tally.summary()})` });
  const text = content
    .filter(
      (block): block is Anthropic.Messages.TextBlock =>
        block.type === "text" && typeof block.text === "string",
    )
    .map((block) => block.text)
    .join("\n");
  const written = text.trim() === "" ? "" : `; it had written: ${bodyStart(text)}`;
  if (stop === "refusal") throw fail(`${model} refused to go on (stop_reason "refusal")${written}`);
  if (cutShort.has(String(stop))) {
    throw fail(
      `the reply of ${model} was cut at its token limit (stop_reason "${String(stop)}", max_tokens ${maxTokens}) before it was done${written}`,
    );
  }
  if (stop === "tool_use") {
    throw fail(
      `${model} ended its turn for tool use (stop_reason "tool_use") but sent no tool_use block; content was ${bodyStart(content)}`,
    );
  }
  return text.trim() === "" ? undefined : text;
}
