/**
 * Parses JSON with comments and trailing commas (tsconfig.json, jsconfig.json), as TypeScript
 * reads it: a byte order mark first is dropped, `//` and `/* *\/` comments and a comma before
 * `}` or `]` are dropped outside strings, then the rest is parsed as JSON, `{}` when nothing is
 * left (an empty tsconfig). Throws a SyntaxError when that is not JSON (TypeScript's own reader
 * is more forgiving still: callers treat a throw as "not known").
 */
export function parseJsonc(text: string): unknown {
  const plain = plainJson(text.startsWith("\uFEFF") ? text.slice(1) : text);
  return plain.trim() === "" ? {} : JSON.parse(plain);
}

/** `text` without comments and trailing commas (outside strings); strings kept as they are. */
function plainJson(text: string): string {
  let out = "";
  /** Where in `out` the last comma outside a string stands, while only blanks follow it. */
  let comma = -1;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '"') {
      let end = i + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === "\\" ? 2 : 1;
      out += text.slice(i, end + 1);
      i = end;
      comma = -1;
    } else if (char === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
      out += "\n";
    } else if (char === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end === -1 ? text.length : end + 1;
      out += " ";
    } else if ((char === "}" || char === "]") && comma !== -1) {
      out = `${out.slice(0, comma)} ${out.slice(comma + 1)}${char}`;
      comma = -1;
    } else {
      if (char === ",") comma = out.length;
      else if (!/\s/.test(char)) comma = -1;
      out += char;
    }
  }
  return out;
}
