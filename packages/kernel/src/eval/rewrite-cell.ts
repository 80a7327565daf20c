import { Script } from "node:vm";
import type { KernelLanguage } from "../client/kernel-client.js";
import { JavaScriptLineScanner } from "./javascript-line-scanner.js";
import { PythonLineScanner, type LineScanner } from "./python-line-scanner.js";

type Helper = "sh" | "pip" | "cd" | "timeit";

/**
 * Rewrites the IPython idioms people type by reflex into plain code that calls the in-kernel
 * helpers. Python: `%pip` (and `!pip`) → `sys.executable -m pip` plus module eviction, `%cd` →
 * chdir, `!cmd` / `x = !cmd` / `%%bash` → the harness's shell tool through the bridge (so its
 * guardrails and approval apply), `%%timeit` / `%timeit` → a timing loop. A line is rewritten only
 * where a statement starts — never inside brackets, a string or a backslash continuation — and
 * keeps its indentation. JavaScript: only `%cd`, `%timeit`, `%%bash` and `%%timeit`, and only in a
 * cell that is not valid JavaScript as written; a leading `!` is JavaScript's not.
 */
export function rewriteCell(code: string, language: KernelLanguage): string {
  const js = language === "javascript";
  const lines = code.split("\n");
  const first = lines.findIndex((line) => line.trim() !== "");
  const head = first >= 0 ? (lines[first] ?? "").trim() : "";
  const cellMagic = /^%%(\w+)\s*(.*)$/.exec(head);
  if (cellMagic) {
    const [, name, rest = ""] = cellMagic;
    const body = lines.slice(first + 1).join("\n");
    if (name === "bash" || name === "sh") return call(js, "sh", str(body));
    if (name === "timeit") {
      const { number, repeat, setup } = timeitOptions(rest);
      if (js)
        return `${setup}\n${call(js, "timeit", `async () => {\n${body}\n}`, String(number), String(repeat))}`;
      return call(js, "timeit", str(body), str(setup || "pass"), String(number), String(repeat));
    }
    return code;
  }
  if (js) return parsesAsCell(code) ? code : rewriteLines(lines, new JavaScriptLineScanner(), jsLineMagic);
  return rewriteLines(lines, new PythonLineScanner(), pythonLineMagic);
}

const str = (text: string) => JSON.stringify(text);

function call(js: boolean, helper: Helper, ...args: string[]): string {
  const wait = js && (helper === "sh" || helper === "timeit") ? "await " : "";
  return `${wait}__tools__.${helper}(${args.join(", ")})`;
}

/**
 * Rewrites the magic lines that start a statement; other lines go to the scanner, which tracks
 * strings and brackets. A magic line is opaque (`!echo it's` opens no string) and, as in IPython,
 * goes on past a trailing backslash; the lines it swallowed stay as blank lines, so line numbers
 * in tracebacks still match the cell.
 */
function rewriteLines(
  lines: readonly string[],
  scanner: LineScanner,
  rewriteMagic: (statement: string) => string | undefined,
): string {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (scanner.atStatementStart) {
      const [, indent = "", statement = ""] = /^(\s*)(.*)$/s.exec(line) ?? [];
      if (rewriteMagic(statement) !== undefined) {
        let joined = statement;
        let swallowed = 0;
        while (/\\\s*$/.test(joined) && i + 1 < lines.length) {
          joined = `${joined.replace(/\\\s*$/, "").trimEnd()} ${(lines[++i] ?? "").trim()}`;
          swallowed++;
        }
        out.push(`${indent}${rewriteMagic(joined) ?? joined}`, ...Array<string>(swallowed).fill(""));
        continue;
      }
      // Another magic (%matplotlib inline) is left to the kernel, and not read as code either.
      if (statement.startsWith("%")) {
        out.push(line);
        continue;
      }
    }
    scanner.scan(line);
    out.push(line);
  }
  return out.join("\n");
}

function pythonLineMagic(statement: string): string | undefined {
  const assigned = /^([A-Za-z_]\w*)\s*=\s*!(.*)$/s.exec(statement);
  if (assigned) return `${assigned[1]} = ${call(false, "sh", str(assigned[2] ?? ""), "True")}`;
  const pip = /^(?:%pip|!\s*pip3?|!\s*python3?\s+-m\s+pip)\s+(.*)$/s.exec(statement);
  if (pip) return call(false, "pip", str(pip[1] ?? ""));
  const bang = /^!(.*)$/s.exec(statement);
  if (bang) return call(false, "sh", str(bang[1] ?? ""));
  return commonLineMagic(false, statement);
}

function jsLineMagic(statement: string): string | undefined {
  return commonLineMagic(true, statement);
}

function commonLineMagic(js: boolean, statement: string): string | undefined {
  const cd = /^%cd\b\s*(.*)$/s.exec(statement);
  if (cd) return call(js, "cd", str(cd[1] ?? ""));
  const timeit = /^%timeit\s+(.*)$/s.exec(statement);
  if (timeit) {
    const { number, repeat, setup } = timeitOptions(timeit[1] ?? "");
    if (js) return call(js, "timeit", `async () => { ${setup} }`, String(number), String(repeat));
    return call(js, "timeit", str(setup), str("pass"), String(number), String(repeat));
  }
  return undefined;
}

/** True when the JavaScript cell compiles as written (inside the async function it runs in). */
function parsesAsCell(code: string): boolean {
  try {
    new Script(`(async () => {\n${code}\n})`);
    return true;
  } catch {
    return false;
  }
}

/** `-n N -r R rest`: loop count, repeat count, and what follows (setup for %%timeit, the statement for %timeit). */
function timeitOptions(text: string): { number: number; repeat: number; setup: string } {
  let rest = text.trim();
  let number = 0;
  let repeat = 0;
  for (;;) {
    const option = /^-([nr])\s*(\d+)\s*/.exec(rest);
    if (!option) break;
    if (option[1] === "n") number = Number(option[2]);
    else repeat = Number(option[2]);
    rest = rest.slice(option[0].length);
  }
  return { number, repeat, setup: rest };
}
