import type { ConformanceCase } from "./conformance-case.js";

export const jsonCases: readonly ConformanceCase[] = [
  {
    name: "json pair",
    language: "json",
    pattern: '"version": "1.0"',
    code: '{"name": "a", "version": "1.0"}\n',
    matches: ['"version": "1.0"'],
    differs: { reason: "fragment retried in a body", astGrep: "rejects the pattern" },
  },
  {
    name: "json metavariable as a string's content",
    language: "json",
    pattern: '{"name": "$N"}',
    code: '{"name": "a"}\n',
    matches: ['{"name": "a"}'],
    bindings: { N: "a" },
  },
  {
    name: "json literal object",
    language: "json",
    pattern: '{"private": true}',
    code: '{"a": {"private": true}, "b": {"private": false}}\n',
    matches: ['{"private": true}'],
  },
  {
    name: "json empty array",
    language: "json",
    pattern: "[]",
    code: '{"a": [], "b": [1]}\n',
    matches: ["[]"],
  },
  {
    name: "json metavariable as a value",
    language: "json",
    pattern: "{\"version\": $V}",
    code: "{\"a\": {\"version\": 1}, \"b\": {\"version\": 2, \"x\": 3}}\n",
    matches: ["{\"version\": 1}"],
    bindings: { V: "1" },
  },
];

export const cssCases: readonly ConformanceCase[] = [
  {
    name: "css declaration in a rule",
    language: "css",
    pattern: "a { color: $C; }",
    code: "a { color: red; }\nb { color: blue; }\n",
    matches: ["a { color: red; }"],
    bindings: { C: "red" },
  },
  {
    name: "css rewrite repeats a value",
    language: "css",
    pattern: ".btn { color: $C; }",
    code: ".btn { color: red; }\n",
    matches: [".btn { color: red; }"],
    rewrite: [".btn { color: $C; border-color: $C; }", ".btn { color: red; border-color: red; }\n"],
  },
  {
    name: "css important declaration",
    language: "css",
    pattern: "$S { $P: $V !important; }",
    code: "a { color: red !important; }\n",
    matches: ["a { color: red !important; }"],
    bindings: { S: "a", P: "color", V: "red" },
  },
  {
    name: "css declaration fragment",
    language: "css",
    pattern: "color: $C",
    code: "a { color: red; background: blue; }\n",
    matches: ["color: red;"],
    bindings: { C: "red" },
    differs: { reason: "fragment retried in a body", astGrep: [] },
  },
  {
    name: "css $$$ alone in a block",
    language: "css",
    pattern: "$S { $$$D }",
    code: "a { color: red; margin: 0; }\n",
    matches: ["a { color: red; margin: 0; }"],
    bindings: { S: "a", D: "color: red; margin: 0;" },
  },
];

export const phpCases: readonly ConformanceCase[] = [
  {
    name: "php call",
    language: "php",
    pattern: "strlen($S)",
    code: "<?php\n$n = strlen($s);\n$m = count($s);\n",
    matches: ["strlen($s)"],
    bindings: { S: "$s" },
    knownBug: "phpText",
  },
  {
    name: "php rewrite of a call",
    language: "php",
    pattern: "array_push($A, $V)",
    code: "<?php\narray_push($list, $item);\n",
    matches: ["array_push($list, $item)"],
    bindings: { A: "$list", V: "$item" },
    rewrite: ["$A[] = $V", "<?php\n$list[] = $item;\n"],
    knownBug: "phpText",
  },
];
