import { dirname, isAbsolute, join, relative, sep } from "node:path";
import type { Finding } from "./finding.js";

interface Span {
  readonly file_name: string;
  readonly line_start: number;
  readonly column_start: number;
  readonly is_primary: boolean;
  /** The span's source lines (the first is `line_start`'s). */
  readonly text?: readonly { readonly text: string }[];
}

interface CargoMessage {
  readonly reason?: string;
  readonly manifest_path?: string;
  readonly message?: {
    readonly level: string;
    readonly message: string;
    readonly code?: { readonly code: string } | null;
    readonly spans: readonly Span[];
  };
}

/**
 * The output of `cargo check --message-format=json`: one JSON object per line; each
 * `compiler-message` with a primary span is a finding. Span paths are relative to the
 * *workspace* root (not the folder cargo ran in: a member of a workspace reports
 * `crates/app/src/main.rs`), or absolute (dependencies); they are resolved against the
 * workspace root found from the message's `manifest_path` (else `root`). Lines that are not JSON (a cargo warning on stdout) are skipped.
 */
export function parseCargoCheck(stdout: string, root: string): Finding[] {
  const findings: Finding[] = [];
  for (const line of stdout.split("\n")) {
    if (!line.startsWith("{")) continue;
    let entry: CargoMessage;
    try {
      entry = JSON.parse(line) as CargoMessage;
    } catch {
      continue;
    }
    const message = entry.message;
    const span = message?.spans.find((s) => s.is_primary);
    if (entry.reason !== "compiler-message" || !message || !span) continue;
    findings.push({
      file: spanPath(span.file_name, entry.manifest_path, root),
      line: span.line_start,
      column: utf16Column(span.text?.[0]?.text, span.column_start),
      // "error: internal compiler error" is an error too.
      severity: message.level.startsWith("error") ? "error" : message.level,
      code: message.code?.code ?? "",
      message: message.message,
    });
  }
  return findings;
}

/**
 * rustc's 1-based column counts characters (code points); findings count UTF-16 units, as LSP
 * does: a character past U+FFFF before the column is two. Read in the span's own line text; as
 * given when cargo sent none.
 */
function utf16Column(line: string | undefined, column: number): number {
  if (line === undefined) return column;
  let units = 0;
  let characters = 0;
  for (const character of line) {
    if (characters >= column - 1) break;
    units += character.length;
    characters++;
  }
  return units + 1 + Math.max(0, column - 1 - characters);
}

function spanPath(file: string, manifest: string | undefined, root: string): string {
  if (isAbsolute(file)) return file;
  if (!manifest) return join(root, file);
  // The workspace root W is the ancestor of the package folder P with file = relative(W, P)/…;
  // a package that is its own workspace (W = P) matches no longer prefix.
  const packageDir = dirname(manifest);
  for (let base = dirname(packageDir); ; base = dirname(base)) {
    const prefix = relative(base, packageDir);
    if (file.startsWith(`${prefix}${sep}`)) return join(base, file);
    if (dirname(base) === base) break;
  }
  return join(packageDir, file);
}
