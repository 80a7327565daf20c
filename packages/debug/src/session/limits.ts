/** The spec's limits on what one call returns. */
export const limits = {
  /** Frames per `stack`. */
  frames: 30,
  /** Children per `variables`. */
  variables: 50,
  /** Characters of one value (variables, evaluate). */
  valueChars: 400,
  /** Characters of one `output` answer. */
  outputChars: 12_000,
} as const;

/** Cuts a value to {@link limits.valueChars}, saying how much was cut. */
export function clipValue(value: string): string {
  if (value.length <= limits.valueChars) return value;
  return `${value.slice(0, limits.valueChars)}… (${value.length - limits.valueChars} more characters)`;
}
