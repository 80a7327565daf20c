import type {
  BlockStatement,
  FunctionDeclaration,
  Pattern,
  Program,
  Statement,
  VariableDeclaration,
} from "acorn";
import { resumeAt, type SourceEdit } from "./source-edits.js";

/** What {@link cellDeclarations} found: how the cell's declarations outlive it. */
export interface CellDeclarations {
  /** Edits of the cell's source: declarations turned into assignments, copies to `globalThis`. */
  readonly edits: SourceEdit[];
  /** Top-level function declarations: the caller copies them to `globalThis` before the cell runs. */
  readonly functions: string[];
  /**
   * Every var-scoped name of the cell: `var` outside a nested function (also in a block or a loop
   * head) and a function declared in a block (Annex B). The caller declares them with a script's
   * `var` before the cell runs: a name not yet global starts out undefined, one that is keeps its
   * value — as `var` does at the top level of Node's REPL.
   */
  readonly varNames: string[];
}

/** Where a statement stands: in a statement list, as the body of an if/loop/label/with, or a loop head. */
type Place = "list" | "body" | "head";

interface Scope {
  /** At the cell's top level (a label's body too), where const/let/class/function persist. */
  readonly top: boolean;
  /** Lexical names of the enclosing scopes, not of the current statement list. */
  readonly outer: ReadonlySet<string>;
  /** Lexical names of the current statement list. */
  readonly here: ReadonlySet<string>;
  /**
   * Lexical names of the enclosing scopes that stay declarations in the wrapper (all but the cell's
   * top level, whose declarations become assignments): they keep a block function of their name in
   * its block, in the wrapper as in the REPL, with no guard.
   */
  readonly kept: ReadonlySet<string>;
}

/**
 * Finds the declarations of a cell parsed by acorn that must persist, and the edits that make
 * them global. At the top level: `const`/`let`/`var` (destructuring too) become assignments,
 * functions are hoisted (listed for the caller), a class is copied right after its body. Below
 * it, down to (not into) nested functions and classes, as JavaScript scopes them:
 * - a `var` in a block, a loop body or a loop head belongs to the cell's scope, so it becomes an
 *   assignment too: `for (var i = 0; …)` runs as `for (    i = 0; …)`;
 * - a plain function declared in a block is, in sloppy code, also a var binding assigned when its
 *   declaration is reached (Annex B.3.3), so it is copied to `globalThis` there — unless a lexical
 *   declaration of an enclosing scope has its name, or the cell starts with "use strict". The
 *   wrapper being a function, Annex B would also give the name a var binding of the wrapper, which
 *   the rest of the cell would read and assign instead of the global (`{ function g() {} } g = 5`
 *   left the global a function; `let g = 1; { function g() {} }` left it unset): a `let` of the
 *   name in a block just around the function's block (a guard no code reads) keeps the wrapper
 *   from making that binding, so the name stays the global's, as in the REPL.
 * Nothing else in a block persists (`let`, `const`, `class`, async and generator functions).
 * Columns are kept: a keyword becomes blanks (or blanks and `;(` before a destructuring pattern);
 * text inserted before a cell's text on its line (a guard, a copy) moves that text to a line of
 * its own, at its column.
 */
