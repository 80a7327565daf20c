import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ci, debugRun, remaining, removeWorkspace } from "../__fixtures__/harness.js";
import { lldb } from "../__fixtures__/backends.js";

// A program paused while blocked in read(2): lldb-dap 19 unwinds out of the system call (libc's
// CFI, with or without its debug info), so the stack reaches the program's frames and _start.
// The tool lists every frame it is given and reports the stop at the program's own frame.
describe.skipIf(!lldb && !ci)("debug tool on lldb-dap: a pause inside a blocking read()", () => {
  it("lists the whole stack down to _start and reports the stop at the program's frame", async () => {
    expect(lldb, "lldb-dap and cc must be on PATH").toBeTruthy();
    const dir = mkdtempSync(join(tmpdir(), "tools-debug-cread-"));
    writeFileSync(join(dir, "CMakeLists.txt"), "");
    writeFileSync(
      join(dir, "blk.c"),
      [
        "#include <unistd.h>", // 1
        "",
        "static int wait_input(int fd) {",
        "    char buf[16];",
        "    return (int)read(fd, buf, sizeof buf);", // 5
        "}",
        "",
        "int main(void) {",
        "    int fds[2];",
        "    if (pipe(fds) != 0) return 1;", // 10
        "    return wait_input(fds[0]);",
        "}",
        "",
      ].join("\n"),
    );
    execFileSync("cc", ["-g", "-O0", "-o", join(dir, "blk"), join(dir, "blk.c")]);
    const { run, call, sessionPids } = debugRun(dir, { firstStopMs: 1000 });
    let pids: number[] = [];
    try {
      const launch = await call({ op: "launch", program: "blk" });
      expect(launch.text, launch.text).toContain("still running after 1 s");
      pids = sessionPids();
      // On a loaded machine the program may not be in read() yet a second after launch (still in
      // the loader): it is let run on and paused again until it is.
      let pause = await call({ op: "pause" });
      for (let tries = 0; tries < 10 && !pause.text.includes("in wait_input"); tries += 1) {
        await call({ op: "continue" });
        pause = await call({ op: "pause" });
      }
      expect(pause.text, pause.text).toMatch(/^paused in thread \d+ at blk\.c:5 in wait_input \(frame \d+\)/);
      expect(pause.text).toMatch(
        /frames? above it without source in the working directory, the top one \S*read/,
      );

      const stack = await call({ op: "stack" });
      const names = [...stack.text.matchAll(/^#\d+ frame \d+ (\S+)/gm)].map((m) => m[1]);
      expect(names[0], stack.text).toMatch(/read/);
      expect(names, stack.text).toContain("wait_input");
      expect(names, stack.text).toContain("main");
      expect(names.at(-1), stack.text).toBe("_start");
      expect(stack.text).not.toContain("more frame");
    } finally {
      await run.dispose();
      removeWorkspace(dir);
    }
    expect(remaining(pids)).toEqual([]);
  });
});
