/** The first `max` items joined with commas, and how many more: "a, b, c and 4 more". */
export function someOf(items: readonly string[], max: number): string {
  const shown = items.slice(0, max).join(", ");
  return items.length > max ? `${shown} and ${items.length - max} more` : shown;
}
