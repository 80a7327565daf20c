import type { KernelLanguage } from "../client/kernel-client.js";

/**
 * Rewrites the IPython idioms people type by reflex into plain code that calls the in-kernel
 * helpers: `%pip` (and `!pip`) → `sys.executable -m pip` plus module eviction, `%cd` → chdir,
 * `!cmd` / `%%bash` → the harness's shell tool through the bridge (so its guardrails and approval
 * apply), `%%timeit` / `%timeit` → a timing loop. Lines inside the cell keep their indentation.
 */
export function rewriteCell(code: string, language: KernelLanguage): string {
  const js = language === "javascript";
  const str = (text: string) => JSON.stringify(text);
  const call = (helper: string, ...args: string[]) =>
    `${js && (helper === "sh" || helper === "timeit") ? "await " : ""}__tools__.${helper}(${args.join(", ")})`;

  const lines = code.split("\n");
  const first = lines.findIndex((line) => line.trim() !== "");
  const head = first >= 0 ? (lines[first] ?? "").trim() : "";
  const cellMagic = /^%%(\w+)\s*(.*)$/.exec(head);
  if (cellMagic) {
    const [, name, rest = ""] = cellMagic;
    const body = lines.slice(first + 1).join("\n");
    if (name === "bash" || name === "sh") return call("sh", str(body));
    if (name === "timeit") {
      const { number, repeat, setup } = timeitOptions(rest);
      if (js)
        return `${setup}\n${call("timeit", `async () => {\n${body}\n}`, String(number), String(repeat))}`;
      return call("timeit", str(body), str(setup || "pass"), String(number), String(repeat));
    }
    return code;
  }

  return lines
    .map((line) => {
      const match = /^(\s*)(.*)$/.exec(line);
      const indent = match?.[1] ?? "";
      const rest = match?.[2] ?? "";
      const assigned = /^([A-Za-z_$][\w$]*)\s*=\s*!(.*)$/.exec(rest);
      if (assigned && !js) return `${indent}${assigned[1]} = ${call("sh", str(assigned[2] ?? ""), "True")}`;
      const pipLine = /^(?:%pip|!\s*pip3?|!\s*python3?\s+-m\s+pip)\s+(.*)$/.exec(rest);
      if (pipLine && !js) return `${indent}${call("pip", str(pipLine[1] ?? ""))}`;
      const bang = /^!(.*)$/.exec(rest);
      if (bang) return `${indent}${call("sh", str(bang[1] ?? ""))}`;
      const cd = /^%cd\b\s*(.*)$/.exec(rest);
      if (cd) return `${indent}${call("cd", str(cd[1] ?? ""))}`;
      const timeit = /^%timeit\s+(.*)$/.exec(rest);
      if (timeit) {
        const { number, repeat, setup } = timeitOptions(timeit[1] ?? "");
        if (js)
          return `${indent}${call("timeit", `async () => { ${setup} }`, String(number), String(repeat))}`;
        return `${indent}${call("timeit", str(setup), str("pass"), String(number), String(repeat))}`;
      }
      return line;
    })
    .join("\n");
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
