import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRegistry, createRun, resultText } from "@tools/registry";
import { beforeAll, describe, expect, it } from "vitest";
import { diagnosticsOnWrite } from "../diagnostics/diagnostics-on-write.js";
import { findBinary } from "../servers/find-binary.js";
import { createLspSupervisor } from "../supervisor/supervisor.js";
import { ci, copyFixture, groupGoneWithin, tempTree } from "../test-support/fixtures.js";
import { useServerFixture } from "../test-support/server-suite.js";
import { writeTool } from "../test-support/write-tool.js";
import { lspRenameTool } from "./lsp-rename-tool.js";
import { lspTool } from "./lsp-tool.js";

/** One describe per server: definition and diagnostics on a small fixture. */
function serverSuite(options: {
  command: string;
  fixture: string;
  file: string;
  definition: { line: number; symbol: string; expected: string };
  broken: string;
  expectedDiagnostic: RegExp;
}): void {
  const binary = findBinary(options.command, [], []);
  describe.skipIf(!binary.found && !ci)(`lsp against ${options.command}`, () => {
    beforeAll(() => {
      expect(binary.found, `${options.command} not found on PATH`).toBe(true);
    });
    const server = useServerFixture({
      fixture: options.fixture,
      server: options.command,
      tools: [lspTool],
      diagnosticsTimeoutMs: 20_000,
    });
    const { text } = server;

    it("finds the definition", async () => {
      const answer = await text({
        action: "definition",
        file: options.file,
        line: options.definition.line,
        symbol: options.definition.symbol,
      });
      expect(answer).toContain(options.definition.expected);
    });

    it("reports no diagnostics for the clean file, then fresh ones after a change on disk", async () => {
      expect(await text({ action: "diagnostics", file: options.file })).toBe(
        `no diagnostics in ${options.file}`,
      );
      const path = join(server.dir, options.file);
      writeFileSync(path, options.broken);
      expect(await text({ action: "diagnostics", file: options.file })).toMatch(options.expectedDiagnostic);
    });

    it("reload restarts the server of the file's root", async () => {
      const before = server.supervisor.processes()[0]?.pid;
      const answer = await text({ action: "reload", file: options.file });
      expect(answer).toContain("restarted");
      const after = server.supervisor.processes()[0];
      expect(after?.state).toBe("running");
      expect(after?.pid).not.toBe(before);
      expect(await groupGoneWithin(before!)).toBe(true);
      expect(await text({ action: "diagnostics", file: options.file })).toMatch(options.expectedDiagnostic);
    });
  });
}

serverSuite({
  command: "gopls",
  fixture: "go-project",
  file: "main.go",
  definition: { line: 10, symbol: "greet", expected: "main.go:5:6  func greet(name string) string {" },
  broken: 'package main\n\nfunc main() {\n\tvar count int = "three"\n}\n',
  expectedDiagnostic: /main\.go:4:\d+ error .*cannot use "three"/,
});

describe.skipIf(!findBinary("gopls", [], []).found && !ci)("gopls analysis diagnostics on write", () => {
  // gopls's first publish for a document opened while its workspace loads carries no version and
  // no analyses; the printf (vet) finding arrives in a later, versioned publish. The write that
  // cold-starts gopls must report it, and so must the writes after it.
  const printf = (verb: string) =>
    `package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Printf("${verb}\\n", "three")\n}\n`;

  it("reports a printf format mismatch in the write that introduces it, then its fix", async () => {
    const fixture = copyFixture("go-project");
    const run = createRun({ workingDirectory: fixture.dir });
    const supervisor = createLspSupervisor(run, { diagnosticsTimeoutMs: 20_000 });
    const registry = createRegistry({
      tools: [writeTool],
      resultWrappers: [diagnosticsOnWrite({ boundMs: 30_000 })],
      approval: "auto",
    });
    const write = async (content: string) =>
      resultText(await registry.invoke(run, { tool: "write", args: { file: "main.go", content } }));
    try {
      // gopls starts with this write: what main.go had before it is not known.
      const cold = await write(printf("%d"));
      expect(cold).toMatch(
        /1 diagnostic in main\.go \(checked for the first time in this run: some may predate this write\):\nmain\.go:6:\d+ \w+ .*Printf format %d has arg "three" of wrong type string/,
      );
      expect(await write(printf("%s"))).toContain("main.go: clean (no errors or warnings)");
      const warm = await write(printf("%x %d"));
      expect(warm).toMatch(
        /1 new diagnostic in main\.go:\nmain\.go:6:\d+ \w+ .*Printf format %d reads arg #2, but call has 1 arg/,
      );
    } finally {
      const pids = supervisor.processes().flatMap((p) => (p.pid ? [p.pid] : []));
      await run.dispose();
      fixture.remove();
      for (const pid of pids) expect(await groupGoneWithin(pid)).toBe(true);
    }
  });
});

