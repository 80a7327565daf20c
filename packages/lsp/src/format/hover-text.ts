import { fileURLToPath } from "node:url";
import { boundText, type TextBounds } from "@tools/registry";

/** HTML entities servers write into hover markdown (pyright: `&nbsp;` for a docstring's indent). */
const entities: Readonly<Record<string, string>> = {
  nbsp: " ",
  lt: "<",
  gt: ">",
  amp: "&",
  quot: '"',
  "#39": "'",
};

/**
 * Hover markdown as plain text for a model, outside code fences: HTML entities decoded, markdown
 * backslash escapes removed (pyright writes a docstring's `much_larger` as `much\_larger`), and
 * the two trailing spaces of a markdown line break dropped. A link to a file (tsserver's
 * `{@link name}`: `[name](file:///…/a.ts#L30%2C1)`) becomes `name (a.ts:30)`, the path as
 * `display` shows it. Code fences are kept as they are.
 */
export function plainHoverText(markdown: string, display: (path: string) => string = (path) => path): string {
  return markdown
    .split(/(^```[^\n]*\n[\s\S]*?^```$)/m)
    .map((part, index) =>
      index % 2 === 1
        ? part
        : part
            .replace(fileLinkPattern, (link, text: string, href: string) =>
              fileLink(link, text, href, display),
            )
            .replace(/&(nbsp|lt|gt|amp|quot|#39);/g, (_, name: string) => entities[name]!)
            .replace(/\\([\\`*_{}[\]()#+\-.!|<>~])/g, "$1")
            .replace(/[ \t]+$/gm, ""),
    )
    .join("");
}

/**
 * A markdown link to a file URL: its text (brackets nested once, or escaped, allowed) and the
 * URL (parentheses nested once allowed: `app/(auth)/page.tsx`).
 */
const fileLinkPattern = /\[((?:[^[\]\n\\]|\\.|\[[^\]\n]*\])*)\]\((file:\/\/(?:[^()\s]|\([^()\s]*\))+)\)/g;

/** `text (path:line)` for a markdown link to a file; the link as it was when it is no file URL. */
function fileLink(link: string, text: string, href: string, display: (path: string) => string): string {
  let path: string;
  let line: string | undefined;
  try {
    const url = new URL(href);
    line = /^#L(\d+)/.exec(url.hash)?.[1];
    url.hash = "";
    path = fileURLToPath(url);
  } catch {
    return link;
  }
  const shown = display(path);
  const where = `${shown}${line ? `:${line}` : ""}`;
  // A link whose text is the path itself says it once.
  return text && text !== shown && text !== path ? `${text} (${where})` : where;
}

/**
 * `text` bounded as `boundText` bounds it, a code fence left open by the cut closed before the
 * note saying what was cut (a model reading on would take the note, and all after it, for
 * code). The closing fence counts within the bounds: the text is cut one line (and the fence's
 * characters) earlier then.
 */
export function boundHoverText(text: string, bounds: { maxLines: number; maxChars: number }): string {
  const cut = (within: TextBounds) => {
    const bounded = boundText(text, within);
    const lines = bounded.text.split("\n");
    const note = bounded.truncated ? lines.pop() : undefined;
    return { lines, note };
  };
  const first = cut(bounds);
  if (first.note === undefined) return first.lines.join("\n");
  const open = openFence(first.lines);
  if (open === undefined) return [...first.lines, first.note].join("\n");
  const within = { maxLines: bounds.maxLines - 1, maxChars: bounds.maxChars - open.length - 1 };
  let again = cut(within);
  // boundText shows the one line a note would stand for ("… 1 more line"): cut one line
  // earlier still then, or the fence would be the line over the bound.
  if (again.lines.length > within.maxLines) again = cut({ ...within, maxLines: within.maxLines - 1 });
  const still = openFence(again.lines);
  return [
    ...again.lines,
    ...(still !== undefined ? [still] : []),
    ...(again.note !== undefined ? [again.note] : []),
  ].join("\n");
}

/**
 * The fence (``` or ~~~, as long as it was opened) that closes the code block `lines` leave open,
 * read as CommonMark reads fences (at most 3 spaces before; a closing one at least as long, with
 * nothing after it); undefined when none is open.
 */
export function openFence(lines: readonly string[]): string | undefined {
  let open: string | undefined;
  for (const line of lines) {
    const fence = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    if (!fence) continue;
    const [, marks, rest] = fence as unknown as [string, string, string];
    if (open === undefined) {
      // A backtick fence's info string holds no backtick.
      if (marks[0] === "~" || !rest.includes("`")) open = marks;
    } else if (marks[0] === open[0] && marks.length >= open.length && rest.trim() === "") {
      open = undefined;
    }
  }
  return open;
}
