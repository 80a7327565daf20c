import { ToolsError } from "@tools/registry";
import {
  createAnthropicBackend,
  createCommandBackend,
  createOpenAiBackend,
  type WorkerBackend,
} from "@tools/vibe";
import { splitCommand } from "./split-command.js";

/** A model API the demo can talk to. */
export type Provider = "openai" | "anthropic";

/**
 * Seconds one model request may wait for its reply in harness-demo (the SDKs' own default is 10
 * minutes, retried twice: half an hour of silence on a server that hangs).
 */
export const defaultModelTimeoutSeconds = 120;

/** Retries of a failed or timed-out model request (the SDK's default). */
export const defaultModelRetries = 2;

/** Model turns of `--model` at most. */
export const defaultModelMaxTurns = 30;

/** Seconds `--model-timeout` may be: below, a timer rounds to nothing; above, a day. */
export const modelTimeoutRange = { min: 0.1, max: 86_400 } as const;

/** Model turns `--max-turns` may be. */
export const maxTurnsRange = { min: 1, max: 10_000 } as const;

/** The environment variables the model backends read, as `--help` lists them. */
export const modelEnvironmentHelp = `Model environment (--model, and serve or interactive --vibe without --vibe-command):
  openai      OPENAI_API_KEY, OPENAI_BASE_URL (any OpenAI-compatible server), OPENAI_MODEL
              (default gpt-5-mini), OPENAI_FAST_MODEL / OPENAI_GOOD_MODEL for vibe's tiers
  anthropic   ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, ANTHROPIC_MODEL (default claude-sonnet-4-5),
              ANTHROPIC_FAST_MODEL / ANTHROPIC_GOOD_MODEL for vibe's tiers
  --vibe picks openai when OPENAI_API_KEY or OPENAI_BASE_URL is set, else anthropic when
  ANTHROPIC_API_KEY or ANTHROPIC_BASE_URL is set (a base URL alone: a local server that needs no key).
  --vibe-command's {model} is the tier's model from OPENAI_FAST_MODEL / OPENAI_GOOD_MODEL (each
  falling back to OPENAI_MODEL), else the ANTHROPIC_ ones; with none set, {model} is refused.
  HARNESS_DEMO_MODEL_TIMEOUT  seconds a model request may wait for its reply before it is retried
              (default ${defaultModelTimeoutSeconds}, from ${modelTimeoutRange.min} to ${modelTimeoutRange.max}; at most ${defaultModelRetries + 1} tries;
              --model-timeout SECONDS for --model)
  HARNESS_DEMO_MAX_TURNS      model turns --model takes at most (default ${defaultModelMaxTurns}, at most ${maxTurnsRange.max}; --max-turns N)`;

const defaults: Record<Provider, { model: string; fast: string; good: string }> = {
  openai: { model: "gpt-5-mini", fast: "gpt-5-mini", good: "gpt-5" },
  anthropic: { model: "claude-sonnet-4-5", fast: "claude-haiku-4-5", good: "claude-sonnet-4-5" },
};

type Env = Readonly<Record<string, string | undefined>>;

function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === "" ? undefined : value;
}

/** The provider's settings from the environment. */
export function modelSettings(provider: Provider, env: Env = process.env) {
  const prefix = provider === "openai" ? "OPENAI" : "ANTHROPIC";
  const model = read(env, `${prefix}_MODEL`) ?? defaults[provider].model;
  const baseURL = read(env, `${prefix}_BASE_URL`);
  const apiKey = read(env, `${prefix}_API_KEY`);
  return {
    model,
    models: {
      fast: read(env, `${prefix}_FAST_MODEL`) ?? read(env, `${prefix}_MODEL`) ?? defaults[provider].fast,
      good: read(env, `${prefix}_GOOD_MODEL`) ?? read(env, `${prefix}_MODEL`) ?? defaults[provider].good,
    },
    ...(baseURL === undefined ? {} : { baseURL }),
    ...(apiKey === undefined ? {} : { apiKey }),
  };
}

/**
 * A number in `range` from a flag or variable (`what` names it), else the fallback. Bounded so
 * that no value overflows a Node timer (2^31−1 ms) or rounds to a 0 ms one.
 */
function bounded(
  value: string | undefined,
  what: string,
  fallback: number,
  range: { readonly min: number; readonly max: number },
  integer: boolean,
): number {
  if (value === undefined || value.trim() === "") return fallback;
  const number = Number(value);
  if (
    !Number.isFinite(number) ||
    number < range.min ||
    number > range.max ||
    (integer && !Number.isInteger(number))
  ) {
    const kind = integer ? "a whole number" : "a number of seconds";
    const day = integer ? "" : " (24 h)";
    throw new ToolsError({
      code: "USAGE",
      message: `${what} must be ${kind} from ${range.min} to ${range.max}${day}, not '${value}'`,
    });
  }
  return number;
}

/**
 * The limits of a model run: `--model-timeout` (seconds) over `HARNESS_DEMO_MODEL_TIMEOUT` over
 * {@link defaultModelTimeoutSeconds}; `--max-turns` over `HARNESS_DEMO_MAX_TURNS` over
 * {@link defaultModelMaxTurns}. Throws `USAGE` for a value outside {@link modelTimeoutRange}
 * (seconds) or {@link maxTurnsRange} (a whole number).
 */