describe.skipIf(!findBinary("gopls", [], []).found && !ci)("lsp_rename of a Go package", () => {
  it("moves the package's folder (data files too, bytes kept), edits every import, and the module builds", async () => {
    const tree = tempTree("go-package-rename", {
      "go.mod": "module example.com/app\n\ngo 1.19\n",
      "main.go":
        'package main\n\nimport (\n\t"fmt"\n\n\t"example.com/app/shapes"\n)\n\nfunc main() {\n\tfmt.Println(shapes.Area() + shapes.More())\n}\n',
      "shapes/shapes.go": "package shapes\n\nfunc Area() int { return 1 }\n",
      "shapes/more.go": "package shapes\n\nfunc More() int { return 2 }\n",
    });
    const logo = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0x00, 0x0a]);
    writeFileSync(join(tree.dir, "shapes", "logo.png"), logo);
    const run = createRun({ workingDirectory: tree.dir });
    createLspSupervisor(run, { diagnosticsTimeoutMs: 20_000 });
    const registry = createRegistry({ tools: [lspTool, lspRenameTool], approval: "auto" });
    try {
      const answer = resultText(
        await registry.invoke(run, {
          tool: "lsp_rename",
          args: { file: "shapes/shapes.go", line: 1, symbol: "shapes", new_name: "geometry" },
        }),
      );
      expect(answer.split("\n")).toEqual([
        // The import path and both uses; each package clause, edited before the folder moved.
        "(not fully checked for a clash of 'geometry' with names already there: the edit creates, moves or deletes files; check the changed files' diagnostics)",
        "renamed 'shapes' to 'geometry': 5 edits in 4 files",
        "main.go: 3 edits",
        "shapes/logo.png → geometry/logo.png",
        "shapes/more.go → geometry/more.go: 1 edit",
        "shapes/shapes.go → geometry/shapes.go: 1 edit",
      ]);
      expect(existsSync(join(tree.dir, "shapes"))).toBe(false);
      expect(readdirSync(join(tree.dir, "geometry")).sort()).toEqual(["logo.png", "more.go", "shapes.go"]);
      expect(readFileSync(join(tree.dir, "geometry", "logo.png")).equals(logo)).toBe(true);
      expect(readFileSync(join(tree.dir, "main.go"), "utf8")).toContain("geometry.Area() + geometry.More()");
      execFileSync("go", ["build", "./..."], { cwd: tree.dir, stdio: "pipe", timeout: 120_000 });
    } finally {
      await run.dispose();
      tree.remove();
    }
  });
});

