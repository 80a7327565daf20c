import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { VibeError, type VibeErrorCode } from "../errors/vibe-error.js";
import { abortReason } from "../internal/abort.js";
import type { RequestWatch } from "./request-watch.js";

/**
 * What an API status says about a failed model request: the backend's configuration is wrong
 * (a key refused, a model or URL not found: no rerun can help), or the server is unavailable for
 * now (rate limited, failing, not answering: a rerun later may work).
 */
function statusCode(status: number): VibeErrorCode {
  if (status === 401 || status === 403 || status === 404) return "INVALID_BACKEND_CONFIG";
  if (status === 408 || status === 409 || status === 429 || status >= 500) return "MODEL_UNAVAILABLE";
  return "WORKER_FAILED";
}

/** What to check for a status that names a configuration error; `keySource` says where the key comes from. */
function configHint(status: number, keySource: string): string | undefined {
  if (status === 401) return `the server refused the API key: check ${keySource}`;
  if (status === 403)
    return `the server does not let this API key make the request: check ${keySource} and what the key may use`;
  if (status === 404)
    return "the server has no such model or endpoint: check the backend's models and baseURL";
  return undefined;
}

/** True for an SDK's failure to get any reply: no connection, or no answer in time. */
function isConnectionError(error: unknown): boolean {
  return error instanceof OpenAI.APIConnectionError || error instanceof Anthropic.APIConnectionError;
}

/**
 * An SDK failure as the worker's failure: the abort reason when cancelled, else the API error,
 * typed by what it says: `INVALID_BACKEND_CONFIG` (401, 403, 404: the configuration must change),
 * `MODEL_UNAVAILABLE` (429, 5xx, no connection or no reply in time, after the SDK's retries: the
 * server, not the task), else `WORKER_FAILED`. A timeout says the limits it ran into (`watch`);
 * a refused key says where it comes from (`keySource`: "the backend's apiKey (or OPENAI_API_KEY)").
 */
export function modelError(
  error: unknown,
  signal: AbortSignal,
  model: string,
  watch: RequestWatch,
  keySource: string,
): Error {
  if (signal.aborted) return abortReason(signal);
  const message = error instanceof Error ? error.message : String(error);
  const timedOut = /timed out/i.test(message);
  const status =
    error instanceof OpenAI.APIError || error instanceof Anthropic.APIError ? error.status : undefined;
  const code =
    status !== undefined
      ? statusCode(status)
      : isConnectionError(error)
        ? "MODEL_UNAVAILABLE"
        : "WORKER_FAILED";
  const hint = status === undefined ? undefined : configHint(status, keySource);
  const detail = timedOut
    ? ` (${watch.describe()})`
    : hint !== undefined
      ? ` (${hint})`
      : watch.tries > 1
        ? ` (after ${watch.tries} tries)`
        : "";
  return new VibeError({
    code,
    message: `the model request to ${model} failed: ${message}${detail}`,
    cause: error,
    ...(status === undefined ? {} : { data: { status } }),
  });
}
