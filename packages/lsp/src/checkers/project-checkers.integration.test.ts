import { spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRegistry, createRun, resultText } from "@tools/registry";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { findBinary } from "../servers/find-binary.js";
import { createLspSupervisor } from "../supervisor/supervisor.js";
import { ci, copyFixture, packageBin, tempTree } from "../test-support/fixtures.js";
import { lspTool } from "../tools/lsp-tool.js";
import { checkCompileDatabase } from "./c-syntax-check.js";
import { readCompileDatabase } from "./compile-commands.js";
import { projectCheckers } from "./project-checkers.js";

/** diagnostics("*") with the real checkers (gcc or clang, go vet, cargo check) on small projects. */
const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function projectCheck(dir: string): Promise<string> {
  const run = createRun({ workingDirectory: dir });
  createLspSupervisor(run);
  cleanups.push(() => run.dispose());
  const registry = createRegistry({ tools: [lspTool] });
  return resultText(await registry.invoke(run, { tool: "lsp", args: { action: "diagnostics", file: "*" } }));
}

function requireCommand(command: string): boolean {
  const found = findBinary(command, [], []).found;
  beforeAll(() => {
    expect(found, `${command} not found on PATH`).toBe(true);
  });
  return found;
}

describe.skipIf(!findBinary("cc", [], []).found && !ci)("diagnostics * for C/C++", () => {
  requireCommand("cc");

  it("compiles each compile_commands.json entry with -fsyntax-only, writing nothing", async () => {
    const fixture = copyFixture("c-project");
    cleanups.push(fixture.remove);
    const before = readdirSync(fixture.dir).sort();
    const answer = await projectCheck(fixture.dir);
    expect(answer.split("\n")).toEqual([
      "c (cc -fsyntax-only for 2 of 2 files of compile_commands.json in .): 2 problems",
      "checked.c:4:10 error 'missing_name' undeclared (first use in this function)",
      "checked.c:3:7 warning [-Wunused-variable] unused variable 'unused'",
    ]);
    // No object or dependency file (the entries name -o checked.o and -MF checked.d).
    expect(readdirSync(fixture.dir).sort()).toEqual(before);
  });

  it("gives columns in UTF-16 units, as servers do, on lines with tabs and non-ASCII text", async () => {
    const lines = [
      "int main(void) {",
      '\tconst char *s = "\t"; int a = missing_one;',
      '  const char *t = "漢字"; int b = missing_two;',
      "\t/* é 😀 */\tint c = missing_three;",
      "  return a + b + c + (s == t);",
      "}",
    ];
    const tree = tempTree("c-columns", {
      "columns.c": `${lines.join("\n")}\n`,
      "compile_commands.json": JSON.stringify([
        { directory: ".", file: "columns.c", arguments: ["cc", "-std=c11", "-c", "columns.c"] },
      ]),
    });
    cleanups.push(tree.remove);
    const answer = await projectCheck(tree.dir);
    for (const name of ["missing_one", "missing_two", "missing_three"]) {
      const line = lines.findIndex((text) => text.includes(name));
      // The column a server gives: the name's UTF-16 offset in its line, 1-based.
      expect(answer).toContain(
        `columns.c:${line + 1}:${lines[line]!.indexOf(name) + 1} error '${name}' undeclared`,
      );
    }
  });

  it("places findings on a line with a lone \\r and non-ASCII text, and after a byte order mark, where the user sees them", async () => {
    // gcc ends a line at a lone \r (the user's lines end at \n only) and drops the byte order mark
    // before counting columns: its byte column is read in its own line, then placed in the user's.
    const lines = [
      "\uFEFFint a = missing_zero;",
      "int main(void) {",
      '  const char *s = "é😀"; int x = 1;\r  int b = missing_one;',
      '  /* ü */ const char *t = "漢字"; int c = missing_two;',
      "  return a + b + c + x + (s == t);",
      "}",
    ];
    const tree = tempTree("c-lone-cr", {
      "lines.c": `${lines.join("\n")}\n`,
      "compile_commands.json": JSON.stringify([
        { directory: ".", file: "lines.c", arguments: ["cc", "-std=c11", "-c", "lines.c"] },
      ]),
    });
    cleanups.push(tree.remove);
    const answer = await projectCheck(tree.dir);
    for (const name of ["missing_zero", "missing_one", "missing_two"]) {
      const line = lines.findIndex((text) => text.includes(name));
      // As a server gives it: the user's line, the name's UTF-16 offset in it (the byte order
      // mark is line 1's first character), 1-based.
      expect(answer).toMatch(
        new RegExp(`lines\\.c:${line + 1}:${lines[line]!.indexOf(name) + 1} error '${name}' undeclared`),
      );
    }
  });

  it("runs a compiler that does not know the byte-column option (clang) without it", async () => {
    // Stands in for clang, absent here: it refuses the option as clang does and counts bytes.
    const line = '  const char *t = "é"; int b = missing;';
    const tree = tempTree("c-refuses", {
      clang: [
        "#!/bin/sh",
        'for arg in "$@"; do',
        '  if [ "$arg" = "-fdiagnostics-column-unit=byte" ]; then',
        "    echo \"clang: error: unknown argument: '$arg'\" >&2; exit 1",
        "  fi",
        "done",
        `echo "b.c:2:${Buffer.byteLength(line.slice(0, line.indexOf("missing")), "utf8") + 1}: error: use of undeclared identifier 'missing'" >&2`,
        "exit 1",
        "",
      ].join("\n"),
      "b.c": `int main(void) {\n${line}\n  return b;\n}\n`,
    });
    cleanups.push(tree.remove);
    chmodSync(join(tree.dir, "clang"), 0o755);
    writeFileSync(
      join(tree.dir, "compile_commands.json"),
      JSON.stringify([
        { directory: tree.dir, file: "b.c", arguments: [join(tree.dir, "clang"), "-c", "b.c"] },
      ]),
    );
    const answer = await projectCheck(tree.dir);
    expect(answer).toContain(
      `b.c:2:${line.indexOf("missing") + 1} error use of undeclared identifier 'missing'`,
    );
    expect(answer).not.toContain("failed to run");
  });

  it("counts a byte order mark as clang does (gcc drops it), asking a compiler that refuses the byte-column option which it is", async () => {
    // Stands in for clang, absent here: it says so when asked its version, and counts the mark's bytes.
    const line = "\uFEFFint a = missing;";
    const tree = tempTree("c-clang-bom", {
      clang: [
        "#!/bin/sh",
        'if [ "$1" = "--version" ]; then echo "Debian clang version 14.0.6"; exit 0; fi',
        'for arg in "$@"; do',
        '  if [ "$arg" = "-fdiagnostics-column-unit=byte" ]; then',
        "    echo \"clang: error: unknown argument: '$arg'\" >&2; exit 1",
        "  fi",
        "done",
        `echo "a.c:1:${Buffer.byteLength(line.slice(0, line.indexOf("missing")), "utf8") + 1}: error: use of undeclared identifier 'missing'" >&2`,
        "exit 1",
        "",
      ].join("\n"),
      "a.c": `${line}\n`,
    });
    cleanups.push(tree.remove);
    chmodSync(join(tree.dir, "clang"), 0o755);
    writeFileSync(
      join(tree.dir, "compile_commands.json"),
      JSON.stringify([
        { directory: tree.dir, file: "a.c", arguments: [join(tree.dir, "clang"), "-c", "a.c"] },
      ]),
    );
    expect(await projectCheck(tree.dir)).toContain(
      `a.c:1:${line.indexOf("missing") + 1} error use of undeclared identifier 'missing'`,
    );
  });

  it("keeps to its bounds on files and time, and says what it left out", async () => {
    const fixture = copyFixture("c-project");
    cleanups.push(fixture.remove);
    const database = readCompileDatabase(fixture.dir)!;
    const owned = new Set<unknown>();
    let ownedEver = 0;
    const context = {
      signal: new AbortController().signal,
      env: process.env,
      findTool: (command: string) => findBinary(command, [], []),
      own: (child: unknown) => {
        owned.add(child);
        ownedEver++;
        return () => owned.delete(child);
      },
    };
    const one = await checkCompileDatabase(database, context, {
      maxFiles: 1,
      totalMs: 60_000,
      concurrency: 1,
    });
    expect(one.checked).toBe(1);
    expect(one.notes).toEqual(["1 files over the 1-file bound not checked"]);
    // A zero bound is already over when the first file comes up: nothing starts, whatever the
    // machine's speed (a 1 ms bound raced the first compiler's start).
    const none = await checkCompileDatabase(database, context, { maxFiles: 10, totalMs: 0, concurrency: 1 });
    expect(none.checked).toBe(0);
    expect(none.notes).toEqual(["2 files not checked within the 0 s bound"]);
    // Each compiler ran owned by the caller (the run) and was let go once it ended.
    expect(ownedEver).toBe(1);
    await vi.waitFor(() => expect(owned.size).toBe(0));
  });

  it("says there is no checker without a compile_commands.json, and how to get one", async () => {
    const fixture = copyFixture("multi-root");
    cleanups.push(fixture.remove);
    const answer = await projectCheck(fixture.dir);
    expect(answer).toContain(
      "c (one): no project checker: C/C++ has no standard one, and no compile_commands.json is in one or one/build",
    );
    expect(answer).toContain("cmake -B build -DCMAKE_EXPORT_COMPILE_COMMANDS=ON, or bear -- make");
    expect(answer).toContain("c (two): no project checker");
  });
});

