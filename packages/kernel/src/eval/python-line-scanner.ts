/** Reads a cell one physical line at a time and says whether the next line starts a statement. */
export interface LineScanner {
  /** True when the next line begins a new statement: not inside a string, bracket or continuation. */
  readonly atStatementStart: boolean;
  /** Reads one physical line (without its newline) and updates the state. */
  scan(line: string): void;
}

type Frame =
  | { readonly kind: "string"; readonly quote: string; readonly triple: boolean; readonly f: boolean }
  // The expression of an f-string's replacement field, and its format spec after a top-level ':'.
  | { readonly kind: "field"; depth: number }
  | { readonly kind: "spec" };

// r, b, u, f and t prefixes in any case and order (rb, Rb, fr, …): 'f' marks an f-string.
const stringPrefix = /(?:^|[^\w])([rRbBuUfFtT]{1,2})$/;

/**
 * Python's logical-line structure, enough to find where a statement may start: open brackets,
 * single- and triple-quoted strings (with r/b/u/f prefixes, and f-string replacement fields that
 * hold strings of their own), comments and backslash continuations. Not a validator: an
 * unterminated single-quoted string ends with its line, as Python's tokenizer would complain.
 */
export class PythonLineScanner implements LineScanner {
  private readonly frames: Frame[] = [];
  private depth = 0;
  private continued = false;

  get atStatementStart(): boolean {
    return this.frames.length === 0 && this.depth === 0 && !this.continued;
  }

  scan(line: string): void {
    const text = line.endsWith("\r") ? line.slice(0, -1) : line;
    this.continued = false;
    let escapedNewline = false;
    for (let i = 0; i < text.length; i++) {
      const char = text[i] ?? "";
      const frame = this.frames[this.frames.length - 1];
      if (frame?.kind === "string") {
        if (char === "\\") {
          if (i === text.length - 1) escapedNewline = true;
          i++;
        } else if (text.startsWith(frame.triple ? frame.quote.repeat(3) : frame.quote, i)) {
          this.frames.pop();
          if (frame.triple) i += 2;
        } else if (frame.f && char === "{") {
          if (text[i + 1] === "{") i++;
          else this.frames.push({ kind: "field", depth: 0 });
        } else if (frame.f && char === "}" && text[i + 1] === "}") {
          i++;
        }
        continue;
      }
      if (frame?.kind === "spec") {
        if (char === "{") this.frames.push({ kind: "field", depth: 0 });
        else if (char === "}") this.frames.splice(-1, 1);
        continue;
      }
      // Code: the top level, or an f-string replacement field.
      if (char === "#") break;
      if (char === "'" || char === '"') {
        const prefix = stringPrefix.exec(text.slice(Math.max(0, i - 3), i))?.[1] ?? "";
        const triple = text.startsWith(char.repeat(3), i);
        this.frames.push({ kind: "string", quote: char, triple, f: /[fFtT]/.test(prefix) });
        if (triple) i += 2;
      } else if (char === "(" || char === "[" || char === "{") {
        if (frame?.kind === "field") frame.depth++;
        else this.depth++;
      } else if (char === ")" || char === "]" || char === "}") {
        if (frame?.kind === "field") {
          if (frame.depth > 0) frame.depth--;
          else if (char === "}") this.frames.pop();
        } else {
          this.depth = Math.max(0, this.depth - 1);
        }
      } else if (char === ":" && frame?.kind === "field" && frame.depth === 0) {
        this.frames[this.frames.length - 1] = { kind: "spec" };
      } else if (char === "\\" && i === text.length - 1) {
        this.continued = true;
      }
    }
    // A single-quoted string ends with its line unless a backslash carries it on.
    if (escapedNewline) return;
    for (;;) {
      const top = this.frames[this.frames.length - 1];
      if (top?.kind !== "string" || top.triple) break;
      this.frames.pop();
    }
  }
}
