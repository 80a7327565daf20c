import type { Diagnostic } from "vscode-languageserver-protocol";
import { lineEnd } from "../positions/line-ends.js";

const severityNames = ["", "error", "warning", "info", "hint"] as const;

/** The severity's name; servers that omit it mean error. */
export function severityName(diagnostic: Diagnostic): string {
  return severityNames[diagnostic.severity ?? 1] ?? "error";
}

/** The code as text, whatever shape the server sent (number, string or `{ value }`). */
export function codeText(diagnostic: Diagnostic): string {
  const code = diagnostic.code as unknown;
  if (code === undefined || code === null) return "";
  if (typeof code === "object" && "value" in code) {
    const value = (code as { value: unknown }).value;
    return typeof value === "number" || typeof value === "string" ? String(value) : "";
  }
  return typeof code === "number" || typeof code === "string" ? String(code) : "";
}

/**
 * The code as shown: TypeScript's numbers as tsc prints them (`TS2322`, as `diagnostics "*"`
 * lists them too), every other code as sent.
 */
function shownCode(diagnostic: Diagnostic): string {
  const code = codeText(diagnostic);
  return /^\d+$/.test(code) && (diagnostic.source === "typescript" || diagnostic.source === "ts")
    ? `TS${code}`
    : code;
}

/**
 * `path:line:col error [TS2322] message (source)`, one line. Paths inside `workingDirectory` in
 * the message (clangd names the other file of a note by its absolute path) are shown relative
 * to it, as every location is.
 */
export function formatDiagnostic(display: string, diagnostic: Diagnostic, workingDirectory?: string): string {
  const { line, character } = diagnostic.range.start;
  const code = shownCode(diagnostic);
  const message = withRelativePaths(oneLine(messageText(diagnostic)), workingDirectory);
  return `${display}:${line + 1}:${character + 1} ${severityName(diagnostic)}${code ? ` [${code}]` : ""} ${message}${
    diagnostic.source ? ` (${diagnostic.source})` : ""
  }`;
}

/** `text` with every `<workingDirectory>/` dropped, so the paths under it read relative. */
export function withRelativePaths(text: string, workingDirectory: string | undefined): string {
  if (workingDirectory === undefined) return text;
  const prefix = workingDirectory.endsWith("/") ? workingDirectory : `${workingDirectory}/`;
  // The root folder itself as prefix would strip the first slash of every absolute path.
  return prefix === "/" ? text : text.split(prefix).join("");
}

/**
 * A message's lines as one: after a line ending a sentence (tsc's) with a space, otherwise with
 * "; " (pyright's explanation lines have no stop, and ran on into each other).
 */
export function oneLine(message: string): string {
  return message
    .split(lineEnd)
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .reduce(
      (joined, line) => (joined === "" ? line : `${joined}${/[.:;!?]$/.test(joined) ? " " : "; "}${line}`),
      "",
    );
}

/** Errors and warnings only (the severities worth a model's attention by default). */
export function errorsAndWarnings(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics.filter((diagnostic) => (diagnostic.severity ?? 1) <= 2);
}

/** Sorted by position, for stable output. */
export function byPosition(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(
    (a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character,
  );
}

/** The message as plain text (LSP 3.18 allows markup). */
export function messageText(diagnostic: Diagnostic): string {
  const message = diagnostic.message as unknown;
  if (typeof message === "string") return message;
  const value = (message as { value?: unknown }).value;
  return typeof value === "string" ? value : "";
}
