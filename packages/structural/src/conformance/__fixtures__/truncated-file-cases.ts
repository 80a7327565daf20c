import type { ConformanceCase } from "./conformance-case.js";

// Files cut off inside a block comment or a string that is never closed (a file mid-edit, a
// truncated download): the rest of the file is comment or string text, though tree-sitter reads
// it as code to recover. No match starts there; ast-grep matches in that text (the oracle checks
// it does). Code before the opening still matches.
export const truncatedFileCases: readonly ConformanceCase[] = [
  {
    name: "php file cut off in its licence header comment",
    language: "php",
    pattern: "$F($$$A)",
    code: "<?php\n/* licence header\n * foo(bar) is called here\n * Copyright (c) 2020 baz(qux, 1)\n",
    matches: [],
    differs: {
      reason: "no match in a comment or string left open",
      astGrep: ["foo(bar)", "Copyright (c)", "baz(qux, 1)"],
    },
  },
  {
    name: "php call before a trailing comment left open",
    language: "php",
    pattern: "$F($$$A)",
    code: "<?php\n$x = foo(1);\n/* trailing comment mentions bar(2)\n",
    matches: ["foo(1)"],
    differs: { reason: "no match in a comment or string left open", astGrep: ["foo(1)", "bar(2)"] },
  },
  {
    name: "php string left open",
    language: "php",
    pattern: "$F($$$A)",
    code: '<?php\n$s = "unterminated string with call(3)\n',
    matches: [],
    differs: { reason: "no match in a comment or string left open", astGrep: ["call(3)"] },
  },
  {
    name: "typescript file cut off in a block comment",
    language: "typescript",
    pattern: "$F($$$A)",
    code: "/* licence\n * foo(bar)\n * baz(1, 2)\n",
    matches: [],
    differs: { reason: "no match in a comment or string left open", astGrep: ["foo(bar)", "baz(1, 2)"] },
  },
  {
    name: "python file cut off in its docstring",
    language: "python",
    pattern: "$F($$$A)",
    code: 'x = foo(1)\n"""docstring\nfoo(bar)\nbaz(1, 2)\n',
    matches: ["foo(1)"],
    differs: {
      reason: "no match in a comment or string left open",
      astGrep: ["foo(1)", "foo(bar)", "baz(1, 2)"],
    },
  },
  {
    name: "go file cut off in a block comment",
    language: "go",
    pattern: "$F($$$A)",
    code: "package main\n\nfunc f() { g(1) }\n\n/* licence\n foo(bar)\n",
    matches: ["g(1)"],
    differs: { reason: "no match in a comment or string left open", astGrep: ["g(1)", "foo(bar)"] },
  },
  {
    name: "java file cut off in a block comment",
    language: "java",
    pattern: "$F($$$A)",
    code: "/* licence\n * foo(bar)\n",
    matches: [],
    differs: { reason: "no match in a comment or string left open", astGrep: ["foo(bar)"] },
  },
  {
    name: "rust string left open",
    language: "rust",
    pattern: "$F($$$A)",
    code: 'fn main() { f(0); let s = "unterminated call(3)\n',
    matches: ["f(0)"],
    differs: { reason: "no match in a comment or string left open", astGrep: ["f(0)", "call(3)"] },
  },
  {
    name: "a comment opener inside a string or a closed comment is no opening",
    language: "typescript",
    pattern: "$F($$$A)",
    code: 'const s = "/*";\n// a /* here\nf(1);\n/* closed */ g(2);\n',
    matches: ["f(1)", "g(2)"],
  },
  {
    name: "a binding in a docstring left open: no match, and no rewrite of its text",
    language: "python",
    pattern: "$A + $B",
    code: 'x = a + """doc\nbar(2)\n',
    matches: [],
    rewrite: ["$B + $A", 'x = a + """doc\nbar(2)\n'],
    differs: {
      reason: "no match in a comment or string left open",
      astGrep: ['a + """doc'],
      astGrepRewrite: "x = doc + a\nbar(2)\n",
    },
  },
  {
    name: "a binding in a rust string left open: no match, and no rewrite of its text",
    language: "rust",
    pattern: "$A + $B",
    code: 'fn f() { let x = a + "doc\nbar(2)\n',
    matches: [],
    rewrite: ["$B + $A", 'fn f() { let x = a + "doc\nbar(2)\n'],
    differs: {
      reason: "no match in a comment or string left open",
      astGrep: ['a + "doc\nbar(2)'],
      astGrepRewrite: "fn f() { let x = bar(2) + a\n",
    },
  },
  {
    name: "a go rune holding a backquote opens no raw string (a parse error elsewhere)",
    language: "go",
    pattern: "$F($$$A)",
    code: "package main\n\nfunc f() { x := '`'; g(1) }\n\nfunc h() { k(2) }\nfunc bad( { }\n",
    matches: ["g(1)", "k(2)"],
  },
];
