import type { Node } from "web-tree-sitter";
import { isIgnorable } from "../pattern/pattern-tree.js";
import { anyType, isSeparator, type PatternNode } from "../pattern/pattern-node.js";
import { CodeComparer, type NodeRun } from "./same-code.js";

/** What a match bound: one node for `$X`, a (possibly empty) run of siblings for `$$$X`. */
export type Capture =
  | { readonly kind: "single"; readonly node: Node }
  | ({ readonly kind: "multi" } & NodeRun);

/** Bindings by metavariable name; copied on write so a failed branch leaves no trace. */
export type Environment = ReadonlyMap<string, Capture>;

/**
 * Work one match attempt may do before it is abandoned (a pathological `$$$` pattern): a unit per
 * matching step, per node walked to collect a capture's tokens, and per token compared when a
 * repeated name is checked.
 */
export const defaultStepBudget = 100_000;

class BudgetExceeded extends Error {}

/**
 * Whether an error is the JavaScript stack running out: the matcher recurses once per pattern
 * level and per sibling it steps over, so code or a pattern nested deeper than the stack holds
 * abandons the attempt (counted in `tooDeep`) instead of failing the whole search.
 */
function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack/i.test(error.message);
}

/** The binding `matchRun` gives the siblings after a run (no metavariable can be named so). */
const restName = " rest";

/** Failed (pattern index, node index) states of one children list, by bindings; made on first `$$$`. */
interface Memo {
  failed: Map<Environment, Set<number>> | undefined;
  /**
   * The list is the start of the code's (see `TreeMatcher`): named code children may trail the
   * pattern's last child (recorded as passed over), and a `$$$` finds no empty run after the
   * code's last child, as in ast-grep.
   */
  trailingNamed?: boolean;
  /**
   * A `$$$` finds no empty run after the code's last child: the list is the start of the code's
   * and the code's last child is in it. An empty last child that is not MISSING (Go's zero-width
   * end of a file without a final newline) is left out of the list, and ast-grep's run takes it,
   * so there an empty run does match (`$$$A var $X = $V $$$B` on `package p⏎⏎var x = 1`, B empty).
   */
  closedEnd?: boolean;
}

/**
 * Children that hold code, comments (extras) included: a `$$$X` run keeps the comments it spans.
 * MISSING tokens (which tree-sitter supplied to read code that does not parse) are kept, as in
 * ast-grep: a pattern's token or a metavariable may match one (see {@link missingTokens}), and a
 * run may span one; anything else passes over them silently. Other empty children (Go's zero-width terminator)
 * are left out.
 */
function codeChildren(node: Node): Node[] {
  return node.children.filter((child) => child.isMissing || !isIgnorable(child));
}

/**
 * Whether an unnamed code token says something a rewrite must not drop: a keyword (`async`,
 * `static`, `get`) or a marker (`*` of a generator method, `<-` of a receive-only channel), any
 * token but a separator (`foo($A, $B)` on `foo(a, b,)` may drop the trailing `,`).
 */
function saysSomething(node: Node): boolean {
  return node.type !== "," && node.type !== ";";
}

/**
 * Whether a code token the pattern element does not match may be passed over. As in ast-grep's
 * smart strictness: an unnamed token (punctuation or keyword) the pattern does not write, in front
 * of a token the pattern does write (`foo($A, $B)` matches `foo(a, b,)`; `function $F() {}` matches
 * `async function f() {}`, `async` passed over before `function`). A metavariable or a node never
 * passes over one: `yield $A` is not `yield from x`, `($A) => $B` not `async (a) => a`,
 * `import { $$$I } from "m"` not `import type { A } from "m"`, `delete $P` not `delete[] p`.
 */
function skippable(node: Node, pattern: PatternNode): boolean {
  return !node.isNamed && pattern.kind === "leaf";
}

/**
 * Whether a pattern element is the `;` a wrapper appended (see `implied`) that may match nothing
 * after the last of `nodes`, the children of a code node ending without one (CSS's last
 * declaration of a block). Not where that node has a body: that is the form of the construct
 * without the `;` (PHP's `namespace { … }` is no `namespace $N;`, whose metavariable would take
 * the block for a name, as it does not in ast-grep).
 */
