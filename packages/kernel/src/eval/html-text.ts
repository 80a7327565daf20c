import { decodeEntities } from "./html-entities.js";
import { htmlTableToText } from "./html-table.js";

// Elements that start a line of their own (closing or opening); `li` also gets a bullet.
const block =
  /<\/?(?:address|article|aside|blockquote|caption|dd|details|div|dl|dt|figcaption|figure|footer|h[1-6]|header|hr|li|main|nav|ol|p|pre|section|summary|table|tbody|td|tfoot|th|thead|tr|ul)\b[^>]*>|<br\s*\/?>/gi;

/**
 * HTML as the text a reader sees: every table as a Markdown pipe table (see
 * {@link htmlTableToText}), other elements as their text, block elements on lines of their own,
 * list items with `- `, character references decoded; `<style>`, `<script>` and comments dropped.
 * Whitespace runs are one space, as a browser shows them (also in `<pre>`).
 */
export function htmlToText(html: string): string {
  const cleaned = html
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/<(style|script|template)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, "");
  const parts: string[] = [];
  let last = 0;
  for (const match of cleaned.matchAll(/<table\b[\s\S]*?<\/table\s*>/gi)) {
    parts.push(flowText(cleaned.slice(last, match.index)));
    parts.push(htmlTableToText(match[0]) ?? flowText(match[0]));
    last = match.index + match[0].length;
  }
  parts.push(flowText(cleaned.slice(last)));
  return parts.filter((part) => part !== "").join("\n");
}

/** Text outside tables: one line per block, blank lines dropped. */
function flowText(html: string): string {
  const text = html
    .replace(/\s+/g, " ")
    .replace(/<li\b[^>]*>/gi, "\n- ")
    .replace(block, "\n")
    .replace(/<[^>]*>/g, "");
  return decodeEntities(text)
    .split("\n")
    .map((line) => line.replace(/\s+/g, " ").trim())
    .filter((line) => line !== "")
    .join("\n");
}
