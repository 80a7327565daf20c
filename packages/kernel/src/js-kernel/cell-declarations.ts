import type { Pattern, Program, Statement, VariableDeclaration } from "acorn";
import type { SourceEdit } from "./source-edits.js";

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
 *   declaration of an enclosing scope has its name, or the cell starts with "use strict".
 * Nothing else in a block persists (`let`, `const`, `class`, async and generator functions).
 * Columns are kept: a keyword becomes blanks (or blanks and `;(` before a destructuring pattern).
 */
export function cellDeclarations(code: string, program: Program): CellDeclarations {
  const edits: SourceEdit[] = [];
  const functions: string[] = [];
  const varNames = new Set<string>();
  const strict = program.body.some(
    (statement) => statement.type === "ExpressionStatement" && statement.directive === "use strict",
  );
  const nested = (
    scope: Scope,
    here: ReadonlySet<string> = new Set(),
    also: Iterable<string> = [],
  ): Scope => ({
    top: false,
    outer: new Set([...scope.outer, ...scope.here, ...also]),
    here,
  });
  const block = (statements: readonly Statement[], scope: Scope, also: Iterable<string> = []) => {
    const inner = nested(scope, lexicalNames(statements, true), also);
    for (const statement of statements) visit(statement, "list", inner);
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
        if (strict || statement.async || statement.generator || enclosing.has(name)) return;
        varNames.add(name);
        const copy = ` globalThis.${name} = ${name};`;
        if (place === "list") {
          edits.push({ start: statement.end, end: statement.end, insert: [`;${copy}`] });
          return;
        }
        // `if (c) function f() {}` or `l: function f() {}`: a block around it keeps the copy
        // conditional; it takes the blank before the declaration when there is one.
        const blank = /[ \t]/.test(code[statement.start - 1] ?? "");
        const start = blank ? statement.start - 1 : statement.start;
        edits.push({ start, end: statement.start, insert: ["{"] });
        edits.push({ start: statement.end, end: statement.end, insert: [`;${copy} }`] });
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
        block(statement.body, scope);
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
        block(statement.block.body, scope);
        const handler = statement.handler;
        if (handler) {
          // A catch parameter that is a pattern is lexical; a plain one may share a var's name (B.3.5).
          const names = new Set<string>();
          if (handler.param && handler.param.type !== "Identifier") bindingNames(handler.param, names);
          block(handler.body.body, scope, names);
        }
        if (statement.finalizer) block(statement.finalizer.body, scope);
        return;
      }
      case "SwitchStatement": {
        const consequents = statement.cases.flatMap((switchCase) => switchCase.consequent);
        const inner = nested(scope, lexicalNames(consequents, true));
        for (const consequent of consequents) visit(consequent, "list", inner);
        return;
      }
      default:
        return;
    }
  };

  const top = lexicalNames(program.body as Statement[], false);
  for (const statement of program.body as Statement[])
    visit(statement, "list", { top: true, outer: new Set(), here: top });
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

function isDeclaration(node: { readonly type: string } | null | undefined): node is VariableDeclaration {
  return node?.type === "VariableDeclaration";
}
