import { performance } from "node:perf_hooks";
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import type { Language, Node, Tree } from "web-tree-sitter";
import { findLanguage } from "../grammars/languages.js";
import { isIgnorable } from "../pattern/pattern-tree.js";
import {
  anyType,
  spelledChildren,
  writtenChildren,
  type CompiledPattern,
  type PatternNode,
} from "../pattern/pattern-node.js";
import { leftOpenAt } from "./left-open.js";
import { missingTokens, passedOver, TreeMatcher, type Capture, type Environment } from "./match-tree.js";

/** A captured piece of code, copied out of the syntax tree. */
export interface CapturedText {
  /** Source text (for `$$$X`, from the first captured node to the last; "" when empty). */
  readonly text: string;
  /** UTF-16 offsets in the file's text. */
  readonly start: number;
  readonly end: number;
  /**
   * The node type of the token a single metavariable bound when tree-sitter supplied it (MISSING:
   * the code lacks it, its text is empty), e.g. `identifier` for `$B` of `$A + $B` on `a + ;`.
   */
  readonly missing?: string;
}

/** One match, in plain data (valid after the tree is freed). */
export interface StructuralMatch {
  /** UTF-16 offsets of the matched node in the file's text. */
  readonly start: number;
  readonly end: number;
  /** 0-based line and column (UTF-16 units) of the start. */
  readonly line: number;
  readonly column: number;
  readonly text: string;
  /** Bindings in the order the pattern names them. */
  readonly bindings: ReadonlyMap<string, CapturedText>;
  /**
   * Keywords and markers in the match that the pattern does not write and the matcher passed over,
   * in source order: `async` for `function $F() {}` on `async function f() {}`, `*` for
   * `class A { m() {} }` on `class A { *m() {} }` (never a separator, `,` or `;`); absent when
   * none. Search reports such a match like any other; a rewrite leaves it alone, as it would drop
   * them.
   */
  readonly passedOver?: readonly string[];
  /**
   * The match runs on past the pattern's last child over code the pattern does not write: the
   * pattern is only the start of the node matched (one tree-sitter reads whole as an ERROR, such
   * as Go's `case $A:` matching a case with its statements). Search reports such a match like any
   * other; a rewrite leaves it alone, as it would drop that code.
   */
  readonly trailingCode?: true;
  /**
   * Tokens the code lacks there that the pattern matched, in source order: tree-sitter supplied
   * them (MISSING) to read code that does not parse, and a token the pattern writes, or a
   * metavariable, matched one, as in ast-grep (`)` for `f($A)` on `f(1;`, `#endif` for
   * `#ifdef $X⏎$$$B⏎#endif` on an `#ifdef` a `}` cuts short, `identifier` for `$A + $B` on
   * `a + )`, B bound to it with empty text); absent when none. Search reports such a match like
   * any other; a rewrite leaves it alone, as it would write the token where the code lacks it or
   * build on the gap.
   */
  readonly missing?: readonly string[];
  /**
   * Set when the match is a whole statement or declaration among others (in a block, a body, a
   * file's top level), or all of one but its terminator: the offset where that statement ends,
   * with the `;` that ends it or separates it from the next. Past `end` where the match leaves
   * that `;` out (`console.log($$$A)` on `console.log(1);`, Python's `print(1); x = 2`). A
   * rewrite to nothing deletes up to here, so no `;` of what it deleted is left on its own.
   * Unset for a statement that is another's whole body (`if (x) f();`): deleting its `;` would
   * make the next statement that body. Found only when asked (`MatchLimits.statements`).
   */
  readonly statementEnd?: number;
  /**
   * Set when the match is whole statements of a body that must hold one (see {@link BodyOf}):
   * a rewrite to nothing that deletes every statement of the body writes the language's no-op
   * there. Found only when asked (`MatchLimits.statements`).
   */
  readonly body?: BodyOf;
  /**
   * Set when the match is commands of a Bash list (`a && b || c`): a rewrite to nothing deletes
   * them with their operators, or the list whole when all its commands go (see {@link ListOf}).
   * Found only when asked (`MatchLimits.statements`).
   */
  readonly list?: ListOf;
  /**
   * Set when the match is one command of a Bash pipeline (`a | b`), not all of it: a rewrite to
   * nothing leaves it alone, as deleting it, `|` and all, would change what the next command
   * reads or where the previous one's output goes. Found only when asked (`MatchLimits.statements`).
   */
  readonly pipeline?: true;
  /**
   * Set when the match is the command a Bash `if`, `elif`, `while` or `until` tests: the last of
   * its condition, whose exit status decides the branch, or the last of a `{ … }` or `( … )` that
   * is, or that ends a list or pipeline that is (whose status is its last command's). A rewrite to nothing leaves it alone: deleting it
   * leaves `if ; then` or `if { ; }; then`, which do not parse, and no command in its place keeps
   * what it tested (`:` would take every branch, and never end a `while`). A command before the
   * condition's (or the group's) last is deleted with its `;`. Found only when asked
   * (`MatchLimits.statements`).
   */
  readonly condition?: TestedBy;
  /**
   * Set when the match is a Python expression in code that needs one there (`lambda: print(1)`,
   * `f(a=print(1))`, `[print(i) for i in y]`): a rewrite to nothing writes this (`None`, the
   * value such a call gave and Python's "no value") instead of leaving `lambda: `, which does not
   * parse. Found only when asked (`MatchLimits.statements`).
   */
  readonly placeholder?: string;
  /**
   * Where a rewrite to nothing of a Python call starts when it takes what the call is an operand
   * of: its `await` (`await log(1)`, as `await None` would raise a TypeError: the statement goes,
   * or `x = await log(1)` becomes `x = None`) or its decorator's `@` and line (`@log(1)`, as
   * `@None` would raise one where the function is defined). Found only when asked
   * (`MatchLimits.statements`).
   */
  readonly deletionStart?: number;
  /**
   * Where that deletion ends when past `end`: the parentheses around the call it takes with its
   * `await` (`await (log(1))`). Found only when asked (`MatchLimits.statements`).
   */
  readonly deletionEnd?: number;
  /**
   * Set when the match is a Python expression whose value neither deleting it nor `None` in its
   * place keeps: what a `raise` raises (`raise None` raises a TypeError), an `except`'s exception
   * type, or one of a tuple of them (`except None:` raises one when an exception reaches it), or
   * in an f-string's self-documenting expression (`f'{log(1)=}'`, `f'{[log(1)]=}'` print its
   * text: `None=`, `[None]=` would print another). A rewrite to nothing leaves it alone. Found only when asked (`MatchLimits.statements`).
   */
  readonly irreplaceable?: "raise" | "except" | "f-string";
}

