import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { VibeError, type VibeErrorCode } from "../errors/vibe-error.js";
import { abortReason } from "../internal/abort.js";
import type { RequestWatch } from "./request-watch.js";

/**
 * What a failed request's status says about it: the backend's configuration or account is wrong
 * (a key refused, a model or URL not found, no payment or quota left: no rerun can help), as
 * `configHint` (given) tells it, or the server is unavailable for now (rate limited, failing, not
 * answering: a rerun later may work).
 */
function statusCode(status: number, configHint: string | undefined): VibeErrorCode {
  if (configHint !== undefined) return "INVALID_BACKEND_CONFIG";
  if (status === 408 || status === 409 || status === 429 || status >= 500) return "MODEL_UNAVAILABLE";
  return "WORKER_FAILED";
}

/** The code of OpenAI's 429 for an account whose quota (or credit) is used up, not a rate limit. */
const quotaCode = "insufficient_quota";

/**
 * What to check for a status that names a configuration error (401, 402, 403, 404, a 429 whose
 * code is `insufficient_quota`), else undefined; `keySource` says where the key comes from.
 */
function configHint(status: number, code: unknown, keySource: string): string | undefined {
  if (status === 401) return `the server refused the API key: check ${keySource}`;
  if (status === 402 || (status === 429 && code === quotaCode))
    return `the account of the API key has no credit or quota left: check its plan and billing (the key: ${keySource}); waiting does not help`;
  if (status === 403)
    return `the server does not let this API key make the request: check ${keySource} and what the key may use`;
  if (status === 404)
    return "the server has no such model or endpoint: check the backend's models and baseURL";
  return undefined;
}

/** Codes of a connection that found no server: a wrong host or port in the baseURL, or one not running. */
const noServerCodes = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN"]);

/** The system error code (ECONNREFUSED, ENOTFOUND, …) somewhere on `error`'s cause chain. */
function systemCode(error: unknown): string | undefined {
  for (let at: unknown = error, depth = 0; at instanceof Error && depth < 5; depth++) {
    const code = (at as { code?: unknown }).code;
    if (typeof code === "string" && noServerCodes.has(code)) return code;
    at = at.cause;
  }
  return undefined;
}

/** The host and port of `baseURL` ("127.0.0.1:8000"), or the URL as given when it is none. */
function hostOf(baseURL: string): string {
  try {
    return new URL(baseURL).host;
  } catch {
    return baseURL;
  }
}

/** True for an SDK's failure to get any reply: no connection, or no answer in time. */
function isConnectionError(error: unknown): boolean {
  return error instanceof OpenAI.APIConnectionError || error instanceof Anthropic.APIConnectionError;
}

/**
 * An SDK failure as the worker's failure: the abort reason when cancelled, else the API error,
 * typed by what it says: `INVALID_BACKEND_CONFIG` (401, 402, 403, 404, a 429 whose code is
 * `insufficient_quota`: the configuration or the account must change), `MODEL_UNAVAILABLE` (429,
 * 5xx, no connection or no reply in time, after the SDK's retries: the server, not the task), else
 * `WORKER_FAILED`. A timeout says the limits it ran into (`watch`); a refused key says where it
 * comes from (`keySource`: "the backend's apiKey (or OPENAI_API_KEY)"); a connection that found no
 * server (refused, unknown host) names the host of `baseURL` and asks to check it.
 */
export function modelError(
  error: unknown,
  signal: AbortSignal,
  model: string,
  watch: RequestWatch,
  keySource: string,
  baseURL: string,
): Error {
  if (signal.aborted) return abortReason(signal);
  const message = error instanceof Error ? error.message : String(error);
  const timedOut = /timed out/i.test(message);
  const apiError =
    error instanceof OpenAI.APIError || error instanceof Anthropic.APIError ? error : undefined;
  const status = apiError?.status;
  const errorCode: unknown = error instanceof OpenAI.APIError ? error.code : undefined;
  const connection = isConnectionError(error);
  const noServer = connection ? systemCode(error) : undefined;
  const statusHint = status !== undefined ? configHint(status, errorCode, keySource) : undefined;
  const code =
    status !== undefined
      ? statusCode(status, statusHint)
      : connection
        ? "MODEL_UNAVAILABLE"
        : "WORKER_FAILED";
  const hint =
    status !== undefined
      ? statusHint
      : noServer !== undefined
        ? `${noServer === "ECONNREFUSED" ? "nothing accepted the connection at" : "the host could not be found:"} ${hostOf(baseURL)}: check the backend's baseURL, and that the model server there is running`
        : undefined;
  const tries = watch.tries > 1 ? `after ${watch.tries} tries; ` : "";
  const detail = timedOut
    ? ` (${watch.describe()})`
    : hint !== undefined
      ? ` (${status === undefined ? tries : ""}${hint})`
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
