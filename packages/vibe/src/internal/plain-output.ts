// Colour and cursor escapes: CSI sequences, strings (OSC, DCS, …) to their terminator or the end
// of their line at most, and the other escapes (ESC ( B, ESC 7, …); an agent CLI run under
// FORCE_COLOR or with a spinner writes them; the model reads plain text. A lone ESC goes too.
const escapes =
  // eslint-disable-next-line no-control-regex
  /\u001b\[[0-?]*[ -/]*[@-~]|\u001b[\]PX^_][^\u0007\u001b\n]*(?:\u0007|\u001b\\)?|\u001b[ -/]*[0-~]|\u001b/g;

/**
 * A CLI's output as the plain text the model reads: escape sequences removed, and of each line
 * rewritten with carriage returns (a progress bar, a spinner) only what it showed last. Line
 * endings of carriage returns (`\r\n`, `\r\r\n`) end a line and rewrite nothing.
 */
export function plainOutput(text: string): string {
  return text
    .replace(escapes, "")
    .split("\n")
    .map((line) => {
      let end = line.length;
      while (end > 0 && line.charCodeAt(end - 1) === 13) end--;
      return line.slice(line.lastIndexOf("\r", end - 1) + 1, end);
    })
    .join("\n");
}
