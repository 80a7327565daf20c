import { parse, type Program, type VariableDeclaration } from "acorn";
import { applyEdits, type SourceEdit } from "./source-edits.js";

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
 * Turns a JavaScript cell into the body of an async function so top-level `await` works, while
 * keeping its top-level bindings global for later cells, as parsed by acorn (so `;` in a string
 * or a comment, or several statements on a line, read as JavaScript does):
 * - `const`/`let`/`var` declarations, destructuring too, become assignments to globals:
 *   `const { a, b } = o` runs as `({ a, b } = o)`, `let n` as `n = undefined`;
 * - a function declaration is copied to `globalThis` before the cell's first line (it is hoisted);
 * - a class declaration is copied to `globalThis` right after its body.
 * The last top-level statement, when it is an expression, is returned so it can be echoed — also
 * when it shares its line with another statement (`const q = 1; q + 1`) or comments follow it.
 * Every cell line keeps its own line in the source, and its columns (the echoed expression moves
 * to a line of its own, indented to its column), so positions map back through
 * {@link CompiledCell.cellLine}. A cell acorn cannot parse runs as written inside the wrapper, so
 * V8 reports the syntax error at the cell's own line.
 */
export function compileCell(code: string): CompiledCell {
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
  const edits: SourceEdit[] = [];
  const hoisted: string[] = [];
  for (const statement of program?.body ?? []) {
    if (statement.type === "VariableDeclaration") {
      edits.push(...declarationEdits(code, statement));
    } else if (statement.type === "FunctionDeclaration") {
      hoisted.push(statement.id.name);
    } else if (statement.type === "ClassDeclaration") {
      const name = statement.id.name;
      edits.push({ start: statement.end, end: statement.end, insert: [`; globalThis.${name} = ${name};`] });
    }
  }
  const last = program?.body.at(-1);
  if (last?.type === "ExpressionStatement") {
    // The statement's bounds, not its expression's: `(a, b)` parses to an expression inside the
    // brackets. Its own `;` stays out of the echo.
    const start = last.start;
    const end = code[last.end - 1] === ";" ? last.end - 1 : last.end;
    const { line, column } = position(code, start);
    edits.push({
      start,
      end: start,
      insert: [{ line: undefined }, "return { __echo: (", { line }, " ".repeat(column)],
    });
    edits.push({ start: end, end, insert: [") };"] });
  }
  const body = applyEdits(code, edits);
  const copies = hoisted.map((name) => ` globalThis.${name} = ${name};`).join("");
  const lines = [opening + copies, ...body.lines, "})()"];
  const origin = [undefined, ...body.origin, undefined];
  return { source: lines.join("\n"), cellLines, cellLine: (line) => origin[line - 1] };
}

/**
 * Edits that turn a top-level `const`/`let`/`var` into assignments to globals, keeping columns:
 * the keyword becomes blanks, or blanks and `;(` before a destructuring pattern.
 */
function declarationEdits(code: string, declaration: VariableDeclaration): SourceEdit[] {
  const { kind, declarations } = declaration;
  // `using` disposes at the block's end: an assignment would change what it means.
  if (kind !== "const" && kind !== "let" && kind !== "var") return [];
  const destructures = declarations.some((declarator) => declarator.id.type !== "Identifier");
  const start = declaration.start;
  const edits: SourceEdit[] = [
    {
      start,
      end: start + kind.length,
      // `;(`: a line before it without a `;` would otherwise take the `(` as a call of its value.
      insert: [destructures ? `${" ".repeat(kind.length - 2)};(` : " ".repeat(kind.length)],
    },
  ];
  for (const declarator of declarations) {
    if (declarator.init == null)
      edits.push({ start: declarator.end, end: declarator.end, insert: [" = undefined"] });
  }
  const lastEnd = declarations.at(-1)?.end ?? declaration.end;
  const closing = `${destructures ? ")" : ""}${code[declaration.end - 1] === ";" ? "" : ";"}`;
  if (closing !== "") edits.push({ start: lastEnd, end: lastEnd, insert: [closing] });
  return edits;
}

/** The 1-based line and 0-based column of `offset` in `code`. */
function position(code: string, offset: number): { line: number; column: number } {
  const before = code.slice(0, offset);
  const lineStart = before.lastIndexOf("\n") + 1;
  return { line: before.split("\n").length, column: offset - lineStart };
}
