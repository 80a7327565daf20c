import { describe, expect, it } from "vitest";
import { spellingsIn } from "./normalized-match.js";

describe("spellingsIn", () => {
  const composed = "caf\u00e9";
  const decomposed = "cafe\u0301";

  it("finds a decomposed name from a composed symbol, and the other way round", () => {
    expect(spellingsIn(`export const k2 = ${decomposed} + 1;`, composed)).toEqual([decomposed]);
    expect(spellingsIn(`x = ${composed}`, decomposed)).toEqual([composed]);
  });

  it("gives both spellings when the line holds both, and none for a cut mark", () => {
    expect(spellingsIn(`${composed} + ${decomposed}`, composed)).toEqual([composed, decomposed]);
    // "cafe" is not in "café" read as written: its e carries an accent.
    expect(spellingsIn(`${decomposed} + 1`, "cafe")).toEqual([]);
    expect(spellingsIn("plain ascii", "ascii")).toEqual(["ascii"]);
  });
});