export function modelLimits(
  env: Env = process.env,
  flags: { timeoutSeconds?: string; maxTurns?: string } = {},
): { requestTimeoutMs: number; maxTurns: number; maxRetries: number } {
  const seconds =
    flags.timeoutSeconds === undefined
      ? bounded(
          read(env, "HARNESS_DEMO_MODEL_TIMEOUT"),
          "HARNESS_DEMO_MODEL_TIMEOUT",
          defaultModelTimeoutSeconds,
          modelTimeoutRange,
          false,
        )
      : bounded(
          flags.timeoutSeconds,
          "--model-timeout",
          defaultModelTimeoutSeconds,
          modelTimeoutRange,
          false,
        );
  const maxTurns =
    flags.maxTurns === undefined
      ? bounded(
          read(env, "HARNESS_DEMO_MAX_TURNS"),
          "HARNESS_DEMO_MAX_TURNS",
          defaultModelMaxTurns,
          maxTurnsRange,
          true,
        )
      : bounded(flags.maxTurns, "--max-turns", defaultModelMaxTurns, maxTurnsRange, true);
  return { requestTimeoutMs: Math.round(seconds * 1000), maxTurns, maxRetries: defaultModelRetries };
}

/**
 * The model backend of `provider`, configured from the environment; its requests time out after
 * `HARNESS_DEMO_MODEL_TIMEOUT` seconds (default {@link defaultModelTimeoutSeconds}) unless
 * `extra.requestTimeoutMs` says otherwise.
 */
export function modelBackend(
  provider: Provider,
  env: Env = process.env,
  extra: { maxTurns?: number; requestTimeoutMs?: number; instructions?: string; oneModel?: boolean } = {},
): WorkerBackend {
  const settings = modelSettings(provider, env);
  const { baseURL, apiKey } = settings;
  const models = extra.oneModel ? { fast: settings.model, good: settings.model } : settings.models;
  if (apiKey === undefined && baseURL === undefined) {
    throw new ToolsError({
      code: "USAGE",
      message: `the ${provider} backend needs ${provider === "openai" ? "OPENAI_API_KEY (or OPENAI_BASE_URL for a local server)" : "ANTHROPIC_API_KEY (or ANTHROPIC_BASE_URL for a local server)"} in the environment`,
    });
  }
  const options = {
    models,
    ...(baseURL === undefined ? {} : { baseURL }),
    // A local server may need no key; the SDKs still want one (sent, and ignored there).
    apiKey: apiKey ?? "no-key",
    ...(extra.maxTurns === undefined ? {} : { maxTurns: extra.maxTurns }),
    requestTimeoutMs: extra.requestTimeoutMs ?? modelLimits(env).requestTimeoutMs,
    maxRetries: defaultModelRetries,
    ...(extra.instructions === undefined ? {} : { instructions: extra.instructions }),
  };
  return provider === "openai" ? createOpenAiBackend(options) : createAnthropicBackend(options);
}

/**
 * The vibe backend of `serve --vibe`: the command backend when `command` is given (split into
 * words as sh does, quotes and backslashes included, see {@link splitCommand}; `{tier}`,
 * `{model}`, `{label}`, `{workerId}`, `{cwd}` placeholders), else the model backend the
 * environment configures: openai when `OPENAI_API_KEY` or `OPENAI_BASE_URL` is set, else
 * anthropic when `ANTHROPIC_API_KEY` or `ANTHROPIC_BASE_URL` is.
 */
export function vibeBackend(command: string | undefined, env: Env = process.env): WorkerBackend {
  if (command !== undefined) {
    const argv = splitCommand(command);
    const models = commandModels(env);
    if (models === undefined && argv.some((part) => part.includes("{model}"))) {
      throw new ToolsError({
        code: "USAGE",
        message:
          "--vibe-command uses {model}, but no model is set for it: set OPENAI_FAST_MODEL and OPENAI_GOOD_MODEL (or OPENAI_MODEL for both), or the ANTHROPIC_ ones, or leave {model} out",
      });
    }
    return createCommandBackend({ command: argv, ...(models === undefined ? {} : { models }) });
  }
  if (read(env, "OPENAI_API_KEY") !== undefined || read(env, "OPENAI_BASE_URL") !== undefined)
    return modelBackend("openai", env);
  if (read(env, "ANTHROPIC_API_KEY") !== undefined || read(env, "ANTHROPIC_BASE_URL") !== undefined)
    return modelBackend("anthropic", env);
  throw new ToolsError({
    code: "USAGE",
    message:
      "--vibe needs a worker backend: --vibe-command CMD, or OPENAI_API_KEY / OPENAI_BASE_URL, or ANTHROPIC_API_KEY / ANTHROPIC_BASE_URL in the environment",
  });
}

/**
 * The models of `--vibe-command`'s `{model}`: OPENAI_FAST_MODEL / OPENAI_GOOD_MODEL (each falling
 * back to OPENAI_MODEL) when either tier is set that way, else the ANTHROPIC_ ones; undefined when
 * neither provider names a model for both tiers (no default: the CLI is not necessarily either's).
 */
export function commandModels(env: Env = process.env): { fast: string; good: string } | undefined {
  for (const prefix of ["OPENAI", "ANTHROPIC"]) {
    const fast = read(env, `${prefix}_FAST_MODEL`) ?? read(env, `${prefix}_MODEL`);
    const good = read(env, `${prefix}_GOOD_MODEL`) ?? read(env, `${prefix}_MODEL`);
    if (fast !== undefined && good !== undefined) return { fast, good };
  }
  return undefined;
}
