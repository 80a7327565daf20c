import { readdir } from "node:fs/promises";
import { join } from "node:path";
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
});
