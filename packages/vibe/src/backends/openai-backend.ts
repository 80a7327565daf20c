import { rejectOnAbort } from "@tools/registry";
import OpenAI from "openai";
import type {
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
} from "openai/resources/chat/completions";
import { VibeError } from "../errors/vibe-error.js";
import { openAiApiKey } from "./api-key.js";
import { throwIfAborted } from "../internal/abort.js";
import { CallTally } from "./call-tally.js";
import { modelError } from "./model-error.js";
import { noPooling, type ModelBackendOptions } from "./model-backend-options.js";
import {
  argumentsText,
  bodyStart,
  emptyReplyError,
  emptyReplyNudge,
  isRecord,
  notAReply,
  parseArguments,
  replySeen,
  type ReplySeen,
} from "./model-reply.js";
import { RequestWatch } from "./request-watch.js";
import type { WorkerBackend, WorkerTask, WorkerToolOutcome } from "./worker-backend.js";
import { defaultWorkerInstructions, turnLimitError } from "./worker-instructions.js";

/**
 * A model backend on the OpenAI-compatible Chat Completions API (OpenAI, or any server that
 * speaks it: vLLM, Ollama, LiteLLM, …) through the official `openai` SDK. Each worker is an agent
 * loop: the brief and the worker surface's tools go to the tier's model, its tool calls run
 * through the registry, their results go back, until it answers without tool calls. The key is
 * `apiKey`, else `OPENAI_API_KEY`, else a placeholder when `baseURL` names a server (a local one
 * often needs none); with neither it throws `INVALID_BACKEND_CONFIG` saying what to set.
 *
 * A reply that is not a chat completion, one cut at the token limit (`finish_reason` "length")
 * or stopped by a content filter fails the worker, saying so; an empty answer is told so once
 * ({@link emptyReplyNudge}) and fails the worker when the next is empty too; tool calls
 * whose arguments are an object are taken as they are, and missing or broken arguments go back to
 * the model as an INVALID_ARGUMENTS error.
 */
export function createOpenAiBackend(options: ModelBackendOptions): WorkerBackend {
  const apiKey = openAiApiKey(options);
  const timeoutMs = options.requestTimeoutMs ?? 600_000;
  const maxRetries = options.maxRetries ?? 2;
  const clientWith = (fetch?: typeof globalThis.fetch) =>
    new OpenAI({
      apiKey,
      ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
      maxRetries,
      timeout: timeoutMs,
      ...(fetch === undefined ? {} : { fetch }),
    });
  const baseURL = clientWith().baseURL;
  const maxTurns = options.maxTurns ?? 30;
  const instructions = options.instructions ?? defaultWorkerInstructions;
  return {
    gated: true,
    description: `OpenAI-compatible API at ${baseURL} (fast: ${options.models.fast}, good: ${options.models.good})`,
    async perform(task: WorkerTask): Promise<string> {
      const model = options.models[task.tier];
      // A client per attempt: its requests are watched for this worker's progress line.
      const watch = new RequestWatch(noPooling(options).fetch ?? globalThis.fetch, { timeoutMs, maxRetries });
      const client = clientWith(watch.fetch);
      const tools = task.toolbox.openAiTools();
      const messages: ChatCompletionMessageParam[] = [
        { role: "system", content: instructions },
        { role: "user", content: task.brief },
      ];
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
          // A server's retry-after is waited out in the watch's fetch, where a kill ends it; the
          // SDK's own short backoff (no retry-after) ignores the signal: a kill does not wait for it.
          reply = await rejectOnAbort(
            client.chat.completions
              .create(
                {
                  model,
                  messages,
                  ...(tools.length > 0
                    ? { tools: tools as OpenAI.Chat.Completions.ChatCompletionTool[] }
                    : {}),
                  ...(options.maxTokens === undefined ? {} : { max_completion_tokens: options.maxTokens }),
                },
                { signal: task.signal },
              )
              .withResponse(),
            task.signal,
          );
        } catch (error) {
          throw modelError(
            error,
            task.signal,
            model,
            watch,
            "the backend's apiKey (or OPENAI_API_KEY)",
            baseURL,
          );
        }
        const seen = replySeen(baseURL, model, reply);
        const { message, finish } = readCompletion(seen);
        const calls = readToolCalls(message["tool_calls"], turn);
        const content = messageText(message["content"]);
        messages.push({
          role: "assistant",
          content: content === "" ? null : content,
          ...(calls.length > 0 ? { tool_calls: calls.map(toHistory) } : {}),
        });
        if (calls.length === 0) {
          const answer = finalAnswer(seen, message, finish, content, tally, options.maxTokens);
          if (answer !== undefined) return answer;
          const empty = `${model} answered with an empty reply (finish_reason ${JSON.stringify(finish ?? null)}, no text and no tool calls)`;
          if (nudgedAt !== undefined || turn === maxTurns) throw emptyReplyError(empty, nudgedAt, tally);
          // Once: the empty turn leaves the history (an assistant message needs content or calls).
          nudgedAt = turn;
          messages.pop();
          messages.push({ role: "user", content: emptyReplyNudge });
          task.progress(`turn ${turn}: ${model} sent an empty reply; asking it once for its final answer`);
          continue;
        }
        for (const call of calls) {
          throwIfAborted(task.signal);
          task.progress(`turn ${turn}: calling ${call.name}`);
          const parsed = parseArguments(call.rawArguments);
          let outcome: WorkerToolOutcome;
          if (parsed.ok) {
            tally.calling = call.name;
            outcome = await task.toolbox.call(call.name, parsed.value, call.id);
            // A call cut short by a stop is no call made: what it did says it was in it.
            throwIfAborted(task.signal);
            tally.calling = undefined;
          } else {
            const text =
              finish === "length"
                ? `${parsed.message} (your reply was cut at the token limit: send the call again with less in it)`
                : parsed.message;
            task.toolbox.refused?.(call.name, argumentsText(call.rawArguments), text);
            outcome = { text, isError: true };
          }
          tally.count(call.name, outcome.isError);
          messages.push({ role: "tool", tool_call_id: call.id, content: outcome.text });
        }
      }
      throw turnLimitError(maxTurns, task.label, tally);
    },
  };
}

