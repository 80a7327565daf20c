/**
 * One line of source with its comments and string literals blanked (each character a space, so
 * columns stay): what is left is code. By the line's text alone: a comment `//` or `/* … *\/`
 * (`#` in Python) and quoted text ('…', "…", `…`; a backslash escapes) on the line. A line inside
 * a comment or string that began on an earlier line is taken as code.
 */
export function codeOnly(text: string, language: string): string {
  const hashComments = language === "python";
  // UTF-16 units, as LSP columns count.
  const out = text.split("");
  const blank = (from: number, to: number) => {
    for (let i = from; i < to && i < out.length; i++) out[i] = " ";
  };
  let i = 0;
  while (i < text.length) {
    const char = text[i]!;
    const next = text[i + 1];
    if ((hashComments && char === "#") || (!hashComments && char === "/" && next === "/")) {
      blank(i, text.length);
      break;
    }
    if (!hashComments && char === "/" && next === "*") {
      const end = text.indexOf("*/", i + 2);
      const to = end === -1 ? text.length : end + 2;
      blank(i, to);
      i = to;
      continue;
    }
    if (char === "'" || char === '"' || char === "`") {
      let j = i + 1;
      while (j < text.length && text[j] !== char) j += text[j] === "\\" ? 2 : 1;
      const to = Math.min(text.length, j + 1);
      blank(i, to);
      i = to;
      continue;
    }
    i++;
  }
  return out.join("");
}
