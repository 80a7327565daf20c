import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ConformanceCase } from "./conformance-case.js";
import type { CaseOutcome, MatchOutcome } from "./run-ours.js";

interface Position {
  readonly byteOffset: { readonly start: number; readonly end: number };
}

/** One match of `ast-grep run --json`, with the fields read here. */
interface AstGrepJsonMatch {
  readonly text: string;
  readonly metaVariables?: {
    readonly single?: Readonly<Record<string, { readonly text: string }>>;
    readonly multi?: Readonly<Record<string, readonly { readonly range: Position }[]>>;
  };
}

/** ast-grep's outcome on a case, or the message with which it rejected the pattern. */
export type AstGrepOutcome = CaseOutcome | { readonly rejected: string };

function run(binary: string, args: readonly string[], cwd: string) {
  const result = spawnSync(binary, args, { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw result.error;
  return result;
}

/**
 * A `$$$X` binding as our matcher gives it: the source from its first node to its last (ast-grep
 * lists the nodes, separators included, with UTF-8 byte offsets).
 */
function multiText(code: Buffer, nodes: readonly { readonly range: Position }[]): string {
  const first = nodes[0];
  const last = nodes[nodes.length - 1];
  if (!first || !last) return "";
  return code.subarray(first.range.byteOffset.start, last.range.byteOffset.end).toString("utf8");
}

function toOutcome(code: Buffer, match: AstGrepJsonMatch): MatchOutcome {
  const bindings: Record<string, string> = {};
  for (const [name, value] of Object.entries(match.metaVariables?.single ?? {})) bindings[name] = value.text;
  for (const [name, nodes] of Object.entries(match.metaVariables?.multi ?? {}))
    bindings[name] = multiText(code, nodes);
  return { text: match.text, bindings };
}

/**
 * Runs `ast-grep run -p … -l … --json=compact` on the case's code (written to `file` in `dir`)
 * and, for a rewrite, `ast-grep run -p … -r … -U` on a copy, whose content is the rewritten file.
 */
export function runAstGrepCase(
  binary: string,
  testCase: ConformanceCase,
  dir: string,
  file: string,
): AstGrepOutcome {
  writeFileSync(join(dir, file), testCase.code);
  const base = ["run", "-p", testCase.pattern, "-l", testCase.language];
  const search = run(binary, [...base, "--json=compact", file], dir);
  if (search.status !== 0 && search.status !== 1) {
    if (search.stderr.includes("Cannot parse query as a valid pattern")) return { rejected: search.stderr };
    throw new Error(`ast-grep exited with ${search.status}: ${search.stderr}`);
  }
  const code = Buffer.from(testCase.code, "utf8");
  const matches = (JSON.parse(search.stdout.trim() || "[]") as AstGrepJsonMatch[]).map((m) =>
    toOutcome(code, m),
  );
  if (!testCase.rewrite) return { matches };
  const copy = `rewritten-${file}`;
  writeFileSync(join(dir, copy), testCase.code);
  const apply = run(binary, [...base, "-r", testCase.rewrite[0], "-U", copy], dir);
  if (apply.status !== 0 && apply.status !== 1)
    throw new Error(`ast-grep -U exited with ${apply.status}: ${apply.stderr}`);
  return { matches, rewritten: readFileSync(join(dir, copy), "utf8") };
}

/** The node kinds of ast-grep's own tree for `code` (`--debug-query=ast`, named nodes only). */
export function astGrepNodeKinds(
  binary: string,
  code: string,
  language: string,
  emptyDir: string,
): Set<string> {
  const result = run(binary, ["run", "-p", code, "-l", language, "--debug-query=ast", emptyDir], emptyDir);
  const kinds = new Set<string>();
  for (const line of result.stderr.split("\n")) {
    const found = /^\s*(?:[a-z_]+: )?([a-z_]+) \(\d+,\d+\)-\(\d+,\d+\)$/.exec(line);
    if (found?.[1]) kinds.add(found[1]);
  }
  return kinds;
}
