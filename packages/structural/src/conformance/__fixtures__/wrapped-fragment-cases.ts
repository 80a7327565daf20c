import type { ConformanceCase } from "./conformance-case.js";

// Java and C# fragments that parse only in a particular body: a catch or finally clause after a
// try block, a constructor call (`super(…);`, `this(…);`) first in a constructor. ast-grep
// parses them alone and rejects them as several nodes or matches nothing.

export const wrappedFragmentCases: readonly ConformanceCase[] = [
  {
    name: "java catch clause read after a try",
    language: "java",
    pattern: "catch ($T $E) { $$$B }",
    code: "class A { void f() { try { g(); } catch (IOException e) { log(e); } finally { h(); } } }\n",
    matches: ["catch (IOException e) { log(e); }"],
    bindings: { T: "IOException", E: "e", B: "log(e);" },
    differs: { reason: "fragment retried in a body", astGrep: "rejects the pattern" },
  },
  {
    name: "java constructor call read in a constructor",
    language: "java",
    pattern: "super($$$A);",
    code: "class A extends B { A(int x) { super(x); } A() { this(1); } void m() { super.m(); } }\n",
    matches: ["super(x);"],
    bindings: { A: "x" },
    rewrite: ["super($$$A, null);", "class A extends B { A(int x) { super(x, null); } A() { this(1); } void m() { super.m(); } }\n"],
    differs: { reason: "fragment retried in a body", astGrep: "rejects the pattern" },
  },
  {
    name: "java constructor call without its ; read in a constructor",
    language: "java",
    pattern: "this($$$A)",
    code: "class A extends B { A(int x) { super(x); } A() { this(1); } void m() { this.m(); } }\n",
    matches: ["this(1);"],
    bindings: { A: "1" },
    rewrite: ["this($$$A, 2)", "class A extends B { A(int x) { super(x); } A() { this(1, 2); } void m() { this.m(); } }\n"],
    differs: { reason: "fragment retried in a body", astGrep: [] },
  },
  {
    name: "csharp catch clause with a filter read after a try",
    language: "csharp",
    pattern: "catch (Exception $E) when ($C) { $$$B }",
    code: "class A { void F() { try { G(); } catch (Exception ex) when (ex is IOException) { Log(ex); } } }\n",
    matches: ["catch (Exception ex) when (ex is IOException) { Log(ex); }"],
    bindings: { E: "ex", C: "ex is IOException", B: "Log(ex);" },
    differs: { reason: "fragment retried in a body", astGrep: [] },
  },
];
