import { execFileSync } from "node:child_process";
import { closeSync, constants, openSync } from "node:fs";
import { chmod, lstat, readdir, readFile, stat, symlink } from "node:fs/promises";
import { join } from "node:path";
import type { ToolResult } from "@tools/registry";
import { afterEach, describe, expect, it } from "vitest";
import { tempWorkspace, type TempWorkspace } from "../__fixtures__/temp-workspace.js";

let ws: TempWorkspace;
afterEach(async () => ws.cleanup());

const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");
const app = [
  "function main() {",
  '  console.log("hi");',
  "}",
  "",
  "function other() {",
  '  console.log("hi");',
  "}",
  "",
].join("\n");

describe("apply_patch", () => {
  it("adds, deletes, updates and moves files and lists every file touched", async () => {
    ws = await tempWorkspace({ "app.ts": app, "old.ts": "gone\n", "from.ts": "a\nb\n" });
    const result = await ws.call("apply_patch", {
      patch: patch(
        "*** Update File: app.ts",
        "@@ function other() {",
        '-  console.log("hi");',
        '+  console.log("bye");',
        "*** Add File: lib/new.ts",
        "+export const x = 1;",
        "*** Delete File: old.ts",
        "*** Update File: from.ts",
        "*** Move to: to.ts",
        "@@",
        " a",
        "-b",
        "+c",
      ),
    });
    expect(ws.toolText(result)).toBe(
      "applied the patch:\nM app.ts\nA lib/new.ts\nD old.ts\nR from.ts → to.ts",
    );
    expect([...result.changedFiles].sort()).toEqual(
      ["app.ts", "lib/new.ts", "old.ts", "from.ts", "to.ts"].map((path) => join(ws.dir, path)).sort(),
    );
    expect(await ws.read("app.ts")).toBe(app.replace(/"hi"\);\n}\n$/, '"bye");\n}\n'));
    expect(await ws.read("lib/new.ts")).toBe("export const x = 1;\n");
    expect(await ws.read("to.ts")).toBe("a\nc\n");
    expect((await readdir(ws.dir)).sort()).toEqual(["app.ts", "lib", "to.ts"]);
  });

  it("writes nothing when one hunk of one file fails, and says which file, hunk and context", async () => {
    ws = await tempWorkspace({ "app.ts": app, "b.ts": "one\ntwo\n" });
    const result = await ws.call("apply_patch", {
      patch: patch(
        "*** Update File: b.ts",
        "@@",
        "-one",
        "+uno",
        "*** Add File: c.ts",
        "+new",
        "*** Update File: app.ts",
        "@@",
        "-function main() {",
        "+function start() {",
        "@@",
        "-function missing() {",
        "+function found() {",
      ),
    });
    expect(result.error?.code).toBe("PATCH_CONTEXT_NOT_FOUND");
    expect(result.error?.message).toContain(
      "app.ts, hunk 2 of 2: could not find these lines:\n    function missing() {",
    );
    expect(result.error?.message).toContain("Nothing was written");
    expect(result.changedFiles).toEqual([]);
    expect(await ws.read("b.ts")).toBe("one\ntwo\n");
    expect(await ws.read("app.ts")).toBe(app);
    expect((await readdir(ws.dir)).sort()).toEqual(["app.ts", "b.ts"]);
  });

  it("inserts right after the @@ line when a hunk has no context", async () => {
    ws = await tempWorkspace({ "app.ts": app });
    const result = await ws.call("apply_patch", {
      patch: patch("*** Update File: app.ts", "@@ function other() {", "+  // second"),
    });
    expect(result.isError).toBe(false);
    expect((await ws.read("app.ts")).split("\n").slice(4, 7)).toEqual([
      "function other() {",
      "  // second",
      '  console.log("hi");',
    ]);
  });

  it("matches context that differs only in trailing whitespace", async () => {
    ws = await tempWorkspace({ "a.txt": "x  \ny\n" });
    const result = await ws.call("apply_patch", {
      patch: patch("*** Update File: a.txt", "@@", " x", "-y", "+z"),
    });
    expect(result.isError).toBe(false);
    expect(await ws.read("a.txt")).toBe("x  \nz\n");
  });

  it("honours End of File and keeps Windows line ends", async () => {
    ws = await tempWorkspace({ "a.txt": "x\r\ny\r\nx\r\n" });
    const result = await ws.call("apply_patch", {
      patch: patch("*** Update File: a.txt", "@@", "-x", "+last", "*** End of File"),
    });
    expect(result.isError).toBe(false);
    expect(await ws.read("a.txt")).toBe("x\r\ny\r\nlast\r\n");
  });

  it("keeps a file's byte order mark, also when line 1 is replaced, and matches line 1 without it", async () => {
    ws = await tempWorkspace({ "a.cs": "\uFEFFusing System;\nclass A {}\n" });
    const result = await ws.call("apply_patch", {
      patch: patch(
        "*** Update File: a.cs",
        "@@",
        "-using System;",
        "+using System;",
        "+using System.IO;",
        " class A {}",
      ),
    });
    // The mark was taken for indentation: dropped from the file, and the hunk said it matched
    // "only with indentation ignored".
    expect(ws.toolText(result)).toBe("applied the patch:\nM a.cs");
    expect(await ws.read("a.cs")).toBe("\uFEFFusing System;\nusing System.IO;\nclass A {}\n");
  });

  it("matches line 1 of a file with a byte order mark also when the patch copies the mark as read shows it", async () => {
    ws = await tempWorkspace({ "a.cs": "\uFEFFusing System;\nclass A {}\n" });
    // read shows line 1 as "\uFEFFusing System;": a patch copied from it carries the mark.
    const result = await ws.call("apply_patch", {
      patch: patch(
        "*** Update File: a.cs",
        "@@",
        "-\uFEFFusing System;",
        "+\uFEFFusing System.IO;",
        " class A {}",
      ),
    });
    // The mark was written twice, and the hunk said it matched "only with indentation ignored".
    expect(ws.toolText(result)).toBe("applied the patch:\nM a.cs");
    expect(await ws.read("a.cs")).toBe("\uFEFFusing System.IO;\nclass A {}\n");
  });

  it("leaves a file whose every line a patch removes empty, without its byte order mark", async () => {
    ws = await tempWorkspace({ "a.cs": "\uFEFFx\n" });
    const result = await ws.call("apply_patch", { patch: patch("*** Update File: a.cs", "@@", "-x") });
    expect(result.isError).toBe(false);
    // It left the three bytes of the mark alone in the file.
    expect(await ws.read("a.cs")).toBe("");
  });

  it("says a Move to that names the file being updated is the file itself", async () => {
    ws = await tempWorkspace({ "a.txt": "x\n" });
    const result = await ws.call("apply_patch", {
      patch: patch("*** Update File: a.txt", "*** Move to: ./a.txt", "@@", "-x", "+y"),
    });
    // It said "Move to ./a.txt: the file already exists".
    expect(result.error?.message).toContain(
      "Move to ./a.txt: that is the file being updated (a.txt); drop the Move to line to change it in place",
    );
    expect(await ws.read("a.txt")).toBe("x\n");
  });

  it("refuses to add a file that exists, delete or update one that does not", async () => {
    ws = await tempWorkspace({ "a.txt": "x\n" });
    const add = await ws.call("apply_patch", { patch: patch("*** Add File: a.txt", "+y") });
    expect(add.error?.message).toContain("Add File a.txt: the file already exists");
    const del = await ws.call("apply_patch", { patch: patch("*** Delete File: b.txt") });
    expect(del.error?.message).toContain("Delete File b.txt: the file does not exist");
    const upd = await ws.call("apply_patch", { patch: patch("*** Update File: b.txt", "@@", "-x", "+y") });
    expect(upd.error?.message).toContain("Update File b.txt: the file does not exist");
  });

  it("reports a malformed patch with its line", async () => {
    ws = await tempWorkspace();
    const result = await ws.call("apply_patch", {
      patch: "*** Begin Patch\n*** Add File: a\nx\n*** End Patch",
    });
    expect(result.error?.code).toBe("INVALID_PATCH");
    expect(result.error?.message).toContain("line 3");
  });

  it("has every path, move targets included, checked by containment", async () => {
    ws = await tempWorkspace({ "a.txt": "x\n" });
    const result = await ws.call("apply_patch", {
      patch: patch("*** Update File: a.txt", "*** Move to: ../escaped.txt", "@@", "-x", "+y"),
    });
    expect(result.error?.code).toBe("GUARDRAIL_REFUSED");
    expect(await ws.read("a.txt")).toBe("x\n");
  });

  it("refuses a FIFO while planning, without blocking on it or starving the file threads", async () => {
    ws = await tempWorkspace({ "ok.txt": "fine\n" });
    const fifos = [0, 1, 2, 3].map((index) => join(ws.dir, `pipe${index}`));
    for (const fifo of fifos) execFileSync("mkfifo", [fifo]);
    try {
      // Four blocked reads would hold all four of libuv's threads: every later file call would wait.
      const calls = fifos.map((_, index) =>
        ws.call("apply_patch", { patch: patch(`*** Update File: pipe${index}`, "@@", "-a", "+b") }),
      );
      const results = await Promise.race([Promise.all(calls), settleWithin(3000)]);
      expect(results).not.toBe("pending");
      for (const [index, result] of (results as ToolResult[]).entries()) {
        expect(result.error?.message).toBe(
          `Update File pipe${index}: it is a FIFO, socket or device, not a file; a patch changes regular files only. Nothing was written.`,
        );
      }
      expect(ws.text(await ws.call("read", { path: "ok.txt" }))).toBe("1\tfine");
    } finally {
      // Wakes any read still blocked on a FIFO (the old code's), so the test process can go on.
      for (const fifo of fifos) {
        try {
          closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
        } catch {
          // Nobody is reading it.
        }
      }
    }
  });

  it("refuses a folder while planning, so nothing is written, and says it is a folder", async () => {
    ws = await tempWorkspace({ "a.txt": "one\ntwo\n", "olddir/keep.txt": "k\n" });
    const result = await ws.call("apply_patch", {
      patch: patch(
        "*** Update File: a.txt",
        "@@",
        "-one",
        "+ONE",
        "*** Add File: new.txt",
        "+hello",
        "*** Delete File: olddir",
      ),
    });
    expect(result.error?.message).toBe(
      "Delete File olddir: it is a folder, not a file; a patch changes files only. Nothing was written.",
    );
    expect(result.changedFiles).toEqual([]);
    expect(await ws.read("a.txt")).toBe("one\ntwo\n");
    expect((await readdir(ws.dir)).sort()).toEqual(["a.txt", "olddir"]);
    const update = await ws.call("apply_patch", {
      patch: patch("*** Update File: olddir", "@@", "-a", "+b"),
    });
    expect(update.error?.message).toContain("Update File olddir: it is a folder, not a file");
  });

  it("refuses to delete or move a symlink, which would remove the file it points to", async () => {
    ws = await tempWorkspace({ "real.txt": "hello\n" });
    await symlink("real.txt", join(ws.dir, "link.txt"));
    const deleted = await ws.call("apply_patch", { patch: patch("*** Delete File: link.txt") });
    expect(deleted.error?.message).toContain("Delete File link.txt: it is a symlink");
    const moved = await ws.call("apply_patch", {
      patch: patch("*** Update File: link.txt", "*** Move to: moved.txt", "@@", "-hello", "+bye"),
    });
    expect(moved.error?.message).toContain("Update File link.txt with Move to: it is a symlink");
    expect(await ws.read("real.txt")).toBe("hello\n");
    expect((await lstat(join(ws.dir, "link.txt"))).isSymbolicLink()).toBe(true);
    expect((await readdir(ws.dir)).sort()).toEqual(["link.txt", "real.txt"]);
    // An update through the link changes the file it points to, as an editor would.
    const updated = await ws.call("apply_patch", {
      patch: patch("*** Update File: link.txt", "@@", "-hello", "+bye"),
    });
    expect(updated.isError).toBe(false);
    expect(await ws.read("real.txt")).toBe("bye\n");
  });

  it("puts back the files already written when a later write fails", async () => {
    ws = await tempWorkspace({ "a.txt": "one\n", blocker: "a file, not a folder\n" });
    const result = await ws.call("apply_patch", {
      patch: patch("*** Update File: a.txt", "@@", "-one", "+ONE", "*** Add File: blocker/new.txt", "+x"),
    });
    expect(result.error?.code).toBe("PATCH_FAILED");
    expect(result.error?.message).toContain("could not write blocker/new.txt");
    expect(result.error?.message).toContain("the files already written were put back; nothing was changed");
    expect(result.changedFiles).toEqual([]);
    expect(await ws.read("a.txt")).toBe("one\n");
  });

  it("keeps the file's mode when it moves", async () => {
    ws = await tempWorkspace({ "run.sh": "#!/bin/sh\necho hi\n" });
    await chmod(join(ws.dir, "run.sh"), 0o755);
    const result = await ws.call("apply_patch", {
      patch: patch("*** Update File: run.sh", "*** Move to: bin/run.sh", "@@", "-echo hi", "+echo hello"),
    });
    expect(result.isError).toBe(false);
    expect(await ws.read("bin/run.sh")).toBe("#!/bin/sh\necho hello\n");
    expect((await stat(join(ws.dir, "bin/run.sh"))).mode & 0o777).toBe(0o755);
  });

  it("refuses a file that is not UTF-8 instead of turning its other lines into U+FFFD", async () => {
    const latin1 = Buffer.from("caf\xe9\na\n", "latin1");
    ws = await tempWorkspace({ "l2.txt": latin1 });
    const result = await ws.call("apply_patch", {
      patch: patch("*** Update File: l2.txt", "@@", "-a", "+b"),
    });
    expect(result.error?.code).toBe("NOT_UTF8");
    expect(result.error?.message).toContain(
      "l2.txt is not valid UTF-8 (line 1 holds bytes of another encoding",
    );
    expect(await readFile(join(ws.dir, "l2.txt"))).toEqual(latin1);
  });

  it("appends a hunk of added lines without an @@ line at the end of the file", async () => {
    ws = await tempWorkspace({ "util.py": "import os\n\ndef a():\n    return 1\n" });
    const result = await ws.call("apply_patch", {
      patch: patch("*** Update File: util.py", "@@", "+", "+def b():", "+    return 2"),
    });
    expect(result.isError).toBe(false);
    expect(await ws.read("util.py")).toBe("import os\n\ndef a():\n    return 1\n\ndef b():\n    return 2\n");
  });

  it("adds and updates a file with a legal 240-character name, and refuses a name over 255 bytes clearly", async () => {
    ws = await tempWorkspace();
    const name = `${"n".repeat(236)}.txt`;
    const added = await ws.call("apply_patch", { patch: patch(`*** Add File: ${name}`, "+one") });
    expect(added.isError, ws.text(added)).toBe(false);
    const updated = await ws.call("apply_patch", {
      patch: patch(`*** Update File: ${name}`, "@@", "-one", "+two"),
    });
    expect(updated.isError, ws.text(updated)).toBe(false);
    expect(await ws.read(name)).toBe("two\n");
    expect(await readdir(ws.dir)).toEqual([name]);

    const tooLong = await ws.call("apply_patch", {
      patch: patch(`*** Add File: ${"n".repeat(300)}.txt`, "+x"),
    });
    expect(tooLong.error?.code).toBe("PATCH_FAILED");
    expect(tooLong.error?.message).toContain(
      `(the name '${"n".repeat(40)}…' is 304 bytes; a file or folder name may be at most 255 bytes: use a shorter name)`,
    );
    expect(await readdir(ws.dir)).toEqual([name]);
  });

  it("keeps each untouched line's own line end in a file that mixes them", async () => {
    ws = await tempWorkspace({ "mixed.txt": "a\nb\r\nc\nd\n" });
    const result = await ws.call("apply_patch", {
      patch: patch("*** Update File: mixed.txt", "@@", " a", "-b", "+B", "+B2", " c"),
    });
    expect(result.isError, ws.text(result)).toBe(false);
    expect(await ws.read("mixed.txt")).toBe("a\nB\r\nB2\r\nc\nd\n");
  });

  it("keeps the file's tab indentation when the hunk matched only with indentation ignored, and says so", async () => {
    ws = await tempWorkspace({ Makefile: "all:\n\techo hi\n" });
    const result = await ws.call("apply_patch", {
      patch: patch("*** Update File: Makefile", "@@", " all:", "-    echo hi", "+    echo bye"),
    });
    expect(ws.toolText(result)).toBe(
      "applied the patch:\nM Makefile (hunk 1 matched only with indentation ignored; its new lines take the file's indentation)",
    );
    expect(await ws.read("Makefile")).toBe("all:\n\techo bye\n");
  });

  it("indents flush-left new lines like the file when the hunk matched only with indentation ignored", async () => {
    ws = await tempWorkspace({ "a.py": "class A:\n    def f(self):\n        return 1\n" });
    const result = await ws.call("apply_patch", {
      patch: patch(
        "*** Update File: a.py",
        "@@",
        " def f(self):",
        "-    return 1",
        "+    return 2",
        "+",
        "+def g(self):",
        "+    return 3",
      ),
    });
    expect(result.isError, ws.text(result)).toBe(false);
    expect(await ws.read("a.py")).toBe(
      "class A:\n    def f(self):\n        return 2\n\n    def g(self):\n        return 3\n",
    );
  });

  it("refuses a hunk whose lines occur twice, naming the candidate lines", async () => {
    const twice = "x = 1\ny = 2\n\nx = 1\ny = 2\n";
    ws = await tempWorkspace({ "c.py": twice });
    const result = await ws.call("apply_patch", {
      patch: patch("*** Update File: c.py", "@@", " x = 1", "-y = 2", "+y = 3"),
    });
    expect(result.error?.code).toBe("PATCH_AMBIGUOUS");
    expect(result.error?.message).toContain(
      "c.py, hunk 1 of 1: its context and removed lines occur more than once, starting at lines 1, 4; add context lines",
    );
    expect(await ws.read("c.py")).toBe(twice);
  });

  it("says that @@ takes a line of code, not a unified diff's line numbers", async () => {
    ws = await tempWorkspace({ "a.txt": "one\ntwo\n" });
    const result = await ws.call("apply_patch", {
      patch: patch("*** Update File: a.txt", "@@ -1,2 +1,2 @@", " one", "-two", "+2"),
    });
    expect(result.error?.message).toContain(
      "'@@ -1,2 +1,2 @@' is a unified-diff header with line numbers; in this patch format the text after @@ is a line of code from the file to find first (such as '@@ function main() {'), or nothing ('@@' alone), never line numbers",
    );
  });

  it("refuses a path with a trailing slash (it names a folder) in every kind of section", async () => {
    ws = await tempWorkspace({ "keep.txt": "kept\n" });
    for (const lines of [
      ["*** Add File: trail/", "+x"],
      ["*** Update File: keep.txt/", "@@", "-kept", "+x"],
      ["*** Delete File: keep.txt/"],
      ["*** Update File: keep.txt", "*** Move to: moved/", "@@", "-kept", "+x"],
    ]) {
      const result = await ws.call("apply_patch", { patch: patch(...lines) });
      expect(result.error?.code, lines[0]).toBe("PATCH_FAILED");
      expect(result.error?.message, lines[0]).toMatch(
        /^'(trail|keep\.txt|moved)\/' ends with '\/', so it names a folder, and a patch changes files; drop the trailing '\/'\. Nothing was written\.$/,
      );
    }
    expect(await readdir(ws.dir)).toEqual(["keep.txt"]);
    expect(await ws.read("keep.txt")).toBe("kept\n");
  });
});

/** Resolves "pending" after `ms`: a race against it bounds a call that might never settle. */
function settleWithin(ms: number): Promise<"pending"> {
  return new Promise((resolve) => setTimeout(() => resolve("pending"), ms).unref());
}