function endsWithoutImplied(pattern: PatternNode, nodes: readonly Node[]): boolean {
  if (pattern.kind !== "leaf" || pattern.implied !== true) return false;
  return (nodes.at(-1)?.parent?.childForFieldName("body") ?? null) === null;
}

/**
 * The binding under which a match records the tokens it passed over that say something (no
 * metavariable can be named so), as an empty run over a list of them so that it is no capture's
 * text: a rewrite of such a match would drop them.
 */
const passedName = " passed";

/**
 * The keywords and markers a match passed over (see {@link skippable}, {@link saysSomething}), in
 * source order.
 */
export function passedOver(env: Environment): readonly Node[] {
  return recorded(env, passedName);
}

function withPassed(env: Environment, token: Node): Environment {
  return withRecorded(env, passedName, token);
}

/** The tokens a match recorded under `name` (an empty run over their list). */
function recorded(env: Environment, name: string): readonly Node[] {
  const list = env.get(name);
  return list?.kind === "multi" ? list.list : [];
}

/** `env` with `token` added to the tokens recorded under `name`. */
function withRecorded(env: Environment, name: string, token: Node): Environment {
  const next = new Map(env);
  next.set(name, { kind: "multi", list: [...recorded(env, name), token], start: 0, end: 0 });
  return next;
}

/**
 * The binding under which a match records the MISSING tokens its pattern's tokens or metavariables
 * matched (no metavariable can be named so), as an empty run over a list of them.
 */
const missingName = " missing";

/**
 * The tokens the code lacks that the pattern matched: tree-sitter supplied them (MISSING) to read
 * code that does not parse, and a pattern's token or a metavariable matched one, as in ast-grep
 * (the `)` of `f(1;`, the `#endif` of an `#ifdef` a `}` cuts short, the identifier `$B` of
 * `$A + $B` binds in `a + )`). A rewrite of such a match would write the token where the code
 * lacks it, or build on the gap.
 */
export function missingTokens(env: Environment): readonly Node[] {
  return recorded(env, missingName);
}

function withMissing(env: Environment, token: Node): Environment {
  return withRecorded(env, missingName, token);
}

const openSpines = new WeakMap<PatternNode, ReadonlySet<PatternNode>>();

/**
 * The nodes of a pattern that are only the start of the code they match, as in ast-grep: a root
 * tree-sitter read as an ERROR (Go's `case $A:`) or an `open` one (C's `#ifdef $X`, read with a
 * MISSING `#endif`), and down from it each last child that is a node, where the pattern's text
 * ends: `#ifndef $X⏎#define $X` is the start of a guard whose `#define` may have a value.
 */
function openSpine(root: PatternNode): ReadonlySet<PatternNode> {
  let spine = openSpines.get(root);
  if (!spine) {
    const nodes = new Set<PatternNode>();
    let node: PatternNode | undefined =
      root.kind === "inner" && (root.type === anyType || root.open === true) ? root : undefined;
    while (node?.kind === "inner") {
      nodes.add(node);
      node = node.children[node.children.length - 1];
    }
    openSpines.set(root, (spine = nodes));
  }
  return spine;
}

function capturedRun(capture: Capture): NodeRun {
  return capture.kind === "single" ? { list: [capture.node], start: 0, end: 1 } : capture;
}

/**
 * Matches one pattern against code nodes. Smart strictness, as in ast-grep: unnamed tokens the
 * pattern does not mention (punctuation and keywords) may be skipped before a token it does, and
 * a match that skipped a keyword or marker records it (see {@link passedOver}: a rewrite must
 * leave that match alone); comments are skipped, named code nodes never are, and nothing but
 * unnamed tokens may trail after the pattern's last child, those that say something recorded as
 * passed over too (so a rewrite can never silently drop a statement or a keyword). One exception,
 * as in ast-grep: a pattern tree-sitter read whole as an ERROR is the start of a node it could not
 * read alone (Go's `case $A:`, C's `#if $X`), and so is an `open` root (C's `#ifdef $X`, read
 * with a MISSING `#endif`), so under its root, and under each last child of it that is a node,
 * named children may trail too (a case's statements, an `#if`'s lines and `#endif`, the value of
 * the `#define` ending `#ifndef $X⏎#define $X`), recorded as passed over, so a rewrite leaves such
 * a match alone; there a `$$$` after the code's last child matches nothing, as in ast-grep.
 * `$$$` backtracks, within a work budget per attempt that counts steps and the comparisons of
 * repeated names.
 */
