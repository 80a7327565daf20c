import type { Tree } from "web-tree-sitter";
import type { LanguageSpec } from "../grammars/languages.js";

/**
 * Node types holding comment or string text (a comment, a string and its content, a char or Go's
 * rune, HTML).
 */
const textTypes = /comment|string|char|rune|text|heredoc|nowdoc|regex|template/i;

/**
 * Node types of the text inside such a node, never its opening: one starting at an opening's
 * offset holds it as text (JSX's `<p>/* x</p>`, whose `jsx_text` starts with the `/*`).
 */
const contentTypes = /text$|content$|fragment$/i;

/** The token that opens such a node (Python's `string_start`): the opening itself. */
const openingTypes = /(start|begin)$/i;

// A block comment's opening and closing; a quote's closing is the same quote.
const blockOpen = "/*";
const blockClose = "*/";

/**
 * Whether `offset` lies inside comment or string text the tree has (a block comment's opening in
 * a string, a quote in a comment, the closing quote of a string, the quotes of a PHP nowdoc's
 * label): a node of such a type starting before it covers it, or text content starting at it.
 */
function insideText(tree: Tree, offset: number): boolean {
  for (let node = tree.rootNode.descendantForIndex(offset, offset + 1); node; node = node.parent) {
    if (node.startIndex === offset && node.endIndex > offset && contentTypes.test(node.type)) return true;
    if (node.startIndex < offset && textTypes.test(node.type) && !openingTypes.test(node.type)) return true;
  }
  return false;
}

/**
 * What follows CSS's unquoted `url(` up to an offset: the URL, where no comment opens
 * (`url(/*.png)`, which tree-sitter-css reads with an error), up to its `)` (an escaped `\)`
 * aside), blanks and all: `url(a b/*.png)` is one bad URL, whose rest is read up to the `)`
 * (CSS Syntax 3, "consume the remnants of a bad url"). A quote first makes it a string instead.
 */
const unquotedUrl = /\s*(?:(?:[^\s"'()\\]|\\[^])(?:[^)\\]|\\[^])*)?$/y;

/** A `url(` (not the end of a longer name). */
const urlOpening = /(?<![\w-])url\(/gi;

/** How far before an opening an unquoted `url(` is looked for (a minified line can be megabytes). */
const urlLookBehind = 4096;

/**
 * Whether `offset` lies in the URL of a CSS `url( … )` written without quotes: that of the last
 * `url(` before it that is not itself comment or string text (one in a comment opens no URL, nor
 * hides the `url(` after it).
 */
function inUnquotedUrl(tree: Tree, source: string, offset: number): boolean {
  const from = Math.max(0, offset - urlLookBehind);
  const before = source.slice(from, offset);
  const openings = [...before.matchAll(urlOpening)];
  for (let index = openings.length - 1; index >= 0; index--) {
    const at = openings[index]?.index ?? 0;
    if (insideText(tree, from + at)) continue;
    unquotedUrl.lastIndex = at + "url(".length;
    return unquotedUrl.test(before);
  }
  return false;
}

/**
 * Where a file that ends inside a block comment or a string never closed (cut off, mid-edit)
 * opens it, as a UTF-16 offset: from there on the file is comment or string text, which
 * tree-sitter reads as code to recover (a PHP licence header cut off before its end, `foo(bar)`
 * in it read as a call), so no match may start there. Undefined when the tree has no error
 * (tree-sitter read every comment and string), or when no opening of `spec.leftOpen` is left open.
 *
 * An opening is left open when its closing occurs nowhere after it (the first closing after a
 * block comment's opening ends it, whatever lies between; a quote's closing is the same quote, so
 * only its last occurrence can be one) and the tree does not have it inside comment or string
 * text.
 */
export function leftOpenAt(spec: LanguageSpec | undefined, tree: Tree, source: string): number | undefined {
  const openers = spec?.leftOpen;
  if (!openers || !tree.rootNode.hasError) return undefined;
  let first: number | undefined;
  for (const opener of openers) {
    const closer = opener === blockOpen ? blockClose : opener;
    const last = source.lastIndexOf(closer);
    // Only openings from here on can have no closing after them.
    const from = opener === closer ? last : Math.max(0, last - opener.length + 1);
    if (from < 0) continue;
    for (let at = source.indexOf(opener, from); at >= 0; at = source.indexOf(opener, at + 1)) {
      if (first !== undefined && at >= first) break;
      // A closing after the opening: the last one lies after it (not a scan per opening, which
      // made a large file with many `"src/*"` after its last `*/` quadratic).
      if (opener !== closer && last >= at + opener.length) continue;
      if (insideText(tree, at)) continue;
      if (spec?.id === "css" && inUnquotedUrl(tree, source, at)) continue;
      first = at;
      break;
    }
  }
  return first;
}
