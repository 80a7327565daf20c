import type { AdapterId } from "../adapters/detect-adapter.js";

// An `evaluate` the adapter answers with an error is, while the program is stopped in a frame
// of the current stop (the tool sends it only then), almost always the expression failing in
// the program's language: a NameError, an undeclared identifier, a symbol delve cannot find.
// Each adapter words that its own way; an answer of none of those shapes stays a refusal.

/** What the language said of a failed expression. */
export interface ExpressionError {
  /** The error itself: "NameError: name 'x' is not defined". */
  readonly error: string;
  /** Lines that show where (a caret under the expression, the user's traceback frames). */
  readonly detail: readonly string[];
}

/** At most this many detail lines are kept (the last ones: nearest the error). */
const maxDetailLines = 12;

/**
 * The language's error in an adapter's refusal of `evaluate` (its message, the adapter's own
 * traceback frames already removed), or undefined when the message is not of the shape the
 * adapter gives a failed expression.
 */
export function expressionError(adapterId: AdapterId, message: string): ExpressionError | undefined {
  const text = message.replace(/\r\n/g, "\n").trim();
  if (text === "") return undefined;
  switch (adapterId) {
    case "debugpy":
      return pythonError(text);
    case "lldb":
      return lldbError(text);
    case "delve":
      return delveError(text);
    default:
      return undefined;
  }
}

/**
 * debugpy: a Python traceback ("Traceback (most recent call last):", frames, then the exception
 * line). The frame of the expression itself (`File "<string>", line 1, in <module>`) says
 * nothing and goes; its quoted code and caret stay (a SyntaxError's place), and so do frames of
 * the user's code the expression called into.
 */
function pythonError(text: string): ExpressionError | undefined {
  const lines = text.split("\n");
  const header = lines.indexOf("Traceback (most recent call last):");
  if (header < 0) return undefined;
  // The exception: the lines after the last frame and the indented lines it quotes (its code,
  // a caret). Its message may have indented lines of its own (pydantic's ValidationError): the
  // exception's first line never is.
  let last = lines.findLastIndex((line) => /^\s*File "[^"]*", line \d+/.test(line));
  if (last < header) last = header;
  while (last + 1 < lines.length && /^\s/.test(lines[last + 1]!)) last++;
  const error = lines
    .slice(last + 1)
    .filter((line) => line.trim() !== "")
    .join("\n");
  if (error === "") return undefined;
  const detail = lines
    .slice(header + 1, last + 1)
    .filter((line) => !/^\s*File "<string>", line \d+(, in <module>)?$/.test(line));
  return { error, detail: bounded(detail) };
}

/**
 * lldb-dap: lldb's own error ("error: <user expression 0>:1:1: use of undeclared identifier
 * 'x'", then the expression with a caret under the place), or "evaluate failed" when lldb gave
 * no reason.
 */
function lldbError(text: string): ExpressionError | undefined {
  if (text === "evaluate failed") return { error: "lldb gave no reason", detail: [] };
  if (!text.startsWith("error:")) return undefined;
  const [first, ...rest] = text.split("\n");
  const error = first!
    .replace(/^error:\s*/, "")
    .replace(/^<user expression \d+>:\d+:\d+:\s*/, "")
    .trim();
  return { error: error || first!, detail: bounded(rest.filter((line) => line.trim() !== "")) };
}

/** delve: "Unable to evaluate expression: could not find symbol value for x". */
function delveError(text: string): ExpressionError | undefined {
  const prefix = "Unable to evaluate expression:";
  if (!text.startsWith(prefix)) return undefined;
  const [first, ...rest] = text.slice(prefix.length).trim().split("\n");
  if (!first) return undefined;
  return { error: first, detail: bounded(rest.filter((line) => line.trim() !== "")) };
}

function bounded(lines: readonly string[]): string[] {
  if (lines.length <= maxDetailLines) return [...lines];
  const left = lines.length - maxDetailLines;
  return [`(${left} earlier lines left out)`, ...lines.slice(-maxDetailLines)];
}
