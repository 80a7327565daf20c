import type { Diagnostic } from "vscode-languageserver-protocol";
import { describe, expect, it } from "vitest";
import {
  forgetDiagnostics,
  forgetLooks,
  noteLook,
  recordAlongside,
  recordDiagnostics,
  type DiagnosticsLedger,
  type DiagnosticsLooks,
} from "./diagnostics-ledger.js";

function diagnostic(line: number, message: string, code: number | string = 2322): Diagnostic {
  return {
    range: { start: { line, character: 0 }, end: { line, character: 1 } },
    severity: 1,
    code,
    message,
  };
}

describe("recordDiagnostics", () => {
  it("reports a diagnostic once, not again after it moved", () => {
    const ledger: DiagnosticsLedger = new Map();
    expect(recordDiagnostics(ledger, "/a.ts", [diagnostic(3, "bad")]).introduced).toHaveLength(1);
    const moved = recordDiagnostics(ledger, "/a.ts", [diagnostic(7, "bad")]);
    expect(moved.introduced).toHaveLength(0);
    expect(moved.stillPresent).toBe(1);
  });

  it("reports a second occurrence of the same message in the same file", () => {
    const ledger: DiagnosticsLedger = new Map();
    recordDiagnostics(ledger, "/a.ts", [diagnostic(3, "bad")]);
    const second = recordDiagnostics(ledger, "/a.ts", [diagnostic(3, "bad"), diagnostic(9, "bad")]);
    expect(second.introduced.map((d) => d.range.start.line)).toEqual([9]);
  });

  it("reports again what was forgotten: one occurrence per diagnostic forgotten", () => {
    const ledger: DiagnosticsLedger = new Map();
    const three = [diagnostic(1, "bad"), diagnostic(2, "bad"), diagnostic(3, "worse")];
    recordDiagnostics(ledger, "/a.ts", three);
    forgetDiagnostics(ledger, "/a.ts", [diagnostic(2, "bad"), diagnostic(3, "worse")]);
    const next = recordDiagnostics(ledger, "/a.ts", three);
    expect(next.introduced.map((d) => [d.range.start.line, d.message])).toEqual([
      [2, "bad"],
      [3, "worse"],
    ]);
    expect(next.stillPresent).toBe(1);
  });

  it("keys on the file, the code and the message", () => {
    const ledger: DiagnosticsLedger = new Map();
    recordDiagnostics(ledger, "/a.ts", [diagnostic(3, "bad")]);
    expect(recordDiagnostics(ledger, "/b.ts", [diagnostic(3, "bad")]).introduced).toHaveLength(1);
    expect(recordDiagnostics(ledger, "/a.ts", [diagnostic(3, "bad", 1005)]).introduced).toHaveLength(1);
  });

  it("reports a diagnostic again when it comes back after a fix", () => {
    const ledger: DiagnosticsLedger = new Map();
    recordDiagnostics(ledger, "/a.ts", [diagnostic(3, "bad")]);
    expect(recordDiagnostics(ledger, "/a.ts", []).introduced).toHaveLength(0);
    expect(recordDiagnostics(ledger, "/a.ts", [diagnostic(3, "bad")]).introduced).toHaveLength(1);
  });
});

describe("noteLook", () => {
  it("reports nothing at a file's first look, then what is new since the last look", () => {
    const looks: DiagnosticsLooks = {
      counts: new Map(),
      files: new Set(),
      published: new Map(),
      marks: new Map(),
      pending: new Set(),
      everLooked: new Set(),
      lastSeen: new Map(),
    };
    expect(noteLook(looks, "/main.ts", [diagnostic(3, "old")])).toEqual([]);
    expect(noteLook(looks, "/main.ts", [diagnostic(4, "old"), diagnostic(9, "new")])).toEqual([
      diagnostic(9, "new"),
    ]);
    // Clean, then broken again: the error is new once more.
    expect(noteLook(looks, "/main.ts", [])).toEqual([]);
    expect(noteLook(looks, "/main.ts", [diagnostic(9, "new")])).toEqual([diagnostic(9, "new")]);
    forgetLooks(looks, "/main.ts");
    expect(noteLook(looks, "/main.ts", [diagnostic(9, "new")])).toEqual([]);
  });
});

describe("recordAlongside", () => {
  it("adds what was shown, drops what is gone, and counts what reported earlier is gone", () => {
    const ledger: DiagnosticsLedger = new Map();
    // "old" was there before (never shown): not recorded; "new" was shown.
    expect(
      recordAlongside(
        ledger,
        "/main.ts",
        [diagnostic(1, "old"), diagnostic(2, "new")],
        [diagnostic(2, "new")],
      ),
    ).toBe(0);
    // A write of main.ts itself then says "new" was reported earlier, and "old" is new to the model.
    expect(
      recordDiagnostics(new Map(ledger), "/main.ts", [diagnostic(1, "old"), diagnostic(2, "new")]),
    ).toEqual({
      introduced: [diagnostic(1, "old")],
      stillPresent: 1,
    });
    expect(recordAlongside(ledger, "/main.ts", [diagnostic(1, "old")], [])).toBe(1);
    expect(ledger.size).toBe(0);
  });
});
