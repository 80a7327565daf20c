import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatFinding, isCounted, type Finding } from "./finding.js";
import { parseCompilerOutput } from "./parse-compiler-output.js";

/** Real checker output recorded into src/__fixtures__/checker-output (see its README). */
const recorded = (name: string) =>
  readFileSync(join(import.meta.dirname, "..", "__fixtures__", "checker-output", name), "utf8");
const lines = (findings: Finding[]) => findings.map((f) => formatFinding(f, (path) => path));

describe("parseCompilerOutput", () => {
  it("gcc: errors, warnings with their -W flag as code, headers by their path; notes dropped", () => {
    const findings = parseCompilerOutput(recorded("gcc.txt"), "/tmp/cc");
    expect(lines(findings.filter(isCounted))).toEqual([
      "/tmp/cc/util.h:1:31 warning [-Wunused-variable] unused variable 'x'",
      "/tmp/cc/warn.c:5:10 error 'missing_name' undeclared (first use in this function)",
      "/tmp/cc/warn.c:4:7 warning [-Wunused-variable] unused variable 'unused'",
    ]);
  });

  it("clang's format: the same line shape, -Werror flags and fatal errors", () => {
    // clang is not installed here: these lines follow clang's documented diagnostic format.
    const output = [
      "src/a.c:3:10: error: use of undeclared identifier 'missing_name'",
      "    3 |   return missing_name;",
      "src/a.c:2:7: error: unused variable 'unused' [-Werror,-Wunused-variable]",
      "src/a.c:1:10: fatal error: 'nothere.h' file not found",
      "src/a.c:1:1: note: in file included from here",
      "3 errors generated.",
    ].join("\n");
    expect(lines(parseCompilerOutput(output, "/p").filter(isCounted))).toEqual([
      "/p/src/a.c:3:10 error use of undeclared identifier 'missing_name'",
      "/p/src/a.c:2:7 error [-Werror,-Wunused-variable] unused variable 'unused'",
      "/p/src/a.c:1:10 error 'nothere.h' file not found",
    ]);
  });
});