describe.skipIf(!findBinary("go", [], []).found && !ci)("diagnostics * for Go", () => {
  requireCommand("go");

  it("runs go vet in a module two levels down, skipping dependency and build folders", async () => {
    const module = "module example.com/api\n\ngo 1.19\n";
    const tree = tempTree("go-monorepo", {
      "packages/api/go.mod": module,
      "packages/api/main.go":
        'package main\n\nimport "fmt"\n\nfunc main() {\n\t_ = "é"; fmt.Printf("%d\\n", "three")\n}\n',
      "packages/api/broken/broken.go": 'package broken\n\nvar count int = "three"\n',
      // Never searched: a dependency folder and a build output.
      "node_modules/dep/go.mod": module,
      "node_modules/dep/dep.go": "package dep\n\nvar x int = nope\n",
      "build/gen/go.mod": module,
      "build/gen/gen.go": "package gen\n\nvar x int = nope\n",
    });
    cleanups.push(tree.remove);
    const answer = await projectCheck(tree.dir);
    expect(answer.split("\n")).toEqual([
      "go (go vet ./... in packages/api): 2 problems; go vet stops at a package's first type errors (and runs no analyzer there): there may be more; lsp diagnostics on a file lists all of its errors",
      'packages/api/broken/broken.go:3:17 error cannot use "three" (untyped string constant) as int value in variable declaration',
      // In UTF-16 units, as servers count: vet says column 12 (é is two bytes).
      'packages/api/main.go:6:11 warning fmt.Printf format %d has arg "three" of wrong type string',
    ]);
  });
});

