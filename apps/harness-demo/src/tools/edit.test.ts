import { execFileSync } from "node:child_process";
import { readFile, symlink } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempWorkspace, type TempWorkspace } from "../__fixtures__/temp-workspace.js";

let ws: TempWorkspace;
afterEach(async () => ws.cleanup());

const source = ["function a() {", "  return 1;", "}", "", "function b() {", "  return 1;", "}", ""].join(
  "\n",
);

describe("edit", () => {
  it("replaces the one occurrence and reports the changed file", async () => {
    ws = await tempWorkspace({ "a.ts": source });
    const result = await ws.call("edit", {
      path: "a.ts",
      old_string: "function b() {\n  return 1;",
      new_string: "function b() {\n  return 2;",
    });
    // A bare folder: no root marker for TypeScript, said once in the run by diagnostics on write.
    expect(ws.text(result)).toBe(
      'edited a.ts: 1 replacement (line 5)\n\nLSP diagnostics after this write:\ndiagnostics for a.ts not checked: typescript-language-server cannot start: no root marker for typescript (tsconfig.json, jsconfig.json, package.json) in any folder from a.ts up to the working directory. A server needs both a root marker and its binary; action "status" shows what is found. (said once in this run)',
    );
    expect(result.changedFiles).toEqual([join(ws.dir, "a.ts")]);
    expect(await ws.read("a.ts")).toBe(
      ["function a() {", "  return 1;", "}", "", "function b() {", "  return 2;", "}", ""].join("\n"),
    );
  });

  it("takes new_string literally (no $ replacement patterns)", async () => {
    ws = await tempWorkspace({ "a.ts": "const x = 1;\n" });
    await ws.call("edit", { path: "a.ts", old_string: "1", new_string: "'$&$1'" });
    expect(await ws.read("a.ts")).toBe("const x = '$&$1';\n");
  });

  it("refuses an ambiguous old_string, saying how many and on which lines", async () => {
    ws = await tempWorkspace({ "a.ts": source });
    const result = await ws.call("edit", { path: "a.ts", old_string: "return 1;", new_string: "return 3;" });
    expect(result.error?.code).toBe("AMBIGUOUS_OLD_STRING");
    expect(result.error?.message).toContain("occurs 2 times in a.ts (lines 2, 6)");
    expect(await ws.read("a.ts")).toBe(source);
  });

  it("lists at most 20 lines of a string that occurs thousands of times", async () => {
    ws = await tempWorkspace({ "many.txt": "ab\n".repeat(2_000) });
    const result = await ws.call("edit", { path: "many.txt", old_string: "ab", new_string: "cd" });
    expect(result.error?.code).toBe("AMBIGUOUS_OLD_STRING");
    expect(result.error?.message).toContain(
      "occurs 2000 times in many.txt (lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20 and 1980 more)",
    );
    const all = await ws.call("edit", {
      path: "many.txt",
      old_string: "ab",
      new_string: "cd",
      replace_all: true,
    });
    expect(ws.toolText(all)).toBe(
      "edited many.txt: 2000 replacements (lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20 and 1980 more)",
    );
    expect(await ws.read("many.txt")).toBe("cd\n".repeat(2_000));
  });

  it("names each line once when old_string occurs more than once on it", async () => {
    ws = await tempWorkspace({ "a.ts": "f(1, 1);\ng(1);\n" });
    const result = await ws.call("edit", { path: "a.ts", old_string: "1", new_string: "2" });
    // It said "(lines 1, 1, 2)".
    expect(result.error?.message).toContain("occurs 3 times in a.ts (lines 1, 2);");
    const all = await ws.call("edit", {
      path: "a.ts",
      old_string: "1, 1",
      new_string: "2, 2",
      replace_all: true,
    });
    expect(ws.toolText(all)).toBe("edited a.ts: 1 replacement (line 1)");
    const twice = await ws.call("edit", {
      path: "a.ts",
      old_string: "2",
      new_string: "3",
      replace_all: true,
    });
    expect(ws.toolText(twice)).toBe("edited a.ts: 2 replacements (line 1)");
  });

  it("replaces every occurrence with replace_all", async () => {
    ws = await tempWorkspace({ "a.ts": source });
    const result = await ws.call("edit", {
      path: "a.ts",
      old_string: "return 1;",
      new_string: "return 3;",
      replace_all: true,
    });
    expect(ws.toolText(result)).toBe("edited a.ts: 2 replacements (lines 2, 6)");
    expect(await ws.read("a.ts")).not.toContain("return 1;");
  });

  it("points at the nearby line when old_string is not found", async () => {
    ws = await tempWorkspace({ "a.ts": source });
    const result = await ws.call("edit", { path: "a.ts", old_string: "function c() {", new_string: "x" });
    expect(result.error?.code).toBe("OLD_STRING_NOT_FOUND");
    expect(result.error?.message).toContain('the closest line is 1: "function a() {"');
  });

  it("says when the search for a similar line looked at only part of a huge file", async () => {
    ws = await tempWorkspace({ "huge.txt": "ab\n".repeat(60_000) });
    const result = await ws.call("edit", {
      path: "huge.txt",
      old_string: "nothing like it",
      new_string: "x",
    });
    expect(result.error?.message).toContain(
      "no similar line in the part of the file looked at (the first 50000 lines, at most 2000000 characters); grep for a distinctive part of old_string",
    );
  });

  it("says when the first line matches but the rest differs", async () => {
    ws = await tempWorkspace({ "a.ts": source });
    const result = await ws.call("edit", {
      path: "a.ts",
      old_string: "function a() {\n    return 1;",
      new_string: "x",
    });
    expect(result.error?.message).toContain("its first line appears at line 1");
  });

  it("keeps Windows line ends when the model writes Unix ones", async () => {
    ws = await tempWorkspace({ "a.ts": "one\r\ntwo\r\n" });
    const result = await ws.call("edit", { path: "a.ts", old_string: "one\ntwo", new_string: "uno\ndos" });
    expect(result.isError).toBe(false);
    expect(await ws.read("a.ts")).toBe("uno\r\ndos\r\n");
  });

  it("writes new text in the file's line ends even when old_string matched as given", async () => {
    ws = await tempWorkspace({ "w.ts": "const a = 1;\r\nconst c = 3;\r\n", "u.ts": "x\ny\n" });
    await ws.call("edit", {
      path: "w.ts",
      old_string: "const a = 1;",
      new_string: "const a = 1;\nconst b = 2;",
    });
    expect(await ws.read("w.ts")).toBe("const a = 1;\r\nconst b = 2;\r\nconst c = 3;\r\n");
    await ws.call("edit", { path: "u.ts", old_string: "x", new_string: "x\r\nx2" });
    expect(await ws.read("u.ts")).toBe("x\nx2\ny\n");
  });

  it("refuses a file that is not UTF-8 instead of turning its other lines into U+FFFD", async () => {
    const latin1 = Buffer.from("name = caf\xe9\nretries = 3\n", "latin1");
    ws = await tempWorkspace({ "legacy.txt": latin1 });
    const result = await ws.call("edit", {
      path: "legacy.txt",
      old_string: "retries = 3",
      new_string: "retries = 5",
    });
    expect(result.error?.code).toBe("NOT_UTF8");
    expect(result.error?.message).toContain(
      "legacy.txt is not valid UTF-8 (line 1 holds bytes of another encoding, such as Latin-1); edit changes UTF-8 text only",
    );
    expect(await readFile(join(ws.dir, "legacy.txt"))).toEqual(latin1);
  });

  it("serialises concurrent edits and patches of one file, so no change is lost", async () => {
    const lines = Array.from({ length: 20 }, (_, index) => `line ${index}`);
    ws = await tempWorkspace({ "a.txt": `${lines.join("\n")}\n` });
    const edits = lines
      .slice(0, 10)
      .map((line) =>
        ws.call("edit", { path: "a.txt", old_string: `${line}\n`, new_string: `${line} edited\n` }),
      );
    const patch = [
      "*** Begin Patch",
      "*** Update File: a.txt",
      "@@",
      "-line 15",
      "+line 15 patched",
      "*** End Patch",
    ];
    const results = await Promise.all([...edits, ws.call("apply_patch", { patch: patch.join("\n") })]);
    expect(results.filter((result) => result.isError)).toEqual([]);
    const text = await ws.read("a.txt");
    expect(text.match(/edited/g)).toHaveLength(10);
    expect(text).toContain("line 15 patched\n");
  });

  it("serialises parallel edits of one file named through a symlinked folder and its real path", async () => {
    const lines = Array.from({ length: 60 }, (_, index) => `v${index} = 0`);
    ws = await tempWorkspace({ "real/c.txt": `${lines.join("\n")}\n` });
    await symlink("real", join(ws.dir, "alias"));
    const results = await Promise.all(
      lines.map((line, index) =>
        ws.call("edit", {
          path: `${index % 2 === 0 ? "real" : "alias"}/c.txt`,
          old_string: `${line}\n`,
          new_string: `${line.replace("= 0", "= 1")}\n`,
        }),
      ),
    );
    expect(results.filter((result) => result.isError).map((result) => ws.text(result))).toEqual([]);
    const text = await ws.read("real/c.txt");
    expect(text.match(/= 1$/gm)).toHaveLength(60);
  });

  it("refuses a missing file, an empty old_string and a no-op", async () => {
    ws = await tempWorkspace({ "a.ts": source });
    expect(
      (await ws.call("edit", { path: "b.ts", old_string: "x", new_string: "y" })).error?.message,
    ).toContain("to create it use write");
    expect((await ws.call("edit", { path: "a.ts", old_string: "", new_string: "y" })).error?.code).toBe(
      "EMPTY_OLD_STRING",
    );
    expect((await ws.call("edit", { path: "a.ts", old_string: "a", new_string: "a" })).error?.code).toBe(
      "NO_CHANGE",
    );
  });

  it("says a folder is a folder and a FIFO is not a regular file, rather than that they do not exist", async () => {
    ws = await tempWorkspace({ "dir/a.txt": "a\n" });
    const folder = await ws.call("edit", { path: "dir", old_string: "a", new_string: "b" });
    expect(folder.error?.code).toBe("IS_A_DIRECTORY");
    expect(folder.error?.message).toBe(
      "dir is a folder, not a file; edit changes files (give a file path inside it)",
    );
    execFileSync("mkfifo", [join(ws.dir, "pipe")]);
    const fifo = await ws.call("edit", { path: "pipe", old_string: "a", new_string: "b" });
    expect(fifo.error?.message).toBe(
      "pipe is a FIFO, socket or device, not a regular file; edit changes regular files only",
    );
  });

  it("refuses a path with a trailing slash: it names a folder, not the file", async () => {
    ws = await tempWorkspace({ "keep.txt": "kept\n" });
    const result = await ws.call("edit", { path: "keep.txt/", old_string: "kept", new_string: "x" });
    expect(result.error?.code).toBe("NOT_A_FILE_PATH");
    expect(result.error?.message).toContain("'keep.txt/' ends with '/', so it names a folder");
    expect(await ws.read("keep.txt")).toBe("kept\n");
  });
});
