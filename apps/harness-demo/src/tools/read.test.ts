import { execFileSync } from "node:child_process";
import { mkdir, truncate, writeFile } from "node:fs/promises";
import { readFileSync } from "node:fs";
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
    await writeFile(join(ws.dir, "one.txt"), "only\nsecond\n");
    const past = await ws.call("read", { path: "one.txt", offset: 3 });
    expect(past.error?.message).toBe("offset 3 is past the end: one.txt has 2 lines");
    expect(ws.text(await ws.call("read", { path: "one.txt", limit: 1 }))).toBe(
      "1\tonly\n… 1 more line; continue with offset=2",
    );
  });

  it("lists a folder's entries, folders marked with a slash", async () => {
    ws = await tempWorkspace({ "src/b.ts": "", "src/a.ts": "" });
    await mkdir(join(ws.dir, "src", "sub"));
    const result = await ws.call("read", { path: "src" });
    expect(ws.text(result)).toBe("src/ (3 entries)\na.ts\nb.ts\nsub/");
  });

  it("pages a big folder's entries with offset and limit, as a file's lines", async () => {
    const files: Record<string, string> = {};
    for (let index = 1; index <= 600; index++) files[`big/f${String(index).padStart(3, "0")}`] = "";
    ws = await tempWorkspace(files);
    const first = ws.text(await ws.call("read", { path: "big" }));
    expect(first.split("\n")[0]).toBe("big/ (600 entries; 1–500 shown)");
    expect(first.split("\n").at(-1)).toBe("… 100 more entries; continue with offset=501");
    // The entries past the first 500 could not be listed: offset was not applied to a folder.
    expect(ws.text(await ws.call("read", { path: "big", offset: 599 }))).toBe(
      "big/ (600 entries; 599–600 shown)\nf599\nf600",
    );
    expect(ws.text(await ws.call("read", { path: "big", offset: 2, limit: 2 }))).toBe(
      "big/ (600 entries; 2–3 shown)\nf002\nf003\n… 597 more entries; continue with offset=4",
    );
    const past = await ws.call("read", { path: "big", offset: 601 });
    expect(past.error?.message).toBe("offset 601 is past the end: big/ has 600 entries");
  });

  it("refuses binary files clearly", async () => {
    ws = await tempWorkspace({ "image.bin": new Uint8Array([0x89, 0x50, 0x00, 0x01]) });
    const result = await ws.call("read", { path: "image.bin" });
    expect(result.error?.code).toBe("BINARY_FILE");
    expect(result.error?.message).toContain("image.bin is a binary file");
  });

  it("refuses a FIFO without blocking on it, as grep and edit do; a folder search passes it by", async () => {
    ws = await tempWorkspace({ "a.txt": "alpha\n" });
    // Nothing ever writes to it: a read of it would never end.
    execFileSync("mkfifo", [join(ws.dir, "pipe.txt")]);
    const read = await ws.call("read", { path: "pipe.txt" });
    expect(read.error?.code).toBe("NOT_A_FILE");
    expect(read.error?.message).toBe(
      "pipe.txt is a FIFO, socket or device, not a file; read shows files and folders",
    );
    const grep = await ws.call("grep", { pattern: "alpha", path: "pipe.txt" });
    expect(grep.error?.code).toBe("NOT_A_FILE");
    const edit = await ws.call("edit", { path: "pipe.txt", old_string: "a", new_string: "b" });
    expect(edit.error?.code).toBe("NOT_A_FILE");
    expect(ws.text(await ws.call("grep", { pattern: "alpha" }))).toContain("a.txt:1");
  });

  it("says when a file does not exist", async () => {
    ws = await tempWorkspace();
    const result = await ws.call("read", { path: "missing.ts" });
    expect(result.error?.code).toBe("FILE_NOT_FOUND");
    expect(result.error?.message).toContain("missing.ts does not exist");
  });

  it("says a name over 255 bytes is too long rather than missing", async () => {
    ws = await tempWorkspace();
    const result = await ws.call("read", { path: `${"n".repeat(300)}.txt` });
    expect(result.error?.code).toBe("NAME_TOO_LONG");
    expect(result.error?.message).toContain("is 304 bytes; a file or folder name may be at most 255 bytes");
  });

  it("says how to see the rest of a line cut at 2000 characters, and column shows it", async () => {
    const line = `{${"x".repeat(1_999)}${"y".repeat(2_000)}${"z".repeat(500)}`;
    ws = await tempWorkspace({ "min.json": `short\n${line}\n` });
    const text = ws.text(await ws.call("read", { path: "min.json" }));
    expect(text).toContain(`\n2\t{${"x".repeat(1_999)}… (4500 characters)`);
    expect(text).toContain(
      `(line 2 is 4500 characters long, shown cut at 2000; to see the next 2000 characters, read {"path":"min.json","offset":2,"limit":1,"column":2001}, or grep for the text you need; an edit's old_string may be a part of the line)`,
    );
    const next = ws.text(await ws.call("read", { path: "min.json", offset: 2, limit: 1, column: 2001 }));
    expect(next).toBe(
      `2\t${"y".repeat(2_000)}… (4500 characters)\n(each line shown from column 2001)\n` +
        `(line 2 is 4500 characters long, shown cut at 2000; to see the next 2000 characters, read {"path":"min.json","offset":2,"limit":1,"column":4001}, or grep for the text you need; an edit's old_string may be a part of the line)`,
    );
    const end = ws.text(await ws.call("read", { path: "min.json", offset: 2, limit: 1, column: 4001 }));
    expect(end).toBe(`2\t${"z".repeat(500)}\n(each line shown from column 4001)`);
  });

  it("names only the tools the surface has in the cut note", async () => {
    ws = await tempWorkspace({ "min.json": `${"x".repeat(2_500)}\n` });
    for (const surface of ["plan", "readonly"]) {
      const text = ws.text(await ws.call("read", { path: "min.json" }, surface));
      expect(text).toContain(
        `(line 1 is 2500 characters long, shown cut at 2000; to see the next 2000 characters, read {"path":"min.json","offset":1,"limit":1,"column":2001}, or grep for the text you need)`,
      );
      expect(text).not.toMatch(/shell|edit/);
      expect(ws.text(await ws.call("read", { path: "min.json", column: 2001 }, surface))).toBe(
        `1\t${"x".repeat(500)}\n(each line shown from column 2001)`,
      );
    }
  });

  it("refuses a column past the end of every line asked for, or below 1", async () => {
    ws = await tempWorkspace({ "a.txt": "abc\nabcdef\n" });
    const past = await ws.call("read", { path: "a.txt", column: 10 });
    expect(past.error?.code).toBe("COLUMN_PAST_END");
    expect(past.error?.message).toBe(
      "column 10 is past the end of the lines asked for: the longest line shown, 2, has 6 characters; pass a smaller column (1 shows each line from its start)",
    );
    const one = await ws.call("read", { path: "a.txt", offset: 1, limit: 1, column: 5 });
    expect(one.error?.message).toContain("line 1 has 3 characters");
    expect(ws.text(await ws.call("read", { path: "a.txt", column: 5 }))).toBe(
      "1\t\n2\tef\n(each line shown from column 5)",
    );
    expect((await ws.call("read", { path: "a.txt", column: 0 })).error?.code).toBe("INVALID_ARGUMENTS");
  });

  it("is refused by containment for a path outside the working directory", async () => {
    ws = await tempWorkspace();
    const result = await ws.call("read", { path: "../outside.txt" });
    expect(result.error?.code).toBe("GUARDRAIL_REFUSED");
  });

  it("returns whole lines up to 60000 characters, and the next offset is the first line not shown", async () => {
    const lines = Array.from({ length: 1000 }, (_, index) => `line ${index + 1} ${"x".repeat(400)}`);
    ws = await tempWorkspace({ "data.txt": `${lines.join("\n")}\n` });
    const text = ws.text(await ws.call("read", { path: "data.txt" }));
    const [numbered, note] = [text.slice(0, text.lastIndexOf("\n")), text.slice(text.lastIndexOf("\n") + 1)];
    expect(numbered.length).toBeLessThanOrEqual(60_000);
    const shown = numbered.split("\n");
    // Every line shown is whole.
    shown.forEach((line, index) => expect(line).toBe(`${String(index + 1).padStart(3)}\t${lines[index]}`));
    const next = shown.length + 1;
    expect(note).toBe(
      `… ${1000 - shown.length} more lines (output is capped at 60000 characters); continue with offset=${next}`,
    );
    const after = ws.text(await ws.call("read", { path: "data.txt", offset: next, limit: 1 }));
    expect(after.split("\n")[0]).toBe(`${next}\t${lines[next - 1]}`);
  });

  it("reads only as far as the lines asked for: the first lines of a 700 MB file", async () => {
    const head = Array.from({ length: 1000 }, (_, index) => `2024-01-01 INFO event ${index + 1}`).join("\n");
    ws = await tempWorkspace({ "big.log": `${head}\n` });
    // Sparse past its first lines: 700 MB that cost no disk, more than a string can hold.
    await truncate(join(ws.dir, "big.log"), 700_000_000);
    const result = await ws.call("read", { path: "big.log", limit: 2 });
    expect(ws.text(result)).toBe(
      "1\t2024-01-01 INFO event 1\n2\t2024-01-01 INFO event 2\n… more lines follow (big.log is 700000000 bytes, too large to count them all); continue with offset=3",
    );
  });

  it("leaves a byte order mark out of line 1 and its columns, says so, and edit keeps it", async () => {
    ws = await tempWorkspace({ "bom.ts": "\uFEFFconst a = 1;\nconst b = 2;\n" });
    expect(ws.text(await ws.call("read", { path: "bom.ts" }))).toBe(
      "1\tconst a = 1;\n2\tconst b = 2;\n(the file starts with a UTF-8 byte order mark, U+FEFF, not shown above; edit and apply_patch keep it)",
    );
    expect(ws.text(await ws.call("read", { path: "bom.ts", limit: 1, column: 7 }))).toBe(
      "1\ta = 1;\n… 1 more line; continue with offset=2\n(the file starts with a UTF-8 byte order mark, U+FEFF, not shown above; edit and apply_patch keep it)\n(each line shown from column 7)",
    );
    // Past line 1, nothing to say.
    expect(ws.text(await ws.call("read", { path: "bom.ts", offset: 2 }))).toBe("2\tconst b = 2;");
    const edited = await ws.call("edit", {
      path: "bom.ts",
      old_string: "const a = 1;",
      new_string: "const a = 10;",
    });
    expect(edited.isError).toBe(false);
    expect(readFileSync(join(ws.dir, "bom.ts"), "utf8")).toBe("\uFEFFconst a = 10;\nconst b = 2;\n");
  });

  it("says when a line is not valid UTF-8", async () => {
    ws = await tempWorkspace({ "legacy.txt": Buffer.from("name = caf\xe9\nretries = 3\n", "latin1") });
    expect(ws.text(await ws.call("read", { path: "legacy.txt" }))).toBe(
      "1\tname = caf\uFFFD\n2\tretries = 3\n" +
        "(line 1 is not valid UTF-8: bytes of another encoding, such as Latin-1, are shown as U+FFFD; edit and apply_patch refuse to change this file)",
    );
  });

  it("refuses a file path with a trailing slash (it names a folder: ENOTDIR), and still lists a folder's", async () => {
    ws = await tempWorkspace({ "keep.txt": "kept\n", "src/a.ts": "x\n" });
    const result = await ws.call("read", { path: "keep.txt/" });
    expect(result.error?.code).toBe("NOT_A_FILE_PATH");
    expect(result.error?.message).toBe(
      "'keep.txt/' ends with '/', so it names a folder, but keep.txt is a file (POSIX: ENOTDIR); drop the trailing '/' ('keep.txt') to name the file",
    );
    expect(ws.text(await ws.call("read", { path: "src/" }))).toBe("src/ (1 entry)\na.ts");
  });
});
