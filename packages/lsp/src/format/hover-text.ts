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
 * the two trailing spaces of a markdown line break dropped. Code fences are kept as they are.
 */
export function plainHoverText(markdown: string): string {
  return markdown
    .split(/(^```[^\n]*\n[\s\S]*?^```$)/m)
    .map((part, index) =>
      index % 2 === 1
        ? part
        : part
            .replace(/&(nbsp|lt|gt|amp|quot|#39);/g, (_, name: string) => entities[name]!)
            .replace(/\\([\\`*_{}[\]()#+\-.!|<>~])/g, "$1")
            .replace(/[ \t]+$/gm, ""),
    )
    .join("");
}
