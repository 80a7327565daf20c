import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { nodeFileOperations, type FileOperations } from "@tools/registry";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { applyTextEdits, applyWorkspaceEdit, type EditBase } from "./apply-workspace-edit.js";

const range = (line: number, start: number, end: number) => ({
  start: { line, character: start },
  end: { line, character: end },
});

describe("applyWorkspaceEdit", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "lsp-edit-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const uri = (name: string) => pathToFileURL(join(dir, name)).href;
  const read = (name: string) => readFileSync(join(dir, name), "utf8");
  /** No document open on the server: it read every file from disk. */
  const closed: EditBase = {
    versionOf: () => undefined,
    isOpen: () => false,
    isSynced: () => false,
    display: (path) => relative(dir, path),
    writable: (path) => !relative(dir, path).startsWith(".."),
  };

  it("applies several edits of a line, last first", () => {
    expect(
      applyTextEdits("add(add(1))", [
        { range: range(0, 0, 3), newText: "sum" },
        { range: range(0, 4, 7), newText: "sum" },
      ]),
    ).toBe("sum(sum(1))");
  });

  it("keeps inserts at one position in the order given", () => {
    expect(
      applyTextEdits("f();", [
        { range: range(0, 0, 0), newText: "a" },
        { range: range(0, 0, 0), newText: "b" },
        { range: range(0, 0, 1), newText: "g" },
      ]),
    ).toBe("abg();");
  });

  it("counts only \n as a line end (as the user sees lines; edits come converted to them)", () => {
    expect(applyTextEdits("a\rb\r\nc\nd", [{ range: range(0, 2, 3), newText: "B" }])).toBe("a\rB\r\nc\nd");
    expect(applyTextEdits("a\rb\r\nc\nd", [{ range: range(2, 0, 1), newText: "D" }])).toBe("a\rb\r\nc\nD");
  });

  it("places edits by UTF-16 column after \r\n and \n line ends, a lone \r inside a line, up to the end of the text", () => {
    const text = "😀ab\r\ncd😀ef\rgh\nij\n";
    expect(
      applyTextEdits(text, [
        { range: range(0, 2, 4), newText: "AB" },
        { range: range(1, 4, 6), newText: "EF" },
        { range: range(1, 0, 2), newText: "CD" },
        { range: range(1, 9, 9), newText: "!" },
        { range: range(2, 0, 2), newText: "IJ" },
        { range: range(3, 0, 0), newText: "end\n" },
      ]),
    ).toBe("😀AB\r\nCD😀EF\rgh!\nIJ\nend\n");
    // An edit spanning a line end, and one past the last line (told, and clamped to the end).
    let outside = 0;
    expect(
      applyTextEdits("ab\r\ncd", [
        { range: { start: { line: 0, character: 1 }, end: { line: 1, character: 1 } }, newText: "-" },
      ]),
    ).toBe("a-d");
    expect(applyTextEdits("ab", [{ range: range(5, 0, 0), newText: "z" }], () => (outside += 1))).toBe("abz");
    expect(outside).toBe(2);
  });

  it("applies thousands of edits in a large file as one at a time would", () => {
    const lines = Array.from(
      { length: 3_000 },
      (_, index) => `const name${index} = name; // name${index % 3 ? "\r\n" : "\n"}`,
    );
    const text = lines.join("");
    const edits = lines.map((line, index) => ({
      range: range(index, 6 + `name${index}`.length + 3, 6 + `name${index}`.length + 7),
      newText: "renamed",
    }));
    const expected = lines.map((line) => line.replace("= name;", "= renamed;")).join("");
    expect(applyTextEdits(text, [...edits].reverse())).toBe(expected);
  });

  it("refuses a rename's edit that replaces something other than the old name, or the name nowhere, writing nothing", async () => {
    writeFileSync(join(dir, "b.ts"), 'import { a } from "./a.js";\n');
    const renaming: EditBase = { ...closed, oldName: "a" };
    const path = applyWorkspaceEdit(
      { changes: { [uri("b.ts")]: [{ range: range(0, 21, 25), newText: "alpha" }] } },
      renaming,
    );
    await expect(path).rejects.toThrow(
      `the server's edit for 'a' also replaces "a.js", which is not that name, with "alpha" at b.ts:1 (import { a } from "./a.js";): the server ties another name to this symbol (an alias, as in 'export { x as y }', with its importers, or a module path) and would rename it too. To rename only 'a', edit its uses by hand (lsp references lists them); to rename "a.js" as well, rename it on its own (lsp_rename from a line where it is written) or by hand; nothing was written`,
    );
    const empty = applyWorkspaceEdit({ documentChanges: [] }, renaming);
    await expect(empty).rejects.toThrow("the server's edit replaces 'a' nowhere");
    expect(read("b.ts")).toBe('import { a } from "./a.js";\n');
    const applied = await applyWorkspaceEdit(
      { changes: { [uri("b.ts")]: [{ range: range(0, 9, 10), newText: "alpha" }] } },
      renaming,
    );
    expect(applied.changedFiles).toEqual([join(dir, "b.ts")]);
    expect(read("b.ts")).toBe('import { alpha } from "./a.js";\n');
  });

  it("moves a folder file by file, after the edits made in it, bytes kept, old folder removed", async () => {
    mkdirSync(join(dir, "shapes", "data"), { recursive: true });
    writeFileSync(join(dir, "shapes", "shapes.go"), "package shapes\n");
    const binary = Buffer.from([0xff, 0x00, 0xfe, 0x80, 0x0a]);
    writeFileSync(join(dir, "shapes", "data", "logo.bin"), binary);
    const applied = await applyWorkspaceEdit(
      {
        documentChanges: [
          {
            textDocument: { uri: uri("shapes/shapes.go"), version: null },
            edits: [{ range: range(0, 8, 14), newText: "geometry" }],
          },
          { kind: "rename", oldUri: uri("shapes"), newUri: uri("geometry") },
        ],
      },
      closed,
      nodeFileOperations,
    );
    expect(read("geometry/shapes.go")).toBe("package geometry\n");
    expect(readFileSync(join(dir, "geometry", "data", "logo.bin")).equals(binary)).toBe(true);
    expect(existsSync(join(dir, "shapes"))).toBe(false);
    expect([...applied.moves].map(([from, to]) => `${relative(dir, from)} -> ${relative(dir, to)}`)).toEqual([
      "shapes/shapes.go -> geometry/shapes.go",
      "shapes/data/logo.bin -> geometry/data/logo.bin",
    ]);
  });

  it("refuses a folder move onto an existing folder, or of a folder holding a symlink, writing nothing", async () => {
    mkdirSync(join(dir, "shapes"));
    mkdirSync(join(dir, "geometry"));
    writeFileSync(join(dir, "shapes", "a.go"), "package shapes\n");
    const move = {
      documentChanges: [{ kind: "rename" as const, oldUri: uri("shapes"), newUri: uri("geometry") }],
    };
    await expect(applyWorkspaceEdit(move, closed, nodeFileOperations)).rejects.toThrow(
      "the edit moves the folder shapes onto geometry, which already exists; nothing was written",
    );
    rmSync(join(dir, "geometry"), { recursive: true });
    symlinkSync(join(dir, "shapes", "a.go"), join(dir, "shapes", "link.go"));
    await expect(applyWorkspaceEdit(move, closed, nodeFileOperations)).rejects.toThrow(
      /the edit moves the folder shapes, but it holds .*link\.go, which is not a regular file; move it by hand; nothing was written/,
    );
    expect(readdirSync(dir).sort()).toEqual(["shapes"]);
    expect(read("shapes/a.go")).toBe("package shapes\n");
  });

  it("refuses to move or delete a symbolic link, or to change one file through two paths, writing nothing", async () => {
    mkdirSync(join(dir, "shared"));
    writeFileSync(join(dir, "shared/util.rs"), "pub fn a() {}\n");
    symlinkSync(join(dir, "shared/util.rs"), join(dir, "util.rs"));
    writeFileSync(join(dir, "main.rs"), "mod util;\n");
    const move = applyWorkspaceEdit(
      { documentChanges: [{ kind: "rename", oldUri: uri("util.rs"), newUri: uri("helpers.rs") }] },
      closed,
      nodeFileOperations,
    );
    await expect(move).rejects.toThrow(
      "the edit moves util.rs, a symbolic link; move it by hand; nothing was written",
    );
    const remove = applyWorkspaceEdit({ documentChanges: [{ kind: "delete", uri: uri("util.rs") }] }, closed);
    await expect(remove).rejects.toThrow("the edit deletes util.rs, a symbolic link; delete it by hand");
    const twice = applyWorkspaceEdit(
      {
        changes: {
          [uri("util.rs")]: [{ range: range(0, 7, 9), newText: "fn" }],
          [uri("shared/util.rs")]: [{ range: range(0, 10, 11), newText: "b" }],
        },
      },
      closed,
    );
    await expect(twice).rejects.toThrow(
      "the edit changes util.rs and shared/util.rs, which are one file (a symbolic link); make the change by hand",
    );
    // The real file and the link are as they were.
    expect(read("shared/util.rs")).toBe("pub fn a() {}\n");
    expect(read("util.rs")).toBe("pub fn a() {}\n");
    expect(existsSync(join(dir, "helpers.rs"))).toBe(false);
  });

  it("refuses edits that overlap, also one edit given twice, writing nothing", async () => {
    writeFileSync(join(dir, "a.ts"), "let foo = 1;\nabcdefgh\n");
    const twice = applyWorkspaceEdit(
      {
        changes: {
          [uri("a.ts")]: [
            { range: range(0, 4, 7), newText: "barbaz" },
            { range: range(0, 4, 7), newText: "barbaz" },
          ],
        },
      },
      { ...closed, oldName: "foo" },
    );
    await expect(twice).rejects.toThrow("the server's edits of a.ts overlap");
    const partly = applyWorkspaceEdit(
      {
        changes: {
          [uri("a.ts")]: [
            { range: range(1, 0, 4), newText: "W" },
            { range: range(1, 2, 6), newText: "Q" },
          ],
        },
      },
      closed,
    );
    await expect(partly).rejects.toThrow("nothing was written");
    expect(read("a.ts")).toBe("let foo = 1;\nabcdefgh\n");
  });

  it("refuses an edit beyond a file's text (the file changed since the server read it) and a FIFO", async () => {
    writeFileSync(join(dir, "b.ts"), "export const b = 1;\n");
    const stale = applyWorkspaceEdit(
      { changes: { [uri("b.ts")]: [{ range: range(3, 9, 14), newText: "renamed" }] } },
      closed,
    );
    await expect(stale).rejects.toThrow(
      "b.ts changed on disk since the language server read it (an edit lies beyond its text); run lsp_rename again; nothing was written",
    );
    expect(read("b.ts")).toBe("export const b = 1;\n");
    // Nothing ever writes to it: a read of it would never end.
    execFileSync("mkfifo", [join(dir, "pipe.ts")]);
    const fifo = applyWorkspaceEdit(
      { changes: { [uri("pipe.ts")]: [{ range: range(0, 0, 1), newText: "x" }] } },
      closed,
    );
    await expect(fifo).rejects.toThrow(
      "the edit touches pipe.ts, which is not a regular file; nothing was written",
    );
  });

  it("refuses a whole edit that touches a file outside the working directory, writing nothing", async () => {
    writeFileSync(join(dir, "a.ts"), "export const a = 1;\n");
    const outside = mkdtempSync(join(tmpdir(), "lsp-outside-"));
    try {
      writeFileSync(join(outside, "lib.d.ts"), "declare const a: number;\n");
      const attempt = applyWorkspaceEdit(
        {
          changes: {
            [uri("a.ts")]: [{ range: range(0, 13, 14), newText: "b" }],
            [pathToFileURL(join(outside, "lib.d.ts")).href]: [{ range: range(0, 14, 15), newText: "b" }],
          },
        },
        closed,
      );
      await expect(attempt).rejects.toMatchObject({
        code: "LSP_RENAME_FAILED",
        message: expect.stringMatching(/outside the working directory \(.*lib\.d\.ts\); nothing was written/),
      });
      expect(read("a.ts")).toBe("export const a = 1;\n");
      expect(readFileSync(join(outside, "lib.d.ts"), "utf8")).toBe("declare const a: number;\n");
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it("refuses an edit of a read-only file whole, writing nothing", async () => {
    writeFileSync(join(dir, "a.ts"), "const a = 1;\n");
    writeFileSync(join(dir, "ro.ts"), "const a = 2;\n");
    chmodSync(join(dir, "ro.ts"), 0o444);
    const edit = (name: string) => ({
      textDocument: { uri: uri(name), version: null },
      edits: [{ range: range(0, 6, 7), newText: "b" }],
    });
    await expect(
      applyWorkspaceEdit({ documentChanges: [edit("a.ts"), edit("ro.ts")] }, closed),
    ).rejects.toThrow(
      "the rename would change read-only files (ro.ts); nothing was written. Make them writable (chmod u+w) if they are meant to change, then call again.",
    );
    expect(read("a.ts")).toBe("const a = 1;\n");
    expect(read("ro.ts")).toBe("const a = 2;\n");
  });

  it("applies text edits and a file move in order, and lists the changed files", async () => {
    writeFileSync(join(dir, "a.ts"), "const a = 1;\n");
    chmodSync(join(dir, "a.ts"), 0o640);
    const applied = await applyWorkspaceEdit(
      {
        documentChanges: [
          {
            textDocument: { uri: uri("a.ts"), version: null },
            edits: [{ range: range(0, 6, 7), newText: "b" }],
          },
          { kind: "rename", oldUri: uri("a.ts"), newUri: uri("b.ts") },
        ],
      },
      closed,
    );
    expect(read("b.ts")).toBe("const b = 1;\n");
    expect(existsSync(join(dir, "a.ts"))).toBe(false);
    expect(applied.changedFiles).toEqual([join(dir, "a.ts"), join(dir, "b.ts")]);
    expect(applied.moves).toEqual(new Map([[join(dir, "a.ts"), join(dir, "b.ts")]]));
  });

  it("creates and deletes files in order, keeping the mode of the files it rewrites", async () => {
    writeFileSync(join(dir, "old.ts"), "export {};\n");
    writeFileSync(join(dir, "main.ts"), "import './old';\n");
    chmodSync(join(dir, "main.ts"), 0o600);
    const applied = await applyWorkspaceEdit(
      {
        documentChanges: [
          { kind: "create", uri: uri("lib/new.ts") },
          {
            textDocument: { uri: uri("lib/new.ts"), version: null },
            edits: [{ range: range(0, 0, 0), newText: "export const x = 1;\n" }],
          },
          {
            textDocument: { uri: uri("main.ts"), version: null },
            edits: [{ range: range(0, 8, 13), newText: "./lib/new" }],
          },
          { kind: "delete", uri: uri("old.ts") },
        ],
      },
      closed,
    );
    expect(read("lib/new.ts")).toBe("export const x = 1;\n");
    expect(read("main.ts")).toBe("import './lib/new';\n");
    expect(statSync(join(dir, "main.ts")).mode & 0o777).toBe(0o600);
    expect(existsSync(join(dir, "old.ts"))).toBe(false);
    expect(applied.changedFiles).toEqual([
      join(dir, "lib/new.ts"),
      join(dir, "main.ts"),
      join(dir, "old.ts"),
    ]);
  });

  it("writes nothing when a document version no longer matches", async () => {
    writeFileSync(join(dir, "a.ts"), "x\n");
    await expect(
      applyWorkspaceEdit(
        {
          documentChanges: [
            {
              textDocument: { uri: uri("a.ts"), version: 1 },
              edits: [{ range: range(0, 0, 1), newText: "y" }],
            },
          ],
        },
        { ...closed, versionOf: () => 2 },
      ),
    ).rejects.toThrow(
      /^a\.ts changed since the server computed the edit \(version 1, now 2\); run lsp_rename again; nothing was written/,
    );
    expect(read("a.ts")).toBe("x\n");
  });

  it("writes nothing when a file open on the server changed on disk (the edit's offsets are for the server's copy)", async () => {
    writeFileSync(join(dir, "a.ts"), "let value = 1;\n");
    writeFileSync(join(dir, "b.ts"), "// a new first line\nvalue;\n");
    // `changes` carry no version: only the text the server holds tells the edit is stale.
    const serverCopy = new Map([[uri("b.ts"), "value;\n"]]);
    await expect(
      applyWorkspaceEdit(
        {
          changes: {
            [uri("a.ts")]: [{ range: range(0, 4, 9), newText: "total" }],
            [uri("b.ts")]: [{ range: range(0, 0, 5), newText: "total" }],
          },
        },
        {
          ...closed,
          isOpen: (documentUri) => serverCopy.has(documentUri),
          isSynced: (documentUri, text) => serverCopy.get(documentUri) === text,
        },
      ),
    ).rejects.toThrow(/b\.ts changed on disk since the language server last read it.*nothing was written/);
    expect([read("a.ts"), read("b.ts")]).toEqual(["let value = 1;\n", "// a new first line\nvalue;\n"]);
  });

  it("writes nothing when a file changes between reading and writing", async () => {
    writeFileSync(join(dir, "a.ts"), "a\n");
    writeFileSync(join(dir, "b.ts"), "b\n");
    let touched = false;
    const racing: FileOperations = {
      ...nodeFileOperations,
      async realpath(path) {
        // Another writer changes b.ts just before the write path reads it again.
        if (!touched && path.endsWith("b.ts")) {
          touched = true;
          writeFileSync(path, "b, edited elsewhere\n");
        }
        return nodeFileOperations.realpath(path);
      },
    };
    await expect(
      applyWorkspaceEdit(
        {
          changes: {
            [uri("a.ts")]: [{ range: range(0, 0, 1), newText: "A" }],
            [uri("b.ts")]: [{ range: range(0, 0, 1), newText: "B" }],
          },
        },
        closed,
        racing,
      ),
    ).rejects.toThrow(/b\.ts changed while the rename was being applied; nothing was written/);
    expect([read("a.ts"), read("b.ts")]).toEqual(["a\n", "b, edited elsewhere\n"]);
  });

  it("restores every file already written when a later write fails, and leaves no temporary file", async () => {
    writeFileSync(join(dir, "a.ts"), "a\n");
    writeFileSync(join(dir, "b.ts"), "b\n");
    let renames = 0;
    const failing: FileOperations = {
      ...nodeFileOperations,
      async rename(from, to) {
        if (++renames === 3) throw new Error("disk full (injected)");
        await nodeFileOperations.rename(from, to);
      },
    };
    await expect(
      applyWorkspaceEdit(
        {
          documentChanges: [
            {
              textDocument: { uri: uri("a.ts"), version: null },
              edits: [{ range: range(0, 0, 1), newText: "A" }],
            },
            { kind: "create", uri: uri("c.ts") },
            {
              textDocument: { uri: uri("b.ts"), version: null },
              edits: [{ range: range(0, 0, 1), newText: "B" }],
            },
          ],
        },
        closed,
        failing,
      ),
    ).rejects.toThrow(
      /failed at b\.ts \(disk full \(injected\)\); the 2 file\(s\) already written were restored/,
    );
    expect([read("a.ts"), read("b.ts")]).toEqual(["a\n", "b\n"]);
    expect(readdirSync(dir).sort()).toEqual(["a.ts", "b.ts"]);
  });
});