describe.skipIf(!findBinary("cargo", [], []).found && !ci)("diagnostics * for Rust", () => {
  requireCommand("cargo");

  it("runs cargo check once at the workspace root, with member paths from that root", async () => {
    const member = (name: string, deps = "") =>
      `[package]\nname = "${name}"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n${deps}`;
    const tree = tempTree("cargo-workspace", {
      "Cargo.toml": '[workspace]\nmembers = ["crates/app", "crates/util"]\nresolver = "2"\n',
      "crates/util/Cargo.toml": member("util"),
      "crates/util/src/lib.rs": "pub fn helper() -> i32 {\n    let unused = 1;\n    2\n}\n",
      "crates/app/Cargo.toml": member("app", 'util = { path = "../util" }\n'),
      "crates/app/src/main.rs":
        'fn main() {\n    let count: i32 = "three";\n    println!("{}", count + util::helper());\n}\n',
    });
    cleanups.push(tree.remove);
    const answer = await projectCheck(tree.dir);
    expect(answer.split("\n")).toEqual([
      "rust (cargo check --message-format=json --quiet --locked in .): 2 problems",
      "rust (crates/app): checked with . (its check covers this folder)",
      "rust (crates/util): checked with . (its check covers this folder)",
      // Errors first, then the rest by place (cargo prints them in its build order).
      "crates/app/src/main.rs:2:22 error [E0308] mismatched types",
      "crates/util/src/lib.rs:2:9 warning [unused_variables] unused variable: `unused`",
    ]);
  });
});

