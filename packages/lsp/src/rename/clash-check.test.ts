import { ProbedDocuments } from "../client/probed-documents.js";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import type { Diagnostic } from "vscode-languageserver-protocol";
import type { LanguageClient } from "../client/language-client.js";
import type { LspSupervisor } from "../supervisor/supervisor.js";
import type { PlannedEdit } from "./apply-workspace-edit.js";
import { checkClashes } from "./clash-check.js";

// gopls diagnoses pass by pass, one per change sent: a file's new version is first published
// from the pass of its own change. Whether the pass of the next file's change (which declares
// the new name) comes before the check reads the first file's diagnostics is a matter of load:
// the real server cannot be made to show it on demand (it did on a loaded CI machine), so this
// fake keeps that pass until the check waits for the server's work, as gopls's progress reports
// let it.

const mainPath = "/w/main.go";
const shapesPath = "/w/shapes/shapes.go";
const mainBefore = 'package main\n\nimport "example.com/app/shapes"\n\nvar _ = shapes.Square{}\n';
const shapesBefore = "package shapes\n\ntype Square struct{}\n";
const range = (line: number, start: number, end: number) => ({
  start: { line, character: start },
  end: { line, character: end },
});
const uri = (path: string) => pathToFileURL(path).href;

/** A fake gopls (see above); `workDone` false: its later passes do not end within the bound. */
function fakeGopls(workDone = true) {
  const texts = new Map<string, string>([
    [uri(mainPath), mainBefore],
    [uri(shapesPath), shapesBefore],
  ]);
  const published = new Map<string, Diagnostic[]>();
  const pending: string[] = [];
  const diagnose = (target: string): void => {
    const undeclared =
      target === uri(mainPath) &&
      texts.get(target)!.includes("shapes.Box") &&
      !texts.get(uri(shapesPath))!.includes("type Box");
    published.set(
      target,
      undeclared
        ? [
            {
              range: range(4, 15, 18),
              severity: 1,
              code: "UndeclaredImportedName",
              source: "compiler",
              message: "Box not declared by package shapes",
            },
          ]
        : [],
    );
  };
  const client = {
    spec: { language: "go", command: "gopls" },
    isSynced: (at: string, text: string) => texts.get(at) === text,
    sync: (at: string, _languageId: string, text: string) => {
      if (texts.get(at) === text) return Promise.resolve(false);
      texts.set(at, text);
      // This change's pass: the changed file now, its importers in a later pass.
      diagnose(at);
      pending.push(...[...texts.keys()].filter((other) => other !== at));
      return Promise.resolve(true);
    },
    awaitWorkDone: () => {
      if (!workDone) return Promise.resolve(false);
      for (const other of pending.splice(0)) diagnose(other);
      return Promise.resolve(true);
    },
    freshDiagnostics: (at: string) => Promise.resolve({ diagnostics: published.get(at) ?? [], fresh: true }),
    request: () => Promise.resolve(null),
    close: () => Promise.resolve(),
    probes: new ProbedDocuments(),
  } as unknown as LanguageClient;
  return { client, texts };
}

const supervisor = {
  workingDirectory: "/w",
  pathOf: (at: string) => fileURLToPath(at),
  uriOf: uri,
  display: (path: string) => path.slice("/w/".length),
  texts: {
    tryRead: (path: string) => ({ text: path === mainPath ? mainBefore : shapesBefore }),
  },
} as unknown as LspSupervisor;

/** Renaming shapes.Square to Box, main.go's edit listed first (so sent first), as gopls lists it. */
function renameSquare(client: LanguageClient) {
  const after = (text: string) => text.replace("Square", "Box");
  return checkClashes({
    client,
    supervisor,
    edit: {
      changes: {
        [uri(mainPath)]: [{ range: range(4, 15, 21), newText: "Box" }],
        [uri(shapesPath)]: [{ range: range(2, 5, 11), newText: "Box" }],
      },
    },
    planned: {
      texts: new Map([
        [mainPath, { before: mainBefore, after: after(mainBefore) }],
        [shapesPath, { before: shapesBefore, after: after(shapesBefore) }],
      ]),
    } as unknown as PlannedEdit,
    uri: uri(shapesPath),
    at: { line: 2, character: 5 },
    oldName: "Square",
    newName: "Box",
    before: new Map([
      [mainPath, []],
      [shapesPath, []],
    ]),
    timeoutMs: 2_000,
  });
}

describe("checkClashes on a server that diagnoses pass by pass", () => {
  it("reads the edited files' errors once every change's pass ended, not from the first file's own pass", async () => {
    const { client, texts } = fakeGopls();
    const check = await renameSquare(client);
    expect(check).toEqual({ clashes: [], unchecked: [], elsewhere: [] });
    // Set back to the disk's text afterwards.
    expect(texts.get(uri(mainPath))).toBe(mainBefore);
    expect(texts.get(uri(shapesPath))).toBe(shapesBefore);
  });

  it("counts nothing as a clash when the passes do not end within the bound, and says the errors went unchecked", async () => {
    const { client } = fakeGopls(false);
    const check = await renameSquare(client);
    expect(check.clashes).toEqual([]);
    expect(check.unchecked).toEqual([
      "the diagnostics with the edit of main.go, shapes/shapes.go did not come within the check's bound",
    ]);
  });
});

