import { describe, expect, it } from "vitest";
import { newNameProblem, reservedWordIsFine } from "./new-name.js";

describe("newNameProblem", () => {
  it("accepts each language's identifiers", () => {
    expect(newNameProblem("typescript", "größe")).toBeUndefined();
    expect(newNameProblem("typescript", "$el")).toBeUndefined();
    expect(newNameProblem("typescript", "#count")).toBeUndefined();
    expect(newNameProblem("python", "_private2")).toBeUndefined();
    expect(newNameProblem("go", "Ünit")).toBeUndefined();
    expect(newNameProblem("rust", "r#type")).toBeUndefined();
    expect(newNameProblem("rust", "'a")).toBeUndefined();
    expect(newNameProblem("c", "snake_case")).toBeUndefined();
    expect(newNameProblem("dart", "_$private")).toBeUndefined();
    expect(newNameProblem("kotlin", "1 anything")).toBeUndefined();
  });

  it("refuses a reserved word of the language, and allows another language's", () => {
    expect(newNameProblem("typescript", "class")).toBe(
      "'class' is a reserved word in typescript (only a property or method may be named so): every file using the name would stop parsing; give another name",
    );
    expect(newNameProblem("python", "lambda")).toMatch(/^'lambda' is a reserved word in python/);
    expect(newNameProblem("go", "func")).toMatch(/reserved word in go/);
    expect(newNameProblem("python", "func")).toBeUndefined();
    expect(newNameProblem("go", "class")).toBeUndefined();
  });

  it("says what is wrong with a name that is not one", () => {
    expect(newNameProblem("typescript", "1bad")).toBe(
      "'1bad' is not a typescript identifier (a letter, _ or $ first, then letters, digits, _ or $); give new_name as one whole name, without spaces or punctuation",
    );
    expect(newNameProblem("python", "has-dash")).toMatch(/^'has-dash' is not a python identifier/);
    expect(newNameProblem("python", "$x")).toMatch(/not a python identifier/);
    expect(newNameProblem("go", "two words")).toMatch(/not a go identifier/);
    expect(newNameProblem("c", "ns::name")).toMatch(/not a c identifier/);
    expect(newNameProblem("typescript", "obj.prop")).toMatch(/not a typescript identifier/);
  });

  it("lets a reserved word name a TypeScript member, and only there", () => {
    expect(newNameProblem("typescript", "delete", { member: true })).toBeUndefined();
    expect(
      newNameProblem("typescript", "default", { dialect: "typescriptreact", member: true }),
    ).toBeUndefined();
    expect(reservedWordIsFine("typescript", "delete")).toBe(true);
    expect(reservedWordIsFine("typescript", "remove")).toBe(false);
    expect(reservedWordIsFine("python", "class")).toBe(false);
    expect(newNameProblem("python", "class", { member: true })).toMatch(
      /^'class' is a reserved word in python:/,
    );
  });

  it("keeps C's reserved words apart from C++'s", () => {
    for (const name of ["new", "class", "this", "template", "delete"]) {
      expect(newNameProblem("c", name, { dialect: "c" })).toBeUndefined();
      expect(newNameProblem("c", name, { dialect: "cpp" })).toMatch(
        new RegExp(`^'${name}' is a reserved word in c\\+\\+:`),
      );
    }
    expect(newNameProblem("c", "int", { dialect: "c" })).toMatch(/^'int' is a reserved word in c:/);
    expect(newNameProblem("c", "_Bool")).toMatch(/reserved word in c:/);
    expect(newNameProblem("c", "cafe\u0301")).toBeUndefined();
  });
});
