import { VibeError } from "../errors/vibe-error.js";

/**
 * The key sent to a server named by a base URL when no key is set: a local OpenAI- or
 * Anthropic-compatible server (vLLM, Ollama, LiteLLM, …) often checks none, but the SDKs send one.
 */
export const placeholderApiKey = "no-key";

/** A variable of the environment, undefined when unset or empty. */
function env(name: string): string | undefined {
  const value = process.env[name];
  return value === undefined || value === "" ? undefined : value;
}

/**
 * The key of the openai backend: `apiKey`, else `OPENAI_API_KEY`, else {@link placeholderApiKey}
 * when a base URL is given (`baseURL` or `OPENAI_BASE_URL`). Without any of them it throws
 * `INVALID_BACKEND_CONFIG` saying what to set (the SDK would throw its own "Missing credentials").
 */
export function openAiApiKey(options: { apiKey?: string; baseURL?: string }): string {
  const key = options.apiKey || env("OPENAI_API_KEY");
  if (key) return key;
  if (options.baseURL || env("OPENAI_BASE_URL")) return placeholderApiKey;
  throw new VibeError({
    code: "INVALID_BACKEND_CONFIG",
    message:
      "the openai backend has no API key: set OPENAI_API_KEY or pass apiKey in the backend configuration; " +
      'for a local OpenAI-compatible server that needs no key, give its baseURL (e.g. "http://127.0.0.1:8000/v1")',
  });
}

/**
 * The key of the anthropic backend: `apiKey`; else undefined, so that the SDK reads
 * `ANTHROPIC_API_KEY`, `ANTHROPIC_AUTH_TOKEN` or its credential profiles — unless a base URL is
 * given (`baseURL` or `ANTHROPIC_BASE_URL`) and neither variable is set: then
 * {@link placeholderApiKey}. An empty key is not a key: passing one would disable every other
 * credential and send an empty one.
 */
export function anthropicApiKey(options: { apiKey?: string; baseURL?: string }): string | undefined {
  if (options.apiKey) return options.apiKey;
  if (env("ANTHROPIC_API_KEY") || env("ANTHROPIC_AUTH_TOKEN")) return undefined;
  if (options.baseURL || env("ANTHROPIC_BASE_URL")) return placeholderApiKey;
  return undefined;
}

/** What the anthropic SDK says when it found no credential at all (at the first request). */
const noAnthropicCredential = /Could not resolve authentication method/;

/** The anthropic SDK's "no credential" failure as a configuration error that says what to set. */
export function anthropicCredentialError(error: unknown): VibeError | undefined {
  if (!(error instanceof Error) || !noAnthropicCredential.test(error.message)) return undefined;
  return new VibeError({
    code: "INVALID_BACKEND_CONFIG",
    message:
      "the anthropic backend has no credentials: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN) or pass apiKey " +
      "in the backend configuration; for a local Anthropic-compatible server that needs no key, give its baseURL",
    cause: error,
  });
}