export class TreeMatcher {
  private spent = 0;
  /** Attempts abandoned because they ran out of budget. */
  exhausted = 0;
  /** Attempts abandoned because the code (or pattern) was nested deeper than the stack allows. */
  tooDeep = 0;
  private readonly code = new CodeComparer((units) => this.charge(units));
  /** Code children by node id, for this attempt (a node is revisited on every backtrack). */
  private readonly children = new Map<number, Node[]>();
  /** Ids of the children filling a field, by parent id and field name, for this attempt. */
  private readonly fields = new Map<string, Set<number>>();

  /**
   * The nodes of the pattern `match` was given that are only the start of the code they match
   * (see {@link openSpine}).
   */
  private open: ReadonlySet<PatternNode> = new Set();

  constructor(private readonly budget = defaultStepBudget) {}

  /** The bindings if `node` matches `pattern`, else undefined. */
  match(pattern: PatternNode, node: Node): Environment | undefined {
    this.spent = 0;
    this.code.reset();
    this.children.clear();
    this.fields.clear();
    this.open = openSpine(pattern);
    try {
      return this.matchNode(pattern, node, new Map());
    } catch (error) {
      return this.abandoned(error);
    }
  }

  /**
   * The bindings and end (exclusive) if a run of `nodes` starting at `start` matches the
   * pattern elements in order; siblings after the run are not part of it.
   */
  matchRun(
    patterns: readonly PatternNode[],
    nodes: readonly Node[],
    start: number,
  ): { env: Environment; end: number } | undefined {
    this.spent = 0;
    this.code.reset();
    this.children.clear();
    this.fields.clear();
    this.open = new Set();
    // The rest of the list goes to an anonymous run whose start is the run's end.
    const rest: PatternNode = { kind: "meta", meta: { kind: "multi", name: restName } };
    try {
      const env = this.matchChildren([...patterns, rest], nodes, 0, start, new Map(), { failed: undefined });
      const tail = env?.get(restName);
      if (!env || tail?.kind !== "multi") return undefined;
      const bindings = new Map(env);
      bindings.delete(restName);
      return { env: bindings, end: tail.start };
    } catch (error) {
      return this.abandoned(error);
    }
  }

  /** Counts an attempt abandoned at the budget or the stack's depth; rethrows anything else. */
  private abandoned(error: unknown): undefined {
    if (error instanceof BudgetExceeded) this.exhausted++;
    else if (isStackOverflow(error)) this.tooDeep++;
    else throw error;
    return undefined;
  }

  private charge(units: number): void {
    this.spent += units;
    if (this.spent > this.budget) throw new BudgetExceeded();
  }

  private bind(env: Environment, name: string | undefined, capture: Capture): Environment | undefined {
    if (name === undefined) return env;
    const existing = env.get(name);
    if (existing) return this.code.same(capturedRun(existing), capturedRun(capture)) ? env : undefined;
    const next = new Map(env);
    next.set(name, capture);
    return next;
  }

  /**
   * Whether a code node may be part of a run standing for the parent's `field`: a node of that
   * field, a comment, or an unnamed token.
   */
  private mayJoin(node: Node, field: string): boolean {
    if (!node.isNamed || node.isExtra) return true;
    const parent = node.parent;
    if (!parent) return true;
    const key = `${parent.id} ${field}`;
    let members = this.fields.get(key);
    if (!members) {
      this.charge(1);
      members = new Set(parent.childrenForFieldName(field).map((child) => child.id));
      this.fields.set(key, members);
    }
    return members.has(node.id);
  }

  private codeChildren(node: Node): Node[] {
    let children = this.children.get(node.id);
    if (!children) this.children.set(node.id, (children = codeChildren(node)));
    return children;
  }

