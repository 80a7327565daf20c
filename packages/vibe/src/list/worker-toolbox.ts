import {
  defineSurface,
  resultText,
  type AnthropicToolSchema,
  type OpenAiToolSchema,
  type Registry,
  type Run,
  type Surface,
  type Tier,
  tierWithin,
} from "@tools/registry";
import type { WorkerToolbox } from "../backends/worker-backend.js";
import { boundWholeText } from "../internal/whole-characters.js";

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

/**
 * Tools a worker never gets besides the vibe_* ones: `ask_user`. A worker works from its brief
 * and does not question the operator (many workers at once would be noise, and the lead wrote the
 * brief): it makes the reasonable choice and says in its answer what it assumed or left open.
 */
export const workerHiddenTools: ReadonlySet<string> = new Set([...vibeToolNames, "ask_user"]);

/** Most characters of one tool result a worker's model reads. */
const maxToolResultChars = 20_000;

/**
 * A worker's tools: the run's tools on `surface` up to `cap` (its spawner's), called with the worker's signal and named as
 * `caller` (so the approval card says which worker asks).
 */
export function createWorkerToolbox(
  registry: Registry,
  run: Run,
  surface: Surface,
  cap: Tier,
  signal: AbortSignal,
  caller?: string,
  onApproval?: (waiting: boolean) => void,
): WorkerToolbox {
  // A worker has at most its spawner's tools: one spawned from plan mode only reads.
  const capped = !tierWithin(surface.cap, cap);
  const workerSurface = defineSurface({
    name: surface.name,
    cap: capped ? cap : surface.cap,
    gated: surface.gated,
    label: capped ? `${surface.label} spawned with ${cap} tools only` : surface.label,
    hides: [...(surface.hides ?? []), ...workerHiddenTools],
  });
  return {
    openAiTools: () => registry.schema(run, workerSurface, "openai") as OpenAiToolSchema[],
    anthropicTools: () => registry.schema(run, workerSurface, "anthropic") as AnthropicToolSchema[],
    async call(tool, args) {
      if (tool === "ask_user") {
        return {
          text: "ask_user is not available to a background worker: make the most reasonable choice, and say in your answer what you assumed or what the lead should ask the operator.",
          isError: true,
        };
      }
      if (vibeToolNames.has(tool)) {
        return {
          text: `${tool} is not available to a background worker: workers do not start or steer other workers. Do the work with the other tools, or say in your answer what should be delegated.`,
          isError: true,
        };
      }
      // Tells the worker when one of its calls waits for the operator's card, and when it is answered.
      const off =
        onApproval && caller
          ? registry.on((event) => {
              if (event.type === "call-approval" && event.caller === caller)
                onApproval(event.state === "asked");
            })
          : undefined;
      let result;
      try {
        result = await registry.invoke(run, {
          tool,
          args,
          surface: workerSurface,
          signal,
          ...(caller ? { caller } : {}),
        });
      } finally {
        off?.();
      }
      // Cut between whole characters: half an emoji at the cut would go to the model server.
      const text = boundWholeText(resultText(result), { maxLines: 2000, maxChars: maxToolResultChars });
      return {
        text: result.isError ? `error (${result.error?.code ?? "TOOL_FAILED"}): ${text}` : text,
        isError: result.isError,
      };
    },
  };
}
