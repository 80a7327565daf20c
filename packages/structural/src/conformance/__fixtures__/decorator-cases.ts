import type { ConformanceCase } from "./conformance-case.js";

// An annotation or decorator written alone does not parse as a whole program: tree-sitter makes
// an ERROR around it with the annotation its one child, and that child is the pattern (as in
// ast-grep, which descends through single children whatever their kind).

const javaAnnotated = [
  "class A {",
  "  @Override",
  '  public String toString() { return "a"; }',
  "  @Deprecated void n() {}",
  '  @SuppressWarnings("unchecked") void m() {}',
  '  @SuppressWarnings({"a", "b"}) private int x;',
  "  @Override @Deprecated public int hashCode() { return 1; }",
  "}",
  "",
].join("\n");

export const javaDecoratorCases: readonly ConformanceCase[] = [
  {
    name: "java marker annotation alone",
    language: "java",
    pattern: "@Override",
    code: javaAnnotated,
    matches: ["@Override", "@Override"],
  },
  {
    name: "java annotation with an argument",
    language: "java",
    pattern: "@SuppressWarnings($A)",
    code: javaAnnotated,
    matches: ['@SuppressWarnings("unchecked")', '@SuppressWarnings({"a", "b"})'],
    bindings: { A: '"unchecked"' },
  },
  {
    name: "java any marker annotation",
    language: "java",
    pattern: "@$A",
    code: javaAnnotated,
    matches: ["@Override", "@Deprecated", "@Override", "@Deprecated"],
    bindings: { A: "Override" },
  },
  {
    name: "java annotation rewritten",
    language: "java",
    pattern: "@Deprecated",
    code: "class A {\n  @Deprecated void n() {}\n  @Override void m() {}\n}\n",
    matches: ["@Deprecated"],
    rewrite: ['@Deprecated(since = "2")', 'class A {\n  @Deprecated(since = "2") void n() {}\n  @Override void m() {}\n}\n'],
  },
];

const angular = [
  "@Component({ selector: 'app-x' })",
  "export class X {",
  "  @Input() name: string;",
  "  @Input()",
  "  other: number;",
  "  @Output() change = new EventEmitter<string>();",
  "  constructor(@Inject(TOKEN) private t: T) {}",
  "}",
  "@sealed",
  "class Y {}",
  "",
].join("\n");

export const typescriptDecoratorCases: readonly ConformanceCase[] = [
  {
    name: "ts class decorator with a $$$ argument",
    language: "typescript",
    pattern: "@Component($$$A)",
    code: angular,
    matches: ["@Component({ selector: 'app-x' })"],
    bindings: { A: "{ selector: 'app-x' }" },
  },
  {
    name: "ts any decorator, members' and parameters' too",
    language: "typescript",
    pattern: "@$D",
    code: angular,
    matches: [
      "@Component({ selector: 'app-x' })",
      "@Input()",
      "@Input()",
      "@Output()",
      "@Inject(TOKEN)",
      "@sealed",
    ],
    bindings: { D: "Component({ selector: 'app-x' })" },
  },
  {
    name: "ts member decorator rewritten",
    language: "typescript",
    pattern: "@Input()",
    code: "class X {\n  @Input() name: string;\n  @Output() change = 1;\n}\n",
    matches: ["@Input()"],
    rewrite: ["@Input({ required: true })", "class X {\n  @Input({ required: true }) name: string;\n  @Output() change = 1;\n}\n"],
  },
  {
    name: "ts decorated class field read in a class",
    language: "typescript",
    pattern: "@Input() $NAME: $T",
    code: angular,
    matches: ["@Input() name: string", "@Input()\n  other: number"],
    bindings: { NAME: "name", T: "string" },
    differs: { reason: "fragment retried in a body", astGrep: "rejects the pattern" },
  },
  {
    name: "tsx class decorator",
    language: "tsx",
    pattern: "@Component($$$A)",
    code: angular,
    matches: ["@Component({ selector: 'app-x' })"],
    bindings: { A: "{ selector: 'app-x' }" },
  },
];

const flask = [
  "@dataclass",
  "class P:",
  "    @property",
  "    def v(self):",
  "        return 1",
  "",
  '@app.route("/x", methods=["GET"])',
  "def index():",
  "    pass",
  "",
].join("\n");

export const pythonDecoratorCases: readonly ConformanceCase[] = [
  {
    name: "python any decorator",
    language: "python",
    pattern: "@$DEC",
    code: flask,
    matches: ["@dataclass", "@property", '@app.route("/x", methods=["GET"])'],
    bindings: { DEC: "dataclass" },
  },
  {
    name: "python named decorator",
    language: "python",
    pattern: "@property",
    code: flask,
    matches: ["@property"],
  },
  {
    name: "python decorator call rewritten",
    language: "python",
    pattern: "@app.route($$$A)",
    code: flask,
    matches: ['@app.route("/x", methods=["GET"])'],
    bindings: { A: '"/x", methods=["GET"]' },
    rewrite: ["@app.get($$$A)", flask.replace("@app.route(", "@app.get(")],
  },
];
