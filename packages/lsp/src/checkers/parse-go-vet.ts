import { isAbsolute, join } from "node:path";
import type { Finding } from "./finding.js";

/**
 * The text output of `go vet ./...` (it all goes to stderr): `# package` headers, then one
 * line per finding, `path:line:col: message`, with paths relative to the folder vet ran in.
 * A line prefixed `vet: ` is a parse or type error (vet stops at the first one of a package):
 * an error; every other line is an analyzer finding (printf, copylocks …): a warning.
 */
export function parseGoVet(output: string, root: string): Finding[] {
  const findings: Finding[] = [];
  for (const match of output.matchAll(/^(vet: )?(\S+?\.go):(\d+):(\d+): (.*)$/gm)) {
    const file = match[2]!;
    findings.push({
      file: isAbsolute(file) ? file : join(root, file),
      line: Number(match[3]),
      column: Number(match[4]),
      severity: match[1] ? "error" : "warning",
      code: "",
      message: match[5]!,
    });
  }
  return findings;
}
