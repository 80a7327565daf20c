import { parse, type Program } from "acorn";
import { cellDeclarations } from "./cell-declarations.js";
import { applyEdits, position, rangeLines, type SourceEdit } from "./source-edits.js";

/** A cell compiled for the executor, and the way back from its lines to the cell's. */
export interface CompiledCell {
  /** Source of an expression evaluating to a promise of `{ __echo }` or undefined. */
  readonly source: string;
  /** The cell as written, line by line. */
  readonly cellLines: readonly string[];
  /** The cell's own line (1-based) for a line of `source`, or undefined on the wrapper's lines. */
  readonly cellLine: (sourceLine: number) => number | undefined;
}

// What opens the wrapper. The statement before the cell's first line keeps a "use strict" there
// from becoming the wrapper's directive, under which the assignments below would throw.
const opening = "(async () => { void 0;";

/**
 * Global functions the compiled cell calls around its wrapper, inside the script's run: `enter()`
 * before the cell's first statement, `leave(promise)` with the wrapper's promise once its
 * synchronous part has run (its value is the script's).
 */
export interface CellGuard {
  readonly enter: string;
  readonly leave: string;
}

/**
 * Turns a JavaScript cell into the body of an async function so top-level `await` works, while
 * keeping its bindings global for later cells, as parsed by acorn (so `;` in a string or a
 * comment, or several statements on a line, read as JavaScript does). What persists is what a
 * cell typed into Node's REPL keeps (see {@link cellDeclarations}):
 * - top-level `const`/`let`/`var` declarations, destructuring too, become assignments to globals:
 *   `const { a, b } = o` runs as `({ a, b } = o)`, `let n` as `n = undefined`;
 * - a `var` anywhere outside a nested function (a block, a loop body or head, a `try`) becomes an
 *   assignment too, and every var-scoped name is declared by a `var` of the script before the
 *   wrapper (so `var n` keeps the value `n` has, and `if (false) { var n }` still declares it);
 * - a top-level function declaration moves out of the wrapper to the script's top level, before
 *   it, on lines of its own at its columns: it is hoisted, and its name is the global's, so
 *   `function f() {} f = 5` leaves `f` 5, and its body's `f` reads what a later cell assigns;
 *   one in a block is copied to `globalThis` where it is declared (Annex B);
 * - a top-level class declaration becomes an assignment, `K = class K {…};`.
 * The last top-level statement, when it is an expression, is returned so it can be echoed — also
 * when it shares its line with another statement (`const q = 1; q + 1`) or comments follow it.
 * Every cell line keeps its own line in the source, and its columns (the echoed expression moves
 * to a line of its own, indented to its column), so positions map back through
 * {@link CompiledCell.cellLine}. A cell acorn cannot parse runs as written inside the wrapper, so
 * V8 reports the syntax error at the cell's own line.
 */
export function compileCell(code: string, guard?: CellGuard): CompiledCell {
  const cellLines = code.split("\n");
  let program: Program | undefined;
  try {
    program = parse(code, {
      ecmaVersion: "latest",
      sourceType: "script",
      allowAwaitOutsideFunction: true,
      allowReturnOutsideFunction: true,
      allowHashBang: true,
    });
  } catch {
    program = undefined;
  }
  const declarations = program ? cellDeclarations(code, program) : { edits: [], functions: [], varNames: [] };
  const edits: SourceEdit[] = [...declarations.edits];
  const last = program?.body.at(-1);
  if (last?.type === "ExpressionStatement") {
    // The statement's bounds, not its expression's: `(a, b)` parses to an expression inside the
    // brackets. Its own `;` stays out of the echo.
    const start = last.start;
    const end = code[last.end - 1] === ";" ? last.end - 1 : last.end;
    const { line, column } = position(code, start);
    // `(0, …)`: a property's value that is an anonymous function or class takes the property's
    // name, so `input => 1` would echo as `[Function: __echo]`; a comma expression names nothing.
    edits.push({
      start,
      end: start,
      insert: [{ line: undefined }, "return { __echo: (0, ", { line }, " ".repeat(column)],
    });
    edits.push({ start: end, end, insert: [") };"] });
  }
  const body = applyEdits(code, edits);
  const functions = rangeLines(code, declarations.functions);
  // A script's `var`, outside the wrapper: declares a global without resetting one that exists.
  const vars = declarations.varNames.length > 0 ? `var ${declarations.varNames.join(", ")}; ` : "";
  const lines = guard
    ? [...functions.lines, `${vars}${guard.enter}(), ${guard.leave}(${opening}`, ...body.lines, "})())"]
    : [...functions.lines, vars + opening, ...body.lines, "})()"];
  const origin = [...functions.origin, undefined, ...body.origin, undefined];
  return { source: lines.join("\n"), cellLines, cellLine: (line) => origin[line - 1] };
}
