import { describe, expect, it } from "vitest";
import { enclosingInterface } from "./implementations-left-out.js";

describe("enclosingInterface", () => {
  const lines = [
    "package shapes",
    "",
    "type Shape interface {",
    "\tfmt.Stringer",
    "\tArea() float64",
    "}",
    "",
    "type (",
    "\tSizer[T any] interface {",
    "\t\tSize(func() struct{}) T",
    "\t}",
    ")",
    "",
    "type Circle struct{ R float64 }",
    "",
    "func (c Circle) Area() float64 { return c.R }",
    "",
    "func (c Circle) Size() float64 {",
    "\treturn 0",
    "}",
  ];
  it("names the interface whose body holds the line, in a type group and generic too", () => {
    expect(enclosingInterface(lines, 4)).toBe("Shape");
    expect(enclosingInterface(lines, 9)).toBe("Sizer");
  });
  it("is undefined for a method with a body, and for a line in a function", () => {
    expect(enclosingInterface(lines, 15)).toBeUndefined();
    expect(enclosingInterface(lines, 17)).toBeUndefined();
    expect(enclosingInterface(lines, 18)).toBeUndefined();
  });
});
