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
 * common named ones; an unknown name or an invalid code point stays as written. A control
 * character other than tab and line feed (`&#27;`, ESC; `&#13;`; `&#x9b;`) decodes to U+FFFD, so
 * no terminal escape sequence can be spelled in HTML.
 */
export function decodeEntities(text: string): string {
  return text.replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith("#")) {
      const code =
        name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      if (!(code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff))) return whole;
      const control = (code < 0x20 && code !== 0x09 && code !== 0x0a) || (code >= 0x7f && code <= 0x9f);
      return control ? "\ufffd" : String.fromCodePoint(code);
    }
    return named[name] ?? whole;
  });
}
