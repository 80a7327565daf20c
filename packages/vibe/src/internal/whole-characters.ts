import { boundText, type TextBounds } from "@tools/registry";

/** Half of a surrogate pair without its other half. */
const loneHalf = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * `text` without the halves of characters a cut elsewhere left alone (another package's bound,
 * cutting between UTF-16 units): a request carrying one is invalid JSON text to a strict server.
 */
export function withoutLoneHalves(text: string): string {
  return text.replace(loneHalf, "");
}

/**
 * {@link boundText}'s text (whose cut falls between whole characters, its note counting what is
 * not shown exactly), without the halves of characters a cut elsewhere left alone (see
 * {@link withoutLoneHalves}).
 */
export function boundWholeText(text: string, bounds: TextBounds): string {
  return withoutLoneHalves(boundText(text, bounds).text);
}
