import type { Node } from "web-tree-sitter";

/** Nodes walked between two charges while collecting tokens. */
const chargeEvery = 1024;

/**
 * Appends the node's tokens to `out`, charging a unit per node walked as it goes (so a huge
 * capture is abandoned early). Walks with its own stack, not by recursion: a capture may be
 * nested far deeper than the JavaScript stack (a file of 50,000 nested brackets).
 */
function collectTokens(root: Node, out: string[], charge: (units: number) => void): void {
  const stack: Node[] = [root];
  let walked = 0;
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (++walked === chargeEvery) {
      charge(walked);
      walked = 0;
    }
    if (node.isExtra || node.isMissing) continue;
    if (node.childCount === 0) {
      if (node.startIndex !== node.endIndex) out.push(node.text);
      continue;
    }
    const children = node.children;
    for (let index = children.length - 1; index >= 0; index--) {
      const child = children[index];
      if (child) stack.push(child);
    }
  }
  charge(walked);
}

/** A run of sibling nodes, `list[start]` up to (not including) `list[end]`, not copied out. */
export interface NodeRun {
  readonly list: readonly Node[];
  readonly start: number;
  readonly end: number;
}

/**
 * Compares captures as code, for one match attempt: the same tokens in the same order, whitespace
 * and comments ignored (`a .b` equals `a.b /* x *\/`). Each node's tokens are collected once per
 * attempt, and the work is charged to the attempt's budget (a unit per node walked and per token
 * compared), so comparing large captures over and over cannot make an attempt unbounded.
 */
export class CodeComparer {
  private readonly tokens = new Map<number, readonly string[]>();

  /** `charge` is called with the units of work done; it throws to abandon the attempt. */
  constructor(private readonly charge: (units: number) => void) {}

  /** Forgets the tokens collected (nodes of another attempt, possibly of another tree). */
  reset(): void {
    this.tokens.clear();
  }

  /** The node's tokens (whitespace and comments dropped). */
  tokensOf(node: Node): readonly string[] {
    const cached = this.tokens.get(node.id);
    if (cached) return cached;
    const out: string[] = [];
    collectTokens(node, out, this.charge);
    this.tokens.set(node.id, out);
    return out;
  }

  /** How many tokens a run of nodes holds. */
  tokenCount(run: NodeRun): number {
    let count = 0;
    for (let index = run.start; index < run.end; index++) {
      const node = run.list[index];
      if (node) count += this.tokensOf(node).length;
    }
    return count;
  }

  /** Whether two captures are the same code. */
  same(left: NodeRun, right: NodeRun): boolean {
    const onlyLeft = left.end - left.start === 1 ? left.list[left.start] : undefined;
    const onlyRight = right.end - right.start === 1 ? right.list[right.start] : undefined;
    if (onlyLeft && onlyRight && onlyLeft.text === onlyRight.text) {
      this.charge(1);
      return true;
    }
    const count = this.tokenCount(left);
    if (count !== this.tokenCount(right)) return false;
    const a = this.runTokens(left);
    const b = this.runTokens(right);
    let index = 0;
    while (index < count && a[index] === b[index]) index++;
    this.charge(Math.max(index, 1));
    return index === count;
  }

  private runTokens(run: NodeRun): string[] {
    const out: string[] = [];
    for (let index = run.start; index < run.end; index++) {
      const node = run.list[index];
      if (node) out.push(...this.tokensOf(node));
    }
    return out;
  }
}
