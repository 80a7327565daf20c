import type { Node } from "web-tree-sitter";
import { parseMetaVariable, restoreSigils } from "./metavariable.js";

/** How deep a tree goes and its longest children list. */
export interface TreeShape {
  /** Levels from the root (a lone leaf is 1). */
  readonly depth: number;
  /** Most children of one node. */
  readonly width: number;
}

/** The depth and widest children list of the tree under `node`, walked without recursion. */
export function treeShape(node: Node): TreeShape {
  const cursor = node.walk();
  // Children met so far under each node of the path walked, by level (the root is level 0).
  const counts: number[] = [];
  let level = 0;
  let depth = 1;
  let width = 0;
  try {
    for (;;) {
      if (cursor.gotoFirstChild()) {
        level++;
        counts[level] = 1;
        depth = Math.max(depth, level + 1);
        width = Math.max(width, 1);
        continue;
      }
      while (!cursor.gotoNextSibling()) {
        if (level === 0 || !cursor.gotoParent()) return { depth, width };
        level--;
      }
      const count = (counts[level] ?? 0) + 1;
      counts[level] = count;
      width = Math.max(width, count);
    }
  } finally {
    cursor.delete();
  }
}

/** Children that carry no code: zero-width terminators and MISSING nodes tree-sitter invented. */
export function isIgnorable(node: Node): boolean {
  return node.isMissing || node.startIndex === node.endIndex;
}

/** The first ERROR node in the subtree (MISSING nodes are tolerated, as ast-grep does). */
export function firstError(node: Node): Node | undefined {
  if (node.isError) return node;
  if (!node.hasError) return undefined;
  for (const child of node.children) {
    const found = firstError(child);
    if (found) return found;
  }
  return undefined;
}

/** Lists of parameters or type parameters, whose items a metavariable may stand for. */
const parameterList = /parameter/;

/**
 * Whether a node the pattern holds as a metavariable may lack a token inside: a `$$$X` stands for
 * any run of nodes, and a parameter may be written as a metavariable alone (Go's `[$$$T]` or
 * `[$T]` is a type parameter missing its constraint). A single `$X` elsewhere missing a token is a
 * real gap: Go's `var $X` is a declaration missing its type, whose `$X` would take it all.
 */
function holdsMissing(node: Node, expando: string | undefined): boolean {
  const meta = metaOf(node.text, expando);
  if (meta === undefined) return false;
  return meta.kind === "multi" || (node.parent !== null && parameterList.test(node.parent.type));
}

/**
 * The first MISSING node in the subtree: a token tree-sitter invented because the pattern lacks
 * it (the `)` of `foo($A, $B`). None inside a metavariable that may lack one ({@link holdsMissing}).
 */
export function firstMissing(node: Node, expando: string | undefined): Node | undefined {
  if (node.isMissing) return node;
  if (!node.hasError || holdsMissing(node, expando)) return undefined;
  for (const child of node.children) {
    const found = firstMissing(child, expando);
    if (found) return found;
  }
  return undefined;
}

/**
 * The metavariable a pattern node's text spells, or undefined. With an expando only text that
 * went through it counts: a `$` left as written is code (PHP's `$_GET`).
 */
export function metaOf(text: string, expando: string | undefined): ReturnType<typeof parseMetaVariable> {
  if (expando !== undefined && !text.startsWith(expando)) return undefined;
  return parseMetaVariable(restoreSigils(text, expando));
}

/** Whether the node's whole text spells a metavariable (after the expando is put back). */
export function isMetaText(node: Node, expando: string | undefined): boolean {
  return metaOf(node.text, expando) !== undefined;
}

/**
 * Whether an ERROR is a switch clause written alone, as ast-grep matches one: `case`, values
 * holding a metavariable (Go's `case $A, $B:`), `:`; or `default:`. A case whose values are all
 * code (`case int:`) stays a typo: tree-sitter reads its value as an expression no case holds.
 */
function looseClause(node: Node, expando: string | undefined): boolean {
  const children = node.children;
  const first = children[0];
  const last = children.at(-1);
  if (!first || !last || first.isNamed || last.type !== ":" || last.isNamed) return false;
  if (first.type === "default") return children.length === 2;
  if (first.type !== "case" || children.length < 3) return false;
  const holdsMeta = (inner: Node): boolean =>
    isMetaText(inner, expando) || inner.children.some((child) => holdsMeta(child));
  return children.slice(1, -1).some((child) => holdsMeta(child));
}

/**
 * The first ERROR node a pattern may not keep. As in ast-grep, an ERROR whose whole text is a
 * metavariable is that metavariable (`class $C { $$$B }`: a lone `$$$B` where Java wants a
 * member), and an ERROR with a metavariable among its children is a node of any kind with those
 * children (JSON `{"k": $V}`, where no value can be an identifier). Any other ERROR is a typo.
 */
export function intolerableError(node: Node, expando: string | undefined): Node | undefined {
  if (!node.hasError && !node.isError) return undefined;
  if (node.isError) {
    if (isMetaText(node, expando)) return undefined;
    if (!node.children.some((child) => isMetaText(child, expando)) && !looseClause(node, expando))
      return node;
  }
  for (const child of node.children) {
    const found = intolerableError(child, expando);
    if (found) return found;
  }
  return undefined;
}

/**
 * Whether the node's text holds code its children do not cover (the text of a comment whose only
 * children are its markers, `//` or the two ends of a block comment, as in Rust): such a node is compared by its
 * whole text, never by its children. Whitespace between children is no such code.
 */
export function hasUncoveredText(node: Node): boolean {
  const count = node.childCount;
  if (count === 0) return false;
  const text = node.text;
  const base = node.startIndex;
  let at = base;
  for (let index = 0; index < count; index++) {
    const child = node.child(index);
    if (!child) continue;
    if (child.startIndex > at && text.slice(at - base, child.startIndex - base).trim() !== "") return true;
    at = Math.max(at, child.endIndex);
  }
  return text.slice(at - base).trim() !== "";
}

/** Children that are code: not ignorable, and not comments (an ERROR counts as extra; it is kept). */
export function meaningfulChildren(node: Node): Node[] {
  return node.children.filter((child) => !isIgnorable(child) && (!child.isExtra || child.isError));
}
