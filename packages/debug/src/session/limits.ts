import { countNoun } from "@tools/registry";

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
  /** Breakpoints in one file (one `breakpoints` call sets one file's). */
  breakpointsPerFile: 100,
  /** Files with breakpoints in one conversation (each is a request at every launch). */
  breakpointFiles: 50,
  /** Breakpoint lines in one listing (`breakpoints`, `status`, `launch`); the rest are counted. */
  breakpointLines: 30,
} as const;

/** Cuts a value to {@link limits.valueChars}, saying how much was cut. */
export function clipValue(value: string): string {
  if (value.length <= limits.valueChars) return value;
  const more = value.length - limits.valueChars;
  return `${value.slice(0, limits.valueChars)}… (${more} more ${countNoun(more, "characters")})`;
}