/** What a Bash condition's command is tested by (see `StructuralMatch.condition`). */
export interface TestedBy {
  /** The statement's keyword: `if`, `elif`, `while` or `until`. */
  readonly keyword: string;
  /**
   * Set when the command is the last of a `{ … }` or `( … )` (or of one in it) that ends the
   * condition: the outermost's shape.
   */
  readonly group?: "{ … }" | "( … )";
}

/**
 * The Bash list (`a && b || c`, commands joined by `&&` and `||`) a match is commands of: where
 * they are, which of them the match is, and how the list ends as a whole command.
 */
export interface ListOf {
  /** Where the list starts (UTF-16): one key per list of a file. */
  readonly start: number;
  /** Each command's start and end, in order. */
  readonly commands: readonly (readonly [number, number])[];
  /** The first and last of them the match is (indexes into `commands`). */
  readonly from: number;
  readonly to: number;
  /**
   * Where the list ends as a command: past its last command's redirects, which tree-sitter reads
   * as the list's (`a && b > f`); the last command's end otherwise.
   */
  readonly end: number;
  /** The comments between its commands (start, end): a deletion that spans one keeps it. */
  readonly comments: readonly (readonly [number, number])[];
  /** The list's end with its `;` or `&` when it is a whole statement (see `StructuralMatch.statementEnd`). */
  readonly statementEnd?: number;
  /** The body the list is a statement of (see {@link BodyOf}), for the match of it whole. */
  readonly body?: BodyOf;
  /** Set when the list is what a condition tests (see `StructuralMatch.condition`), for the match of it whole. */
  readonly condition?: TestedBy;
}

/**
 * The body a match is statements of, where the language reads a body with none as a syntax error
 * and has a statement that does nothing: Python's `block` (`pass`), Bash's `do … done`,
 * `{ … }`, `( … )` and the branches of an `if` (`:`).
 */
export interface BodyOf {
  /** Where the body's statements start (UTF-16): one key per body of a file. */
  readonly start: number;
  /** Statements the body holds, comments not counted. */
  readonly statements: number;
  /** Of those, the ones the match is. */
  readonly matched: number;
  /** The statement that does nothing (`pass`, `:`). */
  readonly noOp: string;
}

/**
 * Why a search gave up before trying every candidate: it found `maxMatches` (there may be more),
 * or its deadline passed.
 */
export type StopReason = "max-matches" | "deadline";

/** Matches found in one tree. */
export interface TreeMatches {
  readonly matches: StructuralMatch[];
  /** Attempts abandoned at the step budget. */
  readonly exhausted: number;
  /** Attempts abandoned because the code was nested deeper than the matcher's stack allows. */
  readonly tooDeep: number;
  /** Set when not every candidate was tried (see {@link MatchLimits}). */
  readonly stopped?: StopReason;
}

/** Bounds on one tree's matching; both optional (no bound). */
export interface MatchLimits {
  /** Stop once this many matches are found (they are the first ones in source order). */
  readonly maxMatches?: number;
  /** Wall-clock time (`Date.now()`, ms) after which no further candidate is tried. */
  readonly deadline?: number;
  /**
   * A cancelled call: {@link findMatchesAsync} throws its reason at its next turn of the event
   * loop. Only on this thread (a signal is not sent to the scan workers, which are ended instead).
   */
  readonly signal?: AbortSignal;
  /**
   * Not a bound: also find where the statement each match is ends (`StructuralMatch.statementEnd`),
   * which a rewrite to nothing needs. Off by default: it reads a few more nodes per match (about
   * a quarter more time on a minified line of 50,000 matches).
   */
  readonly statements?: boolean;
}

function captured(capture: Capture, source: string): CapturedText {
  if (capture.kind === "single") {
    const { startIndex, endIndex } = capture.node;
    const text = source.slice(startIndex, endIndex);
    return capture.node.isMissing
      ? { text, start: startIndex, end: endIndex, missing: capture.node.type }
      : { text, start: startIndex, end: endIndex };
  }
  const first = capture.list[capture.start];
  const last = capture.list[capture.end - 1];
  if (capture.end <= capture.start || !first || !last) return { text: "", start: 0, end: 0 };
  return { text: source.slice(first.startIndex, last.endIndex), start: first.startIndex, end: last.endIndex };
}

/**
 * Node types that hold a list of statements or declarations (a block, a body, a case's
 * statements, Swift's `statements` of a body, a case or a closure): one of them can be deleted
 * with its `;`. A statement that is another's whole body (`if (x) f();`, `while (x) f();`) has a
 * statement as its parent, whose type is none of these.
 */
const statementList =
  /block|body|compound_statement|statement_list|declaration_list|case|default|section|program|module|source_file|translation_unit|^statements$/;

/** Whether `node` is among the statements of a list (see {@link statementList}), or of the file. */
function inStatementList(node: Node): boolean {
  const parent = node.parent;
  if (!parent) return false;
  // Not a parameter's default value (Python's `default_parameter`).
  return parent.parent === null || (statementList.test(parent.type) && !parent.type.includes("parameter"));
}

/**
 * Languages whose statements may end at a line break without a `;` (automatic semicolon
 * insertion): there a `;` may be what keeps the next line from continuing the line before.
 */
const semicolonInserted = new Set(["javascript", "typescript", "tsx"]);

/**
 * A statement may open with this and still continue the one before, were no `;` between them:
 * `let a = b` and a next line `[1, 2].forEach(g)` read as `b[1, 2].forEach(g)` (a `(`, a template,
 * a sign, a regex or a TypeScript `<T>` too).
 */