describe.skipIf(!findBinary("cargo", [], []).found && !ci)("diagnostics * for Rust and Cargo.lock", () => {
  it("leaves an existing Cargo.lock as it is (--locked), saying why cargo could not check", async () => {
    const lock = '# stale\nversion = 3\n\n[[package]]\nname = "other"\nversion = "0.1.0"\n';
    const tree = tempTree("cargo-locked", {
      "Cargo.toml": '[package]\nname = "demo"\nversion = "0.1.0"\nedition = "2021"\n',
      "src/main.rs": "fn main() {}\n",
      "Cargo.lock": lock,
    });
    cleanups.push(tree.remove);
    const answer = await projectCheck(tree.dir);
    expect(answer).toContain("rust (cargo check --message-format=json --quiet --locked in .)");
    expect(answer).toContain("cannot update the lock file");
    expect(readFileSync(join(tree.dir, "Cargo.lock"), "utf8")).toBe(lock);
  });

  it("checked alone, a workspace member leaves its workspace's Cargo.lock as it is (--locked)", async () => {
    const lock = '# stale\nversion = 3\n\n[[package]]\nname = "other"\nversion = "0.1.0"\n';
    const tree = tempTree("cargo-member", {
      "Cargo.toml": '[workspace]\nmembers = ["member"]\nresolver = "2"\n',
      "Cargo.lock": lock,
      "member/Cargo.toml": '[package]\nname = "member"\nversion = "0.1.0"\nedition = "2021"\n',
      "member/src/main.rs": "fn main() {}\n",
    });
    cleanups.push(tree.remove);
    // The working directory is the member: the workspace root is above it, out of the run's view.
    const answer = await projectCheck(join(tree.dir, "member"));
    expect(answer).toContain("rust (cargo check --message-format=json --quiet --locked in .)");
    expect(readFileSync(join(tree.dir, "Cargo.lock"), "utf8")).toBe(lock);
  });

  it("a crate that is a workspace of its own is checked without the lock of one above it", async () => {
    const lock = '# stale\nversion = 3\n\n[[package]]\nname = "other"\nversion = "0.1.0"\n';
    const tree = tempTree("cargo-nested-workspace", {
      "Cargo.toml": '[workspace]\nmembers = []\nresolver = "2"\n',
      "Cargo.lock": lock,
      // As cargo-fuzz's fuzz/ crate: its own [workspace], so the outer one is not its workspace.
      "fuzz/Cargo.toml":
        '[package]\nname = "fuzz"\nversion = "0.1.0"\nedition = "2021"\n\n[workspace]\nmembers = ["."]\n',
      "fuzz/src/main.rs": "fn main() {\n    let unused = 1;\n}\n",
    });
    cleanups.push(tree.remove);
    const answer = await projectCheck(join(tree.dir, "fuzz"));
    expect(answer).toContain("rust (cargo check --message-format=json --quiet --locked in .)");
    expect(answer).toMatch(/src\/main\.rs:2:9 warning .*unused/);
    expect(readFileSync(join(tree.dir, "Cargo.lock"), "utf8")).toBe(lock);
    expect(existsSync(join(tree.dir, "fuzz", "Cargo.lock"))).toBe(false);
  });
});

