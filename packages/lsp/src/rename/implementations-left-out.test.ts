import { describe, expect, it } from "vitest";
import { enclosingInterface, implementationsLeftOutMessage, namesClash } from "./implementations-left-out.js";

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

describe("namesClash", () => {
  it("tells a clash of the new name from an error of a declaration left out", () => {
    expect(
      namesClash("main.go:10:71 error [AmbiguousSelector] ambiguous selector circle.B.Size (compiler)"),
    ).toBe(true);
    expect(
      namesClash("c.go:9:17 error [DuplicateMethod] method Circle.Size already declared at c.go:5:17"),
    ).toBe(true);
    expect(namesClash("c.go:3:6 error [DuplicateDecl] Size redeclared in this block")).toBe(true);
    expect(
      namesClash("c.go:3:6 error [DuplicateFieldAndMethod] field and method with the same name Size"),
    ).toBe(true);
    expect(
      namesClash(
        "main.go:10:40 error [InvalidIfaceAssign] cannot use c (variable of type circle.Circle) as shapes.Shape value: circle.Circle does not implement shapes.Shape (missing method Area)",
      ),
    ).toBe(false);
  });

  it("reads the error's words alone, not its file's path nor the line of code shown after it", () => {
    const missing =
      "error [InvalidIfaceAssign] circle.Circle does not implement shapes.Shape (missing method Area)";
    expect(namesClash(`redeclared/main.go:10:40 ${missing}`)).toBe(false);
    expect(
      namesClash(`main.go:10:40 ${missing} — the line: fmt.Println("a shape already declared:", c)`),
    ).toBe(false);
    expect(namesClash(`main.go:10:40 ${missing} — the line would read: x := c // redeclared below`)).toBe(
      false,
    );
    expect(
      namesClash(
        "c.go:3:6 error [DuplicateDecl] Size redeclared in this block — the line would read: var Size = 1",
      ),
    ).toBe(true);
  });
});

describe("implementationsLeftOutMessage", () => {
  const left = [
    {
      path: "/w/shapes.go",
      position: { line: 4, character: 1 },
      lineText: "\tArea() float64",
      reason: "method of interface Shape",
    },
  ];
  const about = { display: (path: string) => path.slice(3), command: "gopls" };
  const missing =
    "main.go:10:40 error [InvalidIfaceAssign] circle.Circle does not implement shapes.Shape (missing method Area)";
  const ambiguous = "main.go:10:71 error [AmbiguousSelector] ambiguous selector circle.B.Size";

  it("says no name clash when none of the errors is one", () => {
    const text = implementationsLeftOutMessage("Area", "Size", left, [missing], about);
    expect(text.split("\n")[0]).toContain("whatever the new name (this is no name clash)");
    expect(text.split("\n").slice(2, 4)).toEqual(["The errors the edit would bring:", `- ${missing}`]);
  });

  it("lists a clash of the new name apart, and asks for another name as well", () => {
    const lines = implementationsLeftOutMessage("Area", "Size", left, [ambiguous, missing], about).split(
      "\n",
    );
    expect(lines[0]).not.toContain("no name clash");
    expect(lines[0]).toContain(
      "'Size' also clashes with a name already there (1 error, which another name could avoid)",
    );
    expect(lines.slice(1)).toEqual([
      "- shapes.go:5:2 (Area() float64): method of interface Shape",
      "The errors the declarations left out would bring, whatever the new name:",
      `- ${missing}`,
      "The errors of 'Size' clashing with a name already there:",
      `- ${ambiguous}`,
      "Pick another name, one not declared in or visible from those places, and rename 'Area' to it at each of these declarations and at this one together with edit (or apply_patch); lsp references on each lists its uses.",
    ]);
  });

  it("leaves out the group of errors of the declarations when every error is a clash", () => {
    const lines = implementationsLeftOutMessage("Area", "Size", left, [ambiguous], about).split("\n");
    expect(lines[2]).toBe("The errors of 'Size' clashing with a name already there:");
    expect(lines.join("\n")).not.toContain("left out would bring");
  });
});
