import type { BlockStatement, FunctionDeclaration, Program, Statement, VariableDeclaration } from "acorn";
import { bindingNames, lexicalNames } from "./binding-names.js";
import { declarationEdits, type Place } from "./declaration-edits.js";
import { position, resumeAt, type Piece, type SourceEdit } from "./source-edits.js";

/** What {@link cellDeclarations} found: how the cell's declarations outlive it. */
export interface CellDeclarations {
  /**
   * Edits of the cell's source: declarations turned into assignments (a top-level class's too),
   * block functions copied to `globalThis`, a top-level function declaration turned into `;`.
   */
  readonly edits: SourceEdit[];
  /**
   * Where the top-level function declarations are (offsets in the cell's source, in order): the
   * caller declares them in the script, outside the wrapper, so that their names are the
   * global's, as a function declared at the top of a script typed into Node's REPL.
   */
  readonly functions: { readonly start: number; readonly end: number }[];
  /**
   * Every var-scoped name of the cell: `var` outside a nested function (also in a block or a loop
   * head) and a function declared in a block (Annex B). The caller declares them with a script's
   * `var` before the cell runs: a name not yet global starts out undefined, one that is keeps its
   * value — as `var` does at the top level of Node's REPL.
   */
  readonly varNames: string[];
}

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
 * them global, so that the cell's own code, and a later cell's, reads and assigns the global. At
 * the top level: `const`/`let`/`var` (destructuring too) become assignments, a class becomes an
 * assignment of a class expression of its name (`K = class K {…};`), a function declaration is
 * listed for the caller and leaves a `;` in its place (a label before it keeps a statement).
 * Below it, down to (not into) nested functions and classes, as JavaScript scopes them:
 * - a `var` in a block, a loop body or a loop head belongs to the cell's scope, so it becomes an
 *   assignment too: `for (var i = 0; …)` runs as `for (    i = 0; …)`, and the sloppy
 *   `for (var x = 1 in o)` as `for (    x     in (x = 1, o))` — no var stays in the wrapper,
 *   where a top-level function (declared outside it) could not see it;
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
 * text inserted before a cell's text on its line (a guard, a copy, a class's assignment) moves
 * that text to a line of its own, at its column.
 */
export function cellDeclarations(code: string, program: Program): CellDeclarations {
  const edits: SourceEdit[] = [];
  const functions: { start: number; end: number }[] = [];
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
    kept: new Set([...scope.kept, ...(scope.top ? [] : scope.here), ...also]),
  });
  /** Whether a block function of `scope` (its statement list's, or the body of an if or a label) needs a guard. */
  const guarded = (statement: FunctionDeclaration, scope: Scope): boolean => {
    const name = statement.id.name;
    // `let let` is a syntax error: a block function named `let` keeps its wrapper binding.
    return isAnnexB(statement, strict) && !scope.kept.has(name) && name !== "let";
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
    right?: { readonly start: number; readonly end: number },
  ): Scope => {
    if (!isDeclaration(head)) return nested(scope);
    if (head.kind === "var") variable(head, "head");
    // `for (var x = 1 in o)` (sloppy only) has no assignment form: it runs as
    // `for (    x     in (x = 1, o))`, the initializer evaluated first as before, so that `x` is
    // the global that a top-level function (moved out of the wrapper) reads.
    const declarator = head.declarations[0];
    if (head.kind === "var" && right && declarator?.init != null) {
      const { id, init } = declarator;
      const firstLine = position(code, id.end).line;
      const blanks = code
        .slice(id.end, init.end)
        .split("\n")
        .flatMap((text, index): Piece[] =>
          index === 0 ? [" ".repeat(text.length)] : [{ line: firstLine + index }, " ".repeat(text.length)],
        );
      const copy = `(${code.slice(id.start, id.end)} = ${code.slice(init.start, init.end)}, `
        .split("\n")
        .flatMap((text, index): Piece[] => (index === 0 ? [text] : [{ line: undefined }, text]));
      edits.push({ start: id.end, end: init.end, insert: blanks });
      edits.push({ start: right.start, end: right.start, insert: copy });
      edits.push({ start: right.end, end: right.end, insert: [")"] });
    }
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
          const { start, end } = statement;
          functions.push({ start, end });
          edits.push({ start, end, insert: [";", ...resumeAt(code, end)] });
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
          // `K = class K {…};`: the class's own body still sees its inner binding `K`.
          const { start, end } = statement;
          const assign = `;${statement.id.name} =`;
          edits.push({ start, end: start, insert: [{ line: undefined }, assign, ...resumeAt(code, start)] });
          edits.push({ start: end, end, insert: [";", ...resumeAt(code, end)] });
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
        visit(statement.body, "body", loopHead(statement.left, scope, statement.right));
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

/** Whether a function declared in a block is also var-scoped (Annex B.3.3): a plain one, in sloppy code. */
function isAnnexB(statement: FunctionDeclaration, strict: boolean): boolean {
  return !strict && !statement.async && !statement.generator;
}

function isDeclaration(node: { readonly type: string } | null | undefined): node is VariableDeclaration {
  return node?.type === "VariableDeclaration";
}
