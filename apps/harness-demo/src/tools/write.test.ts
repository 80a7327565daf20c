import { execFileSync } from "node:child_process";
import { chmod, lstat, readdir, stat, symlink } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { MemoryQuestionPort } from "@tools/ask";
import { resultText } from "@tools/registry";
import { tempWorkspace, type TempWorkspace } from "../__fixtures__/temp-workspace.js";
import { createDemoRun } from "../create-demo-run.js";

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

  it("refuses a path starting with '~' instead of making a folder named '~'", async () => {
    ws = await tempWorkspace();
    const result = await ws.call("write", { path: "~/x.txt", content: "x\n" });
    expect(result.error?.code).toBe("TILDE_PATH");
    expect(result.error?.message).toContain(
      "'~/x.txt' starts with '~', which is not expanded here: paths are relative to the working directory",
    );
    expect(await readdir(ws.dir)).toEqual([]);
  });

  it("refuses only '~', '~/…' and '~user/…', and writes files whose names start with '~'", async () => {
    ws = await tempWorkspace();
    for (const path of ["~", "~root/x.txt", "~/a/b.txt"]) {
      const result = await ws.call("write", { path, content: "x\n" });
      expect(result.error?.code, path).toBe("TILDE_PATH");
    }
    for (const path of ["~backup.txt", "~$doc.docx"]) {
      const result = await ws.call("write", { path, content: "x\n" });
      expect(result.isError, ws.text(result)).toBe(false);
    }
    expect((await readdir(ws.dir)).sort()).toEqual(["~$doc.docx", "~backup.txt"]);
  });

  it("refuses to replace a FIFO with a regular file", async () => {
    ws = await tempWorkspace();
    execFileSync("mkfifo", [join(ws.dir, "pipe")]);
    const result = await ws.call("write", { path: "pipe", content: "x" });
    expect(result.error?.code).toBe("NOT_A_FILE");
    expect(result.error?.message).toContain("pipe is a FIFO, socket or device, not a regular file");
    expect((await lstat(join(ws.dir, "pipe"))).isFIFO()).toBe(true);
  });

  it("refuses a path with a trailing slash: it names a folder, not the file", async () => {
    ws = await tempWorkspace({ "keep.txt": "kept\n" });
    const created = await ws.call("write", { path: "trail/", content: "x" });
    expect(created.error?.code).toBe("NOT_A_FILE_PATH");
    expect(created.error?.message).toBe(
      "'trail/' ends with '/', so it names a folder, and write creates files; drop the trailing '/' ('trail') to name the file",
    );
    const overwrite = await ws.call("write", { path: "keep.txt/", content: "x" });
    expect(overwrite.error?.code).toBe("NOT_A_FILE_PATH");
    expect(await ws.read("keep.txt")).toBe("kept\n");
    expect(await readdir(ws.dir)).toEqual(["keep.txt"]);
  });

  it("says 1 line and 1 byte in the singular, in its result and on its permission card", async () => {
    ws = await tempWorkspace();
    expect(ws.toolText(await ws.call("write", { path: "one.txt", content: "x" }))).toBe(
      "created one.txt (1 line, 1 byte)",
    );
    const cards: string[] = [];
    const port = new MemoryQuestionPort({
      respond: (card) => {
        cards.push(card.text);
        card.reply("1");
      },
    });
    const demo = createDemoRun({ workingDirectory: ws.dir, approval: "ask", questionPort: port });
    try {
      const result = await demo.registry.invoke(demo.run, {
        tool: "write",
        args: { path: "a.txt", content: "abcd\n" },
      });
      expect(resultText(result)).toMatch(/^created a\.txt \(1 line, 5 bytes\)/);
      expect(cards).toHaveLength(1);
      expect(cards[0]).toContain("Allow write: write a.txt (1 line)?");
    } finally {
      await demo.dispose();
    }
  });
});
