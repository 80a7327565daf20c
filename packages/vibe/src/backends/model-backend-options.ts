import { createNodeHttpFetch } from "../internal/node-http-fetch.js";
import type { TierModels } from "./worker-backend.js";

/** Options of the model backends ({@link createOpenAiBackend}, {@link createAnthropicBackend}). */
export interface ModelBackendOptions {
  /** The model of each tier, e.g. `{ fast: "gpt-5-mini", good: "gpt-5" }`. */
  models: TierModels;
  /** The API's base URL; default the SDK's (and its environment variable). */
  baseURL?: string;
  /**
   * Default from `OPENAI_API_KEY` / `ANTHROPIC_API_KEY` (or `ANTHROPIC_AUTH_TOKEN`); with none set
   * and `baseURL` given, the placeholder "no-key" (a local server often checks none).
   */
  apiKey?: string;
  /** Most model turns (requests) per attempt; default 30. */
  maxTurns?: number;
  /** Most output tokens per turn; the Anthropic backend needs one and defaults to 8192. */
  maxTokens?: number;
  /** Retries of a failed request (5xx, connection errors), done by the SDK; default 2. */
  maxRetries?: number;
  /** Timeout of one request, in milliseconds; default 600 000. */
  requestTimeoutMs?: number;
  /** The system prompt; default {@link defaultWorkerInstructions}. */
  instructions?: string;
  /**
   * Use Node's global fetch and its shared connection pool. Default false: each request gets its
   * own connection on node:http, closed with its response or destroyed when the worker stops, so
   * a finished or killed worker leaves no socket open.
   */
  keepAlive?: boolean;
}

/** The SDK client options that keep a worker's connections its own (see `keepAlive`). */
export function noPooling(options: ModelBackendOptions): { fetch?: typeof fetch } {
  return options.keepAlive ? {} : { fetch: createNodeHttpFetch() };
}