describe.skipIf(!findBinary("cargo", [], []).found && !ci)(
  "diagnostics * for Rust without a Cargo.lock",
  () => {
    it("checks the crate and leaves no Cargo.lock behind", async () => {
      const tree = tempTree("cargo-unlocked", {
        "Cargo.toml": '[package]\nname = "demo"\nversion = "0.1.0"\nedition = "2021"\n',
        "src/main.rs": "fn main() {\n    let unused = 1;\n}\n",
      });
      cleanups.push(tree.remove);
      const answer = await projectCheck(tree.dir);
      expect(answer).toContain("rust (cargo check --message-format=json --quiet --locked in .)");
      expect(answer).toMatch(/src\/main\.rs:2:9 warning .*unused/);
      expect(existsSync(join(tree.dir, "Cargo.lock"))).toBe(false);
    });

    it("leaves the Cargo.lock another cargo wrote while the check ran", async () => {
      // A concurrent cargo (the user's own `cargo build` in a shell) cannot be made to write at a
      // chosen moment of the check; the crate's build script stands in for it: run by the check's
      // own cargo, after the lock was made, it writes Cargo.lock as cargo does (in place) with
      // content of its own, as a cargo resolving other dependencies would.
      const theirs =
        '# This file is automatically @generated by Cargo.\n# (another cargo)\nversion = 4\n\n[[package]]\nname = "demo"\nversion = "0.1.0"\n';
      const tree = tempTree("cargo-concurrent", {
        "Cargo.toml": '[package]\nname = "demo"\nversion = "0.1.0"\nedition = "2021"\n',
        "build.rs": `fn main() {\n    let lock = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.lock");\n    std::fs::write(lock, ${JSON.stringify(theirs)}).unwrap();\n}\n`,
        "src/main.rs": "fn main() {\n    let unused = 1;\n}\n",
      });
      cleanups.push(tree.remove);
      const answer = await projectCheck(tree.dir);
      expect(answer).toMatch(/src\/main\.rs:2:9 warning .*unused/);
      expect(answer).toContain(
        "another process wrote the Cargo.lock made for the check while it ran: left in place",
      );
      expect(readFileSync(join(tree.dir, "Cargo.lock"), "utf8")).toBe(theirs);
    });
  },
);

describe("diagnostics * for Dart: reading dart analyze --format=machine", () => {
  // dart is not installed here: a stand-in script prints lines in the format of the SDK's
  // `emitMachineFormat` (pkg/dartdev/lib/src/commands/analyze.dart):
  // SEVERITY|TYPE|CODE|FILE|LINE|COLUMN|LENGTH|MESSAGE, plus lines that are not findings.
  it("turns each finding line into a finding, escapes undone, and skips the other lines", async () => {
    const main = "/home/dev/app/lib/main.dart";
    const report = [
      "Resolving dependencies...",
      `ERROR|COMPILE_TIME_ERROR|UNDEFINED_IDENTIFIER|${main}|4|10|4|Undefined name 'nope'.`,
      `WARNING|STATIC_WARNING|DEAD_NULL_AWARE_EXPRESSION|${main}|7|18|3|The left operand can't be null, so the right operand is never executed.`,
      `INFO|LINT|PREFER_CONST_CONSTRUCTORS|/home/dev/app/lib/src/view.dart|12|3|20|Use 'const' with the constructor to improve performance.`,
      // The path and the message are escaped: `\|` for a pipe, `\\` for a backslash.
      String.raw`ERROR|COMPILE_TIME_ERROR|UNDEFINED_OPERATOR|/home/dev/app/lib/a\|b.dart|2|9|1|The operator '\|' isn't defined for the type 'String'.`,
      "",
      "a|b|c",
      "3 issues found.",
    ].join("\n");
    const tree = tempTree("dart-machine", { "pubspec.yaml": "name: app\n", "stub/report.txt": report });
    cleanups.push(tree.remove);
    const stub = join(tree.dir, "stub", "dart");
    writeFileSync(stub, '#!/bin/sh\ncat "$(dirname "$0")/report.txt"\nexit 3\n');
    chmodSync(stub, 0o755);
    const outcome = await projectCheckers.dart!.check({
      root: tree.dir,
      display: (path) => path,
      findTool: (command) =>
        command === "dart" ? { found: true, path: stub } : { found: false, reason: `${command} not found` },
      signal: new AbortController().signal,
      progress: () => {},
      env: process.env,
      own: () => () => {},
      deadline: Date.now() + 60_000,
    });
    expect(outcome).toEqual({
      ran: true,
      label: "dart analyze --format=machine",
      findings: [
        {
          file: main,
          line: 4,
          column: 10,
          severity: "error",
          code: "undefined_identifier",
          message: "Undefined name 'nope'.",
        },
        {
          file: main,
          line: 7,
          column: 18,
          severity: "warning",
          code: "dead_null_aware_expression",
          message: "The left operand can't be null, so the right operand is never executed.",
        },
        {
          file: "/home/dev/app/lib/src/view.dart",
          line: 12,
          column: 3,
          severity: "info",
          code: "prefer_const_constructors",
          message: "Use 'const' with the constructor to improve performance.",
        },
        {
          file: "/home/dev/app/lib/a|b.dart",
          line: 2,
          column: 9,
          severity: "error",
          code: "undefined_operator",
          message: "The operator '|' isn't defined for the type 'String'.",
        },
      ],
      notes: [],
    });
  });
});

