import { z } from "zod";
import { VibeError } from "../errors/vibe-error.js";
import { createAnthropicBackend } from "./anthropic-backend.js";
import { createCommandBackend } from "./command-backend.js";
import { createOpenAiBackend } from "./openai-backend.js";
import type { WorkerBackend } from "./worker-backend.js";

const tierModels = z.object({ fast: z.string().min(1), good: z.string().min(1) });

const modelOptions = {
  models: tierModels,
  baseURL: z.string().url().optional(),
  apiKey: z.string().optional(),
  maxTurns: z.number().int().positive().optional(),
  maxTokens: z.number().int().positive().optional(),
  maxRetries: z.number().int().nonnegative().optional(),
  requestTimeoutMs: z.number().int().positive().optional(),
  instructions: z.string().optional(),
  keepAlive: z.boolean().optional(),
};

/** The configuration of a backend, as a harness reads it from its settings (JSON). */
export const backendConfigSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("openai"), ...modelOptions }).strict(),
  z.object({ kind: z.literal("anthropic"), ...modelOptions }).strict(),
  z
    .object({
      kind: z.literal("command"),
      command: z.array(z.string()).min(1),
      models: tierModels.optional(),
      env: z.record(z.string(), z.string()).optional(),
      graceMs: z.number().int().nonnegative().optional(),
      maxResultChars: z.number().int().positive().optional(),
    })
    .strict(),
]);

/**
 * A backend configuration: `kind: "openai"` (any OpenAI-compatible chat API), `"anthropic"`, or
 * `"command"` (an external agent CLI). Example:
 * `{ kind: "openai", baseURL: "http://127.0.0.1:8000/v1", models: { fast: "small", good: "large" } }`.
 */
export type BackendConfig = z.input<typeof backendConfigSchema>;

/** Builds the configured backend; throws `INVALID_BACKEND_CONFIG` saying what is wrong. */
export function createBackend(config: unknown): WorkerBackend {
  const parsed = backendConfigSchema.safeParse(config);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map((issue) => `${issue.path.join(".") || "(config)"}: ${issue.message}`)
      .join("; ");
    throw new VibeError({
      code: "INVALID_BACKEND_CONFIG",
      message: `invalid vibe backend configuration: ${problems}. Expected kind "openai" or "anthropic" with models { fast, good }, or kind "command" with a command argv.`,
    });
  }
  const data = parsed.data;
  switch (data.kind) {
    case "openai":
      return createOpenAiBackend(data);
    case "anthropic":
      return createAnthropicBackend(data);
    case "command":
      return createCommandBackend(data);
  }
}
