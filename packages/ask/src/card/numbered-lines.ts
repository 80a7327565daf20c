/**
 * A line that reads as an item of a numbered list: "1. yes", "2) no", "(3) later", "[4] never",
 * "Option 2: no". One or two digits only, and the marker must be followed by a space and text, so
 * a year ("2024. was"), a time ("10:30") or prose with a number inside a line is not one.
 */
const numberedLine = /^\s*(?:[([]\s*)?(?:option\s+)?\d{1,2}\s*(?:[.):\]]|\s-)\s+\S/i;

/**
 * The lines of `text` that read as a numbered list, when there are at least two of them (one such
 * line is too often prose to refuse); otherwise none.
 */
export function numberedListLines(text: string): string[] {
  const lines = text
    .split("\n")
    .filter((line) => numberedLine.test(line))
    .map((line) => line.trim());
  return lines.length >= 2 ? lines : [];
}