describe.skipIf(!findBinary("gopls", [], []).found && !ci)(
  "lsp_rename on gopls with diagnostics on write",
  () => {
    it("renames into a file no one opened (gopls gives it version 0), and reports its diagnostics", async () => {
      const tree = tempTree("go-rename-unopened", {
        "go.mod": "module example.com/app\n\ngo 1.19\n",
        "main.go":
          'package main\n\nimport (\n\t"fmt"\n\n\t"example.com/app/shapes"\n)\n\nfunc main() {\n\tfmt.Println(shapes.Square{Side: 2}.Area())\n}\n',
        "shapes/shapes.go":
          "package shapes\n\n// A square.\n//\n// Its area is Side * Side.\n//\n// Nothing more.\n\ntype Square struct{ Side int }\n\nfunc (s Square) Area() int { return s.Side * s.Side }\n",
      });
      const run = createRun({ workingDirectory: tree.dir });
      createLspSupervisor(run, { diagnosticsTimeoutMs: 20_000 });
      const registry = createRegistry({
        tools: [lspTool, lspRenameTool],
        resultWrappers: [diagnosticsOnWrite({ boundMs: 30_000 })],
        approval: "auto",
      });
      try {
        const answer = resultText(
          await registry.invoke(run, {
            tool: "lsp_rename",
            args: { file: "shapes/shapes.go", line: 9, symbol: "Square", new_name: "Box" },
          }),
        );
        expect(answer.split("\n")).toEqual([
          "renamed 'Square' to 'Box': 3 edits in 2 files",
          "main.go: 1 edit",
          "shapes/shapes.go: 2 edits",
          "",
          "LSP diagnostics after this write:",
          "2 files clean",
        ]);
        expect(readFileSync(join(tree.dir, "main.go"), "utf8")).toContain("shapes.Box{Side: 2}.Area()");
        execFileSync("go", ["build", "./..."], { cwd: tree.dir, stdio: "pipe", timeout: 120_000 });
      } finally {
        await run.dispose();
        tree.remove();
      }
    });
  },
);

describe.skipIf(!findBinary("gopls", [], []).found && !ci)(
  "lsp_rename of a Go type its doc comment names",
  () => {
    it("checks the rename whole: the doc comment gopls renames too is no use left unlooked", async () => {
      const tree = tempTree("go-rename-doc", {
        "go.mod": "module example.com/app\n\ngo 1.19\n",
        "main.go":
          "package main\n\n// Circle is a round shape.\ntype Circle struct{ Radius float64 }\n\nvar unit = Circle{Radius: 1}\n\nfunc main() { _ = unit }\n",
      });
      const run = createRun({ workingDirectory: tree.dir });
      createLspSupervisor(run, { diagnosticsTimeoutMs: 20_000 });
      const registry = createRegistry({ tools: [lspTool, lspRenameTool], approval: "auto" });
      try {
        const answer = resultText(
          await registry.invoke(run, {
            tool: "lsp_rename",
            args: { file: "main.go", line: 4, symbol: "Circle", new_name: "Round" },
          }),
        );
        expect(answer.split("\n")).toEqual([
          "renamed 'Circle' to 'Round': 3 edits in 1 file",
          "main.go: 3 edits",
        ]);
        expect(readFileSync(join(tree.dir, "main.go"), "utf8")).toContain("// Round is a round shape.");
      } finally {
        await run.dispose();
        tree.remove();
      }
    });
  },
);

