import type { Diagnostic } from "vscode-languageserver-protocol";
import { describe, expect, it } from "vitest";
import {
  writeDiagnosticsSection,
  type WriteCheck,
  type WriteSectionLimits,
} from "./write-diagnostics-section.js";

const limits: WriteSectionLimits = { perFile: 20, total: 50, files: 10, boundMs: 8_000 };

function unknownNames(count: number, from = 0): Diagnostic[] {
  return Array.from({ length: count }, (_, i) => ({
    range: { start: { line: from + i, character: 0 }, end: { line: from + i, character: 1 } },
    severity: 1,
    code: 2304,
    source: "typescript",
    message: `Cannot find name 'missing${from + i}'.`,
  }));
}

function checked(name: string, introduced: Diagnostic[] = [], stillPresent = 0): WriteCheck {
  return { kind: "checked", file: `/w/${name}`, display: name, introduced, stillPresent };
}

function lines(checks: WriteCheck[], bounds: Partial<WriteSectionLimits> = {}): string[] {
  return writeDiagnosticsSection(checks, { ...limits, ...bounds }).text?.split("\n") ?? [];
}

describe("writeDiagnosticsSection", () => {
  it("says when a bound cut the files importing the written ones", () => {
    expect(
      lines([
        checked("src/lib/core.ts"),
        { kind: "importers-cut", display: "src/lib/core.ts", bound: "the 10-file bound" },
      ]),
    ).toEqual([
      "LSP diagnostics after this write:",
      "src/lib/core.ts: clean (no errors or warnings)",
      'files importing src/lib/core.ts (directly, or through re-exports or includes) were checked only up to the 10-file bound: others may be broken too; lsp diagnostics "*" checks the whole project',
    ]);
  });

  it("says nothing when no file was checked", () => {
    expect(writeDiagnosticsSection([], limits)).toEqual({ text: undefined, unlisted: new Map() });
  });

  it("keeps a lone file's own wording: clean, nothing new, new", () => {
    expect(lines([checked("src/a.ts")])).toEqual([
      "LSP diagnostics after this write:",
      "src/a.ts: clean (no errors or warnings)",
    ]);
    expect(lines([checked("src/a.ts", [], 1)])).toEqual([
      "LSP diagnostics after this write:",
      "no new diagnostics in src/a.ts (1 reported earlier still present)",
    ]);
    expect(lines([checked("src/a.ts", unknownNames(1, 2), 3)])).toEqual([
      "LSP diagnostics after this write:",
      "1 new diagnostic in src/a.ts (3 reported earlier still present):",
      "src/a.ts:3:1 error [TS2304] Cannot find name 'missing2'. (typescript)",
    ]);
  });

  it("shows paths under the working directory in messages relative to it", () => {
    const [diagnostic] = unknownNames(1);
    const note = { ...diagnostic!, message: "Conflicting types; /w/sub/h.h:2:5: note: previous declaration" };
    expect(lines([checked("main.c", [note])], { workingDirectory: "/w" })).toEqual([
      "LSP diagnostics after this write:",
      "1 new diagnostic in main.c:",
      "main.c:1:1 error [TS2304] Conflicting types; sub/h.h:2:5: note: previous declaration (typescript)",
    ]);
  });

  it("collapses clean files and files with nothing new into one line, naming the latter", () => {
    const checks = [
      ...Array.from({ length: 58 }, (_, i) => checked(`src/clean${i}.ts`)),
      checked("src/old2.ts", [], 2),
      checked("src/old1.ts", [], 1),
    ];
    expect(lines(checks)).toEqual([
      "LSP diagnostics after this write:",
      "58 files clean; 2 with no new diagnostics (3 reported earlier still present): src/old1.ts, src/old2.ts",
    ]);
    expect(lines([checked("src/b.ts"), checked("src/a.ts")])).toEqual([
      "LSP diagnostics after this write:",
      "2 files clean",
    ]);
    const known = Array.from({ length: 7 }, (_, i) => checked(`src/k${i}.ts`, [], 1));
    expect(lines(known)).toEqual([
      "LSP diagnostics after this write:",
      "7 files with no new diagnostics (7 reported earlier still present): src/k0.ts, src/k1.ts, src/k2.ts, src/k3.ts, src/k4.ts and 2 more",
    ]);
  });

  it("lists files with new diagnostics first, most first, ties in path order; a lone quiet file keeps its line", () => {
    const checks = [
      checked("src/z.ts"),
      checked("src/c.ts", unknownNames(1)),
      checked("src/b.ts", unknownNames(1)),
      checked("src/a.ts", unknownNames(2), 1),
    ];
    expect(lines(checks)).toEqual([
      "LSP diagnostics after this write:",
      "2 new diagnostics in src/a.ts (1 reported earlier still present):",
      "src/a.ts:1:1 error [TS2304] Cannot find name 'missing0'. (typescript)",
      "src/a.ts:2:1 error [TS2304] Cannot find name 'missing1'. (typescript)",
      "1 new diagnostic in src/b.ts:",
      "src/b.ts:1:1 error [TS2304] Cannot find name 'missing0'. (typescript)",
      "1 new diagnostic in src/c.ts:",
      "src/c.ts:1:1 error [TS2304] Cannot find name 'missing0'. (typescript)",
      "src/z.ts: clean (no errors or warnings)",
    ]);
  });

  it("lists a file's diagnostics by position and at most perFile of them", () => {
    const section = writeDiagnosticsSection([checked("src/a.ts", unknownNames(3).reverse())], {
      ...limits,
      perFile: 2,
    });
    expect(section.text?.split("\n")).toEqual([
      "LSP diagnostics after this write:",
      "3 new diagnostics in src/a.ts:",
      "src/a.ts:1:1 error [TS2304] Cannot find name 'missing0'. (typescript)",
      "src/a.ts:2:1 error [TS2304] Cannot find name 'missing1'. (typescript)",
      "… 1 more new diagnostic",
    ]);
    expect(section.unlisted).toEqual(new Map([["/w/src/a.ts", unknownNames(1, 2)]]));
  });

  it("caps the diagnostics listed across files and the files listed, counting and returning the rest", () => {
    const checks = [
      checked("src/one.ts", unknownNames(1)),
      checked("src/four.ts", unknownNames(4)),
      checked("src/three.ts", unknownNames(3)),
      checked("src/two.ts", unknownNames(2)),
      checked("src/clean.ts"),
      checked("src/also-clean.ts"),
    ];
    const byTotal = writeDiagnosticsSection(checks, { ...limits, total: 5 });
    expect(byTotal.text?.split("\n")).toEqual([
      "LSP diagnostics after this write:",
      "4 new diagnostics in src/four.ts:",
      ...[0, 1, 2, 3].map(
        (i) => `src/four.ts:${i + 1}:1 error [TS2304] Cannot find name 'missing${i}'. (typescript)`,
      ),
      "3 new diagnostics in src/three.ts:",
      "src/three.ts:1:1 error [TS2304] Cannot find name 'missing0'. (typescript)",
      "… 2 more new diagnostics",
      "… and 3 more new diagnostics in 2 more files (src/two.ts, src/one.ts); lsp diagnostics lists them",
      "2 files clean",
    ]);
    expect(byTotal.unlisted).toEqual(
      new Map([
        ["/w/src/three.ts", unknownNames(2, 1)],
        ["/w/src/two.ts", unknownNames(2)],
        ["/w/src/one.ts", unknownNames(1)],
      ]),
    );
    const byFiles = writeDiagnosticsSection(checks, { ...limits, files: 1 });
    expect(byFiles.text?.split("\n").slice(-2)).toEqual([
      "… and 6 more new diagnostics in 3 more files (src/three.ts, src/two.ts, src/one.ts); lsp diagnostics lists them",
      "2 files clean",
    ]);
    expect([...byFiles.unlisted.keys()]).toEqual(["/w/src/three.ts", "/w/src/two.ts", "/w/src/one.ts"]);
    expect(
      lines([checked("src/a.ts", unknownNames(1)), checked("src/b.ts", unknownNames(1))], { files: 1 }).at(
        -1,
      ),
    ).toBe("… and 1 more new diagnostic in 1 more file (src/b.ts); lsp diagnostics lists them");
  });

  it("bounds the section of a 61-file write with new diagnostics everywhere", () => {
    const checks = Array.from({ length: 61 }, (_, i) =>
      checked(`src/f${String(i).padStart(2, "0")}.ts`, unknownNames(3)),
    );
    const section = lines(checks);
    // 10 files: a header and 3 diagnostics each (30 of the 50), then the count of the rest.
    expect(section).toHaveLength(1 + 10 * 4 + 1);
    expect(section.at(-1)).toBe(
      "… and 153 more new diagnostics in 51 more files (src/f10.ts, src/f11.ts, src/f12.ts, src/f13.ts, src/f14.ts and 46 more); lsp diagnostics lists them",
    );
  });

  it("collapses files not checked by reason, and files whose diagnostics are not known yet into one line", () => {
    const notChecked = (name: string, reason: string): WriteCheck => ({
      kind: "not-checked",
      file: `/w/${name}`,
      display: name,
      reason,
    });
    const notConfirmed = (name: string): WriteCheck => ({
      kind: "not-confirmed",
      file: `/w/${name}`,
      display: name,
    });
    expect(lines([notChecked("main.go", "gopls exited")])).toEqual([
      "LSP diagnostics after this write:",
      "diagnostics for main.go not checked: gopls exited",
    ]);
    expect(lines([notConfirmed("main.go")])).toEqual([
      "LSP diagnostics after this write:",
      "diagnostics for main.go not known yet: its server did not answer for the written version within 8000 ms; ask again with lsp diagnostics",
    ]);
    const checks = [
      ...Array.from({ length: 7 }, (_, i) => notChecked(`g${i}.go`, "gopls exited")),
      notChecked("a.c", "clangd exited"),
      notChecked("x.py", "reason 3"),
      notChecked("y.py", "reason 4"),
      notChecked("z.py", "reason 5"),
      notConfirmed("b.ts"),
      notConfirmed("a.ts"),
      checked("c.ts"),
    ];
    expect(lines(checks)).toEqual([
      "LSP diagnostics after this write:",
      "c.ts: clean (no errors or warnings)",
      "diagnostics for a.c not checked: clangd exited",
      "diagnostics for 7 files not checked (g0.go, g1.go, g2.go, g3.go, g4.go and 2 more): gopls exited",
      "diagnostics for x.py not checked: reason 3",
      "diagnostics for 2 more files not checked (y.py, z.py) for other reasons; check with lsp diagnostics",
      "diagnostics for 2 files not known yet (a.ts, b.ts): their servers did not answer for the written versions within 8000 ms; ask again with lsp diagnostics",
    ]);
  });

  it("lists files the write did not change after the written ones, says what is gone from them and what was not checked", () => {
    const alongside = (name: string, introduced: Diagnostic[], gone: number): WriteCheck => ({
      kind: "alongside",
      file: `/w/${name}`,
      display: name,
      introduced,
      gone,
    });
    expect(
      lines([
        alongside("main.ts", unknownNames(2), 0),
        checked("lib.ts", unknownNames(1, 5)),
        alongside("other.ts", [], 1),
        alongside("third.ts", [], 2),
        { kind: "alongside-unchecked", file: "/w/slow.ts", display: "slow.ts" },
      ]),
    ).toEqual([
      "LSP diagnostics after this write:",
      "1 new diagnostic in lib.ts:",
      "lib.ts:6:1 error [TS2304] Cannot find name 'missing5'. (typescript)",
      "2 new diagnostics in main.ts, which this write did not change:",
      "main.ts:1:1 error [TS2304] Cannot find name 'missing0'. (typescript)",
      "main.ts:2:1 error [TS2304] Cannot find name 'missing1'. (typescript)",
      "3 diagnostics reported earlier are gone from other.ts (1), third.ts (2), which this write did not change",
      "1 other open file not checked again within 8000 ms (slow.ts); lsp diagnostics checks them",
    ]);
    expect(lines([checked("lib.ts"), alongside("main.ts", [], 1)])).toEqual([
      "LSP diagnostics after this write:",
      "lib.ts: clean (no errors or warnings)",
      "1 diagnostic reported earlier is gone from main.ts, which this write did not change",
    ]);
  });

  it("says when what a file got may come from changes made outside the tools, or predate the write", () => {
    const alongside = (name: string, caveat: { firstLook?: true; unsettled?: true }): WriteCheck => ({
      kind: "alongside",
      file: `/w/${name}`,
      display: name,
      introduced: unknownNames(1),
      gone: 0,
      ...caveat,
    });
    expect(
      lines([
        checked("lib.go"),
        alongside("cmd/main.go", { unsettled: true }),
        alongside("util.go", { firstLook: true }),
      ]),
    ).toEqual([
      "LSP diagnostics after this write:",
      "1 new diagnostic in cmd/main.go, which this write did not change (some may come from changes made outside the tools, which its server was still checking):",
      "cmd/main.go:1:1 error [TS2304] Cannot find name 'missing0'. (typescript)",
      "1 diagnostic in util.go, which this write did not change (checked for the first time: not known to be caused by this write):",
      "util.go:1:1 error [TS2304] Cannot find name 'missing0'. (typescript)",
      "lib.go: clean (no errors or warnings)",
    ]);
  });

  it("never lists a file checked alongside for the first time whole: a few naming what the write changed, the rest counted", () => {
    const firstLook = (name: string, introduced: Diagnostic[], unattributed: number): WriteCheck => ({
      kind: "alongside",
      file: `/w/${name}`,
      display: name,
      introduced,
      gone: 0,
      firstLook: true,
      unattributed,
    });
    expect(lines([checked("base.py"), firstLook("unix.py", unknownNames(2), 50)])).toEqual([
      "LSP diagnostics after this write:",
      "2 of the 52 diagnostics in unix.py, which this write did not change, name what it changed (checked for the first time: not known to be caused by this write; the other 50 are not listed, lsp diagnostics on unix.py lists them):",
      "unix.py:1:1 error [TS2304] Cannot find name 'missing0'. (typescript)",
      "unix.py:2:1 error [TS2304] Cannot find name 'missing1'. (typescript)",
      "base.py: clean (no errors or warnings)",
    ]);
    expect(lines([checked("base.py"), firstLook("selector.py", [], 73)])).toEqual([
      "LSP diagnostics after this write:",
      "selector.py, which this write did not change, has 73 errors or warnings not known to be caused by it (checked for the first time: what it had before is not known); lsp diagnostics on selector.py lists them",
      "base.py: clean (no errors or warnings)",
    ]);
    expect(
      lines([checked("base.py"), firstLook("selector.py", [], 73), firstLook("unix.py", [], 1)]),
    ).toEqual([
      "LSP diagnostics after this write:",
      "2 files this write did not change have 74 errors or warnings not known to be caused by it (checked for the first time: what they had before is not known): selector.py (73), unix.py (1); lsp diagnostics on each lists them",
      "base.py: clean (no errors or warnings)",
    ]);
  });

  it("says when a server checking the whole workspace had not finished its pass after the write", () => {
    expect(lines([checked("lib.go"), { kind: "alongside-pending", display: "gopls" }])).toEqual([
      "LSP diagnostics after this write:",
      "lib.go: clean (no errors or warnings)",
      'gopls had not finished checking the files this write affects within 8000 ms: files not open were not checked again; lsp diagnostics "*" checks the whole project',
    ]);
  });
});
