import { resolve } from "node:path";
import type { Finding } from "./finding.js";

/**
 * gcc's and clang's diagnostics (`-fdiagnostics-color=never`):
 * `file:line:col: error|warning|fatal error: message [-Wflag]`, paths relative to the folder
 * the compiler ran in. Notes, "In file included from" lines and the caret lines below each
 * diagnostic are skipped; the `[-W…]` flag becomes the code.
 */
export function parseCompilerOutput(output: string, directory: string): Finding[] {
  const findings: Finding[] = [];
  const pattern = /^(.+?):(\d+):(?:(\d+):)? (fatal error|error|warning): (.*?)(?: \[(-W[^\]]*)\])?$/gm;
  for (const match of output.matchAll(pattern)) {
    findings.push({
      file: resolve(directory, match[1]!),
      line: Number(match[2]),
      column: match[3] ? Number(match[3]) : 1,
      severity: match[4] === "warning" ? "warning" : "error",
      code: match[6] ?? "",
      message: match[5]!,
    });
  }
  return findings;
}