// An error flagging a whole call or statement holds the renamed name within its range, starting
// before it and ending after it (or right at its end). Errors that real servers give over such a
// range name the renamed symbol too as far as found (the message test takes them), so this fake
// publishes errors of that shape without the name, which no real server was found to give on
// demand.

const calcPath = "/w/calc.ts";
const calcBefore =
  "export function area(w: number): number {\n  return w;\n}\nexport const a = area(2) + 1;\nexport const b = 3 * 4;\n";

/** A fake TypeScript-like server publishing `errors` for the probe's text, none for the disk's. */
function fakeServer(errors: Diagnostic[]) {
  let text = calcBefore;
  const client = {
    spec: { language: "typescript", command: "typescript-language-server" },
    isSynced: (_at: string, expected: string) => text === expected,
    sync: (_at: string, _languageId: string, next: string) => {
      const changed = next !== text;
      text = next;
      return Promise.resolve(changed);
    },
    awaitWorkDone: () => Promise.resolve(true),
    freshDiagnostics: () => Promise.resolve({ diagnostics: text === calcBefore ? [] : errors, fresh: true }),
    request: () => Promise.resolve(null),
    close: () => Promise.resolve(),
    probes: new ProbedDocuments(),
  } as unknown as LanguageClient;
  return { client, text: () => text };
}

const calcSupervisor = {
  workingDirectory: "/w",
  pathOf: (at: string) => fileURLToPath(at),
  uriOf: uri,
  display: (path: string) => path.slice("/w/".length),
  texts: { tryRead: () => ({ text: calcBefore }) },
} as unknown as LspSupervisor;

/** Renaming `area` to `size` (lines 1 and 4): `export const a = size(2) + 1;` after. */
function renameArea(client: LanguageClient) {
  return checkClashes({
    client,
    supervisor: calcSupervisor,
    edit: {
      changes: {
        [uri(calcPath)]: [
          { range: range(0, 16, 20), newText: "size" },
          { range: range(3, 17, 21), newText: "size" },
        ],
      },
    },
    planned: {
      texts: new Map([[calcPath, { before: calcBefore, after: calcBefore.replaceAll("area", "size") }]]),
    } as unknown as PlannedEdit,
    uri: uri(calcPath),
    at: { line: 0, character: 16 },
    oldName: "area",
    newName: "size",
    before: new Map([[calcPath, []]]),
    timeoutMs: 2_000,
  });
}

const error = (start: { line: number; character: number }, end: typeof start, message: string) => ({
  range: { start, end },
  severity: 1 as const,
  code: 2349,
  source: "typescript",
  message,
});

describe("checkClashes on errors whose range holds an edited place", () => {
  it("counts an error flagging the whole statement or call around the new name as a clash", async () => {
    const { client, text } = fakeServer([
      // The statement `export const a = size(2) + 1;`, and `size(2) + 1` from before the call.
      error({ line: 3, character: 0 }, { line: 3, character: 29 }, "Statement flagged as a whole."),
      error({ line: 3, character: 13 }, { line: 3, character: 21 }, "Callee flagged up to its end."),
    ]);
    const check = await renameArea(client);
    expect(check).toEqual({
      clashes: [
        "calc.ts:4:1 error [TS2349] Statement flagged as a whole. (typescript) — the line would read: export const a = size(2) + 1;",
        "calc.ts:4:14 error [TS2349] Callee flagged up to its end. (typescript) — the line would read: export const a = size(2) + 1;",
      ],
      unchecked: [],
      elsewhere: [],
    });
    expect(text()).toBe(calcBefore);
  });

  it("still leaves out an error away from every edit, naming neither name, and says so", async () => {
    const { client } = fakeServer([
      error({ line: 4, character: 0 }, { line: 4, character: 23 }, "Statement flagged as a whole."),
      // From right after the call's name: not at the edit.
      error({ line: 3, character: 21 }, { line: 3, character: 24 }, "Arguments flagged."),
    ]);
    const check = await renameArea(client);
    expect(check.clashes).toEqual([]);
    expect(check.unchecked).toEqual([
      "2 new errors naming neither 'area' nor 'size', away from the edited places, were not counted as a clash (calc.ts:5:1 error [TS2349] Statement flagged as a whole. (typescript), calc.ts:4:22 error [TS2349] Arguments flagged. (typescript))",
    ]);
  });
});

// A method renamed alone (gopls) can break a package the edit does not touch, one using the type
// as an interface it then no longer implements: the check reads what gopls publishes for the
// other files with the probe's text. The real case is in rename-go-satisfied's tests; this fake
// shows what is counted: only errors new to a file since the probe began, naming a name.

const circlePath = "/w/circle/circle.go";
const circleBefore = "package circle\n\ntype Circle struct{}\n\nfunc (Circle) Area() float64 { return 1 }\n";
const usePath = "/w/use/use.go";
const useText = 'package use\n\nimport "example.com/app/circle"\n\nvar s Shape = circle.Circle{}\n';

