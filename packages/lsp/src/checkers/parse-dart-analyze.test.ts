import { describe, expect, it } from "vitest";
import { parseDartAnalyze, splitDartMachineLine } from "./parse-dart-analyze.js";

// Lines as the SDK's `emitMachineFormat` (pkg/dartdev/lib/src/commands/analyze.dart) prints them:
// `_escapeForMachineMode` writes `\` as `\\`, `|` as `\|`, a newline as `\n`, a return as `\r`.

describe("splitDartMachineLine", () => {
  it("cuts at unescaped pipes only and unescapes each field", () => {
    expect(splitDartMachineLine(String.raw`a\|b|c\\d|e\nf\rg`)).toEqual(["a|b", "c\\d", "e\nf\rg"]);
  });

  it("reads an escaped backslash before a pipe as a backslash that ends the field", () => {
    expect(splitDartMachineLine(String.raw`a\\|b`)).toEqual(["a\\", "b"]);
    expect(splitDartMachineLine(String.raw`a\\\|b`)).toEqual(["a\\|b"]);
  });

  it("keeps an unknown escape and a trailing backslash as they are", () => {
    expect(splitDartMachineLine("a\\qb|c\\")).toEqual(["a\\qb", "c\\"]);
  });
});

describe("parseDartAnalyze", () => {
  it("unescapes a pipe in the message and keeps the other fields in place", () => {
    const line = String.raw`ERROR|COMPILE_TIME_ERROR|UNDEFINED_OPERATOR|/app/lib/a.dart|3|5|1|The operator '\|' isn't defined for the type 'String'.`;
    expect(parseDartAnalyze(line)).toEqual([
      {
        file: "/app/lib/a.dart",
        line: 3,
        column: 5,
        severity: "error",
        code: "undefined_operator",
        message: "The operator '|' isn't defined for the type 'String'.",
      },
    ]);
  });

  it("unescapes a pipe and backslashes in the path, and a newline in the message", () => {
    const output = [
      String.raw`WARNING|STATIC_WARNING|UNUSED_IMPORT|/app/lib/a\|b.dart|1|8|10|Unused import.`,
      String.raw`INFO|LINT|AVOID_PRINT|C:\\src\\app\\lib\\main.dart|2|3|5|Don't invoke 'print'.\nUse a logger.`,
      String.raw`INFO|HINT|TODO|/app/lib/dir\\|4|1|4|TODO: x`,
    ].join("\r\n");
    expect(parseDartAnalyze(output).map((f) => [f.file, f.line, f.column, f.message])).toEqual([
      ["/app/lib/a|b.dart", 1, 8, "Unused import."],
      ["C:\\src\\app\\lib\\main.dart", 2, 3, "Don't invoke 'print'.\nUse a logger."],
      ["/app/lib/dir\\", 4, 1, "TODO: x"],
    ]);
  });

  it("skips lines that are not findings", () => {
    const output = [
      "Resolving dependencies...",
      "",
      "a|b|c",
      "1|2|3|4|5|6|7",
      "ERROR|X|Y|/app/a.dart|line|1|1|a line that is not a number",
      "ERROR|X|Y||1|1|1|no path",
      "|X|Y|/app/a.dart|1|1|1|no severity",
      "3 issues found.",
    ].join("\n");
    expect(parseDartAnalyze(output)).toEqual([]);
  });
});
