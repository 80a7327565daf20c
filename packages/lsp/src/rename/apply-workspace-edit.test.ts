import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { applyTextEdits, applyWorkspaceEdit } from "./apply-workspace-edit.js";

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

  it("applies several edits of a line, last first", () => {
    expect(
      applyTextEdits("add(add(1))", [
        { range: range(0, 0, 3), newText: "sum" },
        { range: range(0, 4, 7), newText: "sum" },
      ]),
    ).toBe("sum(sum(1))");
  });

  it("applies text edits and a file move in order, and lists the changed files", () => {
    writeFileSync(join(dir, "a.ts"), "const a = 1;\n");
    const applied = applyWorkspaceEdit(
      {
        documentChanges: [
          {
            textDocument: { uri: uri("a.ts"), version: null },
            edits: [{ range: range(0, 6, 7), newText: "b" }],
          },
          { kind: "rename", oldUri: uri("a.ts"), newUri: uri("b.ts") },
        ],
      },
      () => undefined,
    );
    expect(readFileSync(join(dir, "b.ts"), "utf8")).toBe("const b = 1;\n");
    expect(existsSync(join(dir, "a.ts"))).toBe(false);
    expect(applied.changedFiles).toEqual([join(dir, "a.ts"), join(dir, "b.ts")]);
  });

  it("writes nothing when a document version no longer matches", () => {
    writeFileSync(join(dir, "a.ts"), "x\n");
    expect(() =>
      applyWorkspaceEdit(
        {
          documentChanges: [
            {
              textDocument: { uri: uri("a.ts"), version: 1 },
              edits: [{ range: range(0, 0, 1), newText: "y" }],
            },
          ],
        },
        () => 2,
      ),
    ).toThrow(/changed since the server computed the edit.*nothing was written/);
    expect(readFileSync(join(dir, "a.ts"), "utf8")).toBe("x\n");
  });

  it("restores files already written when a later write fails", () => {
    writeFileSync(join(dir, "a.ts"), "a\n");
    writeFileSync(join(dir, "b.ts"), "b\n");
    // The temp file of the second write is taken by a folder, so that write fails.
    mkdirSync(join(dir, `b.ts.lsp-rename-${process.pid}.tmp`));
    expect(() =>
      applyWorkspaceEdit(
        {
          changes: {
            [uri("a.ts")]: [{ range: range(0, 0, 1), newText: "A" }],
            [uri("b.ts")]: [{ range: range(0, 0, 1), newText: "B" }],
          },
        },
        () => undefined,
      ),
    ).toThrow(/the 2 file\(s\) already written were restored/);
    expect(readFileSync(join(dir, "a.ts"), "utf8")).toBe("a\n");
    expect(readFileSync(join(dir, "b.ts"), "utf8")).toBe("b\n");
  });
});
