import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { atBreakpoint, ci, goModule, workspace, type FirstStop } from "../__fixtures__/harness.js";
import { dlv, lldb } from "../__fixtures__/backends.js";

/** The C fixture in a temporary folder, compiled with its debug information. */
function compiledC(): string {
  const dir = workspace("c");
  execFileSync("cc", ["-g", "-O0", "-o", join(dir, "prog"), join(dir, "prog.c")]);
  return dir;
}

/** The C fixture's first stop: inside `square`. */
const inSquare: FirstStop = { file: "prog.c", lines: [4], program: "prog", where: "prog.c:4 in square" };

/** `#index frame id name` of each line of a `stack` page. */
function frameIds(text: string): Map<string, number> {
  return new Map(
    [...text.matchAll(/^#(\d+) frame (\d+) (\S+)/gm)].map((m) => [`#${m[1]} ${m[3]}`, Number(m[2])]),
  );
}

// delve numbers a stop's frames anew at every stackTrace and from 1000 again at every stop: the
// ids the model reads must still name the frame it read them for, and an earlier stop's must be
// refused, not answered from whatever frame the number names now.
describe.skipIf(!dlv && !ci)("debug tool on delve: frame ids across calls and stops", () => {
  it(
    "gives a frame one id however often it is listed, and refuses an earlier stop's",
    { timeout: 180_000 },
    async () => {
      expect(dlv, "dlv and go must be on PATH").toBeTruthy();
      const dir = goModule("frames", [
        "package main", // 1
        "",
        'import "fmt"',
        "",
        "func leaf(n int) int {", // 5
        "\tv := n * 10",
        "\treturn v",
        "}",
        "",
        "func top(n int) int {", // 10
        "\treturn leaf(n + 1)",
        "}",
        "",
        "func main() {",
        "\tn := 5", // 15
        "\tfmt.Println(top(n + 1))",
        "}",
        "",
      ]);
      await atBreakpoint(
        dir,
        { file: "main.go", lines: [6], program: ".", where: "main.go:6 in main.leaf" },
        async (call, launch) => {
          const reported = Number(/in main\.leaf \(frame (\d+)\)/.exec(launch.text)![1]);

          // The stack read twice (and once by the stop report): the same ids each time.
          const first = await call({ op: "stack" });
          const second = await call({ op: "stack" });
          const ids = frameIds(first.text);
          expect([...ids.keys()].slice(0, 3)).toEqual(["#0 main.leaf", "#1 main.top", "#2 main.main"]);
          expect(frameIds(second.text)).toEqual(ids);
          expect(ids.get("#0 main.leaf")).toBe(reported);

          // Ids from the first listing, used after the second: each still names its frame.
          const topFrame = ids.get("#1 main.top")!;
          const mainFrame = ids.get("#2 main.main")!;
          expect((await call({ op: "evaluate", expression: "n", frame_id: topFrame })).text).toBe("6 (int)");
          expect((await call({ op: "evaluate", expression: "n", frame_id: mainFrame })).text).toBe("5 (int)");
          expect((await call({ op: "scopes", frame_id: mainFrame })).text).toMatch(/^Locals: reference \d+/);

          // After a step, no id of the earlier stop names a frame of this one: each is refused.
          const step = await call({ op: "step_out" });
          expect(step.text).toContain("main.go:11 in main.top");
          const relisted = frameIds((await call({ op: "stack" })).text);
          expect([...relisted.keys()].slice(0, 2)).toEqual(["#0 main.top", "#1 main.main"]);
          for (const [place, id] of ids) {
            expect([...relisted.values()], place).not.toContain(id);
            const stale = await call({ op: "evaluate", expression: "n", frame_id: id });
            expect(stale.code, `${place}: ${stale.text}`).toBe("DEBUG_STALE_REFERENCE");
            expect(stale.text).toBe(
              `frame ${id} is not a frame of the current stop (frame ids are valid only until the program resumes); ` +
                "get fresh ones with op 'stack'",
            );
          }
          // The new stop's ids name its frames.
          const now = await call({ op: "evaluate", expression: "n", frame_id: relisted.get("#1 main.main") });
          expect(now.text).toBe("5 (int)");
        },
      );
    },
  );
});

// delve numbers a stop's variable references from 1000 again at every stop too.
describe.skipIf(!dlv && !ci)("debug tool on delve: references across stops", () => {
  it(
    "refuses an earlier stop's reference after the new stop gave out the same number",
    { timeout: 180_000 },
    async () => {
      expect(dlv, "dlv and go must be on PATH").toBeTruthy();
      const dir = goModule("refs", [
        "package main", // 1
        "",
        'import "fmt"',
        "",
        "func leaf(k int) int {", // 5
        "\tv := k * 10",
        "\treturn v",
        "}",
        "",
        "func main() {", // 10
        "\tn := 5",
        "\tfmt.Println(leaf(n + 1))",
        "}",
        "",
      ]);
      await atBreakpoint(
        dir,
        { file: "main.go", lines: [6], program: ".", where: "main.go:6 in main.leaf" },
        async (call) => {
          const ids = frameIds((await call({ op: "stack" })).text);
          const mainScopes = await call({ op: "scopes", frame_id: ids.get("#1 main.main") });
          const mainLocals = Number(/^Locals: reference (\d+)/.exec(mainScopes.text)![1]);
          expect((await call({ op: "variables", reference: mainLocals })).text).toBe("n (int) = 5");

          const step = await call({ op: "step_over" });
          expect(step.text).toContain("main.go:7 in main.leaf");
          const leaf = frameIds((await call({ op: "stack" })).text).get("#0 main.leaf");
          const leafScopes = await call({ op: "scopes", frame_id: leaf });
          const leafLocals = Number(/^Locals: reference (\d+)/.exec(leafScopes.text)![1]);
          expect(leafLocals).not.toBe(mainLocals);
          // main's Locals of the earlier stop: refused, not answered with leaf's.
          const stale = await call({ op: "variables", reference: mainLocals });
          expect(stale.code, stale.text).toBe("DEBUG_STALE_REFERENCE");
          const locals = (await call({ op: "variables", reference: leafLocals })).text;
          expect(locals).toContain("k (int) = 6");
          expect(locals).toContain("v (int) = 60");
        },
      );
    },
  );
});

// delve gives a frame a new id at every listing, and new references at every `scopes`: a frame's
// scopes asked again after the stack was listed again are still the same scopes.
describe.skipIf(!dlv && !ci)("debug tool on delve: a frame's scopes asked again", () => {
  it(
    "answers the reference it gave, also after the stack was listed again",
    { timeout: 180_000 },
    async () => {
      expect(dlv, "dlv and go must be on PATH").toBeTruthy();
      const dir = goModule("again", [
        "package main", // 1
        "",
        'import "fmt"',
        "",
        "func leaf(k int) int {", // 5
        "\tv := k * 10",
        "\treturn v",
        "}",
        "",
        "func main() {", // 10
        "\tn := 5",
        "\tfmt.Println(leaf(n + 1))",
        "}",
        "",
      ]);
      await atBreakpoint(
        dir,
        { file: "main.go", lines: [6], program: ".", where: "main.go:6 in main.leaf" },
        async (call) => {
          const main = frameIds((await call({ op: "stack" })).text).get("#1 main.main");
          const first = (await call({ op: "scopes", frame_id: main })).text;
          expect(first).toMatch(/^Locals: reference \d+$/);
          expect((await call({ op: "scopes", frame_id: main })).text).toBe(first);
          // Listed again (an evaluate without a frame lists it too): delve's ids are new ones.
          expect(frameIds((await call({ op: "stack" })).text).get("#1 main.main")).toBe(main);
          expect((await call({ op: "evaluate", expression: "k" })).text).toBe("6 (int)");
          expect((await call({ op: "scopes", frame_id: main })).text).toBe(first);
          const locals = Number(/^Locals: reference (\d+)/.exec(first)![1]);
          expect((await call({ op: "variables", reference: locals })).text).toBe("n (int) = 5");
        },
      );
    },
  );
});

// lldb-dap numbers a frame by its place (thread and depth): #0 has the same id at every stop.
describe.skipIf(!lldb && !ci)("debug tool on lldb-dap: frame ids across stops", () => {
  it("refuses an earlier stop's frame id, though lldb numbers the new stop's frame at its place alike", async () => {
    expect(lldb, "lldb-dap and cc must be on PATH").toBeTruthy();
    await atBreakpoint(compiledC(), inSquare, async (call) => {
      const ids = frameIds((await call({ op: "stack" })).text);
      const square = ids.get("#0 square")!;
      expect((await call({ op: "evaluate", expression: "n", frame_id: square })).text).toBe("0 (int)");

      const step = await call({ op: "step_out" });
      expect(step.text).toContain("prog.c:11 in main");
      const relisted = frameIds((await call({ op: "stack" })).text);
      expect([...relisted.keys()][0]).toBe("#0 main");
      // square's frame is gone: its id is refused, not taken for main's (#0 now).
      const stale = await call({ op: "evaluate", expression: "s", frame_id: square });
      expect(stale.code, stale.text).toBe("DEBUG_STALE_REFERENCE");
      const now = await call({ op: "evaluate", expression: "s", frame_id: relisted.get("#0 main") });
      expect(now.text).toBe("0 (int)");
    });
  });
});

// lldb-dap 19 gives every frame's scopes the same references (Locals 1, …), bound to the frame of
// its latest `scopes` request.
describe.skipIf(!lldb && !ci)("debug tool on lldb-dap: the scopes of two frames", () => {
  it("lists each frame's own locals, whichever frame's scopes were asked for last", async () => {
    expect(lldb, "lldb-dap and cc must be on PATH").toBeTruthy();
    await atBreakpoint(compiledC(), inSquare, async (call) => {
      const ids = frameIds((await call({ op: "stack" })).text);
      const locals = async (frame: number | undefined) =>
        Number(/^Locals: reference (\d+)/.exec((await call({ op: "scopes", frame_id: frame })).text)![1]);
      const square = await locals(ids.get("#0 square"));
      const main = await locals(ids.get("#1 main"));
      const squareLocals = (await call({ op: "variables", reference: square })).text;
      expect(squareLocals).toMatch(/^n \(int\) = 0$/m);
      expect(squareLocals).not.toContain("argc");
      const mainLocals = (await call({ op: "variables", reference: main })).text;
      expect(mainLocals).toMatch(/^s \(int\) = 0$/m);
      expect(mainLocals).not.toMatch(/^n \(int\)/m);
    });
  });

  it("answers a frame's scopes asked again with the references it gave, each still its frame's", async () => {
    expect(lldb, "lldb-dap and cc must be on PATH").toBeTruthy();
    await atBreakpoint(compiledC(), inSquare, async (call) => {
      const ids = frameIds((await call({ op: "stack" })).text);
      const scopes = async (frame: number | undefined) =>
        (await call({ op: "scopes", frame_id: frame })).text;
      const square = await scopes(ids.get("#0 square"));
      const main = await scopes(ids.get("#1 main"));
      expect(main).not.toBe(square);
      // Asked again: the same references, not new numbers for the same scopes.
      expect(await scopes(ids.get("#0 square"))).toBe(square);
      expect(await scopes(ids.get("#1 main"))).toBe(main);
      const reference = (text: string) => Number(/^Locals: reference (\d+)/.exec(text)![1]);
      expect((await call({ op: "variables", reference: reference(square) })).text).toMatch(
        /^n \(int\) = 0$/m,
      );
      expect((await call({ op: "variables", reference: reference(main) })).text).toMatch(/^s \(int\) = 0$/m);
    });
  });
});
