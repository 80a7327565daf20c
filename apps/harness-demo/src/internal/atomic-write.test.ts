import { afterEach, describe, expect, it } from "vitest";
import { tempWorkspace, type TempWorkspace } from "../__fixtures__/temp-workspace.js";
import { maxNameBytes, stagingName } from "./atomic-write.js";

let ws: TempWorkspace | undefined;
afterEach(async () => {
  await ws?.cleanup();
  ws = undefined;
});

describe("stagingName", () => {
  it("fits in 255 bytes for any legal name, multi-byte ones too, and keeps long names apart", () => {
    for (const name of ["a.txt", "n".repeat(240), "é".repeat(127), `${"x".repeat(250)}.txt`]) {
      const staged = stagingName(name);
      expect(Buffer.byteLength(staged), name).toBeLessThanOrEqual(maxNameBytes);
      expect(staged.startsWith(".")).toBe(true);
      expect(staged.endsWith(".tmp")).toBe(true);
    }
    expect(stagingName("a.txt")).toMatch(/^\.a\.txt\.\d+\.[0-9a-f]{8}\.tmp$/);
    const one = stagingName(`${"n".repeat(240)}1.txt`).split(".")[1];
    const two = stagingName(`${"n".repeat(240)}2.txt`).split(".")[1];
    expect(one).not.toBe(two);
  });
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
