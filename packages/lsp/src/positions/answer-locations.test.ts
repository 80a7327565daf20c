import { describe, expect, it } from "vitest";
import type { Location, LocationLink } from "vscode-languageserver-protocol";
import { answerLocations } from "./answer-locations.js";

const range = (line: number, start: number, end: number) => ({
  start: { line, character: start },
  end: { line, character: end },
});

const location: Location = { uri: "file:///p/a.ts", range: range(3, 4, 7) };
const link: LocationLink = {
  originSelectionRange: range(9, 0, 3),
  targetUri: "file:///p/b.ts",
  targetRange: range(0, 0, 40),
  targetSelectionRange: range(0, 16, 19),
};

describe("a location answer as places", () => {
  it("gives a Location as it is", () => {
    expect(answerLocations(location)).toEqual([location]);
    expect(answerLocations([location])).toEqual([location]);
  });

  it("gives a LocationLink as its target's selection range (the name), not its whole targetRange", () => {
    expect(answerLocations(link)).toEqual([{ uri: "file:///p/b.ts", range: range(0, 16, 19) }]);
  });

  it("keeps the server's order in a mixed array", () => {
    expect(answerLocations([link, location, link])).toEqual([
      { uri: "file:///p/b.ts", range: range(0, 16, 19) },
      location,
      { uri: "file:///p/b.ts", range: range(0, 16, 19) },
    ]);
  });

  it("gives none for null, undefined or an empty array", () => {
    expect(answerLocations(null)).toEqual([]);
    expect(answerLocations(undefined)).toEqual([]);
    expect(answerLocations([])).toEqual([]);
  });

  it("keeps a non-file URI (the caller leaves it out or stops at it)", () => {
    const library: Location = { uri: "jdt://contents/rt.jar/java.lang/String.class", range: range(1, 2, 8) };
    const virtual: LocationLink = { ...link, targetUri: "untitled:Untitled-1" };
    expect(answerLocations([library, virtual])).toEqual([
      library,
      { uri: "untitled:Untitled-1", range: range(0, 16, 19) },
    ]);
  });
});