const tsc = join(packageBin, "tsc");

describe.skipIf(!existsSync(tsc) && !ci)(
  "diagnostics * for TypeScript: no .tsbuildinfo in the project",
  () => {
    beforeAll(() => {
      expect(existsSync(tsc), `tsc missing in ${packageBin}; run pnpm install`).toBe(true);
    });

    const check = (root: string) =>
      projectCheckers.typescript!.check({
        root,
        display: (path) => path,
        findTool: (command) =>
          command === "tsc" ? { found: true, path: tsc } : { found: false, reason: `${command} not found` },
        signal: new AbortController().signal,
        progress: () => {},
        env: process.env,
        own: () => () => {},
        deadline: Date.now() + 120_000,
      });
    const buildInfos = (dir: string) =>
      readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((name) => name.endsWith(".tsbuildinfo"));
    const redirects = () => readdirSync(tmpdir()).filter((name) => name.startsWith("lsp-tsbuildinfo-"));
    const source = { "src/index.ts": 'export const count: number = "three";\n' };
    const finding = {
      line: 1,
      column: 14,
      severity: "error",
      code: "TS2322",
      message: "Type 'string' is not assignable to type 'number'.",
    };

    it.each([
      ["composite", { "tsconfig.json": '{ "compilerOptions": { "composite": true, "strict": true } }\n' }],
      ["incremental", { "tsconfig.json": '{ "compilerOptions": { "incremental": true } }\n' }],
      [
        "composite from an extended config",
        {
          "tsconfig.base.json": '{ "compilerOptions": { "composite": true } }\n',
          "tsconfig.json": '{ "extends": "./tsconfig.base.json", "include": ["src"] }\n',
        },
      ],
    ])(
      "points tsc's build info outside the project (%s), still reporting its findings",
      async (_, config) => {
        const tree = tempTree("tsc-buildinfo", { ...config, ...source });
        cleanups.push(tree.remove);
        // Plain tsc --noEmit writes one into this project (the fixture shows the problem), …
        spawnSync(tsc, ["--noEmit", "-p", tree.dir]);
        expect(buildInfos(tree.dir)).toEqual(["tsconfig.tsbuildinfo"]);
        rmSync(join(tree.dir, "tsconfig.tsbuildinfo"));
        // … the checker writes none, and leaves no temp folder behind. Its temporary folder goes
        // in one of this test's own: in the shared one, checks run beside it (other suites) make
        // and remove theirs.
        const savedTmp = process.env.TMPDIR;
        const ownTmp = mkdtempSync(join(tmpdir(), "lsp-checker-tmp-"));
        cleanups.push(() => rmSync(ownTmp, { recursive: true, force: true }));
        process.env.TMPDIR = ownTmp;
        let outcome;
        try {
          outcome = await check(tree.dir);
          expect(redirects()).toEqual([]);
        } finally {
          if (savedTmp === undefined) delete process.env.TMPDIR;
          else process.env.TMPDIR = savedTmp;
        }
        expect(outcome).toEqual({
          ran: true,
          label: `tsc --noEmit --pretty false -p ${tree.dir} --tsBuildInfoFile <temp file>`,
          findings: [{ file: join(tree.dir, "src", "index.ts"), ...finding }],
          notes: [],
        });
        expect(buildInfos(tree.dir)).toEqual([]);
      },
    );

    it("passes no --tsBuildInfoFile to a project that is neither composite nor incremental", async () => {
      const tree = tempTree("tsc-plain", {
        "tsconfig.json": '{ "compilerOptions": { "composite": false, "strict": true } }\n',
        ...source,
      });
      cleanups.push(tree.remove);
      expect(await check(tree.dir)).toEqual({
        ran: true,
        label: `tsc --noEmit --pretty false -p ${tree.dir}`,
        findings: [{ file: join(tree.dir, "src", "index.ts"), ...finding }],
        notes: [],
      });
      expect(buildInfos(tree.dir)).toEqual([]);
    });
  },
);
