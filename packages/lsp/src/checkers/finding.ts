import { oneLine, withRelativePaths } from "../format/diagnostics.js";

/** One finding of a project checker, in the same shape as a server's diagnostic line. */
export interface Finding {
  /** Absolute path. */
  readonly file: string;
  /** 1-based. */
  readonly line: number;
  /** 1-based. */
  readonly column: number;
  /** As the checker names it: error, warning, note, information … */
  readonly severity: string;
  /** The checker's code (TS2554, E0308, -Wunused-variable, a pyright rule); "" for none. */
  readonly code: string;
  readonly message: string;
}

/**
 * `path:line:col severity [code] message`, one line: the format of server diagnostics (paths
 * under `workingDirectory` in the message shown relative, as there).
 */
export function formatFinding(
  finding: Finding,
  display: (path: string) => string,
  workingDirectory?: string,
): string {
  const { line, column, severity, code, message } = finding;
  return `${display(finding.file)}:${line}:${column} ${severity}${code ? ` [${code}]` : ""} ${withRelativePaths(oneLine(message), workingDirectory)}`;
}

/** Errors and warnings: what a project check lists (notes, help and information are left out). */
export function isCounted(finding: Finding): boolean {
  return finding.severity === "error" || finding.severity === "warning";
}