describe.skipIf(!findBinary("gopls", [], []).found && !ci)(
  "lsp_rename of a Go interface method gopls renames alone",
  () => {
    // gopls (Debian's, for Go 1.19) renames an interface method and its uses, not the methods of
    // the types implementing it: every new name then breaks the build. That is no clash, and
    // "pick another name" would have the agent try name after name.
    const files = {
      "go.mod": "module example.com/app\n\ngo 1.19\n",
      "main.go":
        'package main\n\nimport "fmt"\n\ntype Shape interface {\n\tArea() float64\n}\n\ntype Circle struct{ R float64 }\n\nfunc (c Circle) Area() float64 { return 3 * c.R * c.R }\n\nfunc describe(s Shape) string { return fmt.Sprint(s.Area()) }\n\nfunc main() { fmt.Println(describe(Circle{R: 1})) }\n',
    };
    it("refuses saying which declarations the edit leaves out, asked at the interface method", async () => {
      const tree = tempTree("go-rename-interface", files);
      const run = createRun({ workingDirectory: tree.dir });
      createLspSupervisor(run, { diagnosticsTimeoutMs: 20_000 });
      const registry = createRegistry({ tools: [lspTool, lspRenameTool], approval: "auto" });
      const rename = async (line: number) => {
        const result = await registry.invoke(run, {
          tool: "lsp_rename",
          args: { file: "main.go", line, symbol: "Area", new_name: "Size" },
        });
        return { code: result.error?.code, lines: resultText(result).split("\n") };
      };
      try {
        const atInterface = await rename(6);
        expect(atInterface.code, atInterface.lines.join("\n")).toBe("LSP_RENAME_FAILED");
        expect(atInterface.lines[0]).toBe(
          "renaming 'Area' to 'Size' would break the code whatever the new name (this is no name clash): gopls's edit renames 'Area' here and its uses, but not the 1 declaration tied to it through an interface (implementations of it, or the interface method it implements), which would then no longer match (checked on the server in memory; nothing was written):",
        );
        expect(atInterface.lines[1]).toBe(
          "- main.go:11:17 (func (c Circle) Area() float64 { return 3 * c.R * c.R })",
        );
        expect(atInterface.lines[2]).toBe("The errors the edit would bring:");
        expect(atInterface.lines[3]).toMatch(
          /^- main\.go:15:\d+ error .*does not implement Shape \(missing method Size\)/,
        );
        expect(atInterface.lines.at(-1)).toBe(
          "Rename 'Area' to 'Size' at each of these declarations and at this one together with edit (or apply_patch); lsp references on each lists its uses.",
        );
        // Asked at the implementation, gopls refuses by itself (naming the interface method to
        // rename), which the refusal above then answers.
        const atImplementation = await rename(11);
        expect(atImplementation.code, atImplementation.lines.join("\n")).toBe("LSP_RENAME_FAILED");
        expect(atImplementation.lines.join("\n")).toContain("no longer assignable to interface Shape");
        expect(readFileSync(join(tree.dir, "main.go"), "utf8")).toBe(files["main.go"]);
      } finally {
        await run.dispose();
        tree.remove();
      }
    });
  },
);

describe.skipIf(!findBinary("gopls", [], []).found && !ci)(
  "lsp_rename of a Go interface method whose implementations implement another interface",
  () => {
    // Circle.Area implements Shape.Area and Sizer.Area: renaming Shape.Area, Circle.Area and
    // nothing else still breaks the code (Circle no longer implements Sizer), so the refusal
    // names Sizer.Area too.
    const files = {
      "go.mod": "module example.com/app\n\ngo 1.19\n",
      "main.go": [
        "package main",
        "",
        'import "fmt"',
        "",
        "type Shape interface {",
        "\tArea() float64",
        "}",
        "",
        "type Sizer interface {",
        "\tArea() float64",
        "}",
        "",
        "type Circle struct{ R float64 }",
        "",
        "func (c Circle) Area() float64 { return 3 * c.R * c.R }",
        "",
        "func describe(s Shape) string { return fmt.Sprint(s.Area()) }",
        "",
        "func size(s Sizer) float64 { return s.Area() }",
        "",
        "func main() { fmt.Println(describe(Circle{R: 1}), size(Circle{})) }",
        "",
      ].join("\n"),
    };
    it("names the other interface's method with the implementation", async () => {
      const tree = tempTree("go-rename-two-interfaces", files);
      const run = createRun({ workingDirectory: tree.dir });
      createLspSupervisor(run, { diagnosticsTimeoutMs: 20_000 });
      const registry = createRegistry({ tools: [lspTool, lspRenameTool], approval: "auto" });
      try {
        const result = await registry.invoke(run, {
          tool: "lsp_rename",
          args: { file: "main.go", line: 6, symbol: "Area", new_name: "Size" },
        });
        const lines = resultText(result).split("\n");
        expect(result.error?.code, lines.join("\n")).toBe("LSP_RENAME_FAILED");
        expect(lines[0]).toContain("but not the 2 declarations tied to it through an interface");
        expect(lines.slice(1, 3)).toEqual([
          "- main.go:10:2 (Area() float64): method of interface Sizer",
          "- main.go:15:17 (func (c Circle) Area() float64 { return 3 * c.R * c.R })",
        ]);
        expect(readFileSync(join(tree.dir, "main.go"), "utf8")).toBe(files["main.go"]);
      } finally {
        await run.dispose();
        tree.remove();
      }
    });
  },
);

