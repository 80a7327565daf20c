import { chmod, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ToolsError } from "@tools/registry";
import { afterEach, describe, expect, it } from "vitest";
import { tempWorkspace, type TempWorkspace } from "../__fixtures__/temp-workspace.js";
import { writeFileAtomic } from "./atomic-write.js";

let ws: TempWorkspace | undefined;
afterEach(async () => {
  await ws?.cleanup();
  ws = undefined;
});

describe("write and edit of a long file name", () => {
  it("writes and edits a file with a legal 240-character name, and refuses a name over 255 bytes clearly", async () => {
    ws = await tempWorkspace();
    const name = `${"n".repeat(236)}.txt`;
    const written = await ws.call("write", { path: name, content: "one\n" });
    expect(written.isError, ws.text(written)).toBe(false);
    const edited = await ws.call("edit", { path: name, old_string: "one", new_string: "two" });
    expect(edited.isError, ws.text(edited)).toBe(false);
    expect(await ws.read(name)).toBe("two\n");

    const tooLong = await ws.call("write", { path: `${"n".repeat(300)}.txt`, content: "x" });
    expect(tooLong.error?.code).toBe("NAME_TOO_LONG");
    expect(tooLong.error?.message).toBe(
      `the name '${"n".repeat(40)}…' is 304 bytes; a file or folder name may be at most 255 bytes: use a shorter name`,
    );
  });
});

describe("write and edit through the registry's writeFiles", () => {
  it("keep a file's mode exactly, group and other write bits included", async () => {
    ws = await tempWorkspace({ "shared.txt": "one\n" });
    await chmod(join(ws.dir, "shared.txt"), 0o666);
    expect((await ws.call("write", { path: "shared.txt", content: "two\n" })).isError).toBe(false);
    expect((await stat(join(ws.dir, "shared.txt"))).mode & 0o7777).toBe(0o666);
    await chmod(join(ws.dir, "shared.txt"), 0o775);
    const edited = await ws.call("edit", { path: "shared.txt", old_string: "two", new_string: "three" });
    expect(edited.isError, ws.text(edited)).toBe(false);
    expect((await stat(join(ws.dir, "shared.txt"))).mode & 0o7777).toBe(0o775);
  });

  it("fails on a file where a folder should be, naming it in the agent's terms, leaving no temporary file", async () => {
    ws = await tempWorkspace({ "a.txt": "a\n" });
    const result = await ws.call("write", { path: "a.txt/b.txt", content: "b\n" });
    expect(result.error).toMatchObject({
      code: "PARENT_IS_A_FILE",
      message:
        "could not write a.txt/b.txt: a.txt is a file, not a folder, so nothing can be created inside it; nothing was changed. Choose another path",
    });
    expect(await readdir(ws.dir)).toEqual(["a.txt"]);
  });

  it("refuses a name over 255 bytes in a new folder and leaves no folder behind", async () => {
    ws = await tempWorkspace();
    const result = await ws.call("write", { path: `sub/${"n".repeat(300)}/x.txt`, content: "x" });
    expect(result.error?.code).toBe("NAME_TOO_LONG");
    expect(await readdir(ws.dir)).toEqual([]);
  });
});

describe("writeFileAtomic with the bytes read", () => {
  it("refuses to overwrite a file another writer changed since it was read", async () => {
    ws = await tempWorkspace({ "f.txt": "one\n" });
    const path = join(ws.dir, "f.txt");
    const read = await readFile(path);
    await writeFile(path, "someone else\n");
    const error = await writeFileAtomic(path, "mine\n", { expected: read, shown: "f.txt" }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ToolsError);
    expect((error as ToolsError).code).toBe("FILE_CHANGED");
    expect((error as ToolsError).message).toBe(
      "f.txt changed on disk since it was read for this call (another command or call wrote it meanwhile); nothing was written. Read it again and redo the change.",
    );
    expect(await ws.read("f.txt")).toBe("someone else\n");
  });
});
