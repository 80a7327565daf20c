import type { Diagnostic } from "vscode-languageserver-protocol";
import { describe, expect, it } from "vitest";
import {
  beyondAll,
  emptyDiagnosticsLooks,
  forgetDiagnostics,
  forgetLooks,
  goneSinceLastLook,
  noteLook,
  recordAlongside,
  recordDiagnostics,
  type DiagnosticsLedger,
} from "./diagnostics-ledger.js";
import { earlierLines, lookLines } from "./look-lines.js";

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

describe("recordDiagnostics picking which occurrences of a key are new", () => {
  const missing = "Cannot find name 'missingA'.";
  // main.ts after two writes, each adding one use of an unknown name.
  const before = [
    "const count = 3; console.log(missingA);",
    "for (const s of shapes) {",
    "  console.log(s);",
    "}",
    "console.log(total, count, missingA);",
  ].join("\n");
  const reportedBefore = [diagnostic(0, missing), diagnostic(4, missing)];

  function ledgerAndLines() {
    const ledger: DiagnosticsLedger = new Map();
    recordDiagnostics(ledger, "/main.ts", reportedBefore);
    const lines = lookLines(
      reportedBefore.map((d) => [`error\u00002322\u0000${missing}`, d.range.start.line] as const),
      before,
    );
    return { ledger, lines };
  }

  it("reports the occurrence on a line none stood on before, not the last one by position", () => {
    const { ledger, lines } = ledgerAndLines();
    // A third use inserted above the loop: the old last one moved down to line 6.
    const after = before.replace("for (const s", "console.log(missingA);\nfor (const s");
    const current = [diagnostic(0, missing), diagnostic(1, missing), diagnostic(5, missing)];
    const delta = recordDiagnostics(ledger, "/main.ts", current, earlierLines(lines, after));
    expect(delta.introduced.map((d) => d.range.start.line)).toEqual([1]);
    expect(delta.stillPresent).toBe(2);
  });

  it("matches earlier lines as a multiset: a line written twice more holds one old occurrence", () => {
    const { ledger, lines } = ledgerAndLines();
    // The last line copied twice below itself (and re-indented): two of the three are new.
    const after = `${before}\n  console.log(total, count, missingA);\nconsole.log(total, count, missingA);`;
    const current = [
      diagnostic(0, missing),
      diagnostic(4, missing),
      diagnostic(5, missing),
      diagnostic(6, missing),
    ];
    const delta = recordDiagnostics(ledger, "/main.ts", current, earlierLines(lines, after));
    expect(delta.introduced.map((d) => d.range.start.line)).toEqual([5, 6]);
  });

  it("falls back to the last ones when the lines do not tell (unknown, or more unmatched than added)", () => {
    const { ledger, lines } = ledgerAndLines();
    const current = [diagnostic(0, missing), diagnostic(1, missing), diagnostic(5, missing)];
    expect(
      recordDiagnostics(new Map(ledger), "/main.ts", current).introduced.map((d) => d.range.start.line),
    ).toEqual([5]);
    // Every line edited: none matches, one of three is new.
    const edited = "a(missingA);\nb(missingA);\nc\nd\ne\nf(missingA);";
    expect(
      recordDiagnostics(ledger, "/main.ts", current, earlierLines(lines, edited)).introduced.map(
        (d) => d.range.start.line,
      ),
    ).toEqual([5]);
  });
});

const emptyLooks = emptyDiagnosticsLooks;

describe("noteLook", () => {
  it("reports nothing at a file's first look, then what is new since the last look", () => {
    const looks = emptyLooks();
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

  it("tells which occurrence of a key is new since the last look by the lines they stood on", () => {
    const looks = emptyLooks();
    const first = "f(x);\ng(x);\n";
    noteLook(looks, "/main.ts", [diagnostic(0, "x?"), diagnostic(1, "x?")], 1, () => first);
    const inserted = "f(x);\nh(x);\ng(x);\n";
    const current = [diagnostic(0, "x?"), diagnostic(1, "x?"), diagnostic(2, "x?")];
    expect(noteLook(looks, "/main.ts", current, 2, () => inserted)).toEqual([diagnostic(1, "x?")]);
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

describe("a dropped look compared with the file's text now", () => {
  // main.ts at its last look: "bad" on line 1, "worse" on lines 2 and 3.
  const text = 'const a: number = "x";\n  const b: string = 1;\nconst c: string = 2;\n';
  const seen = [diagnostic(0, "bad"), diagnostic(1, "worse"), diagnostic(2, "worse")];

  function droppedLook(reported: readonly Diagnostic[] = []) {
    const looks = emptyLooks();
    const ledger: DiagnosticsLedger = new Map();
    recordDiagnostics(ledger, "/main.ts", reported);
    noteLook(looks, "/main.ts", seen, 1, () => text);
    forgetLooks(looks, "/main.ts");
    return { looks, ledger };
  }

  const compare = (
    { looks, ledger }: ReturnType<typeof droppedLook>,
    now: string,
    current: readonly Diagnostic[],
  ) =>
    beyondAll(
      [ledger, looks.lastSeen],
      "/main.ts",
      current,
      goneSinceLastLook(looks, "/main.ts", () => now),
    );

  it("lists what has the key of one whose line is gone since (fixed, then brought back)", () => {
    const fixed =
      "const a: number = 1;\n  const b: string = 1;\nconst c: string = 2;\nconst d: number = f();\n";
    const back = diagnostic(3, "bad");
    expect(compare(droppedLook(), fixed, [back, ...seen.slice(1)])).toEqual([back]);
    // Reported, not only seen: the same.
    expect(compare(droppedLook([seen[0]!]), fixed, [back, ...seen.slice(1)])).toEqual([back]);
  });

  it("lists nothing of what stood on lines still there, moved or re-indented", () => {
    const moved = '// a comment\nconst a: number = "x";\nconst b: string = 1;\nconst c: string = 2;\n';
    const current = [diagnostic(1, "bad"), diagnostic(2, "worse"), diagnostic(3, "worse")];
    expect(compare(droppedLook(seen), moved, current)).toEqual([]);
    expect(goneSinceLastLook(droppedLook().looks, "/main.ts", () => moved)).toEqual(new Map());
  });

  it("counts a line once per time the text has it", () => {
    // One of the two "worse" lines is gone: one "worse" beyond the other is listed.
    const one = 'const a: number = "x";\nconst b: string = 1;\n';
    const current = [diagnostic(0, "bad"), diagnostic(1, "worse"), diagnostic(5, "worse")];
    expect(compare(droppedLook(), one, current)).toEqual([diagnostic(5, "worse")]);
  });

  it("takes what was seen as before when the look's text or the text now is not known", () => {
    const fixed = "const a: number = 1;\n";
    const looks = emptyLooks();
    noteLook(looks, "/main.ts", seen, 1);
    forgetLooks(looks, "/main.ts");
    expect(goneSinceLastLook(looks, "/main.ts", () => fixed)).toEqual(new Map());
    expect(goneSinceLastLook(droppedLook().looks, "/main.ts", () => undefined)).toEqual(new Map());
    expect(beyondAll([looks.lastSeen], "/main.ts", seen)).toEqual([]);
  });
});
