/** A piece of HTML: text between tags (character references not yet decoded), or a tag. */
export type HtmlToken =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "start" | "end"; readonly name: string };

// Elements whose content is not shown: it runs to the element's own end tag, markup or not.
const hidden = new Set(["script", "style", "template", "noscript", "iframe", "noembed", "noframes", "xmp"]);

/**
 * Splits HTML into text and tags (lower-case names, attributes dropped) in one forward scan, as
 * a browser reads it: a `<` not followed by a letter, `/` or `!` is text (`1 < 2`), a quoted
 * attribute value may hold `>`, comments and `<!…>`/`<?…>` are dropped, and the content of a
 * hidden element (`<style>`, `<script>`, …) is skipped up to its end tag. What is left open at the
 * end (a comment, a tag, a hidden element) runs to the end and is dropped. Linear in the length:
 * every search starts where the last one ended.
 */
export function* htmlTokens(html: string): Generator<HtmlToken> {
  let text = 0;
  let at = 0;
  while (at < html.length) {
    const open = html.indexOf("<", at);
    if (open === -1) break;
    const next = html[open + 1] ?? "";
    let end: number;
    let tag: HtmlToken | undefined;
    if (html.startsWith("<!--", open)) {
      const close = html.indexOf("-->", open + 4);
      end = close === -1 ? html.length : close + 3;
    } else if (next === "!" || next === "?") {
      const close = html.indexOf(">", open);
      end = close === -1 ? html.length : close + 1;
    } else {
      const closing = next === "/";
      const nameStart = closing ? open + 2 : open + 1;
      if (!isLetter(html.charCodeAt(nameStart))) {
        if (!closing) {
          at = open + 1;
          continue;
        }
        // `</ …>` is a comment to a browser.
        const close = html.indexOf(">", open);
        end = close === -1 ? html.length : close + 1;
        if (open > text) yield { kind: "text", text: html.slice(text, open) };
        at = end;
        text = end;
        continue;
      }
      let nameEnd = nameStart;
      while (nameEnd < html.length && !endsName(html.charCodeAt(nameEnd))) nameEnd++;
      end = tagEnd(html, nameEnd);
      tag = { kind: closing ? "end" : "start", name: html.slice(nameStart, nameEnd).toLowerCase() };
    }
    if (open > text) yield { kind: "text", text: html.slice(text, open) };
    at = end;
    text = end;
    if (tag === undefined || end > html.length) continue;
    yield tag;
    if (tag.kind === "start" && hidden.has(tag.name)) {
      const close = new RegExp(`</${tag.name}[\\s/>]`, "gi");
      close.lastIndex = end;
      const found = close.exec(html);
      at = found === null ? html.length : found.index;
      text = at;
    }
  }
  if (text < html.length) yield { kind: "text", text: html.slice(text) };
}

/**
 * The offset just past the `>` that ends a tag whose attributes start at `from`, skipping quoted
 * values; past the end of `html` when the tag is not closed.
 */
function tagEnd(html: string, from: number): number {
  let at = from;
  while (at < html.length) {
    const char = html[at];
    if (char === ">") return at + 1;
    if (char === "=") {
      at++;
      while (at < html.length && isSpace(html.charCodeAt(at))) at++;
      const quote = html[at];
      if (quote === '"' || quote === "'") {
        const close = html.indexOf(quote, at + 1);
        if (close === -1) return html.length + 1;
        at = close + 1;
        continue;
      }
      continue;
    }
    at++;
  }
  return html.length + 1;
}

function isLetter(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

// Tab, line feed, form feed, carriage return, space: HTML's whitespace.
function isSpace(code: number): boolean {
  return code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d || code === 0x20;
}

function endsName(code: number): boolean {
  return isSpace(code) || code === 0x2f || code === 0x3e;
}
