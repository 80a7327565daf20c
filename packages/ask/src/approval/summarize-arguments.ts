/** Bounds of {@link summarizeArguments}, in characters. */
const perValue = 60;
const total = 300;

/** `text` cut to at most `max` characters, ending in "…" when cut. */
export function shorten(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function show(value: unknown): string {
  if (Array.isArray(value)) {
    if (value.length > 3) return `[${value.length} items]`;
  }
  let text: string;
  try {
    text = typeof value === "string" ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  } catch {
    text = "(not printable)";
  }
  return shorten(text.replace(/\s+/g, " "), perValue);
}

/**
 * One line of a call's arguments for a permission card: `file="src/a.ts", edits=[12 items]`.
 * Each value is shortened to 60 characters and the line to 300: enough to recognise the call,
 * never the whole payload.
 */
export function summarizeArguments(input: Readonly<Record<string, unknown>>): string {
  const parts = Object.entries(input)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${show(value)}`);
  return parts.length === 0 ? "(no arguments)" : shorten(parts.join(", "), total);
}
