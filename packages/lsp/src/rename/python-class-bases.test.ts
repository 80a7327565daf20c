import { describe, expect, it } from "vitest";
import { baseNamePositions } from "./python-class-bases.js";

/** The names found, as `line:character name`, for the class named on line 0 as `class <name>`. */
function bases(source: string): string[] {
  const lines = source.split("\n");
  const found = /^\s*class\s+(\w+)/u.exec(lines[0]!)!;
  const nameEnd = { line: 0, character: found[0].length };
  return baseNamePositions(lines, nameEnd).map((at) => {
    const word = /^\w+/u.exec(lines[at.line]!.slice(at.character))?.[0];
    return `${at.line}:${at.character} ${word}`;
  });
}

describe("baseNamePositions", () => {
  it("finds each base's last name, dotted, subscripted or aliased", () => {
    expect(bases("class Item(Base, pkg.base.Mixin, Generic[T]):")).toEqual([
      "0:11 Base",
      "0:26 Mixin",
      "0:33 Generic",
    ]);
  });

  it("skips keyword arguments, starred arguments and other expressions", () => {
    expect(bases("class Item(Base, metaclass=Meta, *extra, make(Other), **kw):")).toEqual(["0:11 Base"]);
    expect(bases("class Item(List[Base]):")).toEqual(["0:11 List"]);
  });

  it("reads a header over several lines, with comments, and type parameters first", () => {
    expect(
      bases("class Item[T](\n    Base,  # the (base)\n    # Not, This\n    mod . Other[T],\n):"),
    ).toEqual(["1:4 Base", "3:10 Other"]);
  });

  it("finds none without parenthesised bases or when the header is not closed", () => {
    expect(bases("class Item:")).toEqual([]);
    expect(bases("class Item():")).toEqual([]);
    expect(bases("class Item(Base")).toEqual([]);
  });

  it("counts in UTF-16 units past a name outside the BMP", () => {
    expect(bases("class Item(𝒜, Base):")).toEqual(["0:11 undefined", "0:15 Base"]);
  });
});
