import { Script } from "node:vm";

const identifier = /[A-Za-z_$][\w$]*/g;
const statementKeywords =
  /^(?:if|for|while|do|switch|try|catch|finally|return|throw|break|continue|function|async\s+function|class|const|let|var|import|export|else|with|label|default|case|\/\/|\/\*|\*|[})\]])/;

/**
 * Turns a JavaScript cell into the body of an async function so top-level `await` works, while
 * keeping its top-level bindings global for later cells: `const x = …` / `let x = …` at column 0
 * become assignments to the global `x`; other declarations (destructuring, function, class) stay
 * local and are copied to `globalThis` when the cell ends. The last expression, when there is
 * one, is returned so it can be echoed. Returns source of an expression evaluating to a promise.
 */
export function compileCell(code: string): string {
  const exported = new Set<string>();
  const lines = code.split("\n").map((line) => {
    const simple = /^(?:const|let|var)\s+([A-Za-z_$][\w$]*)(\s*=[^=>].*|\s*=$|\s*;?\s*)$/.exec(line);
    if (simple) {
      const [, name = "", rest = ""] = simple;
      return rest.trim() === "" || rest.trim() === ";" ? `${name} = undefined;` : `${name}${rest}`;
    }
    const pattern = /^(?:const|let|var)\s+([[{][^=]*)=/.exec(line);
    if (pattern) for (const name of (pattern[1] ?? "").match(identifier) ?? []) exported.add(name);
    const declared = /^(?:async\s+)?(?:function\*?|class)\s+([A-Za-z_$][\w$]*)/.exec(line);
    if (declared?.[1]) exported.add(declared[1]);
    // A class declaration is block-scoped inside the try block; a var is visible to the copy.
    return line
      .replace(/^(const|let)\s+(?=[[{])/, "var ")
      .replace(/^class\s+([A-Za-z_$][\w$]*)/, "var $1 = class $1");
  });
  const copy = [...exported]
    .map((name) => `try { if (typeof ${name} !== "undefined") globalThis.${name} = ${name}; } catch {}`)
    .join(" ");
  const wrap = (body: string) => `(async () => { try {\n${body}\n} finally { ${copy} } })()`;

  // The last statement starts at a column-0 line; try them bottom-up until one parses as an expression.
  for (let last = lines.length - 1; last >= 0; last--) {
    const line = lines[last] ?? "";
    if (line.trim() === "" || /^\s/.test(line)) continue;
    if (!/^[)\]}]/.test(line) && statementKeywords.test(line)) break;
    const tail = lines.slice(last).join("\n").replace(/;\s*$/, "");
    const withEcho = `${lines.slice(0, last).join("\n")}\nreturn { __echo: (\n${tail}\n) };`;
    if (parses(wrap(withEcho))) return wrap(withEcho);
    if (!/^[)\]}]/.test(line)) break;
  }
  return wrap(lines.join("\n"));
}

function parses(source: string): boolean {
  try {
    new Script(source);
    return true;
  } catch {
    return false;
  }
}
