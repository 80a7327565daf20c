import type { Finding } from "./finding.js";

/** What an escaped character stands for, after a backslash (the SDK's `_escapeForMachineMode`). */
const unescaped: Readonly<Record<string, string>> = { "\\": "\\", "|": "|", n: "\n", r: "\r" };

/**
 * One line of `dart analyze --format=machine` cut into its fields at the unescaped `|`, each
 * field unescaped (`\|` → `|`, `\\` → `\`, `\n` → newline, `\r` → carriage return) in the same
 * left-to-right pass, so `\\|` is a backslash that ends its field. An unknown escape and a
 * backslash at the end of the line are kept as they are.
 */
export function splitDartMachineLine(line: string): string[] {
  const fields: string[] = [];
  let field = "";
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (char === "|") {
      fields.push(field);
      field = "";
    } else if (char === "\\" && i + 1 < line.length) {
      const next = line[++i]!;
      field += unescaped[next] ?? `\\${next}`;
    } else {
      field += char;
    }
  }
  fields.push(field);
  return fields;
}

/**
 * The output of `dart analyze --format=machine`: one finding per line,
 * `SEVERITY|TYPE|ERROR_CODE|FILE_PATH|LINE|COLUMN|LENGTH|ERROR_MESSAGE`, the path absolute and
 * the path and message escaped (see {@link splitDartMachineLine}). Severity and code are
 * lower-cased (`error`, `undefined_identifier`). Lines that are not findings (progress, a
 * summary, fewer than 8 fields, a line or column that is not a number) are skipped.
 */
export function parseDartAnalyze(output: string): Finding[] {
  const findings: Finding[] = [];
  for (const line of output.split(/\r?\n/)) {
    const fields = splitDartMachineLine(line);
    if (fields.length < 8) continue;
    const [severity = "", , code = "", file = "", lineText = "", columnText = ""] = fields;
    if (!severity || !file || !/^\d+$/.test(lineText) || !/^\d+$/.test(columnText)) continue;
    findings.push({
      file,
      line: Number(lineText),
      column: Number(columnText),
      severity: severity.toLowerCase(),
      code: code.toLowerCase(),
      // Only an SDK that does not escape prints more fields: its message held the extra pipes.
      message: fields.slice(7).join("|"),
    });
  }
  return findings;
}
