/** Line breaks in `text`: what the line budgets count. */
export function countLines(text: string): number {
  let count = 0;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) count++;
  return count;
}

/** How many characters from the start of `text` fit in `chars` characters and `lines` line breaks. */
export function headLength(text: string, chars: number, lines: number): number {
  let end = Math.max(0, Math.min(text.length, chars));
  if (lines <= 0) return 0;
  let seen = 0;
  for (let i = text.indexOf("\n"); i >= 0 && i < end; i = text.indexOf("\n", i + 1)) {
    if (++seen === lines) {
      end = i + 1;
      break;
    }
  }
  return end;
}

/** How many characters from the end of `text` fit in `chars` characters and `lines` line breaks. */
export function tailLength(text: string, chars: number, lines: number): number {
  let start = Math.max(0, text.length - Math.max(0, chars));
  let seen = 0;
  for (let i = text.lastIndexOf("\n"); i >= start; i = i > 0 ? text.lastIndexOf("\n", i - 1) : -1) {
    if (++seen > lines) {
      start = i + 1;
      break;
    }
  }
  return text.length - start;
}

/** What a cut left out, in words: "108 lines (398 characters)" or "9,960,000 characters". */
export function describeOmitted(chars: number, lines: number): string {
  const number = (value: number) => value.toLocaleString("en-US");
  if (lines === 0) return `${number(chars)} character${chars === 1 ? "" : "s"}`;
  return `${number(lines)} line${lines === 1 ? "" : "s"} (${number(chars)} characters)`;
}

/**
 * The start and the end of `text` within `chars` characters and `lines` line breaks, with one
 * line in the middle saying what `what` lost there; `text` itself when it fits. The start gets
 * `headShare` of the budget (half by default), the end the rest.
 */
export function headAndTail(
  text: string,
  chars: number,
  lines: number,
  what: string,
  headShare = 0.5,
): string {
  if (text.length <= chars && countLines(text) <= lines) return text;
  const head = text.slice(0, headLength(text, Math.floor(chars * headShare), Math.floor(lines * headShare)));
  const rest = text.slice(head.length);
  // A start cut inside a line gets a line break of its own before the marker.
  const joint = head.endsWith("\n") || head === "" ? "" : "\n";
  // The marker takes a line and up to about 100 characters of the budget.
  const tailChars = chars - head.length - joint.length - 100;
  const tail = rest.slice(
    rest.length - tailLength(rest, tailChars, lines - countLines(head) - joint.length - 1),
  );
  const omitted = rest.slice(0, rest.length - tail.length);
  const marker = `… ${describeOmitted(omitted.length, countLines(omitted))} of ${what} omitted here …\n`;
  return `${head}${joint}${marker}${tail}`;
}
