import { describe, expect, it } from "vitest";
import { atBreakpoint, ci, goModule } from "../__fixtures__/harness.js";
import { dlv } from "../__fixtures__/backends.js";

describe.skipIf(!dlv && !ci)("debug tool on delve: a call that stops at a breakpoint", () => {
  it(
    "says the call stopped inside, and the stop's frame ids are no longer taken as before",
    { timeout: 180_000 },
    async () => {
      expect(dlv, "dlv and go must be on PATH").toBeTruthy();
      const dir = goModule("call", [
        "package main",
        "",
        'import "fmt"',
        "",
        "func add(a, b int) int {",
        "\ts := a + b",
        "\treturn s",
        "}",
        "",
        "func main() {",
        "\tn := 3",
        "\tfmt.Println(add(n, 1))",
        "}",
        "",
      ]);
      await atBreakpoint(
        dir,
        { file: "main.go", lines: [6, 12], program: ".", where: "main.go:12 in main.main" },
        async (call) => {
          const before = await call({ op: "stack" });
          const frame = Number(/#0 frame (\d+) main\.main/.exec(before.text)![1]);

          const called = await call({ op: "evaluate", expression: "call add(1, 2)", frame_id: frame });
          expect(called.isError).toBe(true);
          expect(called.text).toContain("call stopped");
          expect(called.text).toContain(
            "the call stopped before it returned (at a breakpoint in what it called), and delve left the program inside it",
          );
          // The stop's frame ids are not taken for the frames they named before: the id is refused.
          const again = await call({ op: "evaluate", expression: "n", frame_id: frame });
          expect(again.isError).toBe(true);
          expect(again.text).toContain(`frame ${frame} is`);
          // The program is inside the call now: its frames are on top, not main's.
          const after = await call({ op: "stack" });
          expect(after.text).toMatch(/#0 frame \d+ runtime\.debugCall/);
        },
      );
    },
  );
});
