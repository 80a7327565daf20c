import { boundText, type Run } from "@tools/registry";
import type { WorkerBackend } from "../backends/worker-backend.js";
import { vibeListKey } from "../list/vibe-list.js";

/**
 * The run's worker backend when its workers act without the approval gate (a command backend's
 * CLI edits and runs commands itself), else undefined. vibe_spawn and vibe_send are then exec
 * tools in the run: each call is approved, and read-capped surfaces do not see them.
 */
export function ungatedBackend(run: Run): WorkerBackend | undefined {
  const backend = run.get(vibeListKey)?.backend;
  return backend && !backend.gated ? backend : undefined;
}

/** What the approval card of an ungated vibe_spawn or vibe_send says after its first line. */
export function ungatedCardText(backend: WorkerBackend, text: string): string {
  const shown = boundText(text, { maxChars: 2000, maxLines: 40 }).text;
  return `runs ${backend.description} UNGATED: its edits and commands do not ask for approval. Brief:\n${shown}`;
}
