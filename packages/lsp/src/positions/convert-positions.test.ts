import { describe, expect, it } from "vitest";
import { convertPositions, type PositionConverter } from "./convert-positions.js";

/** Moves positions of `a.ts` one line down, and marks which document each was converted for. */
const seen: string[] = [];
const convert: PositionConverter = (uri, position) => {
  seen.push(uri);
  return uri.endsWith("a.ts") ? { line: position.line + 1, character: position.character } : position;
};
const range = (line: number) => ({ start: { line, character: 1 }, end: { line, character: 2 } });

describe("positions converted per document", () => {
  it("converts request positions, ranges without a uri, and locations by their own uri", () => {
    const params = { textDocument: { uri: "file:///a.ts" }, position: { line: 3, character: 4 } };
    expect(convertPositions(params, "file:///a.ts", convert)).toEqual({
      textDocument: { uri: "file:///a.ts" },
      position: { line: 4, character: 4 },
    });
    const locations = [
      { uri: "file:///a.ts", range: range(0) },
      { uri: "file:///b.ts", range: range(0) },
    ];
    expect(convertPositions(locations, "file:///b.ts", convert)).toEqual([
      { uri: "file:///a.ts", range: range(1) },
      { uri: "file:///b.ts", range: range(0) },
    ]);
    const hover = { contents: { kind: "markdown", value: "x" }, range: range(2) };
    expect(convertPositions(hover, "file:///a.ts", convert)).toEqual({ ...hover, range: range(3) });
  });

  it("converts location links by target, and workspace edits by each document edited", () => {
    const link = {
      originSelectionRange: range(0),
      targetUri: "file:///b.ts",
      targetRange: range(5),
      targetSelectionRange: range(5),
    };
    expect(convertPositions([link], "file:///a.ts", convert)).toEqual([
      { ...link, originSelectionRange: range(1) },
    ]);
    const edit = {
      changes: {
        "file:///a.ts": [{ range: range(0), newText: "x" }],
        "file:///b.ts": [{ range: range(0), newText: "y" }],
      },
      documentChanges: [
        { textDocument: { uri: "file:///a.ts", version: 1 }, edits: [{ range: range(7), newText: "z" }] },
      ],
    };
    expect(convertPositions(edit, undefined, convert)).toEqual({
      changes: {
        "file:///a.ts": [{ range: range(1), newText: "x" }],
        "file:///b.ts": [{ range: range(0), newText: "y" }],
      },
      documentChanges: [
        { textDocument: { uri: "file:///a.ts", version: 1 }, edits: [{ range: range(8), newText: "z" }] },
      ],
    });
  });

  it("converts a diagnostic's range by its document and its related locations by theirs", () => {
    const publish = {
      uri: "file:///a.ts",
      diagnostics: [
        {
          range: range(0),
          message: "m",
          relatedInformation: [{ location: { uri: "file:///b.ts", range: range(0) }, message: "r" }],
        },
      ],
    };
    const converted = convertPositions(publish, "file:///a.ts", convert);
    expect(converted.diagnostics[0]!.range).toEqual(range(1));
    expect(converted.diagnostics[0]!.relatedInformation![0]!.location.range).toEqual(range(0));
  });

  it("hands back the same objects when nothing changes, and leaves positions of no document alone", () => {
    const symbols = [{ name: "s", range: range(0), selectionRange: range(0), children: [] }];
    expect(convertPositions(symbols, "file:///b.ts", convert)).toBe(symbols);
    seen.length = 0;
    const loose = { range: range(0) };
    expect(convertPositions(loose, undefined, convert)).toBe(loose);
    expect(seen).toEqual([]);
  });
});
