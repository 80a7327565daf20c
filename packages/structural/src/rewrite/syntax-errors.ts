import type { Node, Tree } from "web-tree-sitter";

/**
 * Where a tree does not parse: an ERROR node (code tree-sitter could not read, not descended
 * into) or a MISSING one (a token it supplied, zero width). UTF-16 offsets; plain data, so it
 * crosses a worker boundary.
 */
export interface ErrorSite {
  readonly start: number;
  readonly end: number;
  /** The type of the token tree-sitter supplied (`)`, `identifier`), for a MISSING node. */
  readonly missing?: string;
  /** The type of a body read with nothing in it (Python's `block`: see `emptyBody`). */
  readonly empty?: string;
}

/** A syntax error of a rewritten file that its original text did not have, as reported. */
export interface IntroducedError {
  /** 1-based line and column (UTF-16 code units) in the new text. */
  readonly line: number;
  readonly column: number;
  /** The new text's line there, without its line break. */
  readonly lineText: string;
  /** The token the new text lacks there (see `ErrorSite.missing`), or undefined for code that does not parse. */
  readonly missing?: string;
  /** The body read empty there (see `ErrorSite.empty`). */
  readonly empty?: string;
}

/** Sites collected per tree at most: a rewrite that breaks more than this is reported by these. */
const maxSites = 200;

/**
 * Types of a body that a grammar reads with nothing in it, without an error, where the language
 * needs a statement: tree-sitter-python's `block` (`if x:` and nothing indented after it). No
 * zero-width node of these types is in valid code (none in 400 files of Python's stdlib, nor in
 * valid files of Go, TypeScript, JavaScript, Bash, CSS, C, Rust, Java, Swift; Go's empty raw
 * string has a zero-width `raw_string_literal_content`, which is why not every zero-width node is
 * taken).
 */
const emptyBody: Readonly<Record<string, ReadonlySet<string>>> = { python: new Set(["block"]) };

/** The zero-width bodies of `emptyBody` in a tree, in source order (a cursor walk of it all). */
function emptyBodies(tree: Tree, types: ReadonlySet<string>, sites: ErrorSite[]): void {
  const cursor = tree.walk();
  try {
    for (;;) {
      if (cursor.startIndex === cursor.endIndex && types.has(cursor.nodeType) && !cursor.nodeIsMissing) {
        if (sites.length >= maxSites) return;
        sites.push({ start: cursor.startIndex, end: cursor.endIndex, empty: cursor.nodeType });
      }
      // A body with nothing in it has no children; one with code spans it.
      if (cursor.startIndex !== cursor.endIndex && cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) if (!cursor.gotoParent()) return;
    }
  } finally {
    cursor.delete();
  }
}

/**
 * The ERROR and MISSING nodes of a tree, outermost only (at most 200): only nodes that hold an
 * error are descended into. Decided by `isError` / `isMissing`, never the type name (Go's
 * zero-width terminator is typed "ERROR" in web-tree-sitter but is no error). For a language of
 * `emptyBody`, also its bodies read empty, which need a walk of the whole tree. In source order.
 */
export function errorSites(tree: Tree, language: string): ErrorSite[] {
  const sites: ErrorSite[] = [];
  const bodies = emptyBody[language];
  if (bodies) emptyBodies(tree, bodies, sites);
  if (!tree.rootNode.hasError) return sites;
  const visit = (node: Node): void => {
    for (const child of node.children) {
      if (sites.length >= maxSites) return;
      if (!child) continue;
      if (child.isMissing) sites.push({ start: child.startIndex, end: child.endIndex, missing: child.type });
      else if (child.isError) sites.push({ start: child.startIndex, end: child.endIndex });
      else if (child.hasError) visit(child);
    }
  };
  if (tree.rootNode.isError) sites.push({ start: tree.rootNode.startIndex, end: tree.rootNode.endIndex });
  else visit(tree.rootNode);
  return bodies ? sites.sort((a, b) => a.start - b.start) : sites;
}

/** A replacement's span in the original and the length of the text put there (UTF-16). */
export interface ReplacedSpan {
  readonly start: number;
  readonly end: number;
  readonly length: number;
}

/**
 * Where an offset of the original text is in the rewritten one: shifted by the replacements
 * before it; one inside a replaced span is that span's start (`side` "start") or end ("end") in
 * the new text.
 */
function mapOffset(offset: number, spans: readonly ReplacedSpan[], side: "start" | "end"): number {
  let delta = 0;
  for (const span of spans) {
    if (offset <= span.start) return offset + delta;
    if (offset < span.end) return span.start + delta + (side === "start" ? 0 : span.length);
    delta += span.length - (span.end - span.start);
  }
  return offset + delta;
}

/**
 * The error sites of the new text that no error of the original accounts for: one is the
 * original's when an original site, moved through the replacements (sorted, not overlapping),
 * overlaps or touches it, whatever its kind (error recovery may read the same broken code
 * differently once code near it changed). So a file already broken is not blamed on the edit
 * where it was broken; an error the edit adds inside or next to such a site is not reported
 * either.
 */
export function introducedSites(
  original: readonly ErrorSite[],
  spans: readonly ReplacedSpan[],
  rewritten: readonly ErrorSite[],
): ErrorSite[] {
  if (original.length === 0) return [...rewritten];
  const moved = original.map((site) => ({
    start: mapOffset(site.start, spans, "start"),
    end: mapOffset(site.end, spans, "end"),
  }));
  return rewritten.filter((site) => !moved.some((old) => site.start <= old.end && old.start <= site.end));
}

/**
 * The 1-based line and column of a site, and its line's text (cut at 160 characters). An empty
 * body is placed after the code before it (tree-sitter puts it where the next line starts).
 */
export function describeSite(text: string, site: ErrorSite): IntroducedError {
  let at = site.start;
  if (site.empty !== undefined) while (at > 0 && /\s/.test(text.charAt(at - 1))) at--;
  const lineStart = text.lastIndexOf("\n", at - 1) + 1;
  let lineEnd = text.indexOf("\n", at);
  if (lineEnd < 0) lineEnd = text.length;
  if (lineEnd > lineStart && text.charCodeAt(lineEnd - 1) === 13) lineEnd--;
  let line = 1;
  for (let index = text.indexOf("\n"); index >= 0 && index < lineStart; index = text.indexOf("\n", index + 1))
    line++;
  const full = text.slice(lineStart, lineEnd);
  return {
    line,
    column: at - lineStart + 1,
    lineText: full.length > 160 ? `${full.slice(0, 159)}…` : full,
    ...(site.missing === undefined ? {} : { missing: site.missing }),
    ...(site.empty === undefined ? {} : { empty: site.empty }),
  };
}
