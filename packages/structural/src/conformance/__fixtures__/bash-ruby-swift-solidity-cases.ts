import type { ConformanceCase } from "./conformance-case.js";

export const bashCases: readonly ConformanceCase[] = [
  {
    name: "bash command",
    language: "bash",
    pattern: "rm -rf $A",
    code: "rm -rf /tmp/x\nrm /tmp/y\n",
    matches: ["rm -rf /tmp/x"],
    bindings: { A: "/tmp/x" },
  },
  {
    name: "bash rewrite of a command",
    language: "bash",
    pattern: "rm -rf $A",
    code: "rm -rf /tmp/x\n",
    matches: ["rm -rf /tmp/x"],
    rewrite: ["rm -r -- $A", "rm -r -- /tmp/x\n"],
  },
  {
    name: "bash command name is literal",
    language: "bash",
    pattern: "echo $A",
    code: "echo hi\nprintf hi\n",
    matches: ["echo hi"],
    bindings: { A: "hi" },
  },
  {
    name: "bash if with a test",
    language: "bash",
    pattern: "if [ -f $F ]; then\n  $$$B\nfi",
    code: "if [ -f a.txt ]; then\n  cat a.txt\nfi\n",
    matches: ["if [ -f a.txt ]; then\n  cat a.txt\nfi"],
    bindings: { F: "a.txt", B: "cat a.txt" },
  },
];

export const rubyCases: readonly ConformanceCase[] = [
  {
    name: "ruby command call",
    language: "ruby",
    pattern: "puts $A",
    code: "puts x\nprint y\n",
    matches: ["puts x"],
    bindings: { A: "x" },
  },
  {
    name: "ruby block",
    language: "ruby",
    pattern: "$L.each do |$X|\n  $$$B\nend",
    code: "items.each do |i|\n  show(i)\nend\n",
    matches: ["items.each do |i|\n  show(i)\nend"],
    bindings: { L: "items", X: "i", B: "show(i)" },
  },
  {
    name: "ruby rewrite of a predicate call",
    language: "ruby",
    pattern: "$A.nil?",
    code: "if x.nil?\n  y\nend\n",
    matches: ["x.nil?"],
    bindings: { A: "x" },
    rewrite: ["$A == nil", "if x == nil\n  y\nend\n"],
  },
  {
    name: "ruby method with arguments",
    language: "ruby",
    pattern: "$H.fetch($K, $D)",
    code: "h.fetch(:a, 1)\nh.fetch(:a)\n",
    matches: ["h.fetch(:a, 1)"],
    bindings: { H: "h", K: ":a", D: "1" },
  },
];

export const swiftCases: readonly ConformanceCase[] = [
  {
    name: "swift call",
    language: "swift",
    pattern: "print($A)",
    code: "print(x)\nprint(x, y)\n",
    matches: ["print(x)"],
    bindings: { A: "x" },
  },
  {
    name: "swift let is not var",
    language: "swift",
    pattern: "let $A = $B",
    code: "let x = 1\nvar y = 2\n",
    matches: ["let x = 1"],
    bindings: { A: "x", B: "1" },
  },
  {
    name: "swift guard let",
    language: "swift",
    pattern: "guard let $X = $Y else { return }",
    code: "func f() {\n  guard let v = opt else { return }\n}\n",
    matches: ["guard let v = opt else { return }"],
    bindings: { X: "v", Y: "opt" },
  },
  {
    name: "swift multi-line rewrite inside a func keeps the indentation",
    language: "swift",
    pattern: "print($A)",
    code: "func f() {\n    print(x)\n}\n",
    matches: ["print(x)"],
    rewrite: ["if debug {\n    print($A)\n}", "func f() {\n    if debug {\n        print(x)\n    }\n}\n"],
  },
  {
    name: "swift block comment alone",
    language: "swift",
    pattern: "/* a */",
    code: "func f() {\n  /* a */ /* b */\n}\n",
    matches: ["/* a */"],
  },
];

export const solidityCases: readonly ConformanceCase[] = [
  {
    name: "solidity empty contract",
    language: "solidity",
    pattern: "contract $C {}",
    code: "contract A {}\ncontract B { uint x; }\n",
    matches: ["contract A {}"],
    bindings: { C: "A" },
  },
  {
    name: "solidity literal pragma",
    language: "solidity",
    pattern: "pragma solidity ^0.8.0;",
    code: "pragma solidity ^0.8.0;\npragma solidity ^0.7.0;\n",
    matches: ["pragma solidity ^0.8.0;"],
  },
  {
    name: "solidity event with parameters",
    language: "solidity",
    pattern: "event $E($$$P);",
    code: "event Transfer(address from, address to);\n",
    matches: ["event Transfer(address from, address to);"],
    bindings: { E: "Transfer", P: "address from, address to" },
  },
  {
    name: "solidity free function",
    language: "solidity",
    pattern: "function $F($$$P) pure returns ($R) { return $X; }",
    code: "function add(uint a, uint b) pure returns (uint) { return a + b; }\n",
    matches: ["function add(uint a, uint b) pure returns (uint) { return a + b; }"],
    bindings: { F: "add", P: "uint a, uint b", R: "uint", X: "a + b" },
  },
  {
    name: "solidity struct with one more field does not match",
    language: "solidity",
    pattern: "struct $S { $T $N; }",
    code: "struct P { uint x; }\nstruct Q { uint x; uint y; }\n",
    matches: ["struct P { uint x; }"],
    bindings: { S: "P", T: "uint", N: "x" },
  },
  {
    name: "solidity $$$ alone in a contract body",
    language: "solidity",
    pattern: "contract $C { $$$B }",
    code: "contract A { uint x; function f() public {} }\n",
    matches: ["contract A { uint x; function f() public {} }"],
    bindings: { C: "A", B: "uint x; function f() public {}" },
  },
];
