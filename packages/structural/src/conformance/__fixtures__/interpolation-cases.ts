import type { ConformanceCase } from "./conformance-case.js";

// A metavariable inside a string's interpolation, and string text next to it, whose blanks are
// the string's own text (`hello ` in `f"hello {$X}"`).

export const interpolationCases: readonly ConformanceCase[] = [
  {
    name: "python f-string with a metavariable",
    language: "python",
    pattern: 'f"hello {$X}!"',
    code: 'a = f"hello {name}!"\nb = f"hello{name}!"\nc = f"hi {name}!"\n',
    matches: ['f"hello {name}!"'],
    bindings: { X: "name" },
    rewrite: ['"hello {}!".format($X)', 'a = "hello {}!".format(name)\nb = f"hello{name}!"\nc = f"hi {name}!"\n'],
  },
  {
    name: "python f-string with a conversion and a format spec",
    language: "python",
    pattern: 'f"{$X!r:>10} and {$Y}"',
    code: 's = f"{x!r:>10} and {y}"\nt = f"{x!r:>10}and {y}"\n',
    matches: ['f"{x!r:>10} and {y}"'],
    bindings: { X: "x", Y: "y" },
  },
  {
    name: "python string ending in a blank",
    language: "python",
    pattern: 'print("a ")',
    code: 'print("a ")\nprint("a")\n',
    matches: ['print("a ")'],
  },
  {
    name: "csharp interpolated string",
    language: "csharp",
    pattern: '$"Hello {$X}!"',
    code: 'class A { void F() { var s = $"Hello {name}!"; var t = $"Hi {name}!"; } }\n',
    matches: ['$"Hello {name}!"'],
    bindings: { X: "name" },
  },
  {
    name: "ruby string interpolation",
    language: "ruby",
    pattern: '"v: #{$X}"',
    code: 'puts "v: #{i}"\nputs "v:#{i}"\n',
    matches: ['"v: #{i}"'],
    bindings: { X: "i" },
  },
];