serverSuite({
  command: "clangd",
  fixture: "c-project",
  file: "main.c",
  definition: { line: 6, symbol: "twice", expected: "main.c:1:12  static int twice(int value) {" },
  broken: "int main(void) {\n  return undefined_name;\n}\n",
  expectedDiagnostic: /main\.c:2:\d+ error .*undefined_name/,
});

describe.skipIf((!findBinary("clangd", [], []).found || !findBinary("gopls", [], []).found) && !ci)(
  "diagnostics in a folder whose name servers escape differently",
  () => {
    // clangd percent-encodes every character but letters, digits and -_.~/: in the uris it
    // publishes, gopls some of them; Node's file URLs leave + ( ) , = ! ' & as they are. Each
    // publish must still be matched to our document, or fresh results look missing or stale.
    it.each([
      [
        "c",
        "main.c",
        "int main(void) {\n  return undefined_name;\n}\n",
        /main\.c:2:\d+ error .*undefined_name/,
      ],
      [
        "go",
        "main.go",
        'package main\n\nfunc main() {\n\tvar count int = "three"\n}\n',
        /main\.go:4:\d+ error .*"three"/,
      ],
    ])("%s", async (language, file, broken, expected) => {
      const tree = tempTree("escaped-names", {
        "c++ app (old)/compile_flags.txt": "-std=c11\n",
        "c++ app (old)/go.mod": "module example.com/app\n\ngo 1.19\n",
        [`c++ app (old)/${file}`]: broken,
      });
      const run = createRun({ workingDirectory: tree.dir });
      createLspSupervisor(run, { diagnosticsTimeoutMs: 20_000 });
      const registry = createRegistry({ tools: [lspTool] });
      try {
        const answer = resultText(
          await registry.invoke(run, {
            tool: "lsp",
            args: { action: "diagnostics", file: `c++ app (old)/${file}` },
          }),
        );
        expect(answer, language).toMatch(expected);
        expect(answer).not.toContain("incomplete");
      } finally {
        await run.dispose();
        tree.remove();
      }
    });
  },
);

