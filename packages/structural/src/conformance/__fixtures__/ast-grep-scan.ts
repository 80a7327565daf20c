import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** One match of a corpus scan: its text and every binding's text (`$$$X` from its first node to its last). */
export interface ScanMatch {
  readonly text: string;
  readonly bindings: Readonly<Record<string, string>>;
}

interface Range {
  readonly byteOffset: { readonly start: number; readonly end: number };
  readonly start: { readonly line: number; readonly column: number };
}

interface ScanJsonMatch {
  readonly ruleId: string;
  readonly file: string;
  readonly text: string;
  readonly range: Range;
  readonly metaVariables?: {
    readonly single?: Readonly<Record<string, { readonly text: string }>>;
    readonly multi?: Readonly<Record<string, readonly { readonly range: Range }[]>>;
  };
}

/** The key both sides' matches are compared by: `file:line:column` (0-based). */
export function matchKey(file: string, line: number, column: number): string {
  return `${file}:${line}:${column}`;
}

/**
 * Runs `ast-grep scan --inline-rules` with one rule per pattern over `paths` (relative to `cwd`),
 * so each file is parsed once for all of them; returns, per pattern, its matches by key.
 */
export function scanCorpus(
  binary: string,
  language: string,
  patterns: readonly string[],
  paths: readonly string[],
  cwd: string,
): Map<string, ScanMatch>[] {
  const rules = patterns
    .map(
      (pattern, index) =>
        `id: p${index}\nlanguage: ${language}\nrule:\n  pattern: ${JSON.stringify(pattern)}\n`,
    )
    .join("---\n");
  const result = spawnSync(binary, ["scan", "--inline-rules", rules, "--json=compact", ...paths], {
    cwd,
    encoding: "utf8",
    maxBuffer: 512 * 1024 * 1024,
  });
  if (result.error) throw result.error;
  if (result.status !== 0 && result.status !== 1)
    throw new Error(`ast-grep scan exited with ${result.status}: ${result.stderr}`);
  const files = new Map<string, Buffer>();
  const bytes = (file: string): Buffer => {
    let buffer = files.get(file);
    if (!buffer) files.set(file, (buffer = readFileSync(join(cwd, file))));
    return buffer;
  };
  const out = patterns.map(() => new Map<string, ScanMatch>());
  for (const match of JSON.parse(result.stdout.trim() || "[]") as ScanJsonMatch[]) {
    const bindings: Record<string, string> = {};
    for (const [name, value] of Object.entries(match.metaVariables?.single ?? {}))
      bindings[name] = value.text;
    for (const [name, nodes] of Object.entries(match.metaVariables?.multi ?? {})) {
      const first = nodes[0];
      const last = nodes[nodes.length - 1];
      bindings[name] =
        first && last
          ? bytes(match.file)
              .subarray(first.range.byteOffset.start, last.range.byteOffset.end)
              .toString("utf8")
          : "";
    }
    const key = matchKey(match.file, match.range.start.line, match.range.start.column);
    out[Number(match.ruleId.slice(1))]?.set(key, { text: match.text, bindings });
  }
  return out;
}
