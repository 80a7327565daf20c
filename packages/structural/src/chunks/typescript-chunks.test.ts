import { describe, expect, it } from "vitest";
import { typescriptChunkStarts } from "./typescript-chunks.js";

function lineAt(text: string, index: number): string {
  const end = text.indexOf("\n", index);
  return text.slice(index, end < 0 ? undefined : end);
}

function pieces(text: string): string[] | undefined {
  return typescriptChunkStarts(text)?.indices.map((index) => lineAt(text, index));
}

describe("typescriptChunkStarts", () => {
  it("starts a piece at each top-level declaration, with or without semicolons", () => {
    const text = [
      'import { a } from "a"',
      "export const x = a",
      "type T = string",
      "@decorator()",
      "export class C {}",
      "function f() {",
      "  const inner = 1",
      "}",
      "",
    ].join("\n");
    expect(pieces(text)).toEqual([
      'import { a } from "a"',
      "export const x = a",
      "type T = string",
      "@decorator()",
      "function f() {",
    ]);
  });

  it("does not split where the statement goes on: after an operator, a modifier, a comma", () => {
    const text = [
      "export const x =",
      "function () {}",
      "export",
      "function g() {}",
      "let a = 1,",
      "b = 2",
      "declare const y: number",
      "",
    ].join("\n");
    // `export` alone on a line is a new statement (after `}`), the `function` under it is not.
    expect(pieces(text)).toEqual(["export const x =", "export", "let a = 1,", "declare const y: number"]);
  });

  it("does not split inside template literals, regular expressions or strings", () => {
    const text = [
      "const t = `",
      "export const notReal = 1",
      "${ { a: `nested ${ '}' }` }.a }",
      "`",
      "const r = /[`'\"{]/g.test(s) ? a / 2 : /\\/}/",
      "const q = '`'",
      "export function after() {}",
      "",
    ].join("\n");
    expect(pieces(text)).toEqual([
      "const t = `",
      "const r = /[`'\"{]/g.test(s) ? a / 2 : /\\/}/",
      "const q = '`'",
      "export function after() {}",
    ]);
  });

  it("lists the members of top-level bodies and the lines that close them", () => {
    const text = [
      "interface I {",
      "  readonly a: string;",
      "  b(x: number,",
      "    y: number): void;",
      "  c: string",
      "    | number",
      "  (call: string): void;",
      "  d: void",
      "  e: string;",
      "}",
      "const o = {",
      "  one: 1,",
      "  ...rest,",
      "  two: x",
      "    as number,",
      "}",
      "",
    ].join("\n");
    const starts = typescriptChunkStarts(text);
    expect(starts?.members.map((index) => lineAt(text, index).trim())).toEqual([
      "readonly a: string;",
      "b(x: number,",
      "c: string",
      // After a value, `(` would call it: not a new member (missing a split is safe).
      "d: void",
      // After `void` (also an operator), the line may go on: not a new member either.
      "one: 1,",
      "...rest,",
      "two: x",
    ]);
    expect(starts?.closers.map((index) => lineAt(text, index))).toEqual(["}", "}"]);
    expect(starts?.memberRows).toEqual([1, 2, 4, 7, 11, 12, 13]);
  });

  it("keeps a statement whole across a header's `)`, else, catch, finally and do … while", () => {
    const text = [
      "export function f(a: number) {",
      "  const k = 1;",
      "  if (a > 0)",
      "    return a;",
      "  for (const x of xs)",
      "    // a comment between the header and the body",
      "    use(x);",
      "  for await (const y of ys)",
      "    use(y)",
      "  if (a) {",
      "    x();",
      "  }",
      "  else if (b)",
      "    y();",
      "  else",
      "    z();",
      "  try {",
      "    z();",
      "  }",
      "  catch (e) {",
      "    w(e);",
      "  }",
      "  finally {",
      "    v();",
      "  }",
      "  do {",
      "    a--;",
      "  }",
      "  while (a > 0);",
      "  x.if(a)",
      "  done();",
      "  // A comment ending a sentence.",
      "  if (",
      "    b",
      "  )",
      "    return b;",
      "}",
      "",
    ].join("\n");
    const starts = typescriptChunkStarts(text);
    expect(starts?.members.map((index) => lineAt(text, index).trim())).toEqual([
      "const k = 1;",
      "if (a > 0)",
      "for (const x of xs)",
      "for await (const y of ys)",
      "if (a) {",
      "try {",
      "do {",
      // A method named like a keyword is a call: the next line is a statement of its own.
      "x.if(a)",
      "done();",
      // The `.` ending the comment does not make `if (` a call of a method named `if`.
      "if (",
    ]);
  });

  it("keeps a decorated member with its decorators", () => {
    const text = [
      "export class C {",
      "  @Input()",
      "  @Other",
      "  name: string;",
      "  @Output() change = 1;",
      "  size = 2",
      "}",
      "",
    ].join("\n");
    const starts = typescriptChunkStarts(text);
    expect(starts?.members.map((index) => lineAt(text, index).trim())).toEqual([
      "@Input()",
      "@Output() change = 1;",
      "size = 2",
    ]);
  });

  it("gives up on source that does not lex cleanly", () => {
    expect(typescriptChunkStarts("function f() {\n")).toBeUndefined();
    expect(typescriptChunkStarts("const t = `open ${\n")).toBeUndefined();
    expect(typescriptChunkStarts("const s = 'broken\n")).toBeUndefined();
  });
});