/** A tool call as read from a reply, whatever shape the server gave it. */
interface ReadCall {
  readonly id: string;
  readonly name: string;
  readonly rawArguments: unknown;
}

/** The first choice's message and finish reason, or the error saying the reply is no completion. */
function readCompletion(seen: ReplySeen): { message: Record<string, unknown>; finish: unknown } {
  const body = seen.body;
  const choice =
    isRecord(body) && Array.isArray(body["choices"]) ? (body["choices"][0] as unknown) : undefined;
  if (!isRecord(choice) || !isRecord(choice["message"]))
    throw notAReply(seen, "a chat completion with a choice");
  return { message: choice["message"], finish: choice["finish_reason"] };
}

/**
 * The calls of `tool_calls` that name a function: `type` "function" or no `type` at all (some
 * compatible servers leave it out), arguments as text, an object or missing (parsed later).
 */
function readToolCalls(raw: unknown, turn: number): ReadCall[] {
  if (!Array.isArray(raw)) return [];
  const calls: ReadCall[] = [];
  raw.forEach((entry: unknown, index) => {
    if (!isRecord(entry) || !isRecord(entry["function"])) return;
    const fn = entry["function"];
    if (typeof fn["name"] !== "string" || fn["name"] === "") return;
    const id = typeof entry["id"] === "string" && entry["id"] !== "" ? entry["id"] : `call_${turn}_${index}`;
    calls.push({ id, name: fn["name"], rawArguments: fn["arguments"] });
  });
  return calls;
}

/** A call as the next request's history carries it: the API's own shape, arguments as text. */
function toHistory(call: ReadCall): ChatCompletionMessageToolCall {
  const raw = call.rawArguments;
  const text = typeof raw === "string" ? raw : isRecord(raw) ? JSON.stringify(raw) : "{}";
  return { id: call.id, type: "function", function: { name: call.name, arguments: text } };
}

/** A message's text: a string, or the text parts of a content array. */
function messageText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part: unknown) => (isRecord(part) && typeof part["text"] === "string" ? part["text"] : ""))
    .join("");
}

/**
 * The answer of a reply without tool calls; undefined when it is empty (no text, and none of the
 * failures below); throws when it is no answer: cut, filtered, refused.
 */
function finalAnswer(
  seen: ReplySeen,
  message: Record<string, unknown>,
  finish: unknown,
  content: string,
  tally: CallTally,
  maxTokens: number | undefined,
): string | undefined {
  const model = seen.model;
  const fail = (text: string) =>
    new VibeError({ code: "WORKER_FAILED", message: `${text} (after ${tally.summary()})` });
  const refusal = message["refusal"];
  if (typeof refusal === "string" && refusal.trim() !== "") throw fail(`${model} refused: ${refusal}`);
  const written = content.trim() === "" ? "" : `; it had written: ${bodyStart(content)}`;
  if (finish === "length") {
    throw fail(
      `the reply of ${model} was cut at its token limit (finish_reason "length"${maxTokens === undefined ? "" : `, max_completion_tokens ${maxTokens}`}) before it was done${written}`,
    );
  }
  if (finish === "content_filter") {
    throw fail(
      `the provider's content filter stopped the reply of ${model} (finish_reason "content_filter")${written}`,
    );
  }
  if (finish === "tool_calls") {
    throw fail(
      `${model} ended its turn to call tools (finish_reason "tool_calls") but sent no call naming a function; tool_calls was ${bodyStart(message["tool_calls"] ?? null)}`,
    );
  }
  return content.trim() === "" ? undefined : content;
}
