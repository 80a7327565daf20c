import { describe, expect, it } from "vitest";
import { findOnPath } from "../adapters/find-binary.js";
import { atBreakpoint, ci, workspace } from "../__fixtures__/harness.js";

const searchPath = process.env.PATH ?? "";
const dlv = Boolean(findOnPath("dlv", searchPath) && findOnPath("go", searchPath));

/** The line of a breakpoint listing about `line`. */
function about(text: string, line: number): string {
  return text.split("\n").find((one) => one.startsWith(`  line ${line}:`)) ?? `(no line ${line} in: ${text})`;
}

// delve refuses a breakpoint on a line without code ("could not find statement at …, please use
// a line with a statement") and, unlike debugpy and lldb, does not move it to one that has code:
// the refusal named no line to use. It now names the nearest lines that have code, as delve
// itself verified them, while the program cannot run into them (before it starts, or stopped).
describe.skipIf(!dlv && !ci)("a delve breakpoint on a line without code", () => {
  it("names the nearest lines with code, which delve then verifies", { timeout: 180_000 }, async () => {
    const stop = { file: "main.go", lines: [7, 11], program: ".", where: "main.go:11 in main.total" };
    await atBreakpoint(workspace("go"), stop, async (call, launch) => {
      // Line 7 is blank, between the imports and func total (line 8).
      expect(about(launch.text, 7)).toMatch(
        /^ {2}line 7: NOT verified: could not find statement at .*main\.go:7, please use a line with a statement; the nearest line with one is 8$/,
      );

      // Stopped in the loop at line 11: line 15 (blank, between total and main) is looked into
      // with lines of the loop added a moment, and those go again.
      const set = await call({ op: "breakpoints", file: "main.go", lines: [11, 15] });
      const hint = /; the nearest lines with one are (\d+) and (\d+)$/.exec(about(set.text, 15));
      expect(hint, set.text).not.toBeNull();
      const [above, below] = [Number(hint![1]), Number(hint![2])];
      expect(above).toBeLessThan(15);
      expect(below).toBeGreaterThan(15);
      expect(about(set.text, 11)).toMatch(/^ {2}line 11: verified/);
      // The next stop is line 11's again, in the loop's next round: no added line stayed set.
      const next = await call({ op: "continue" });
      expect(next.text).toMatch(/^stopped \(breakpoint\) in thread \d+ at main\.go:11 in main\.total/);
      expect((await call({ op: "evaluate", expression: "x" })).text).toBe("2 (int)");

      // The lines named are exact: delve verifies them.
      const named = await call({ op: "breakpoints", file: "main.go", lines: [above, below] });
      expect(about(named.text, above)).toMatch(new RegExp(`^ {2}line ${above}: verified`));
      expect(about(named.text, below)).toMatch(new RegExp(`^ {2}line ${below}: verified`));
    });
  });
});