export function cellDeclarations(code: string, program: Program): CellDeclarations {
  const edits: SourceEdit[] = [];
  const functions: string[] = [];
  const varNames = new Set<string>();
  const strict = program.body.some(
    (statement) => statement.type === "ExpressionStatement" && statement.directive === "use strict",
  );
  // The wrapper's own var bindings: a block function of such a name assigns it (Annex B), as the
  // REPL's block function assigns the global, so it needs no guard.
  const wrapperFunctions = new Set<string>();
  for (const statement of program.body as Statement[]) {
    const declared = unlabelled(statement);
    if (declared.type === "FunctionDeclaration") wrapperFunctions.add(declared.id.name);
  }
  const nested = (
    scope: Scope,
    here: ReadonlySet<string> = new Set(),
    also: Iterable<string> = [],
  ): Scope => ({
    top: false,
    outer: new Set([...scope.outer, ...scope.here, ...also]),
    here,
    kept: new Set([...scope.kept, ...(scope.top ? [] : scope.here), ...also]),
  });
  /** Whether a block function of `scope` (its statement list's, or the body of an if or a label) needs a guard. */
  const guarded = (statement: FunctionDeclaration, scope: Scope): boolean => {
    const name = statement.id.name;
    // `let let` is a syntax error: a block function named `let` keeps its wrapper binding.
    return (
      isAnnexB(statement, strict) && !scope.kept.has(name) && !wrapperFunctions.has(name) && name !== "let"
    );
  };
  /** Names of the guards a statement list needs. */
  const guards = (statements: readonly Statement[], scope: Scope): string[] => {
    const names = new Set<string>();
    for (const statement of statements)
      if (statement.type === "FunctionDeclaration" && guarded(statement, scope)) names.add(statement.id.name);
    return [...names];
  };
  const block = (node: BlockStatement, scope: Scope, also: Iterable<string> = []) => {
    const inner = nested(scope, lexicalNames(node.body, true), also);
    // Inside the braces, `{ let g; {` … `} }`: the guard's edits come first at their offsets.
    const names = guards(node.body, inner);
    const open = node.start + 1;
    const close = node.end - 1;
    if (names.length > 0)
      edits.push({
        start: open,
        end: open,
        insert: [{ line: undefined }, `let ${names.join(", ")}; {`, ...resumeAt(code, open)],
      });
    for (const statement of node.body) visit(statement, "list", inner);
    if (names.length > 0) edits.push({ start: close, end: close, insert: ["}", ...resumeAt(code, close)] });
  };
  const variable = (declaration: VariableDeclaration, place: Place) => {
    edits.push(...declarationEdits(code, declaration, place));
    if (declaration.kind === "var")
      for (const declarator of declaration.declarations) bindingNames(declarator.id, varNames);
  };
  const loopHead = (
    head: { readonly type: string } | null | undefined,
    scope: Scope,
    forIn = false,
  ): Scope => {
    if (!isDeclaration(head)) return nested(scope);
    // `for (var x = 1 in o)` (sloppy only) has no assignment form: it stays local.
    const initialised = head.declarations.some((declarator) => declarator.init != null);
    if (head.kind === "var" && !(forIn && initialised)) variable(head, "head");
    const names = new Set<string>();
    if (head.kind !== "var") for (const declarator of head.declarations) bindingNames(declarator.id, names);
    return nested(scope, new Set(), names);
  };

  const visit = (statement: Statement, place: Place, scope: Scope): void => {
    switch (statement.type) {
      case "VariableDeclaration":
        if (scope.top || statement.kind === "var") variable(statement, place);
        return;
      case "FunctionDeclaration": {
        const name = statement.id.name;
        if (scope.top) {
          functions.push(name);
          return;
        }
        const enclosing = place === "list" ? scope.outer : new Set([...scope.outer, ...scope.here]);
        const copied = isAnnexB(statement, strict) && !enclosing.has(name);
        const copy = copied ? `; globalThis.${name} = ${name};` : "";
        if (copied) varNames.add(name);
        if (place === "list") {
          // The statement list's guard, if any, was added by its block.
          if (copied)
            edits.push({
              start: statement.end,
              end: statement.end,
              insert: [copy, ...resumeAt(code, statement.end)],
            });
          return;
        }
        // `if (c) function f() {}` or `l: function f() {}`: a block around it keeps the copy
        // conditional, and holds the guard.
        const guard = guarded(statement, nested(scope, scope.here));
        if (!copied && !guard) return;
        const start = statement.start;
        const end = statement.end;
        const open = guard ? `{ let ${name}; {` : "{";
        edits.push({ start, end: start, insert: [{ line: undefined }, open, ...resumeAt(code, start)] });
        edits.push({ start: end, end, insert: [`${copy}${guard ? " } }" : " }"}`, ...resumeAt(code, end)] });
        return;
      }
      case "ClassDeclaration":
        if (scope.top) {
          const name = statement.id.name;
          edits.push({
            start: statement.end,
            end: statement.end,
            insert: [`; globalThis.${name} = ${name};`],
          });
        }
        return;
      case "LabeledStatement":
        visit(statement.body, "body", scope);
        return;
      case "BlockStatement":
        block(statement, scope);
        return;
      case "IfStatement":
        visit(statement.consequent, "body", nested(scope));
        if (statement.alternate) visit(statement.alternate, "body", nested(scope));
        return;
      case "WithStatement":
      case "WhileStatement":
      case "DoWhileStatement":
        visit(statement.body, "body", nested(scope));
        return;
      case "ForStatement":
        visit(statement.body, "body", loopHead(statement.init, scope));
        return;
      case "ForInStatement":
        visit(statement.body, "body", loopHead(statement.left, scope, true));
        return;
      case "ForOfStatement":
        visit(statement.body, "body", loopHead(statement.left, scope));
        return;
      case "TryStatement": {
        block(statement.block, scope);
        const handler = statement.handler;
        if (handler) {
          // A catch parameter that is a pattern is lexical; a plain one may share a var's name (B.3.5).
          const names = new Set<string>();
          if (handler.param && handler.param.type !== "Identifier") bindingNames(handler.param, names);
          block(handler.body, scope, names);
        }
        if (statement.finalizer) block(statement.finalizer, scope);
        return;
      }
      case "SwitchStatement": {
        const consequents = statement.cases.flatMap((switchCase) => switchCase.consequent);
        const inner = nested(scope, lexicalNames(consequents, true));
        // No block fits between the discriminant and the cases: the guard's block holds the whole
        // switch, and starts with the global's value for a discriminant that reads the name.
        const names = guards(consequents, inner);
        const { start, end } = statement;
        const declared = names.map((name) => `${name} = globalThis.${name}`).join(", ");
        if (names.length > 0)
          edits.push({
            start,
            end: start,
            insert: [{ line: undefined }, `{ let ${declared};`, ...resumeAt(code, start)],
          });
        for (const consequent of consequents) visit(consequent, "list", inner);
        if (names.length > 0) edits.push({ start: end, end, insert: [" }", ...resumeAt(code, end)] });
        return;
      }
      default:
        return;
    }
  };

  const top = lexicalNames(program.body as Statement[], false);
  for (const statement of program.body as Statement[])
    visit(statement, "list", { top: true, outer: new Set(), here: top, kept: new Set() });
  return { edits, functions, varNames: [...varNames] };
}

