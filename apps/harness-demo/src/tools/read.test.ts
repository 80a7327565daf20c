import { execFileSync } from "node:child_process";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempWorkspace, type TempWorkspace } from "../__fixtures__/temp-workspace.js";

let ws: TempWorkspace;
afterEach(async () => ws.cleanup());

const tenLines = Array.from({ length: 10 }, (_, index) => `line ${index + 1}`).join("\n") + "\n";

describe("read", () => {
  it("returns numbered lines", async () => {
    ws = await tempWorkspace({ "a.txt": "alpha\nbeta\n" });
    const result = await ws.call("read", { path: "a.txt" });
    expect(result.isError).toBe(false);
    expect(ws.text(result)).toBe("1\talpha\n2\tbeta");
  });

  it("honours offset and limit and says how to continue", async () => {
    ws = await tempWorkspace({ "a.txt": tenLines });
    const result = await ws.call("read", { path: "a.txt", offset: 3, limit: 2 });
    expect(ws.text(result)).toBe("3\tline 3\n4\tline 4\n… 6 more lines; continue with offset=5");
  });

  it("pads line numbers to the widest shown", async () => {
    ws = await tempWorkspace({ "a.txt": tenLines });
    const result = await ws.call("read", { path: "a.txt", offset: 9 });
    expect(ws.text(result)).toBe(" 9\tline 9\n10\tline 10");
  });

  it("refuses an offset past the end with the file's length", async () => {
    ws = await tempWorkspace({ "a.txt": tenLines });
    const result = await ws.call("read", { path: "a.txt", offset: 11 });
    expect(result.error?.code).toBe("OFFSET_PAST_END");
    expect(result.error?.message).toContain("has 10 lines");
  });

  it("lists a folder's entries, folders marked with a slash", async () => {
    ws = await tempWorkspace({ "src/b.ts": "", "src/a.ts": "" });
    await mkdir(join(ws.dir, "src", "sub"));
    const result = await ws.call("read", { path: "src" });
    expect(ws.text(result)).toBe("src/ (3 entries)\na.ts\nb.ts\nsub/");
  });

  it("refuses binary files clearly", async () => {
    ws = await tempWorkspace({ "image.bin": new Uint8Array([0x89, 0x50, 0x00, 0x01]) });
    const result = await ws.call("read", { path: "image.bin" });
    expect(result.error?.code).toBe("BINARY_FILE");
    expect(result.error?.message).toContain("image.bin is a binary file");
  });

  it("refuses a FIFO without blocking on it, and grep and edit pass it by", async () => {
    ws = await tempWorkspace({ "a.txt": "alpha\n" });
    // Nothing ever writes to it: a read of it would never end.
    execFileSync("mkfifo", [join(ws.dir, "pipe.txt")]);
    const read = await ws.call("read", { path: "pipe.txt" });
    expect(read.error?.code).toBe("NOT_A_FILE");
    expect(read.error?.message).toBe(
      "pipe.txt is a FIFO, socket or device, not a file; read shows files and folders",
    );
    const grep = await ws.call("grep", { pattern: "alpha", path: "pipe.txt" });
    expect(ws.text(grep)).toBe("no matches for /alpha/ in pipe.txt: 0 files searched");
    const edit = await ws.call("edit", { path: "pipe.txt", old_string: "a", new_string: "b" });
    expect(edit.error?.code).toBe("FILE_NOT_FOUND");
    expect(ws.text(await ws.call("grep", { pattern: "alpha" }))).toContain("a.txt:1");
  });

  it("says when a file does not exist", async () => {
    ws = await tempWorkspace();
    const result = await ws.call("read", { path: "missing.ts" });
    expect(result.error?.code).toBe("FILE_NOT_FOUND");
    expect(result.error?.message).toContain("missing.ts does not exist");
  });

  it("is refused by containment for a path outside the working directory", async () => {
    ws = await tempWorkspace();
    const result = await ws.call("read", { path: "../outside.txt" });
    expect(result.error?.code).toBe("GUARDRAIL_REFUSED");
  });
});
