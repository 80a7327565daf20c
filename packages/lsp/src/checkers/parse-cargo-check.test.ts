import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatFinding, type Finding } from "./finding.js";
import { parseCargoCheck } from "./parse-cargo-check.js";

/** Real checker output recorded into src/__fixtures__/checker-output (see its README). */
const recorded = (name: string) =>
  readFileSync(join(import.meta.dirname, "..", "__fixtures__", "checker-output", name), "utf8");
const lines = (findings: Finding[]) => findings.map((f) => formatFinding(f, (path) => path));

describe("parseCargoCheck", () => {
  it("cargo check JSON: primary spans, codes, paths from the workspace root even when run in a member", () => {
    const expected = [
      "/tmp/cargows/crates/util/src/lib.rs:2:9 warning [unused_variables] unused variable: `unused`",
      "/tmp/cargows/crates/app/src/main.rs:2:22 error [E0308] mismatched types",
    ];
    const output = recorded("cargo-check.jsonl");
    expect(lines(parseCargoCheck(output, "/tmp/cargows"))).toEqual(expected);
    // The same output seen from a member folder: spans are still relative to the workspace root.
    expect(lines(parseCargoCheck(output, "/tmp/cargows/crates/app"))).toEqual(expected);
    // The failure note ("For more information about this error …") has no span: not a finding.
    expect(
      parseCargoCheck(`not json\n{"reason":"build-finished","success":false}\n${output}`, "/x"),
    ).toHaveLength(2);
  });

  it("counts columns in UTF-16 units, as LSP does: rustc counts characters", () => {
    // Line 2: `    let s = "😀é"; let n: i32 = "x";`: rustc says column 32 for the "x"; the emoji
    // before it is two UTF-16 units.
    expect(lines(parseCargoCheck(recorded("cargo-check-astral.jsonl"), "/tmp/cargoemoji"))).toEqual([
      "/tmp/cargoemoji/src/main.rs:2:33 error [E0308] mismatched types",
    ]);
  });
});