  private matchNode(pattern: PatternNode, node: Node, env: Environment): Environment | undefined {
    switch (pattern.kind) {
      case "meta": {
        if (pattern.meta.kind === "multi")
          return this.bind(env, pattern.meta.name, { kind: "multi", list: [node], start: 0, end: 1 });
        if (pattern.meta.namedOnly && !node.isNamed) return undefined;
        const bound = this.bind(env, pattern.meta.name, { kind: "single", node });
        // A token tree-sitter supplied (MISSING) is bound as any other, as in ast-grep (`$B` of
        // `$A + $B` on `a + ;` is the MISSING identifier, its text empty), and recorded: a
        // rewrite of the match would stand on code that is not there.
        return bound && node.isMissing ? withMissing(bound, node) : bound;
      }
      case "leaf": {
        if (node.type !== pattern.type) return undefined;
        if (pattern.named && node.text !== pattern.text) return undefined;
        return node.isMissing ? withMissing(env, node) : env;
      }
      case "inner": {
        // A node without children (a token, one tree-sitter supplied included) is matched by no
        // inner pattern, as in ast-grep, whose matching of children needs a child: an ERROR kept
        // around a `$$$` (JSON's `{"k": [$$$A,]}`) does not match the number of `{"k": [1]}`.
        if (node.childCount === 0) return undefined;
        if (node.type !== pattern.type && pattern.type !== anyType) return undefined;
        const open = this.open.has(pattern);
        const last = node.lastChild;
        return this.matchChildren(pattern.children, this.codeChildren(node), 0, 0, env, {
          failed: undefined,
          trailingNamed: open,
          closedEnd: open && !(last !== null && !last.isMissing && isIgnorable(last)),
        });
      }
    }
  }

  private matchChildren(
    patterns: readonly PatternNode[],
    nodes: readonly Node[],
    pi: number,
    ci: number,
    env: Environment,
    memo: Memo,
  ): Environment | undefined {
    this.charge(1);
    // Matching is a pure function of (position, bindings): a state that failed once fails again.
    // Anonymous `$$$` and repeated names keep the same bindings object, so several `$$$` in one
    // list stay polynomial instead of trying every split.
    const key = pi * (nodes.length + 1) + ci;
    if (memo.failed?.get(env)?.has(key)) return undefined;
    const result = this.matchAt(patterns, nodes, pi, ci, env, memo);
    if (!result && memo.failed) {
      let keys = memo.failed.get(env);
      if (!keys) memo.failed.set(env, (keys = new Set()));
      keys.add(key);
    }
    return result;
  }

