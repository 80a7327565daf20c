import type { LineScanner } from "./python-line-scanner.js";

type Frame =
  | { readonly kind: "string"; readonly quote: string }
  | { readonly kind: "template" }
  // A template literal's `${…}` expression; braces inside it are counted to find its end.
  | { readonly kind: "substitution"; braces: number }
  | { readonly kind: "comment" };

// After these a '/' starts a regular expression, not a division.
const regexAfterWord = /^(?:return|typeof|instanceof|in|of|new|delete|void|throw|case|do|else|yield|await)$/;

/**
 * JavaScript's line structure, enough to find where a statement may start: outside strings,
 * template literals (with nested `${…}`), block comments and regular expressions, and with no
 * open parenthesis or bracket. A '/' is read as a regular expression after an operator or keyword,
 * as a division after a name, number or closing bracket — the usual heuristic.
 */
export class JavaScriptLineScanner implements LineScanner {
  private readonly frames: Frame[] = [];
  private depth = 0;

  get atStatementStart(): boolean {
    return this.frames.length === 0 && this.depth === 0;
  }

  scan(line: string): void {
    let previous = "";
    let word = "";
    let escapedNewline = false;
    for (let i = 0; i < line.length; i++) {
      const char = line[i] ?? "";
      const frame = this.frames[this.frames.length - 1];
      if (frame?.kind === "comment") {
        if (line.startsWith("*/", i)) {
          this.frames.pop();
          i++;
        }
        continue;
      }
      if (frame?.kind === "string" || frame?.kind === "template") {
        if (char === "\\") {
          if (i === line.length - 1) escapedNewline = true;
          i++;
        } else if (frame.kind === "string" ? char === frame.quote : char === "`") {
          this.frames.pop();
          previous = ")";
        } else if (frame.kind === "template" && line.startsWith("${", i)) {
          this.frames.push({ kind: "substitution", braces: 0 });
          i++;
          previous = "(";
        }
        continue;
      }
      if (/\s/.test(char)) {
        if (word !== "") previous = word;
        word = "";
        continue;
      }
      if (/[\w$]/.test(char)) {
        word += char;
        continue;
      }
      if (word !== "") previous = word;
      word = "";
      if (line.startsWith("//", i)) break;
      if (line.startsWith("/*", i)) {
        this.frames.push({ kind: "comment" });
        i++;
        continue;
      }
      if (char === "/") {
        // A division after a value; a regular expression otherwise, skipped to its closing '/'.
        const afterValue = /[\w$)\]}]$/.test(previous) && !regexAfterWord.test(previous);
        if (afterValue) previous = "/";
        else {
          i = skipRegex(line, i);
          previous = ")";
        }
        continue;
      }
      if (char === "'" || char === '"') this.frames.push({ kind: "string", quote: char });
      else if (char === "`") this.frames.push({ kind: "template" });
      else if (char === "(" || char === "[") this.depth++;
      else if (char === ")" || char === "]") this.depth = Math.max(0, this.depth - 1);
      else if (frame?.kind === "substitution" && char === "{") frame.braces++;
      else if (frame?.kind === "substitution" && char === "}") {
        if (frame.braces > 0) frame.braces--;
        else this.frames.pop();
      }
      previous = char;
    }
    // A quoted string ends with its line unless a backslash carries it on.
    const top = this.frames[this.frames.length - 1];
    if (top?.kind === "string" && !escapedNewline) this.frames.pop();
  }
}

/** The index of the last character of the regular expression starting at `start` (its flags included). */
function skipRegex(line: string, start: number): number {
  let inClass = false;
  for (let i = start + 1; i < line.length; i++) {
    const char = line[i];
    if (char === "\\") i++;
    else if (char === "[") inClass = true;
    else if (char === "]") inClass = false;
    else if (char === "/" && !inClass) {
      let end = i;
      while (/[a-z]/i.test(line[end + 1] ?? "")) end++;
      return end;
    }
  }
  return line.length - 1;
}
