import {
  boundText,
  defineSurface,
  resultText,
  type AnthropicToolSchema,
  type OpenAiToolSchema,
  type Registry,
  type Run,
  type Surface,
} from "@tools/registry";
import type { WorkerToolbox } from "../backends/worker-backend.js";

/**
 * The vibe_* tools: hidden from a worker's surface, so a worker never starts or steers workers,
 * neither directly nor from inside another tool's call (an eval cell calling `tool(...)`).
 */
export const vibeToolNames: ReadonlySet<string> = new Set([
  "vibe_spawn",
  "vibe_send",
  "vibe_wait",
  "vibe_kill",
  "vibe_list",
]);

/** Most characters of one tool result a worker's model reads. */
const maxToolResultChars = 20_000;

/**
 * A worker's tools: the run's tools on `surface`, called with the worker's signal and named as
 * `caller` (so the approval card says which worker asks).
 */
export function createWorkerToolbox(
  registry: Registry,
  run: Run,
  surface: Surface,
  signal: AbortSignal,
  caller?: string,
): WorkerToolbox {
  const workerSurface = defineSurface({
    name: surface.name,
    cap: surface.cap,
    gated: surface.gated,
    label: surface.label,
    hides: [...(surface.hides ?? []), ...vibeToolNames],
  });
  return {
    openAiTools: () => registry.schema(run, workerSurface, "openai") as OpenAiToolSchema[],
    anthropicTools: () => registry.schema(run, workerSurface, "anthropic") as AnthropicToolSchema[],
    async call(tool, args) {
      if (vibeToolNames.has(tool)) {
        return {
          text: `${tool} is not available to a background worker: workers do not start or steer other workers. Do the work with the other tools, or say in your answer what should be delegated.`,
          isError: true,
        };
      }
      const result = await registry.invoke(run, {
        tool,
        args,
        surface: workerSurface,
        signal,
        ...(caller ? { caller } : {}),
      });
      const text = boundText(resultText(result), { maxLines: 2000, maxChars: maxToolResultChars }).text;
      return {
        text: result.isError ? `error (${result.error?.code ?? "TOOL_FAILED"}): ${text}` : text,
        isError: result.isError,
      };
    },
  };
}