const continuesLine = /[([`+\-/<]/y;

/**
 * Whether the statement after `statement` opens with what could continue the code before it
 * (see {@link continuesLine}): its `;` is not deleted, as what comes before could end without
 * one once deleted itself or, the `;` being the only separator, the two lines would join.
 */
function nextContinues(statement: Node, source: string): boolean {
  let next = statement.nextSibling;
  while (next?.isExtra) next = next.nextSibling;
  if (!next?.isNamed) return false;
  continuesLine.lastIndex = next.startIndex;
  return continuesLine.test(source);
}

/**
 * The end of a `;` right after `node` (blanks between) that no node of the tree holds: a
 * separator the grammar hides (tree-sitter-swift keeps no node for the `;` between statements).
 */
function hiddenSemicolonEnd(node: Node, source: string): number | undefined {
  const semicolon = /[ \t]*;/y;
  semicolon.lastIndex = node.endIndex;
  if (!semicolon.test(source)) return undefined;
  const at = semicolon.lastIndex - 1;
  const holder = node.tree.rootNode.descendantForIndex(at, at + 1);
  // Between the children of the node around it, not in a token of its own.
  if (!holder || holder.childCount === 0) return undefined;
  for (const child of holder.children)
    if (child && child.startIndex <= at && at < child.endIndex) return undefined;
  return semicolon.lastIndex;
}

/**
 * Whether a Bash here-doc redirect of `statement` (a `redirected_statement`) holds code after its
 * start that is not the here-doc's: tree-sitter reads `cat <<EOF && g` with `&& g` in the
 * redirect (`right`), `cat <<EOF | g` with the pipeline there, and `cat <<EOF; g` as a word.
 */
function heredocHoldsCode(statement: Node): boolean {
  for (const redirect of statement.childrenForFieldName("redirect")) {
    if (redirect?.type !== "heredoc_redirect") continue;
    if (redirect.childForFieldName("right") || redirect.childForFieldName("argument")) return true;
    if (redirect.children.some((child) => child?.type === "pipeline")) return true;
  }
  return false;
}

/**
 * Whether Bash's `statement` (a `redirected_statement`) has a here-doc and is inside another's
 * redirect (`cat <<A && h <<B`): tree-sitter reads both here-docs' text as the inner one's
 * (`h`'s holds `a⏎A⏎b⏎`), so deleting it whole would take the outer one's text and end.
 */
function heredocInHeredoc(statement: Node): boolean {
  if (!statement.childrenForFieldName("redirect").some((redirect) => redirect?.type === "heredoc_redirect"))
    return false;
  for (let up = statement.parent; up; up = up.parent) if (up.type === "heredoc_redirect") return true;
  return false;
}

/**
 * Whether Bash's `parent` is `node` with the redirects after it, which go with it when it is
 * deleted (`echo a > f`, whose `> f` alone would still truncate f; a here-doc with its text,
 * unless code follows its start, see {@link heredocHoldsCode}, or it is in another's, see
 * {@link heredocInHeredoc}).
 */
function bashWraps(parent: Node, node: Node): boolean {
  return (
    parent.type === "redirected_statement" &&
    parent.childForFieldName("body")?.id === node.id &&
    !heredocHoldsCode(parent) &&
    !heredocInHeredoc(parent)
  );
}

/**
 * `node` taken up through the nodes around it that go with it when it is deleted: those spanning
 * just what it spans (Python's `expression_statement` around its `call`) and, in Bash, its
 * redirects (see {@link bashWraps}) and, with `negated`, the `!` before it (which a deletion from
 * the match's start would leave: only a list's command goes from its `!`); not past `stop`, nor
 * to the file's root.
 */
function statementAround(
  node: Node,
  language: string,
  stop?: (node: Node) => boolean,
  negated = false,
): Node {
  for (
    let parent = node.parent;
    parent?.parent &&
    !stop?.(node) &&
    ((parent.startIndex === node.startIndex && parent.endIndex === node.endIndex) ||
      (language === "bash" && (bashWraps(parent, node) || (negated && parent.type === "negated_command"))));
    parent = node.parent
  )
    node = parent;
  return node;
}

/** Bash's substitutions of a command's output, whose named children are statements. */
const bashSubstitutions = new Set(["command_substitution", "process_substitution"]);

/** Bash statements that test a condition: the commands before `then` or `do` are it. */
const bashTests = new Set(["if_statement", "elif_clause", "while_statement"]);

/** The statements of a Bash `if`'s, `elif`'s, `while`'s or `until`'s condition, in order; undefined for another node. */
function conditionStatements(parent: Node): Node[] | undefined {
  if (!bashTests.has(parent.type)) return undefined;
  const statements: Node[] = [];
  for (const child of parent.children) {
    if (!child || child.type === "then" || child.type === "do_group") break;
    if (child.isNamed && !child.isExtra) statements.push(child);
  }
  return statements;
}

/** Bash's groups of statements whose exit status is their last statement's. */
const bashGroups: Readonly<Record<string, "{ … }" | "( … )">> = {
  compound_statement: "{ … }",
  subshell: "( … )",
};

/** `parent`'s last named child that is not a comment. */
function lastNamed(parent: Node): Node | undefined {
  return parent.children.filter((child) => child !== null && child.isNamed && !child.isExtra).at(-1);
}

/**
 * What tests Bash's `node` (see `StructuralMatch.condition`): set when it is the last statement
 * of a condition, or the last of a `{ … }` or `( … )` that is (through the group's redirects and
 * `!`, and groups in groups), or that ends a list or pipeline that is (`if g && { false; }`,
 * `if a | ( false )`: the group's status is the list's).
 */
function testedBy(node: Node): TestedBy | undefined {
  const parent = node.parent;
  if (!parent) return undefined;
  const statements = conditionStatements(parent);
  if (statements) {
    const keyword = parent.firstChild?.type;
    return statements.at(-1)?.id === node.id && keyword ? { keyword } : undefined;
  }
  const group = bashGroups[parent.type];
  if (!group || lastNamed(parent)?.id !== node.id) return undefined;
  let around = statementAround(parent, "bash", undefined, true);
  // Up through the lists and pipelines it ends (a command of one alone goes with its operator).
  while (around.parent && bashJoined.has(around.parent.type) && lastNamed(around.parent)?.id === around.id)
    around = statementAround(around.parent, "bash", undefined, true);
  const outer = testedBy(around);
  return outer && { keyword: outer.keyword, group: outer.group ?? group };
}

/**
 * Where the statement the match from `first` to `last` is (or is but for its `;`) ends, with its
 * terminator: see `StructuralMatch.statementEnd`. In JavaScript and TypeScript a `;` before a
 * statement opening with `(`, `[` or the like (see {@link continuesLine}) stays: undefined.
 */
function statementEnd(first: Node, last: Node, source: string, language: string): number | undefined {
  // Bash's bodies are lists too though their types are not (`do … done`, `( … )`, an `if`'s
  // branches and its condition's commands).
  const listed = (node: Node): boolean => {
    if (inStatementList(node)) return true;
    if (language !== "bash" || !node.parent) return false;
    const among = (statements: Node[] | undefined): boolean =>
      statements?.some((statement) => statement.id === node.id) ?? false;
    // A command substitution's too (`$(echo a; g)`, `$(echo a > f)`), which may be empty.
    if (bashSubstitutions.has(node.parent.type)) return true;
    return among(bodyStatements(node.parent, language)) || among(conditionStatements(node.parent));
  };
  // Up from the match through nodes spanning just what it spans (Python's `expression_statement`
  // around its `call`) and a Bash command's redirects to the first that is in a list of
  // statements, short of the file's root.
  const node: Node | null = first.id === last.id ? statementAround(first, language, listed) : null;
  const asi = semicolonInserted.has(language);
  const end = node ?? last;
  const next = end.nextSibling;
  const parent = end.parent;
  // The statement is the match and its `;` (TypeScript's, Rust's, C's `f(x);` for `f($A)`; a Dart
  // chain's run of children).
  if (
    next?.type === ";" &&
    parent &&
    parent.lastChild?.id === next.id &&
    parent.startIndex === first.startIndex &&
    /statement/.test(parent.type)
  )
    return inStatementList(parent) && !(asi && nextContinues(parent, source)) ? parent.endIndex : undefined;
  if (!node || node.isExtra || !node.isNamed || !listed(node)) return undefined;
  // A statement ending in its `;` (JavaScript's `const c = 1;`) whose next line needs it keeps it.
  if (asi && source.charCodeAt(node.endIndex - 1) === 59 && nextContinues(node, source)) return undefined;
  // A `;` separating it from the next statement (Python's, Go's; Swift's, which no node holds;
  // Bash's `;` or `&`, without which a `;` or `&` alone is left: `do ; g; done`) goes with it.
  if (next?.type !== ";" && !(language === "bash" && next?.type === "&"))
    return hiddenSemicolonEnd(node, source) ?? node.endIndex;
  return asi && nextContinues(next, source) ? undefined : next.endIndex;
}

/** The statement that does nothing, per language whose bodies may not be empty (see {@link BodyOf}). */
const noOps: Readonly<Record<string, string>> = { python: "pass", bash: ":" };

/** Bash's bodies whose every named child is a statement; an `if` and `elif` hold theirs after `then`. */
const bashBodies = new Set(["do_group", "compound_statement", "subshell", "else_clause"]);
const bashBranches = new Set(["if_statement", "elif_clause"]);

/**
 * The statements of `parent` if it is a body (see {@link BodyOf}) in `language`, in order,
 * comments not among them; undefined when it is none.
 */
function bodyStatements(parent: Node, language: string): Node[] | undefined {
  const named = (node: Node | null): node is Node => node !== null && node.isNamed && !node.isExtra;
  if (language === "python") return parent.type === "block" ? parent.children.filter(named) : undefined;
  if (language !== "bash") return undefined;
  if (bashBodies.has(parent.type)) return parent.children.filter(named);
  if (!bashBranches.has(parent.type)) return undefined;
  const children = parent.children;
  const then = children.findIndex((child) => child?.type === "then");
  if (then < 0) return undefined;
  return children
    .slice(then + 1)
    .filter(named)
    .filter((child) => child.type !== "elif_clause" && child.type !== "else_clause");
}

/**
 * The body the match from `first` to `last` is whole statements of (see {@link BodyOf}): each
 * end is taken up through nodes spanning just what it spans (Python's `expression_statement`
 * around its `call`) to a statement of a body, the same one for both.
 */
function bodyOf(first: Node, last: Node, language: string): BodyOf | undefined {
  const noOp = noOps[language];
  if (noOp === undefined) return undefined;
  const statementOf = (from: Node): [Node, Node[]] | undefined => {
    for (let node: Node | null = from; node?.parent; node = node.parent) {
      const parent: Node = node.parent;
      const statements = bodyStatements(parent, language);
      if (statements) return statements.some((s) => s.id === node?.id) ? [node, statements] : undefined;
      const same = parent.startIndex === node.startIndex && parent.endIndex === node.endIndex;
      if (!same && !(language === "bash" && bashWraps(parent, node))) return undefined;
    }
    return undefined;
  };
  const head = statementOf(first);
  const tail = first.id === last.id ? head : statementOf(last);
  if (!head || !tail || head[0].parent?.id !== tail[0].parent?.id) return undefined;
  const statements = head[1];
  const from = statements.findIndex((s) => s.id === head[0].id);
  const to = statements.findIndex((s) => s.id === tail[0].id);
  const start = statements[0]?.startIndex;
  if (from < 0 || to < from || start === undefined) return undefined;
  return { start, statements: statements.length, matched: to - from + 1, noOp };
}

/** Per grammar, the node types of its `expression` supertype (with those of the supertypes under it). */
const expressionTypes = new WeakMap<Language, ReadonlySet<string>>();

/** The types of `language`'s expressions (see {@link expressionTypes}). */
function expressionsOf(language: Language): ReadonlySet<string> {
  let types = expressionTypes.get(language);
  if (types) return types;
  const found = new Set<string>();
  const supertypes = new Set(language.supertypes);
  const expand = (id: number): void => {
    for (const subtype of language.subtypes(id)) {
      if (supertypes.has(subtype)) expand(subtype);
      else {
        const type = language.nodeTypeForId(subtype);
        if (type) found.add(type);
      }
    }
  };
  for (const id of supertypes) if (language.nodeTypeForId(id) === "expression") expand(id);
  types = found;
  expressionTypes.set(language, types);
  return types;
}

/**
 * What a rewrite to nothing writes for the match from `first` to `last` (see
 * `StructuralMatch.placeholder`): `None` for a Python expression that is not a whole statement,
 * nor a name (`identifier`, which is also a parameter's, an import's or an attribute's name) nor
 * a string of a concatenation (`"a" "b"`, which reads the same without it).
 */
function placeholderOf(first: Node, last: Node, language: string): string | undefined {
  if (language !== "python" || first.id !== last.id) return undefined;
  if (first.type === "identifier" || first.parent?.type === "concatenated_string") return undefined;
  if (!expressionsOf(first.tree.language).has(first.type)) return undefined;
  if (statementAround(first, language).type === "expression_statement") return undefined;
  return "None";
}

/**
 * The Python `await` or decorator whose operand `node` is (see `StructuralMatch.deletionStart`):
 * deleting the operand alone leaves code that does not parse, and `None` in its place raises a
 * TypeError when it runs.
 */
function operandOf(node: Node, language: string): Node | undefined {
  if (language !== "python") return undefined;
  // Through its parentheses (`await (log(1))`, `await ((log(1)))`).
  const operand = unparenthesised(node);
  const parent = operand.parent;
  if (!parent || (parent.type !== "await" && parent.type !== "decorator")) return undefined;
  return parent.namedChildren.length === 1 && parent.endIndex === operand.endIndex ? parent : undefined;
}

/** Python's `node` with the parentheses around it (`(log(1))`), as the code around reads it. */
function unparenthesised(node: Node): Node {
  let outer = node;
  while (outer.parent?.type === "parenthesized_expression") outer = outer.parent;
  return outer;
}

/**
 * The span a rewrite to nothing deletes when `node` is a Python class's base (see
 * `StructuralMatch.deletionStart`): `class A(None)` raises a TypeError where the class is defined
 * (as do `*None`, `**None` and `metaclass=None`), so the base goes with its parentheses, its `*`
 * or `metaclass=`, and a comma: the one after it with the blanks after that (`log(1), dict` →
 * `dict`), else the one before it (`dict, log(1)` → `dict`), unless a comment lies between
 * (`dict, # why⏎log(1)` → `dict, # why⏎`). `class A()` is a class of `object`.
 */
function classBaseSpan(
  node: Node,
  source: string,
  language: string,
): { start: number; end: number } | undefined {
  if (language !== "python") return undefined;
  let base = unparenthesised(node);
  const up = base.parent;
  if (up?.type === "list_splat" || up?.type === "dictionary_splat") base = up;
  else if (
    up?.type === "keyword_argument" &&
    up.childForFieldName("value")?.id === base.id &&
    up.childForFieldName("name")?.text === "metaclass"
  )
    base = up;
  const list = base.parent;
  if (list?.type !== "argument_list" || list.parent?.childForFieldName("superclasses")?.id !== list.id)
    return undefined;
  // A comma next to it, with no comment between (which would go with it).
  const next = base.nextSibling;
  if (next?.type === ",") {
    let end = next.endIndex;
    while (source[end] === " " || source[end] === "\t") end++;
    // Not to the next line: its indentation stays.
    return {
      start: base.startIndex,
      end: source[end] === "\n" || source[end] === "\r" ? next.endIndex : end,
    };
  }
  const previous = base.previousSibling;
  return {
    start: previous?.type === "," ? previous.startIndex : base.startIndex,
    end: base.endIndex,
  };
}

/** Node types of Python's `except` clauses, whose `value` is the exception type (or a tuple of them). */
const exceptClauses = new Set(["except_clause", "except_group_clause"]);

/** What Python's `node` is, that a rewrite to nothing leaves (see `StructuralMatch.irreplaceable`). */
function irreplaceableOf(node: Node, language: string): StructuralMatch["irreplaceable"] {
  if (language !== "python") return undefined;
  const value = unparenthesised(node);
  const parent = value.parent;
  if (!parent) return undefined;
  if (parent.type === "raise_statement")
    return parent.childForFieldName("cause")?.id === value.id ? undefined : "raise";
  // Anywhere in a self-documenting expression (`{[log(1)]=}`, `{f"{log(1)}"=}`), not its format.
  for (let held: Node = value, up: Node | null = parent; up; held = up, up = up.parent) {
    if (
      up.type === "interpolation" &&
      held.type !== "format_specifier" &&
      held.type !== "type_conversion" &&
      up.children.some((child) => child?.type === "=")
    )
      return "f-string";
    if (up.type === "block" || up.type === "module") break;
  }
  // An exception type, alone, named (`as e`) or in a tuple.
  let held = value;
  for (;;) {
    const around = held.parent;
    if (
      around &&
      (around.type === "tuple" ||
        around.type === "parenthesized_expression" ||
        (around.type === "as_pattern" && around.firstNamedChild?.id === held.id))
    )
      held = around;
    else break;
  }
  const clause = held.parent;
  if (!clause || !exceptClauses.has(clause.type)) return undefined;
  const type = clause.childForFieldName("value") ?? clause.firstNamedChild;
  return type?.id === held.id ? "except" : undefined;
}

/** Bash nodes whose children are commands joined by operators: a list and a pipeline. */
const bashJoined = new Set(["list", "pipeline"]);

/** Bash's list operators. */
const listOperators = new Set(["&&", "||"]);

/** The `redirected_statement` around Bash's list `list`, giving its last command the redirects after it (`a && b > f`). */
function listRedirected(list: Node): Node | undefined {
  const parent = list.parent;
  return parent?.type === "redirected_statement" && bashWraps(parent, list) ? parent : undefined;
}

/**
 * The Bash list or pipeline the match from `first` to `last` is commands of (see
 * `StructuralMatch.list` and `pipeline`): the match is taken up through nodes spanning just what
 * it spans (a `command` around its name), its redirects and a `!` before it (`! a && b` goes as
 * `! a`) to a child of a list or pipeline. A list nested as the first command of another (`a && b
 * || c` is `(a && b) || c`) is commands of the outer one. tree-sitter reads a redirect after a
 * list's last command as the list's (`a && b > f`), which Bash gives that command: it is that
 * command's, and goes with it. It reads `&& g` after a here-doc's start (`cat <<EOF && g`) in the
 * here-doc's redirect: `g` is a command of a list whose first is `cat <<EOF` (which is not
 * joined: deleting it with its operator would leave the here-doc's text to be read as code).
 */
function joinedOf(
  first: Node,
  last: Node,
  source: string,
  language: string,
): { list: ListOf } | { pipeline: true } | undefined {
  if (language !== "bash" || first.id !== last.id) return undefined;
  const node = statementAround(first, language, (node) => bashJoined.has(node.parent?.type ?? ""), true);
  const parent = node.parent;
  if (!parent || !node.isNamed || node.isExtra) return undefined;
  if (parent.type === "pipeline") return { pipeline: true };
  let list: Node;
  if (parent.type === "list") list = parent;
  else if (parent.type === "heredoc_redirect" && listOperators.has(node.previousSibling?.type ?? ""))
    list = node;
  else return undefined;
  // Up to the outermost list, through a redirect of an inner one (`a && b > f && c`).
  for (;;) {
    const up = list.parent;
    if (up?.type === "list") list = up;
    else if (up && listRedirected(list) && up.parent?.type === "list") list = up.parent;
    else break;
  }
  // `cat <<EOF && g`: the here-doc's statement, whose first command is `cat <<EOF`.
  const heredoc =
    list.parent?.type === "heredoc_redirect" && listOperators.has(list.previousSibling?.type ?? "")
      ? list.parent
      : undefined;
  const whole = heredoc?.parent ?? listRedirected(list) ?? list;
  // The commands, the nested lists' flattened (a redirect after one's last command its), and the
  // match's among them.
  const commands: [number, number][] = [];
  const comments: [number, number][] = [];
  let from = -1;
  let to = -1;
  const heredocStart = heredoc?.children.find((child) => child?.type === "heredoc_start");
  if (heredoc && heredocStart) commands.push([whole.startIndex, heredocStart.endIndex]);
  const flatten = (of: Node): void => {
    for (const child of of.children) {
      if (child?.isExtra) comments.push([child.startIndex, child.endIndex]);
      if (!child?.isNamed || child.isExtra) continue;
      const at = commands.length;
      const body = child.type === "redirected_statement" ? child.childForFieldName("body") : null;
      const inner =
        child.type === "list" ? child : body?.type === "list" && listRedirected(body) ? body : null;
      if (inner) {
        flatten(inner);
        const lastCommand = commands.at(-1);
        if (lastCommand) lastCommand[1] = child.endIndex;
      } else commands.push([child.startIndex, child.endIndex]);
      if (child.id === node.id) [from, to] = [at, commands.length - 1];
    }
  };
  if (list.type === "list") flatten(list);
  else {
    if (list.id === node.id) from = to = commands.length;
    commands.push([list.startIndex, list.endIndex]);
  }
  if (from < 0 || commands.length < 2) return undefined;
  const lastCommand = commands.at(-1);
  if (lastCommand && !heredoc) lastCommand[1] = whole.endIndex;
  const statement = statementEnd(whole, whole, source, language);
  const body = bodyOf(whole, whole, language);
  const tested = testedBy(statementAround(whole, language, undefined, true));
  return {
    list: {
      start: whole.startIndex,
      commands,
      from,
      to,
      end: whole.endIndex,
      comments,
      ...(statement !== undefined ? { statementEnd: statement } : {}),
      ...(body !== undefined ? { body } : {}),
      ...(tested ? { condition: tested } : {}),
    },
  };
}

/**
 * The nodes a bare metavariable may match, in source order (outer first), handed out one at a
 * time so a search that stops early has not built a node object per token: named ones only for
 * `$A`, unnamed tokens too for `$$A` (as ast-grep); a token tree-sitter supplied (MISSING) too,
 * as in ast-grep, but no other zero-width node.
 */
function* everyNode(root: Node, namedOnly: boolean): Generator<Node> {
  const cursor = root.walk();
  try {
    for (;;) {
      if (
        (!namedOnly || cursor.nodeIsNamed) &&
        (cursor.nodeIsMissing || cursor.startIndex !== cursor.endIndex)
      )
        yield cursor.currentNode;
      if (cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return;
      }
    }
  } finally {
    cursor.delete();
  }
}

/** Beyond this many occurrences of the rarest literal, candidates are listed by type instead. */
const maxLiteralOccurrences = 512;

/** Where the rarest of the literals occurs in the source, or undefined when all are common. */
function rarestLiteral(
  literals: readonly string[],
  source: string,
): { at: number[]; length: number } | undefined {
  let best: { at: number[]; length: number } | undefined;
  for (const literal of literals) {
    const at: number[] = [];
    const limit = best ? best.at.length : maxLiteralOccurrences;
    for (let index = source.indexOf(literal); index >= 0; index = source.indexOf(literal, index + 1)) {
      at.push(index);
      if (at.length > limit) break;
    }
    if (at.length <= limit) best = { at, length: literal.length };
  }
  return best;
}

/**
 * The nodes of `type` that contain one of the occurrences: every match contains a token spelling
 * the literal, so the candidates are the ancestors of those tokens. A cursor descends from the
 * root to each occurrence (siblings do not overlap, so the first child reaching past the offset
 * is the one holding the token), and only nodes of the type are handed to JavaScript.
 */
function ancestorsOfType(tree: Tree, type: string, at: readonly number[], length: number): Node[] {
  const out: Node[] = [];
  const seen = new Set<number>();
  const root = tree.rootNode;
  const cursor = tree.walk();
  try {
    for (const offset of at) {
      cursor.reset(root);
      for (;;) {
        if (cursor.startIndex > offset || cursor.endIndex < offset + length) break;
        if (cursor.nodeType === type) {
          const node = cursor.currentNode;
          if (!seen.has(node.id)) {
            seen.add(node.id);
            out.push(node);
          }
        }
        if (!cursor.gotoFirstChildForIndex(offset)) break;
      }
    }
  } finally {
    cursor.delete();
  }
  return out;
}

/**
 * A child every match of a pattern read whole as an ERROR (matched as a node of any type, see
 * `anyType`) has among its own children (see `writtenChildren`). An unnamed token is preferred,
 * the one whose text the source holds least often (`import` of `import $X from $M`), with where
 * the source holds that text (`at`, when every token of the type spells it, see
 * `spelledChildren`, and it is not too common); else a node of a given type. Undefined when there
 * is none (`$A $B`).
 */
function anchorOf(
  pattern: CompiledPattern,
  source: string,
): { type: string; at?: number[]; length: number } | undefined {
  const spelled = new Set<PatternNode>(spelledChildren(pattern));
  let best: { type: string; at?: number[]; length: number; count: number } | undefined;
  for (const child of writtenChildren(pattern.root)) {
    if (child.kind === "inner") {
      if (child.type !== anyType && !best) best = { type: child.type, length: 0, count: Infinity };
      continue;
    }
    if (child.kind !== "leaf" || child.named) continue;
    // Occurrences of the token's text, counted up to the best so far.
    const limit = best?.count ?? Infinity;
    const at: number[] = [];
    for (let index = source.indexOf(child.text); index >= 0 && at.length < limit;) {
      at.push(index);
      index = source.indexOf(child.text, index + 1);
    }
    if (best && at.length >= best.count) continue;
    best = {
      type: child.type,
      length: child.text.length,
      count: at.length,
      ...(spelled.has(child) && at.length <= maxLiteralOccurrences ? { at } : {}),
    };
  }
  return best;
}

/** Sorts nodes as `everyNode` walks them: outer first, in source order. */
function inWalkOrder(nodes: Iterable<Node>): Node[] {
  const depths = new Map<number, number>();
  const depth = (node: Node): number => {
    let found = depths.get(node.id);
    if (found === undefined) {
      found = 0;
      for (let up = node.parent; up; up = up.parent) found++;
      depths.set(node.id, found);
    }
    return found;
  };
  return [...nodes].sort(
    (a, b) => a.startIndex - b.startIndex || b.endIndex - a.endIndex || depth(a) - depth(b),
  );
}

/** Whether `everyNode` hands out the node for a pattern that is not a bare metavariable. */
function walkedNamed(node: Node): boolean {
  return node.isNamed && (node.isMissing || node.startIndex !== node.endIndex);
}

/**
 * The named nodes (non-empty, or MISSING) with a child of `type`, in the order `everyNode` walks
 * them. Found inside WASM: only the children of the type and their parents are handed to
 * JavaScript.
 */
function parentsOfType(tree: Tree, type: string): Node[] {
  const parents = new Map<number, Node>();
  for (const child of tree.rootNode.descendantsOfType(type)) {
    const parent = child.parent;
    if (parent && !parents.has(parent.id) && walkedNamed(parent)) parents.set(parent.id, parent);
  }
  return inWalkOrder(parents.values());
}

/**
 * {@link parentsOfType} in a tree without errors for a token that spells its text: a cursor
 * descends to each occurrence of the text (see `ancestorsOfType`), and the parent of a token of
 * the type found there is a candidate. No other token of the type exists (no MISSING one in a
 * tree without errors).
 */
function parentsOfTokenAt(tree: Tree, type: string, at: readonly number[], length: number): Node[] {
  const parents = new Map<number, Node>();
  const root = tree.rootNode;
  const cursor = tree.walk();
  try {
    for (const offset of at) {
      const end = offset + length;
      cursor.reset(root);
      for (;;) {
        if (cursor.startIndex > offset || cursor.endIndex < end) break;
        if (!cursor.gotoFirstChildForIndex(offset)) break;
        if (cursor.nodeType === type && cursor.startIndex === offset && cursor.endIndex === end) {
          // Its parent is a candidate (and so is this node if a token of the type lies under it).
          cursor.gotoParent();
          const parent = cursor.currentNode;
          if (!parents.has(parent.id) && walkedNamed(parent)) parents.set(parent.id, parent);
          cursor.gotoFirstChildForIndex(offset);
        }
      }
    }
  } finally {
    cursor.delete();
  }
  return inWalkOrder(parents.values());
}

/** The nodes a match may start at: of the root's type, and holding the rarest literal. */
function candidateNodes(pattern: CompiledPattern, tree: Tree, source: string): Iterable<Node | null> {
  if (!pattern.rootType) {
    const { root } = pattern;
    // A pattern read whole as an ERROR matches a node of any type whose children match its
    // children: only the parents of a node of one of its written children's types can.
    const anchor = anchorOf(pattern, source);
    if (anchor?.at && !tree.rootNode.hasError)
      return parentsOfTokenAt(tree, anchor.type, anchor.at, anchor.length);
    if (anchor) return parentsOfType(tree, anchor.type);
    const namedOnly = root.kind !== "meta" || root.meta.kind !== "single" || root.meta.namedOnly;
    return everyNode(tree.rootNode, namedOnly);
  }
  // In a tree with an error, a token the pattern writes may be one tree-sitter supplied (MISSING,
  // see `StructuralMatch.missing`), which no occurrence of its text leads to: only the text of a
  // named leaf (`f` of `f($A)`), which every match holds, leads to the candidates there.
  const rare = rarestLiteral(
    tree.rootNode.hasError ? (pattern.namedLiterals ?? []) : pattern.literals,
    source,
  );
  if (rare) return ancestorsOfType(tree, pattern.rootType, rare.at, rare.length);
  return tree.rootNode.descendantsOfType(pattern.rootType);
}

/** Every node of the tree (named or not), for a pattern without literals. */
function allNodes(root: Node): Node[] {
  const out: Node[] = [];
  const cursor = root.walk();
  try {
    for (;;) {
      out.push(cursor.currentNode);
      if (cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return out;
      }
    }
  } finally {
    cursor.delete();
  }
}

/** Nodes that start a chain's piece but not a chain: a run never starts at one. */
const chainContinuations = new Set(["selector", "cascade_section"]);

/** Longest run of matching on the calling thread before the event loop gets a turn, in ms. */
const sliceMs = 10;

/** What the matching of one tree has found so far. */
interface MatchState {
  readonly matches: StructuralMatch[];
  stopped: StopReason | undefined;
}

/**
 * The runs of siblings matching a flat-chain pattern (see `CompiledPattern.sequence`), in the
 * children of the ancestors of the rarest literal's occurrences (of every node without one; in a
 * tree with an error, of the rarest named literal, see `CompiledPattern.namedLiterals`). A
 * run starts a chain (not at a selector) and is not a whole expression statement, which the
 * statement pattern already matches. Yields `undefined` after each parent so the caller can
 * pause or stop.
 */
function* runMatches(
  pattern: CompiledPattern,
  sequence: readonly PatternNode[],
  tree: Tree,
  source: string,
  matcher: TreeMatcher,
  statements: ReadonlySet<number>,
): Generator<{ first: Node; last: Node; env: Environment } | undefined> {
  // As for candidates (see `candidateNodes`): in a tree with an error, a token the run writes may
  // be one tree-sitter supplied, so only a named leaf's text leads to the runs there.
  const rare = rarestLiteral(
    tree.rootNode.hasError ? (pattern.namedLiterals ?? []) : pattern.literals,
    source,
  );
  const parents = new Map<number, Node>();
  if (rare) {
    for (const offset of rare.at) {
      let node: Node | null = tree.rootNode.descendantForIndex(offset, offset + rare.length);
      for (; node; node = node.parent) parents.set(node.id, node);
    }
  } else {
    for (const node of allNodes(tree.rootNode)) parents.set(node.id, node);
  }
  for (const parent of parents.values()) {
    const children = parent.children.filter((child) => !isIgnorable(child));
    for (let start = 0; start < children.length; start++) {
      const first = children[start];
      if (!first?.isNamed || first.isExtra || chainContinuations.has(first.type)) continue;
      if (start === 0 && statements.has(parent.id)) continue;
      const found = matcher.matchRun(sequence, children, start);
      const last = found && children[found.end - 1];
      if (found && last) yield { first, last, env: found.env };
    }
    yield undefined;
  }
}

/**
 * The matching of one tree, as steps: it yields whenever `sliceMs` have passed since it started
 * or last yielded (`pause` is then true) so an async caller can let the event loop run, and
 * returns early at `maxMatches` or the deadline (setting `state.stopped`).
 */
function* matchSteps(
  pattern: CompiledPattern,
  tree: Tree,
  source: string,
  limits: MatchLimits,
  state: MatchState,
  matcher: TreeMatcher,
  pause: boolean,
): Generator<void, void> {
  const { matches } = state;
  const maxMatches = limits.maxMatches ?? Infinity;
  // One clock for both bounds: the deadline on the monotonic clock, checked per candidate.
  const deadline =
    limits.deadline === undefined ? Infinity : performance.now() + (limits.deadline - Date.now());
  let sliceEnd = pause ? performance.now() + sliceMs : Infinity;
  let next = Math.min(deadline, sliceEnd);
  const order = [...pattern.singleNames, ...pattern.multiNames];
  // Two nodes may span the same code (Go's `expression_list` around its one expression): a match
  // of both with the same bindings is one match to the reader and to a rewrite, listed once (Go's
  // `$$$A $$$B` on `var x = f(1)` lists `f(1)` once, as ast-grep). A bare metavariable still
  // matches each node, as ast-grep lists them (`$A` there finds `f(1)` twice).
  const seen = pattern.root.kind === "meta" ? undefined : new Set<string>();
  // In a file cut off inside a block comment or string, what follows its opening is that text,
  // read as code only to recover: no match starts there, runs into it or binds a node of it (see
  // `leftOpenAt`).
  const textFrom = leftOpenAt(findLanguage(pattern.language), tree, source) ?? Infinity;
  const add = (first: Node, last: Node, env: Environment): boolean => {
    // Nor one running into it (`foo($$$A)` on `foo(a, /* doc⏎bar(2)`, whose `)` is comment
    // text): a rewrite would write in the comment (`baz($$$A, 9)` put its `, 9` there).
    if (first.startIndex >= textFrom || last.endIndex > textFrom) return false;
    const bindings = new Map<string, CapturedText>();
    for (const name of order) {
      const capture = env.get(name);
      if (!capture) continue;
      const text = captured(capture, source);
      // Nor does a match that binds that text (`$A + $B` on `a + """doc`, B the `doc` of a
      // docstring left open): a rewrite would move it out of its comment or string.
      if (text.end > text.start && text.start >= textFrom) return false;
      bindings.set(name, text);
    }
    const passed = passedOver(env);
    const tokens = passed.filter((token) => !token.isNamed);
    const missing = missingTokens(env);
    // What a deletion takes (see `StructuralMatch.deletionStart`).
    const around =
      limits.statements === true && first.id === last.id ? operandOf(first, pattern.language) : undefined;
    const [from, to] = around ? [around, around] : [first, last];
    const base =
      limits.statements === true && from.id === to.id
        ? classBaseSpan(from, source, pattern.language)
        : undefined;
    const irreplaceable =
      limits.statements === true && from.id === to.id ? irreplaceableOf(from, pattern.language) : undefined;
    const statement =
      limits.statements === true
        ? around?.type === "decorator"
          ? around.nextSibling?.startIndex
          : (base?.end ?? statementEnd(from, to, source, pattern.language))
        : undefined;
    const deletionStart = base?.start ?? around?.startIndex;
    const body = limits.statements === true ? bodyOf(from, to, pattern.language) : undefined;
    const joined = limits.statements === true ? joinedOf(first, last, source, pattern.language) : undefined;
    const tested =
      limits.statements === true && pattern.language === "bash" && first.id === last.id
        ? testedBy(statementAround(first, pattern.language, undefined, true))
        : undefined;
    const placeholder =
      limits.statements === true && statement === undefined
        ? placeholderOf(from, to, pattern.language)
        : undefined;
    if (seen) {
      let key = `${first.startIndex} ${last.endIndex}`;
      for (const { start, end } of bindings.values()) key += ` ${start} ${end}`;
      for (const token of passed) key += ` p${token.startIndex}`;
      for (const token of missing) key += ` m${token.startIndex}`;
      if (seen.has(key)) return false;
      seen.add(key);
    }
    matches.push({
      start: first.startIndex,
      end: last.endIndex,
      line: first.startPosition.row,
      column: first.startPosition.column,
      text: source.slice(first.startIndex, last.endIndex),
      bindings,
      ...(tokens.length > 0 ? { passedOver: tokens.map((token) => token.type) } : {}),
      ...(tokens.length < passed.length ? { trailingCode: true as const } : {}),
      ...(missing.length > 0 ? { missing: missing.map((token) => token.type) } : {}),
      ...(statement !== undefined ? { statementEnd: statement } : {}),
      ...(body !== undefined ? { body } : {}),
      ...joined,
      ...(tested ? { condition: tested } : {}),
      ...(placeholder !== undefined ? { placeholder } : {}),
      ...(deletionStart !== undefined && deletionStart !== first.startIndex ? { deletionStart } : {}),
      ...(around && around.endIndex > last.endIndex ? { deletionEnd: around.endIndex } : {}),
      ...(irreplaceable ? { irreplaceable } : {}),
    });
    if (matches.length < maxMatches) return false;
    state.stopped = "max-matches";
    return true;
  };
  if (maxMatches <= 0) {
    state.stopped = "max-matches";
    return;
  }
  const statements = new Set<number>();
  for (const node of candidateNodes(pattern, tree, source)) {
    if (performance.now() >= next) {
      if (performance.now() >= deadline) return void (state.stopped = "deadline");
      yield;
      sliceEnd = performance.now() + sliceMs;
      next = Math.min(deadline, sliceEnd);
    }
    if (!node) continue;
    const env = matcher.match(pattern.root, node);
    if (!env) continue;
    statements.add(node.id);
    if (add(node, node, env)) return;
  }
  if (pattern.sequence) {
    for (const run of runMatches(pattern, pattern.sequence, tree, source, matcher, statements)) {
      if (!run) {
        if (performance.now() >= next) {
          if (performance.now() >= deadline) return void (state.stopped = "deadline");
          yield;
          sliceEnd = performance.now() + sliceMs;
          next = Math.min(deadline, sliceEnd);
        }
        continue;
      }
      if (add(run.first, run.last, run.env)) return;
    }
  }
}

function finish(state: MatchState, matcher: TreeMatcher): TreeMatches {
  const { matches, stopped } = state;
  matches.sort((a, b) => a.start - b.start || b.end - a.end);
  return {
    matches,
    exhausted: matcher.exhausted,
    tooDeep: matcher.tooDeep,
    ...(stopped ? { stopped } : {}),
  };
}

/**
 * Every match of the pattern in the tree, outer before inner, in source order. Only nodes of the
 * pattern root's type are tried (found inside WASM, around the pattern's rarest literal when it
 * has one); a bare `$X` pattern tries every named node, a bare `$$X` every node. A flat-chain
 * pattern also matches runs of siblings inside any node (see `CompiledPattern.sequence`). With
 * `limits`, stops at `maxMatches` or the deadline (`stopped` says which). Runs to the end on the
 * calling thread; {@link findMatchesAsync} lets the event loop in.
 * @internal Hands out web-tree-sitter objects: not in the published types.
 */
export function findMatches(
  pattern: CompiledPattern,
  tree: Tree,
  source: string,
  limits: MatchLimits = {},
): TreeMatches {
  const state: MatchState = { matches: [], stopped: undefined };
  const matcher = new TreeMatcher();
  for (const _ of matchSteps(pattern, tree, source, limits, state, matcher, false));
  return finish(state, matcher);
}

/**
 * {@link findMatches}, giving the event loop a turn every 10 ms of matching, so other calls (and
 * a SIGTERM) are served while a slow pattern runs on a large file, and a cancelled call stops there. The tree must stay alive
 * until the promise settles.
 * @internal Hands out web-tree-sitter objects: not in the published types.
 */
export async function findMatchesAsync(
  pattern: CompiledPattern,
  tree: Tree,
  source: string,
  limits: MatchLimits = {},
): Promise<TreeMatches> {
  const state: MatchState = { matches: [], stopped: undefined };
  const matcher = new TreeMatcher();
  for (const _ of matchSteps(pattern, tree, source, limits, state, matcher, true)) {
    await yieldToEventLoop();
    limits.signal?.throwIfAborted();
  }
  return finish(state, matcher);
}
