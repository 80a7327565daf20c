import { chmod, lstat, readdir, stat, symlink } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempWorkspace, type TempWorkspace } from "../__fixtures__/temp-workspace.js";

let ws: TempWorkspace;
afterEach(async () => ws.cleanup());

describe("write", () => {
  it("creates a file and its parent folders, reporting the absolute path as changed", async () => {
    ws = await tempWorkspace();
    const result = await ws.call("write", { path: "deep/er/new.ts", content: "a\nb\n" });
    expect(ws.toolText(result)).toBe("created deep/er/new.ts (2 lines, 4 bytes)");
    expect(result.changedFiles).toEqual([join(ws.dir, "deep/er/new.ts")]);
    expect(await ws.read("deep/er/new.ts")).toBe("a\nb\n");
  });

  it("overwrites atomically, keeps the mode and leaves no temporary file", async () => {
    ws = await tempWorkspace({ "run.sh": "old\n" });
    await chmod(join(ws.dir, "run.sh"), 0o755);
    const result = await ws.call("write", { path: "run.sh", content: "new\n" });
    expect(ws.text(result)).toContain("overwrote run.sh");
    expect(await ws.read("run.sh")).toBe("new\n");
    expect((await stat(join(ws.dir, "run.sh"))).mode & 0o777).toBe(0o755);
    expect(await readdir(ws.dir)).toEqual(["run.sh"]);
  });

  it("writes through a symlink to its target and keeps the link", async () => {
    ws = await tempWorkspace({ "real.txt": "old\n" });
    await symlink("real.txt", join(ws.dir, "link.txt"));
    const result = await ws.call("write", { path: "link.txt", content: "new\n" });
    expect(result.isError).toBe(false);
    expect(await ws.read("real.txt")).toBe("new\n");
    expect((await lstat(join(ws.dir, "link.txt"))).isSymbolicLink()).toBe(true);
  });

  it("refuses a folder as the target", async () => {
    ws = await tempWorkspace({ "src/a.ts": "" });
    const result = await ws.call("write", { path: "src", content: "x" });
    expect(result.error?.code).toBe("IS_A_DIRECTORY");
  });

  it("is refused on plan mode by tier", async () => {
    ws = await tempWorkspace();
    const result = await ws.call("write", { path: "a.txt", content: "x" }, "plan");
    expect(result.error?.message).toBe("write is a write tool; plan mode sees read tools only");
  });

  it("is denied fail-closed under the ask policy with no approver, naming how to attach one", async () => {
    ws = await tempWorkspace({}, "ask");
    const result = await ws.call("write", { path: "a.txt", content: "x" });
    expect(result.error?.code).toBe("NO_APPROVER");
    expect(result.error?.message).toContain("--approval auto");
    expect(await readdir(ws.dir)).toEqual([]);
  });
});
