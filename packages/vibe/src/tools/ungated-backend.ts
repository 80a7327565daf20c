import { headOf, type Run } from "@tools/registry";
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

/**
 * Longest summary of an ungated vibe_spawn or vibe_send, in characters. The permission card folds
 * a summary over 500 characters (keeping its start and end), so a summary within this bound is
 * shown whole; the arguments, brief and message in full, travel on the card's arguments line and
 * field.
 */
export const ungatedSummaryLimit = 480;
/** Most of the backend's description (a command with its arguments) a summary shows. */
const descriptionLimit = 100;
/** Most lines of typed text (a brief, a message) a summary shows. */
const textLineLimit = 12;

/** A short name of the program a backend runs: "claude" for `command /usr/bin/claude -p …`. */
function programName(backend: WorkerBackend): string {
  const words = backend.description
    .replace(/^command\s+/, "")
    .trim()
    .split(/\s+/);
  const program = (words[0] ?? "").split("/").pop() || backend.description;
  return clip(program, 40);
}

/** `text` cut to at most `max` characters, a note saying how much was left out. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 0) return "";
  const note = (left: number) => ` …[${left} more characters]`;
  const room = Math.max(0, max - note(text.length).length);
  if (room === 0) return headOf(text, max);
  const head = headOf(text, room);
  return `${head}${note(text.length - head.length)}`;
}

/** `text` kept to `maxLines` lines and `maxChars` characters, the start kept. */
function clipText(text: string, maxChars: number): string {
  const lines = text.split("\n");
  const kept =
    lines.length > textLineLimit
      ? `${lines.slice(0, textLineLimit).join("\n")}\n… ${lines.length - textLineLimit} more lines`
      : text;
  return clip(kept, maxChars);
}

/**
 * The summary on the approval card of an ungated vibe_spawn or vibe_send, at most
 * {@link ungatedSummaryLimit} characters so the card shows it whole: "UNGATED (<program>)" first,
 * then `action` (what is asked: "spawn fast worker \"x\""), the backend, then each part of `texts`
 * in order (the one being approved first), each kept to what room is left.
 */
export function ungatedCardText(
  backend: WorkerBackend,
  action: string,
  texts: readonly { readonly name: string; readonly text: string }[],
): string {
  const head =
    `UNGATED (${programName(backend)}) ${action}: runs ${clip(backend.description, descriptionLimit)}, ` +
    "whose edits and commands do not ask for approval.";
  let summary = head;
  for (const { name, text } of texts) {
    const prefix = `\n${name}:\n`;
    const room = ungatedSummaryLimit - summary.length - prefix.length;
    if (room < 20) break;
    summary += `${prefix}${clipText(text, room)}`;
  }
  return summary;
}
