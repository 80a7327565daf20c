import { Script, runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { compileCell } from "./compile-cell.js";

async function run(context: Record<string, unknown>, code: string): Promise<unknown> {
  const value = (await runInNewContext(compileCell(code).source, context)) as { __echo: unknown } | undefined;
  return value?.__echo;
}

/** Where the cell's error is reported: the stack's first cell position, mapped back. */
async function errorAt(code: string): Promise<string> {
  const compiled = compileCell(code);
  try {
    await (new Script(compiled.source, { filename: "cell-1.js" }).runInNewContext({}) as Promise<unknown>);
  } catch (error) {
    const [, line = "", column = ""] = /cell-1\.js:(\d+):(\d+)/.exec((error as Error).stack ?? "") ?? [];
    return `${compiled.cellLine(Number(line))}:${column}`;
  }
  return "no error";
}

describe("compileCell", () => {
  it("keeps top-level bindings across cells and allows redeclaring them", async () => {
    const context: Record<string, unknown> = {};
    context.globalThis = context;
    expect(await run(context, "const x = 20\nlet y;\nfunction f() { return x + 1 }")).toBeUndefined();
    expect(await run(context, "const x = 40\nf() + 1")).toBe(42);
    expect(await run(context, "const { a, b } = { a: 1, b: 2 }\nclass K {}")).toBeUndefined();
    expect(await run(context, "[a + b, typeof K, y]")).toEqual([3, "function", undefined]);
  });

  it("supports top-level await and echoes a multi-line last expression", async () => {
    const context: Record<string, unknown> = {};
    context.globalThis = context;
    expect(await run(context, "const v = await Promise.resolve(5)\nMath.max(\n  v,\n  2,\n);")).toBe(5);
    expect(await run(context, "if (v) {\n  v\n}")).toBeUndefined();
  });

  it("echoes the last expression when comments or blank lines follow it", async () => {
    const context: Record<string, unknown> = {};
    context.globalThis = context;
    expect(await run(context, "const v = [1, 2, 3]\nv.length\n// how many")).toBe(3);
    expect(await run(context, "v.length; // how many\n\n/* done */\n")).toBe(3);
    expect(await run(context, "[\n  v[0],\n// the first\n]")).toEqual([1]);
    expect(await run(context, "const w = 2 // a declaration is not echoed")).toBeUndefined();
  });

  it("maps positions back to the cell's own lines and columns", async () => {
    expect(await errorAt("const a = 1\nconst b = 2\nnull.x\nconst c = 3")).toBe("3:6");
    expect(await errorAt("throw new Error('bad')")).toBe("1:7");
    expect(await errorAt("const a = 1\nconst b = 2\nundefinedFn()")).toBe("3:1");
    expect(await errorAt("const a = 1\nlet b = a.b.c")).toBe("2:13");
    const compiled = compileCell("const a = 1\na + 1\n// end");
    const lines = compiled.source.split("\n");
    expect(compiled.cellLine(1)).toBeUndefined();
    // The wrapper, line 1, the echo's opening, line 2 (closed on its own line), line 3, the wrapper.
    expect(lines.map((_, index) => compiled.cellLine(index + 1))).toEqual([
      undefined,
      1,
      undefined,
      2,
      3,
      undefined,
    ]);
  });

  it("keeps the column of an expression echoed from the middle of its line", async () => {
    expect(await errorAt("const a = 1; null.x")).toBe("1:19");
    expect(await errorAt("const a = 1\nconst b = 2;   undefinedFn()")).toBe("2:16");
  });

  it("echoes the last statement when it shares a line with others", async () => {
    const context: Record<string, unknown> = {};
    context.globalThis = context;
    expect(await run(context, "1; 2")).toBe(2);
    expect(await run(context, "const q = 1; q + 1")).toBe(2);
    expect(await run(context, "let s = 'a;b'; /* ; */ s.split(';') // ;")).toEqual(["a", "b"]);
    expect(await run(context, "(q, q + 41);")).toBe(42);
    expect(await run(context, "q; const r = 1")).toBeUndefined();
    expect(await run(context, "if (q) { q }")).toBeUndefined();
  });

  it("persists every top-level declaration, also several on one line", async () => {
    const context: Record<string, unknown> = {};
    context.globalThis = context;
    await run(
      context,
      "const x1 = 1; const y1 = 2\nlet u, w = 3; var [p, ...rest] = [4, 5, 6], { k: { deep } } = { k: { deep: 7 } }\n" +
        "function f1() { return y1 } class C1 { m() { return w } }; async function* g1() {}",
    );
    expect(await run(context, "[x1, y1, u, w, p, rest, deep, f1(), new C1().m(), typeof g1]")).toEqual([
      1,
      2,
      undefined,
      3,
      4,
      [5, 6],
      7,
      2,
      3,
      "function",
    ]);
  });

  it("keeps a destructuring declaration after a line without ';' a statement of its own", async () => {
    const context: Record<string, unknown> = { console };
    context.globalThis = context;
    expect(await run(context, "let o = {a: 5}\nconsole.log\nconst {a} = o\na")).toBe(5);
    expect(await run(context, "globalThis.f = () => 1\nf()\nconst [q] = [7]\nq")).toBe(7);
    expect(await run(context, "let [r] = [8]\nvar {s} = {s: 9}\nr + s")).toBe(17);
  });

  it("lets a function of an earlier cell see a binding change of a later one", async () => {
    const context: Record<string, unknown> = {};
    context.globalThis = context;
    await run(context, "let count = 0; function bump() { count++; return count }");
    expect(await run(context, "bump(); bump()")).toBe(2);
    expect(await run(context, "count")).toBe(2);
  });

  it("awaits at top level next to declarations, and ignores ; in template literals", async () => {
    const context: Record<string, unknown> = {};
    context.globalThis = context;
    const cell = "const [a1, b1] = await Promise.all([1, 2]); `${a1};${b1}`";
    expect(await run(context, cell)).toBe("1;2");
    expect(await run(context, "for await (const n of [Promise.resolve(3)]) a1 += n\na1")).toBe(4);
  });

  it("keeps a 'use strict' first line from making the cell's assignments throw", async () => {
    const context: Record<string, unknown> = {};
    context.globalThis = context;
    expect(await run(context, "'use strict'\nconst strictly = 5\nstrictly")).toBe(5);
  });

  // Each expectation is what Node's REPL (`node -i`) answers to the same cells, one per prompt.
  it("keeps a var declared in a block, a loop or a try, as a top-level var", async () => {
    const context: Record<string, unknown> = {};
    context.globalThis = context;
    await run(context, "if (true) { var a = 1 }");
    await run(context, "for (var i = 0; i < 3; i++) {}");
    await run(context, "{ var b = 2 }");
    await run(context, "try { var c = 3 } catch {}");
    expect(await run(context, "a + i + b + c")).toBe(9);
    await run(
      context,
      "for (var [p, q] of [[4, 5]]) {}\nfor (var key in { k: 1 }) {}\nswitch (1) { case 1: var s = 6 }\n" +
        "label: { var l = 7 }\nwhile (!w) var w = 8\nif (true) var { d } = { d: 9 }\n{ var [e] = await Promise.all([10]) }",
    );
    expect(await run(context, "[p, q, key, s, l, w, d, e]")).toEqual([4, 5, "k", 6, 7, 8, 9, 10]);
  });

  it("lets a top-level function see every var of the cell, as a plain script does", async () => {
    const cells = [
      "for (var kk = 1 in {}) ;\nfunction fr() { return kk }\nfr()",
      "if (true) for (var k2 = 2 in { a: 1 }) ;\nfunction f2() { return k2 }\nf2()",
      "lab: for (var k3 = (() =>\n  3)() in null) ;\nfunction f3() { return k3 }\nf3()",
      "for (var k4 of [4]) ;\nfor (var k5 = 0; k5 < 5; k5++) ;\nfunction f4() { return [k4, k5] }\nf4()",
      "try { throw 6 } catch (e6) { var v6 = e6 }\nfunction f6() { return v6 }\nf6()",
      "try { throw 1 } catch (e7) { var e7 = 2 }\nfunction f7() { return typeof e7 }\nf7()",
      "with ({}) { var v8 = 8 }\nswitch (1) { case 1: var v9 = 9 }\nfunction f8() { return [v8, v9] }\nf8()",
      "{ function blk() { return 10 } }\nfunction f10() { return blk() }\nf10()",
    ];
    for (const code of cells) {
      const context: Record<string, unknown> = {};
      context.globalThis = context;
      const plain: Record<string, unknown> = {};
      expect(await run(context, code), code).toEqual(runInNewContext(code, plain));
    }
    // The initializer moved into the loop's object: the lines after it keep theirs.
    expect(await errorAt("for (var k = (() =>\n  1)() in {}) ;\nnull.x")).toBe("3:6");
  });

  it("declares a var that was never assigned, and keeps the value of one declared again", async () => {
    const context: Record<string, unknown> = {};
    context.globalThis = context;
    await run(context, "if (false) { var never = 1 }");
    expect(await run(context, "[typeof never, 'never' in globalThis]")).toEqual(["undefined", true]);
    expect(await run(context, "typeof hoisted; { var hoisted = 1 }")).toBeUndefined();
    await run(context, "var u = 5; { var u2 = 6 }");
    await run(context, "var u\n{ var u2 }");
    expect(await run(context, "[u, u2]")).toEqual([5, 6]);
    // The initializer assigns the catch parameter; the var is declared but stays undefined.
    await run(context, "try { throw 1 } catch (err) { var err = 2 }");
    expect(await run(context, "['err' in globalThis, err]")).toEqual([true, undefined]);
  });

  it("keeps a var of a nested function, arrow or static block inside it", async () => {
    const context: Record<string, unknown> = {};
    context.globalThis = context;
    await run(
      context,
      "function outer() { var leak = 1; { var leak2 = 2 } }\nouter();\n(() => { for (var leak3 of [3]) {} })()\n" +
        "class K { static { var leak4 = 4 } }\nif (true) { const run = () => { var leak5 = 5 }; run() }",
    );
    expect(
      await run(context, "['leak', 'leak2', 'leak3', 'leak4', 'leak5'].filter((n) => n in globalThis)"),
    ).toEqual([]);
  });

  it("keeps a function declared in a block as Node's REPL does (Annex B)", async () => {
    const context: Record<string, unknown> = {};
    context.globalThis = context;
    await run(
      context,
      "{ function f() { return 'f' } }\nif (true) function h() { return 'h' }\nif (false) function h2() {}\n" +
        "{ let x = 10; function k() { return x } }\nswitch (1) { case 1: function sw() { return 'sw' } }\n" +
        "lab: function lf() { return 'lf' }",
    );
    expect(await run(context, "[f(), h(), typeof h2, k(), sw(), lf()]")).toEqual([
      "f",
      "h",
      "undefined",
      10,
      "sw",
      "lf",
    ]);
    await run(context, "if (false) { function g() {} }");
    expect(await run(context, "[typeof g, 'g' in globalThis]")).toEqual(["undefined", true]);
    // The block's declaration is reached after the hoisted top-level one: it wins.
    await run(context, "{ function m() { return 1 } } function m() { return 2 }");
    expect(await run(context, "m()")).toBe(1);
    // Not reached: an earlier cell's function stays.
    await run(context, "function once() { return 'top' }");
    await run(context, "if (false) { function once() { return 'block' } }");
    expect(await run(context, "once()")).toBe("top");
  });

  it("keeps in their block a block function a lexical name shadows, async ones, and any under 'use strict'", async () => {
    const context: Record<string, unknown> = {};
    context.globalThis = context;
    await run(context, "{ let w2 = 1; { function w2() {} } }");
    await run(context, "try { throw { c2: 1 } } catch ({ c2 }) { { function c2() {} } }");
    await run(context, "{ async function af() {} function* gf() {} class Kb {} let lb = 1 }");
    await run(context, "'use strict'; { function strictF() {} }");
    expect(
      await run(
        context,
        "[typeof w2, typeof c2, typeof af, typeof gf, typeof Kb, typeof lb, typeof strictF]",
      ),
    ).toEqual(Array(7).fill("undefined"));
  });

  // The wrapper is a function: a block function there would also get a var binding of the wrapper
  // (Annex B), which the cell's later assignments and reads would hit instead of the global.
  it("binds a block function's name to the global only, as the REPL does, also when assigned after", async () => {
    const context: Record<string, unknown> = {};
    context.globalThis = context;
    expect(await run(context, "let lf = 1; { function lf() {} }")).toBeUndefined();
    expect(await run(context, "[lf, typeof lf]")).toEqual([1, "number"]);
    expect(await run(context, "{ function g() {} } g = 5; [g, globalThis.g]")).toEqual([5, 5]);
    expect(await run(context, "g")).toBe(5);
    await run(
      context,
      "try { function t() {} } finally {} t = 6\nswitch (1) { case 1: function s() {} } s = 7\n" +
        "if (true) function h() {} h = 8\nlab: { function lb() {} } lb = 9\n" +
        "try { throw 0 } catch { function c() {} } c = 10",
    );
    expect(await run(context, "[t, s, h, lb, c]")).toEqual([6, 7, 8, 9, 10]);
    await run(
      context,
      "let q = 1; if (true) function q() {}\nlet sw = 2; switch (1) { case 1: function sw() {} }",
    );
    expect(await run(context, "[q, sw]")).toEqual([1, 2]);
    await run(context, "{ function g2() {} } function useG2() { return g2 }");
    await run(context, "g2 = 11");
    expect(await run(context, "useG2()")).toBe(11);
    await run(context, "var s3 = 3; switch (s3) { case 3: function s3() {} }");
    expect(await run(context, "typeof s3")).toBe("function");
  });

  // As `node -i` answers, one cell per prompt: a top-level function declaration binds the global
  // only, so the cell's own assignments and the function's references to its name reach it.
  it("binds a top-level function's name to the global only, as the REPL does", async () => {
    const context: Record<string, unknown> = {};
    context.globalThis = context;
    expect(await run(context, "function tf() {} tf = 5")).toBe(5);
    expect(await run(context, "tf")).toBe(5);
    expect(await run(context, "function tf2() {}; tf2 = 6; [tf2, globalThis.tf2]")).toEqual([6, 6]);
    expect(await run(context, "tf2")).toBe(6);
    await run(context, "function tf3() { return 1 }");
    await run(context, "tf3 = 7");
    expect(await run(context, "typeof tf3")).toBe("number");
    // Its body reads the global: a later cell's assignment changes what a recursive call reaches.
    await run(context, "function r(n) { return n ? r(n - 1) + 1 : 0 }");
    await run(context, "const old = r; r = (n) => 100");
    expect(await run(context, "old(3)")).toBe(101);
    // Still hoisted within its cell, also when labelled.
    await run(context, "const early = hoisted()\nfunction hoisted() { return 'hoisted' }");
    expect(await run(context, "early")).toBe("hoisted");
    await run(context, "const labelled = [lab(), typeof lab]\nl: function lab() { return 'l' }");
    expect(await run(context, "labelled")).toEqual(["l", "function"]);
    expect(await run(context, "function one() { return 1 } function two() { return one() + 1 } two()")).toBe(
      2,
    );
  });

  it("binds a top-level class's name to the global only, its body seeing its own, as the REPL does", async () => {
    const context: Record<string, unknown> = {};
    context.globalThis = context;
    expect(await run(context, "class K {}; K = 5; K")).toBe(5);
    expect(await run(context, "K")).toBe(5);
    await run(context, "class K2 { static self() { return K2 } static n = K2.name }");
    expect(await run(context, "const k2 = K2; K2 = 1; [k2.self() === k2, k2.n, k2.name]")).toEqual([
      true,
      "K2",
      "K2",
    ]);
    // A line before it without ';', and a line after it opening with '(': still statements.
    expect(await run(context, "let before = 1\nclass K3 {}\n(K3.name)")).toBe("K3");
    expect(await errorAt("class K4 { static { null.x } }")).toBe("1:26");
    expect(await errorAt("let a = 1; class K5 {\n  static { null.y }\n}")).toBe("2:17");
  });

  it("keeps the lines and columns of a top-level function's body", async () => {
    expect(await errorAt("const a = 1\nfunction f() {\n  return null.x\n}\nf()")).toBe("3:15");
    expect(await errorAt("let z = 0; function g() { return null.y } g()")).toBe("1:39");
    expect(await errorAt("function h() {}\nnull.z")).toBe("2:6");
    const compiled = compileCell("x = 1\nfunction f() {\n  return `a\n\nb`\n}\nf()");
    expect(compiled.source.split("\n").map((_, index) => compiled.cellLine(index + 1))).toContain(4);
    expect(await run({}, "x = 1\nfunction f() {\n  return `a\n\nb`\n}\nf()")).toBe("a\n\nb");
  });

  it("keeps lines and columns of a cell with vars and functions in blocks", async () => {
    expect(await errorAt("if (true) { var a = 1 }\nnull.x")).toBe("2:6");
    expect(await errorAt("{ var { b } = {}\n  null.x }")).toBe("2:8");
    expect(await errorAt("for (var i = 0; i < 1; i++) { null.x }")).toBe("1:36");
    expect(await errorAt("if (true) function h() { return null.x }\nh()")).toBe("1:38");
    expect(await errorAt("{ function g() {} } null.x")).toBe("1:26");
    expect(await errorAt("let g = 1; { function g() {} g.x.y }")).toBe("1:34");
    expect(await errorAt("switch (1) { case 1: function s() {} } null.x")).toBe("1:45");
    expect(await errorAt("if (true) function h() {} null.x")).toBe("1:32");
    expect(await errorAt("try {\n  function t() {} null.x\n} finally {}")).toBe("2:24");
  });

  it("leaves a cell acorn cannot parse to V8, which reports its line", async () => {
    const compiled = compileCell("const ok = 1\nconst broken = ok ok");
    let stack = "";
    try {
      new Script(compiled.source, { filename: "cell-1.js" });
    } catch (error) {
      expect(error).toBeInstanceOf(SyntaxError);
      stack = (error as Error).stack ?? "";
    }
    const [, line = ""] = /^cell-1\.js:(\d+)\n/.exec(stack) ?? [];
    expect(compiled.cellLine(Number(line))).toBe(2);
  });
});