/**
 * Edits that turn a `const`/`let`/`var` into assignments, keeping columns: the keyword becomes
 * blanks, or blanks and `;(` before a destructuring pattern in a statement list (` (` as the body
 * of an if or a loop, where a `;` would end it). In a loop head only the keyword goes.
 */
function declarationEdits(code: string, declaration: VariableDeclaration, place: Place): SourceEdit[] {
  const { kind, declarations } = declaration;
  // `using` disposes at the block's end: an assignment would change what it means.
  if (kind !== "const" && kind !== "let" && kind !== "var") return [];
  const destructures =
    place !== "head" && declarations.some((declarator) => declarator.id.type !== "Identifier");
  const start = declaration.start;
  // `;(`: a line before it without a `;` would otherwise take the `(` as a call of its value.
  const opening = place === "list" ? ";(" : " (";
  const edits: SourceEdit[] = [
    {
      start,
      end: start + kind.length,
      insert: [destructures ? `${" ".repeat(kind.length - 2)}${opening}` : " ".repeat(kind.length)],
    },
  ];
  if (place === "head") return edits;
  // A `var` without a value keeps the one its global has (declared before the cell runs).
  if (kind !== "var") {
    for (const declarator of declarations) {
      if (declarator.init == null)
        edits.push({ start: declarator.end, end: declarator.end, insert: [" = undefined"] });
    }
  }
  const lastEnd = declarations.at(-1)?.end ?? declaration.end;
  const closing = `${destructures ? ")" : ""}${code[declaration.end - 1] === ";" ? "" : ";"}`;
  if (closing !== "") edits.push({ start: lastEnd, end: lastEnd, insert: [closing] });
  return edits;
}

/** Names a statement list declares lexically: let/const/class, and its functions in a block. */
function lexicalNames(statements: readonly Statement[], functions: boolean): Set<string> {
  const names = new Set<string>();
  for (const statement of statements) {
    if (statement.type === "VariableDeclaration" && statement.kind !== "var") {
      for (const declarator of statement.declarations) bindingNames(declarator.id, names);
    } else if (
      statement.type === "ClassDeclaration" ||
      (functions && statement.type === "FunctionDeclaration")
    ) {
      names.add(statement.id.name);
    }
  }
  return names;
}

/** Adds the names a binding pattern binds to `into`. */
function bindingNames(pattern: Pattern, into: Set<string>): void {
  switch (pattern.type) {
    case "Identifier":
      into.add(pattern.name);
      return;
    case "ObjectPattern":
      for (const property of pattern.properties)
        bindingNames(property.type === "RestElement" ? property.argument : property.value, into);
      return;
    case "ArrayPattern":
      for (const element of pattern.elements) if (element) bindingNames(element, into);
      return;
    case "RestElement":
      bindingNames(pattern.argument, into);
      return;
    case "AssignmentPattern":
      bindingNames(pattern.left, into);
      return;
    default:
      return;
  }
}

/** Whether a function declared in a block is also var-scoped (Annex B.3.3): a plain one, in sloppy code. */
function isAnnexB(statement: FunctionDeclaration, strict: boolean): boolean {
  return !strict && !statement.async && !statement.generator;
}

/** The statement a chain of labels ends at. */
function unlabelled(statement: Statement): Statement {
  return statement.type === "LabeledStatement" ? unlabelled(statement.body) : statement;
}

function isDeclaration(node: { readonly type: string } | null | undefined): node is VariableDeclaration {
  return node?.type === "VariableDeclaration";
}
