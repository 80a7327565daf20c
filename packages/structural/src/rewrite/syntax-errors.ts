import { Query, type Language, type Node, type Tree } from "web-tree-sitter";
import type { ErrorSite, ReplacedSpan } from "./rewrite-check.js";

export type { ErrorSite, ReplacedSpan } from "./rewrite-check.js";

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
 * The body a grammar reads with nothing in it, without an error, where the language needs a
 * statement: tree-sitter-python's `block` (`if x:` and nothing indented after it), zero width,
 * right after the last token before it. No zero-width `block` is in valid code (none in 400 files
 * of Python's stdlib; nor is any zero-width named node in valid files of Go, TypeScript,
 * JavaScript, Bash, CSS, C, Rust, Java or Swift but Go's empty raw string's
 * `raw_string_literal_content`, which is why not every zero-width node is taken).
 */
const emptyBody: Readonly<Record<string, string>> = { python: "block" };

/** The query finding a language's bodies (see `emptyBody`), made once per grammar. */
const bodyQueries = new WeakMap<Language, Query>();

/** Where to look for a body read empty: a span of the text, and the blanks before it. */
export interface Window {
  readonly start: number;
  readonly end: number;
}

/**
 * The zero-width bodies of type `type` in a tree, only in `windows` when given (a query per
 * window; the whole tree otherwise): a query runs inside WASM, where a cursor walk would cross
 * into it at every node (2.2 s against 0.65 s on 8 MB of Python, whole trees).
 */
function emptyBodies(
  tree: Tree,
  type: string,
  windows: readonly Window[] | undefined,
  sites: ErrorSite[],
): void {
  let query = bodyQueries.get(tree.language);
  if (!query) {
    query = new Query(tree.language, `(${type}) @body`);
    bodyQueries.set(tree.language, query);
  }
  const found = new Set<number>();
  for (const window of windows ?? [undefined]) {
    const range = window ? { startIndex: Math.max(0, window.start - 1), endIndex: window.end + 1 } : {};
    for (const { node } of query.captures(tree.rootNode, range)) {
      if (node.startIndex !== node.endIndex || node.isMissing || found.has(node.startIndex)) continue;
      if (window && (node.startIndex < window.start || node.startIndex > window.end)) continue;
      if (sites.length >= maxSites) return;
      found.add(node.startIndex);
      sites.push({ start: node.startIndex, end: node.endIndex, empty: type });
    }
  }
}

/**
 * The ERROR and MISSING nodes of a tree, outermost only (at most 200): only nodes that hold an
 * error are descended into. Decided by `isError` / `isMissing`, never the type name (Go's
 * zero-width terminator is typed "ERROR" in web-tree-sitter but is no error). For a language of
 * `emptyBody`, also its bodies read empty: only in `windows` when given (see `rewriteWindows`).
 * In source order.
 */
export function errorSites(tree: Tree, language: string, windows?: readonly Window[]): ErrorSite[] {
  const sites: ErrorSite[] = [];
  const bodies = emptyBody[language];
  if (bodies) emptyBodies(tree, bodies, windows, sites);
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

/** Where each replacement's text lies in the rewritten text (sorted spans, as replaced). */
export function writtenWindows(spans: readonly ReplacedSpan[]): Window[] {
  const written: Window[] = [];
  let delta = 0;
  for (const span of spans) {
    written.push({ start: span.start + delta, end: span.start + delta + span.length });
    delta += span.length - (span.end - span.start);
  }
  return written;
}

/**
 * Where in a rewritten text a body read empty can be the rewrite's doing: each replacement's new
 * text and the blanks before it (a body read empty sits right after the token before it).
 */
export function rewriteWindows(text: string, spans: readonly ReplacedSpan[]): Window[] {
  return writtenWindows(spans).map(({ start, end }) => {
    let from = start;
    while (from > 0 && /\s/.test(text.charAt(from - 1))) from--;
    return { start: from, end };
  });
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

/** Whether two spans share a character, or one of zero width lies in (or at an end of) the other. */
function meets(a: Window, b: Window): boolean {
  if (a.start === a.end || b.start === b.end) return a.start <= b.end && b.start <= a.end;
  return a.start < b.end && b.start < a.end;
}

/**
 * The replacement an error site away from every replacement most likely comes from: the last one
 * before it (a bracket the rewrite opened is reported where the file ends), else the first after
 * it; undefined when the site meets one (it is shown there already) or there is none.
 */
export function nearestWritten(site: ErrorSite, written: readonly Window[]): Window | undefined {
  if (written.some((text) => meets(site, text))) return undefined;
  let before: Window | undefined;
  for (const text of written) {
    if (text.end <= site.start) before = text;
    else return before ?? text;
  }
  return before;
}

/**
 * {@link nearestWritten} of each site (in source order), except that a site at the same place as
 * the one before it, after a replacement, names the replacement before that one's: brackets several
 * replacements opened are all reported missing where the file ends, the innermost (the last
 * opened) first, so each is named once rather than the last for all.
 */
export function sourcesOf(sites: readonly ErrorSite[], written: readonly Window[]): (Window | undefined)[] {
  let repeat = 0;
  return sites.map((site, index) => {
    const previous = sites[index - 1];
    repeat = previous && previous.start === site.start && previous.end === site.end ? repeat + 1 : 0;
    const nearest = nearestWritten(site, written);
    if (nearest === undefined || nearest.end > site.start) return nearest;
    return written[Math.max(0, written.indexOf(nearest) - repeat)];
  });
}

/**
 * The error sites of the new text that no error of the original accounts for: one is the
 * original's when an original site, moved through the replacements (sorted, not overlapping),
 * overlaps or touches it, whatever its kind (error recovery may read the same broken code
 * differently once code near it changed), unless it is larger than each and reaches text the
 * rewrite wrote outside every such site: error recovery often reads a new break and an old one apart as one ERROR, which
 * must not hide the new. So a file already broken is not blamed on the edit where it was broken;
 * an error the edit adds inside such a site is not reported either.
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
  const written = writtenWindows(spans);
  const within = (inner: Window, outer: Window) => outer.start <= inner.start && inner.end <= outer.end;
  return rewritten.filter((site) => {
    const old = moved.filter((o) => site.start <= o.end && o.start <= site.end);
    if (old.length === 0) return true;
    if (old.some((o) => within(site, o))) return false;
    return written.some((text) => meets(site, text) && !old.some((o) => within(text, o)));
  });
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
