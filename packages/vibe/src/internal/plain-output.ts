// Colour and cursor escapes (CSI and OSC sequences, two-character escapes): an agent CLI run
// under FORCE_COLOR or with a spinner writes them; the model reads plain text.
// eslint-disable-next-line no-control-regex
const escapes = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-Z\\-_]/g;

/**
 * A CLI's output as the plain text the model reads: escape sequences removed, and of each line
 * rewritten with carriage returns (a progress bar, a spinner) only what it showed last.
 */
export function plainOutput(text: string): string {
  return text
    .replace(escapes, "")
    .split("\n")
    .map((line) => {
      const shown = line.endsWith("\r") ? line.slice(0, -1) : line;
      return shown.slice(shown.lastIndexOf("\r") + 1);
    })
    .join("\n");
}