/** Waits until /proc says the process is stopped (state T), or fails after `ms`. */
async function stoppedWithin(pid: number, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    if (/^\d+ \(.*\) [Tt] /s.test(stat)) return;
    if (Date.now() > deadline)
      throw new Error(`pid ${pid} not stopped within ${ms} ms: ${stat.slice(0, 80)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.skipIf(!findBinary("clangd", [], []).found && !ci)("one bound per lsp call", () => {
  it("ends a call on a stopped server within its one bound, saying which step it waited on", async () => {
    const fixture = copyFixture("multi-root");
    const run = createRun({ workingDirectory: fixture.dir });
    // A small request bound, and a far longer wait for an analysis: the call's one bound cuts
    // that wait, instead of the call waiting it out and then a request bound on top.
    const supervisor = createLspSupervisor(run, { requestTimeoutMs: 2_000, diagnosticsTimeoutMs: 45_000 });
    const registry = createRegistry({ tools: [lspTool] });
    const lsp = (args: Record<string, unknown>) => registry.invoke(run, { tool: "lsp", args });
    const at = { file: "one/main.c", line: 6, symbol: "twice" };
    try {
      expect(resultText(await lsp({ action: "references", ...at }))).toContain("one/main.c:1:12");
      const pid = supervisor.processes()[0]!.pid!;
      process.kill(pid, "SIGSTOP");
      try {
        await stoppedWithin(pid, 10_000);
        // Changed on disk: the file is sent again, and references wait for clangd to analyse it.
        const main = join(fixture.dir, "one", "main.c");
        writeFileSync(main, `${readFileSync(main, "utf8")}\n`);
        const references = await lsp({ action: "references", ...at });
        expect(references.error?.code).toBe("LSP_TIMEOUT");
        expect(resultText(references)).toContain(
          "lsp references did not finish within its 2000 ms bound: it was waiting for clangd to analyse one/main.c.",
        );
        // Nothing to analyse first: the request is the step named.
        const hover = await lsp({ action: "hover", ...at });
        expect(hover.error?.code).toBe("LSP_TIMEOUT");
        expect(resultText(hover)).toContain(
          "lsp hover did not finish within its 2000 ms bound: it was waiting for clangd to answer textDocument/hover.",
        );
      } finally {
        process.kill(pid, "SIGCONT");
      }
    } finally {
      await run.dispose();
      fixture.remove();
    }
  });
});

describe.skipIf(!findBinary("clangd", [], []).found && !ci)("one server per (language, root)", () => {
  it("starts one clangd per root and lists both in status", async () => {
    const fixture = copyFixture("multi-root");
    const run = createRun({ workingDirectory: fixture.dir });
    const supervisor = createLspSupervisor(run);
    const registry = createRegistry({ tools: [lspTool] });
    try {
      for (const root of ["one", "two"]) {
        const answer = resultText(
          await registry.invoke(run, {
            tool: "lsp",
            args: { action: "definition", file: `${root}/main.c`, line: 6, symbol: "twice" },
          }),
        );
        expect(answer).toContain(`${root}/main.c:1:12`);
      }
      expect(
        supervisor.processes().map((p) => `${p.language} ${p.root.slice(fixture.dir.length + 1)} ${p.state}`),
      ).toEqual(["c one running", "c two running"]);
      const status = resultText(await registry.invoke(run, { tool: "lsp", args: { action: "status" } }));
      expect(status).toMatch(/c: root one \(marker compile_flags\.txt\), binary found .*state running/);
      expect(status).toMatch(/c: root two \(marker compile_flags\.txt\), binary found .*state running/);
      // A server stopped outright (SIGSTOP) is running as far as the protocol knows: status says so.
      const pid = Number(/c: root one .*state running \(pid (\d+)\)/.exec(status)?.[1]);
      expect(pid).toBeGreaterThan(0);
      process.kill(pid, "SIGSTOP");
      try {
        // The kernel stops the process when it is next scheduled, not when kill returns: on a
        // loaded machine /proc may still say "sleeping" for a moment. Wait (bounded) for the stop.
        await stoppedWithin(pid, 10_000);
        const stopped = resultText(await registry.invoke(run, { tool: "lsp", args: { action: "status" } }));
        expect(stopped).toMatch(
          /c: root one .*state running \(pid \d+, stopped \(SIGSTOP or a debugger\): it answers nothing until continued; reload replaces it\)/,
        );
        expect(stopped).not.toMatch(/c: root two .*stopped/);
      } finally {
        process.kill(pid, "SIGCONT");
      }
    } finally {
      await run.dispose();
      fixture.remove();
    }
  });

  it("takes the parent of build/compile_commands.json for the root, and clangd uses that database", async () => {
    const fixture = copyFixture("multi-root");
    const one = join(fixture.dir, "one");
    rmSync(join(one, "compile_flags.txt"));
    mkdirSync(join(one, "build"));
    // The value comes only from the database's -D: a clean file proves clangd read it.
    writeFileSync(join(one, "main.c"), "int main(void) {\n  return FACTOR - 2;\n}\n");
    writeFileSync(
      join(one, "build", "compile_commands.json"),
      JSON.stringify([
        { directory: one, file: join(one, "main.c"), arguments: ["cc", "-DFACTOR=2", "-c", "main.c"] },
      ]),
    );
    const run = createRun({ workingDirectory: fixture.dir });
    createLspSupervisor(run, { diagnosticsTimeoutMs: 20_000 });
    const registry = createRegistry({ tools: [lspTool] });
    const lsp = async (args: Record<string, unknown>) =>
      resultText(await registry.invoke(run, { tool: "lsp", args }));
    try {
      expect(await lsp({ action: "diagnostics", file: "one/main.c" })).toBe("no diagnostics in one/main.c");
      expect(await lsp({ action: "status" })).toMatch(
        /c: root one \(marker build\/compile_commands\.json\), binary found .*state running/,
      );
    } finally {
      await run.dispose();
      fixture.remove();
    }
  });

  it("reload without a file restarts every running server on its own root, and says what it did", async () => {
    const fixture = copyFixture("multi-root");
    const run = createRun({ workingDirectory: fixture.dir });
    const supervisor = createLspSupervisor(run);
    const registry = createRegistry({ tools: [lspTool] });
    const lsp = async (args: Record<string, unknown>) =>
      resultText(await registry.invoke(run, { tool: "lsp", args }));
    const pids = () => supervisor.processes().map((p) => p.pid!);
    try {
      for (const root of ["one", "two"])
        await lsp({ action: "definition", file: `${root}/main.c`, line: 6, symbol: "twice" });
      const before = pids();
      expect(await lsp({ action: "reload" })).toBe(
        `c for one: restarted (pid ${before[0]} → ${pids()[0]})\nc for two: restarted (pid ${before[1]} → ${pids()[1]})`,
      );
      expect(supervisor.processes().map((p) => p.state)).toEqual(["running", "running"]);
      for (const [index, pid] of before.entries()) {
        expect(pids()[index]).not.toBe(pid);
        expect(await groupGoneWithin(pid)).toBe(true);
      }
      expect(await lsp({ action: "definition", file: "two/main.c", line: 6, symbol: "twice" })).toContain(
        "two/main.c:1:12",
      );
      // A crashed server is not restarted by reload: its back-off is cleared, it starts on next use.
      process.kill(-pids()[1]!, "SIGKILL");
      await expect.poll(() => supervisor.processes()[1]?.state, { timeout: 10_000 }).toBe("crashed");
      const one = pids()[0];
      expect((await lsp({ action: "reload" })).split("\n")).toEqual([
        `c for one: restarted (pid ${one} → ${pids()[0]})`,
        "c for two: was not running (exited on SIGKILL); not restarted, crash back-off cleared: it starts on its next use",
      ]);
      expect(await lsp({ action: "definition", file: "two/main.c", line: 6, symbol: "twice" })).toContain(
        "two/main.c:1:12",
      );
      expect(supervisor.processes().map((p) => p.state)).toEqual(["running", "running"]);
    } finally {
      await run.dispose();
      fixture.remove();
    }
  });
});

describe.skipIf(!findBinary("clangd", [], []).found && !ci)("clangd messages naming other files", () => {
  it("shows the paths in its notes relative to the working directory, as every location is", async () => {
    const tree = tempTree("clangd-notes", {
      "compile_flags.txt": "-std=c11\n",
      "sub/twice.h": "#pragma once\nint twice(int v);\n",
      "sub/bad.h": "int bad(void) { return nosuch; }\n",
      "main.c": '#include "sub/twice.h"\nlong twice(int v);\n#include "sub/bad.h"\n',
    });
    const run = createRun({ workingDirectory: tree.dir });
    createLspSupervisor(run, { diagnosticsTimeoutMs: 20_000 });
    const registry = createRegistry({ tools: [lspTool] });
    try {
      const answer = resultText(
        await registry.invoke(run, { tool: "lsp", args: { action: "diagnostics", file: "main.c" } }),
      );
      expect(answer.split("\n")).toEqual([
        "2 diagnostics in main.c:",
        "main.c:2:6 error [conflicting_types] Conflicting types for 'twice'; sub/twice.h:2:5: note: previous declaration is here (clang)",
        "main.c:3:10 error [undeclared_var_use] In included file: use of undeclared identifier 'nosuch'; sub/bad.h:1:24: note: error occurred here (clang)",
      ]);
    } finally {
      await run.dispose();
      tree.remove();
    }
  });
});

describe.skipIf(!findBinary("clangd", [], []).found && !ci)("lsp_rename on clangd", () => {
  it("lists the lines still naming the old name in files it gave clangd that the edit left", async () => {
    // A compile command with a relative "directory" is one clangd 14 cannot use: it builds the
    // header with guessed flags, and its symbol is not the one in the .c files.
    const tree = tempTree("clang-rename", {
      "compile_commands.json": JSON.stringify([
        { directory: ".", file: "main.c", arguments: ["cc", "-std=c11", "-c", "main.c"] },
      ]),
      "shape.h":
        "#ifndef SHAPE_H\n#define SHAPE_H\nstruct point {\n  int x;\n  int y;\n};\nint point_sum(struct point p);\n#endif\n",
      "shape.c": '#include "shape.h"\n\nint point_sum(struct point p) {\n  return p.x + p.y;\n}\n',
      "main.c":
        '#include "shape.h"\n\nint main(void) {\n  struct point p = {1, 2};\n  return point_sum(p) - 3;\n}\n',
    });
    const run = createRun({ workingDirectory: tree.dir });
    createLspSupervisor(run);
    const registry = createRegistry({ tools: [lspRenameTool, lspTool], approval: "auto" });
    try {
      const answer = resultText(
        await registry.invoke(run, {
          tool: "lsp_rename",
          args: { file: "shape.h", line: 7, symbol: "point_sum", new_name: "point_total" },
        }),
      );
      const renamed = ["main.c", "shape.c"].filter((name) =>
        readFileSync(join(tree.dir, name), "utf8").includes("point_total"),
      );
      // Whatever clangd's edit reached, a file it left naming the old name is listed, never silent.
      for (const name of ["main.c", "shape.c"].filter((n) => !renamed.includes(n))) {
        expect(answer).toContain("not changed: 'point_sum' is still named in");
        expect(answer).toMatch(new RegExp(`${name.replace(".", "\\.")}:\\d+  .*point_sum`));
      }
      // clangd 14 (Debian's) leaves at least one: the listing above was really exercised.
      expect(renamed.length, answer).toBeLessThan(2);
      // status says why.
      const status = resultText(await registry.invoke(run, { tool: "lsp", args: { action: "status" } }));
      expect(status).toContain(
        'compile_commands.json: 1 entry has a relative "directory", which clangd does not use (it builds those files with guessed flags): make it absolute',
      );
    } finally {
      await run.dispose();
      tree.remove();
    }
  });
});

describe.skipIf(!findBinary("gopls", [], []).found && !ci)("the run ending right after a reload", () => {
  it("ends gopls without a failure", async () => {
    const fixture = copyFixture("go-project");
    const run = createRun({ workingDirectory: fixture.dir });
    const supervisor = createLspSupervisor(run);
    const registry = createRegistry({ tools: [lspTool] });
    const lsp = async (args: Record<string, unknown>) =>
      resultText(await registry.invoke(run, { tool: "lsp", args }));
    try {
      expect(await lsp({ action: "definition", file: "main.go", line: 10, symbol: "greet" })).toContain(
        "main.go:",
      );
      expect(await lsp({ action: "reload" })).toMatch(/go for \.: restarted/);
      const pids = supervisor.processes().flatMap((p) => (p.pid ? [p.pid] : []));
      // Its connection was closed by the time the exit notification went: that threw at once.
      expect(await run.dispose()).toEqual({ completed: 1, failed: [] });
      for (const pid of pids) expect(await groupGoneWithin(pid)).toBe(true);
    } finally {
      await run.dispose();
      fixture.remove();
    }
  });
});
