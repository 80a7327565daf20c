import { fileURLToPath } from "node:url";

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
