import { ToolsError } from "@tools/registry";

/** Characters a backslash escapes inside double quotes, as in POSIX sh; before any other it stays. */
const doubleQuoteEscapes = new Set(["$", "`", '"', "\\", "\n"]);

/**
 * Splits a command line into its words as POSIX sh does, without running a shell: words are
 * separated by unquoted whitespace; `'…'` keeps everything literally; `"…"` keeps everything but
 * a backslash before `$ \` " \\` or a line end; an unquoted backslash keeps the next character
 * (and a backslash-newline joins lines). No expansion (`$VAR`, `*`, `~`) is done.
 * `sh -c 'echo {tier}; cat'` is `["sh", "-c", "echo {tier}; cat"]`. Throws `USAGE` for an
 * unclosed quote or a trailing backslash, and for a line with no word.
 */
export function splitCommand(line: string, what = "--vibe-command"): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: "'" | '"' | undefined;
  let quoteAt = 0;
  for (let index = 0; index < line.length; index++) {
    const char = line[index] as string;
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else word += char;
    } else if (quote === '"') {
      if (char === '"') {
        quote = undefined;
      } else if (char === "\\" && doubleQuoteEscapes.has(line[index + 1] ?? "")) {
        const next = line[++index] as string;
        if (next !== "\n") word += next;
      } else {
        word += char;
      }
    } else if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (char === "'" || char === '"') {
      quote = char;
      quoteAt = index;
      word ??= "";
    } else if (char === "\\") {
      const next = line[index + 1];
      if (next === undefined) {
        throw new ToolsError({
          code: "USAGE",
          message: `${what} ends with a lone backslash; write \\\\ for a backslash`,
        });
      }
      index++;
      if (next !== "\n") word = (word ?? "") + next;
    } else {
      word = (word ?? "") + char;
    }
  }
  if (quote !== undefined) {
    throw new ToolsError({
      code: "USAGE",
      message: `${what} has an unclosed ${quote === "'" ? "single" : "double"} quote (at character ${quoteAt + 1}); close it with ${quote}`,
    });
  }
  if (word !== undefined) words.push(word);
  if (words.length === 0) {
    throw new ToolsError({ code: "USAGE", message: `${what} is empty; give the command to run` });
  }
  return words;
}
