// Named entities HTML output from Python and JavaScript libraries uses; others stay as written.
const named: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  hellip: "…",
  mdash: "—",
  ndash: "–",
  times: "×",
  middot: "·",
  deg: "°",
  plusmn: "±",
  laquo: "«",
  raquo: "»",
  copy: "©",
  reg: "®",
};

/**
 * Decodes character references in one pass (`&amp;lt;` is `&lt;`, not `<`): numeric ones and the
 * common named ones; an unknown name or an invalid code point stays as written.
 */
export function decodeEntities(text: string): string {
  return text.replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith("#")) {
      const code =
        name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff)
        ? String.fromCodePoint(code)
        : whole;
    }
    return named[name] ?? whole;
  });
}
