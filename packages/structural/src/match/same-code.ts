import type { Node } from "web-tree-sitter";

function collectTokens(node: Node, out: string[]): void {
  if (node.isExtra || node.isMissing) return;
  if (node.childCount === 0) {
    if (node.startIndex !== node.endIndex) out.push(node.text);
    return;
  }
  for (const child of node.children) collectTokens(child, out);
}

/** The code's tokens, without whitespace or comments. */
export function tokensOf(nodes: readonly Node[]): string[] {
  const out: string[] = [];
  for (const node of nodes) collectTokens(node, out);
  return out;
}

/**
 * Whether two captures are the same code, compared structurally: the same tokens in the same
 * order, ignoring whitespace and comments (`a .b` equals `a.b /* x *\/`).
 */
export function sameCode(left: readonly Node[], right: readonly Node[]): boolean {
  if (left.length === 1 && right.length === 1 && left[0]?.text === right[0]?.text) return true;
  const a = tokensOf(left);
  const b = tokensOf(right);
  return a.length === b.length && a.every((token, index) => token === b[index]);
}
