import { countNoun } from "@tools/registry";

/** A session's TTL in words: whole minutes as "30 minutes" or "1 minute", anything else in seconds ("4 s"). */
export function formatDuration(ms: number): string {
  const minutes = ms / 60_000;
  if (ms >= 60_000 && Number.isInteger(minutes)) return `${minutes} ${countNoun(minutes, "minutes")}`;
  return `${Math.round(ms / 1000)} s`;
}
