import { countNoun } from "@tools/registry";

/** `1 line`, `2 lines`, `0 lines`: a count and its noun, given in the plural, in the number it takes. */
export function count(amount: number, plural: string): string {
  return `${amount} ${countNoun(amount, plural)}`;
}