  private matchAt(
    patterns: readonly PatternNode[],
    nodes: readonly Node[],
    pi: number,
    ci: number,
    env: Environment,
    memo: Memo,
  ): Environment | undefined {
    const pattern = patterns[pi];
    if (pattern === undefined) {
      // Unnamed tokens may trail, as in ast-grep (`public void $M() {}` matches
      // `public static void m() {}`: Java's `modifiers` end with `static`); those that say
      // something are recorded as passed over, as the leading ones are; named ones only under an
      // ERROR-read or open root (its open spine), recorded too.
      let passed = env;
      for (let rest = ci; rest < nodes.length; rest++) {
        const node = nodes[rest];
        if (!node || node.isExtra || node.isMissing) continue;
        if (node.isNamed && !memo.trailingNamed) return undefined;
        if (node.isNamed || saysSomething(node)) passed = withPassed(passed, node);
      }
      return passed;
    }
    if (pattern.kind === "meta" && pattern.meta.kind === "multi") {
      // At the start of a node, as in ast-grep: a `$$$` finds nothing after the code's last
      // child (`default: $$$B` is a `default:` with statements, not an empty one). A MISSING last
      // child is in `nodes`, so the run takes it, as ast-grep's does (an `#ifdef` a `}` cuts
      // short matches `#ifdef $X⏎$$$B`, B the supplied `#endif`, its text empty); another empty
      // one is not, and an empty run stands for it (see `Memo.closedEnd`).
      if (memo.closedEnd && ci >= nodes.length) return undefined;
      memo.failed ??= new Map();
      const name = pattern.meta.name;
      const earlier = name === undefined ? undefined : env.get(name);
      // A repeated name must capture as many tokens as it did before: count them as the run grows
      // and compare only runs of that length (comparing every run made each step cost a capture).
      const wanted = earlier ? this.code.tokenCount(capturedRun(earlier)) : undefined;
      let tokens = 0;
      const field = pattern.field;
      for (let end = ci; end <= nodes.length; end++) {
        const last = nodes[end - 1];
        // A run standing for a field (the block of Python's `try:`) ends at the first named code
        // node of another field: the clauses after the block are never part of it.
        if (field !== undefined && last && end > ci && !this.mayJoin(last, field)) break;
        // Only a repeated name needs the count (collecting tokens walks the whole capture).
        if (wanted !== undefined && end > ci && last) tokens += this.code.tokensOf(last).length;
        if (wanted !== undefined && tokens !== wanted) {
          if (tokens > wanted) break;
          this.charge(1);
          continue;
        }
        const bound = this.bind(env, name, { kind: "multi", list: nodes, start: ci, end });
        if (!bound) continue;
        const rest = this.afterRun(patterns, nodes, pi + 1, end, bound, memo, end === ci);
        if (rest) return rest;
      }
      return undefined;
    }
    // Comments are stepped over in a loop, not a call each: a block may hold thousands.
    let at = ci;
    while (nodes[at]?.isExtra) {
      at++;
      this.charge(1);
    }
    const node = nodes[at];
    if (node === undefined) {
      // The `;` a wrapper appended, which the code's node ends without (CSS's last declaration
      // of a block): the user did not write it (see `implied`).
      return endsWithoutImplied(pattern, nodes)
        ? this.matchChildren(patterns, nodes, pi + 1, at, env, memo)
        : undefined;
    }
    const matched = this.matchNode(pattern, node, env);
    if (matched) {
      // A token the pattern's token matched is never passed over to match a later one of the
      // same kind (as in ast-grep, which skips a token only where the pattern's does not match
      // it): `$A[$B:$C]` must not take the step of `xs[1::2]` for C.
      return this.matchChildren(patterns, nodes, pi + 1, at + 1, matched, memo);
    }
    // A MISSING token the pattern does not match is no code: passed over silently.
    if (node.isMissing) return this.matchChildren(patterns, nodes, pi, at + 1, env, memo);
    if (!skippable(node, pattern)) return undefined;
    return this.matchChildren(
      patterns,
      nodes,
      pi,
      at + 1,
      saysSomething(node) ? withPassed(env, node) : env,
      memo,
    );
  }

  /**
   * The rest of the list after a `$$$` run ending before `nodes[ci]`. The run takes every sibling
   * up to the node the next pattern element matches, so the comments and separators between the
   * pattern's neighbours are in its text (as in ast-grep, whose rewrite puts them back): the next
   * element must match `nodes[ci]` itself, and after a final `$$$` nothing may be left. After an
   * empty run the separator that follows it in the pattern may match nothing (`foo($$$A, $B)`
   * matches `foo(x)`, as in ast-grep): there is no code between the run and the next element.
   */
  private afterRun(
    patterns: readonly PatternNode[],
    nodes: readonly Node[],
    pi: number,
    ci: number,
    env: Environment,
    memo: Memo,
    emptyRun: boolean,
  ): Environment | undefined {
    const pattern = patterns[pi];
    if (pattern === undefined) return ci === nodes.length ? env : undefined;
    if (pattern.kind === "meta" && pattern.meta.kind === "multi")
      return this.matchChildren(patterns, nodes, pi, ci, env, memo);
    const node = nodes[ci];
    if (node === undefined && endsWithoutImplied(pattern, nodes))
      return this.afterRun(patterns, nodes, pi + 1, ci, env, memo, emptyRun);
    const skipSeparator = () =>
      emptyRun && isSeparator(pattern)
        ? this.afterRun(patterns, nodes, pi + 1, ci, env, memo, true)
        : undefined;
    if (node === undefined || node.isExtra) return skipSeparator();
    this.charge(1);
    const matched = this.matchNode(pattern, node, env);
    return (matched && this.matchChildren(patterns, nodes, pi + 1, ci + 1, matched, memo)) ?? skipSeparator();
  }
}