const goError = (line: number, code: string, message: string, severity = 1): Diagnostic => ({
  range: range(line, 14, 29),
  severity: severity as Diagnostic["severity"],
  code,
  source: "compiler",
  message,
});
const stillThere = goError(4, "InvalidIfaceAssign", "x does not implement Shape (missing method Area)");

const squarePath = "/w/square/square.go";
const squareMissing = (name: string) =>
  goError(6, "InvalidIfaceAssign", `Square does not implement Shape (missing method ${name})`);

/** A fake gopls publishing for files not open; `checked` false: its first check never ends. */
function fakeWorkspace(checked = true) {
  let text = circleBefore;
  let seq = 5;
  const publishes = new Map<string, { diagnostics: Diagnostic[]; mark: number }>([
    [uri(usePath), { diagnostics: [stillThere], mark: 4 }],
    // Broken before the rename: the probe words its error with the new name.
    [uri(squarePath), { diagnostics: [squareMissing("Area")], mark: 4 }],
    // Published before the probe, never again: not the probe's.
    ["file:///w/stale/stale.go", { diagnostics: [goError(0, "X", "Area is old")], mark: 3 }],
  ]);
  const client = {
    spec: { language: "go", command: "gopls", publishesWorkspace: true },
    isSynced: (_at: string, expected: string) => text === expected,
    sync: (_at: string, _languageId: string, next: string) => {
      text = next;
      const probing = next !== circleBefore;
      publishes.set(uri(usePath), {
        diagnostics: probing
          ? [
              stillThere,
              goError(
                4,
                "InvalidIfaceAssign",
                "cannot use circle.Circle{} as Shape value: circle.Circle does not implement Shape (missing method Area)",
              ),
              goError(4, "Warn", "Area is shadowed", 2),
              goError(2, "UnusedImport", '"fmt" imported and not used'),
            ]
          : [stillThere],
        mark: ++seq,
      });
      publishes.set(uri(squarePath), {
        diagnostics: [squareMissing(probing ? "Size" : "Area")],
        mark: ++seq,
      });
      // The edited file's own errors are the edited files' check's, not this one's.
      publishes.set(uri(circlePath), {
        diagnostics: probing ? [goError(4, "X", "Area again")] : [],
        mark: ++seq,
      });
      return Promise.resolve(true);
    },
    awaitWorkDone: () => Promise.resolve(checked),
    publishMark: () => (checked ? seq : undefined),
    latestPublishes: () => [...publishes].map(([at, publish]) => ({ uri: at, ...publish })),
    freshDiagnostics: () => Promise.resolve({ diagnostics: [], fresh: true }),
    request: () => Promise.resolve(null),
    close: () => Promise.resolve(),
    probes: new ProbedDocuments(),
  } as unknown as LanguageClient;
  return { client, text: () => text };
}

function renameCircleArea(client: LanguageClient) {
  const after = circleBefore.replace("Area", "Size");
  return checkClashes({
    client,
    supervisor: {
      workingDirectory: "/w",
      pathOf: (at: string) => fileURLToPath(at),
      uriOf: uri,
      display: (path: string) => path.slice("/w/".length),
      texts: {
        tryRead: (path: string) => {
          const text = path === usePath ? useText : path === squarePath ? "" : circleBefore;
          return { text, lines: () => text.split("\n") };
        },
      },
    } as unknown as LspSupervisor,
    edit: { changes: { [uri(circlePath)]: [{ range: range(4, 14, 18), newText: "Size" }] } },
    planned: {
      texts: new Map([[circlePath, { before: circleBefore, after }]]),
    } as unknown as PlannedEdit,
    uri: uri(circlePath),
    at: { line: 4, character: 14 },
    oldName: "Area",
    newName: "Size",
    before: new Map([[circlePath, []]]),
    elsewhere: true,
    timeoutMs: 2_000,
  });
}

describe("checkClashes on the files the edit does not touch", () => {
  it("lists the errors new there since the probe began that name a name, nothing else", async () => {
    // Not square.go's: it lacked the method before, under its old name.
    const { client, text } = fakeWorkspace();
    const check = await renameCircleArea(client);
    expect(check.elsewhere).toEqual([
      "use/use.go:5:15 error [InvalidIfaceAssign] cannot use circle.Circle{} as Shape value: circle.Circle does not implement Shape (missing method Area) (compiler) — the line: var s Shape = circle.Circle{}",
    ]);
    // The edited file's errors are read as its fresh diagnostics (none here), not as "elsewhere".
    expect(check.clashes).toEqual([]);
    expect(text()).toBe(circleBefore);
  });

  it("says they were not checked when the server's first check of the workspace has not ended", async () => {
    const { client } = fakeWorkspace(false);
    const check = await renameCircleArea(client);
    expect(check.elsewhere).toEqual([]);
    expect(check.unchecked).toContain(
      "gopls was still checking the workspace: the files the edit does not touch were not checked",
    );
  });
});
