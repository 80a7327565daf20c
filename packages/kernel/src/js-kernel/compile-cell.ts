import { Script } from "node:vm";

const identifier = /[A-Za-z_$][\w$]*/g;
const statementKeywords =
  /^(?:if|for|while|do|switch|try|catch|finally|return|throw|break|continue|function|async\s+function|class|const|let|var|import|export|else|with|label|default|case|\*|[})\]])/;
// Blank, a line comment, or a block comment that ends on its line.
const commentOnly = /^\s*(?:\/\/.*|\/\*.*\*\/\s*)?$/;

/** A cell compiled for the executor, and the way back from its lines to the cell's. */
export interface CompiledCell {
  /** Source of an expression evaluating to a promise of `{ __echo }` or undefined. */
  readonly source: string;
  /** The cell as written, line by line. */
  readonly cellLines: readonly string[];
  /** The cell's own line (1-based) for a line of `source`, or undefined on the wrapper's lines. */
  readonly cellLine: (sourceLine: number) => number | undefined;
}

/**
 * Turns a JavaScript cell into the body of an async function so top-level `await` works, while
 * keeping its top-level bindings global for later cells: `const x = …` / `let x = …` at column 0
 * become assignments to the global `x`; other declarations (destructuring, function, class) stay
 * local and are copied to `globalThis` when the cell ends. The last expression statement, when
 * there is one, is returned so it can be echoed — also when comments or blank lines follow it.
 * Every cell line keeps its own line in the source, and its columns (but for a class
 * declaration), so positions map back through {@link CompiledCell.cellLine}.
 */
export function compileCell(code: string): CompiledCell {
  const exported = new Set<string>();
  const cell = code.split("\n");
  const lines = cell.map((line) => {
    const simple = /^((?:const|let|var)\s+)([A-Za-z_$][\w$]*)(\s*=[^=>].*|\s*=$|\s*;?\s*)$/.exec(line);
    if (simple) {
      const [, keyword = "", name = "", rest = ""] = simple;
      // Spaces instead of the keyword keep the columns of a stack trace.
      const pad = " ".repeat(keyword.length);
      return rest.trim() === "" || rest.trim() === ";"
        ? `${pad}${name} = undefined;`
        : `${pad}${name}${rest}`;
    }
    const pattern = /^(?:const|let|var)\s+([[{][^=]*)=/.exec(line);
    if (pattern) for (const name of (pattern[1] ?? "").match(identifier) ?? []) exported.add(name);
    const declared = /^(?:async\s+)?(?:function\*?|class)\s+([A-Za-z_$][\w$]*)/.exec(line);
    if (declared?.[1]) exported.add(declared[1]);
    // A class declaration is block-scoped inside the try block; a var is visible to the copy.
    return line
      .replace(/^const(\s+)(?=[[{])/, "var  $1")
      .replace(/^let(\s+)(?=[[{])/, "var$1")
      .replace(/^class\s+([A-Za-z_$][\w$]*)/, "var $1 = class $1");
  });
  const copy = [...exported]
    .map((name) => `try { if (typeof ${name} !== "undefined") globalThis.${name} = ${name}; } catch {}`)
    .join(" ");
  const compile = (echo?: { last: number; end: number; tail: string }): CompiledCell => {
    const origin: (number | undefined)[] = [undefined];
    const out = ["(async () => { try {"];
    const body = (from: number, to: number) => {
      for (let i = from; i < to; i++) {
        out.push(lines[i] ?? "");
        origin.push(i + 1);
      }
    };
    if (echo) {
      body(0, echo.last);
      out.push("return { __echo: (");
      origin.push(undefined);
      const tail = echo.tail.split("\n");
      tail.forEach((line, index) => {
        out.push(line);
        origin.push(echo.last + index + 1);
      });
      out.push(") };");
      origin.push(undefined);
      body(echo.end + 1, lines.length);
    } else {
      body(0, lines.length);
    }
    out.push(`} finally { ${copy} } })()`);
    origin.push(undefined);
    return { source: out.join("\n"), cellLines: cell, cellLine: (line) => origin[line - 1] };
  };

  // The last code line, below it only blank and comment lines (they stay, after the echo).
  let end = lines.length - 1;
  while (end >= 0 && commentOnly.test(cell[end] ?? "")) end--;
  // The last statement starts at a column-0 line; try them bottom-up until one parses as an expression.
  for (let last = end; last >= 0; last--) {
    const line = cell[last] ?? "";
    if (commentOnly.test(line) || /^\s/.test(line)) continue;
    const closing = /^[)\]}]/.test(line);
    if (!closing && statementKeywords.test(line)) break;
    const tail = lines.slice(last, end + 1).join("\n");
    // A final ';' ends the statement, also before a comment on its line: `v.length; // how many`.
    for (const candidate of [tail.replace(/;\s*$/, ""), tail.replace(/;(\s*\/\/[^\n]*)$/, "$1")]) {
      const compiled = compile({ last, end, tail: candidate });
      if (parses(compiled.source)) return compiled;
    }
    if (!closing) break;
  }
  return compile();
}

function parses(source: string): boolean {
  try {
    new Script(source);
    return true;
  } catch {
    return false;
  }
}
