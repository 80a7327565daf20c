import { execFileSync, spawnSync } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRegistry, createRun, resultText, type Registry, type Run } from "@tools/registry";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diagnosticsOnWrite } from "../diagnostics/diagnostics-on-write.js";
import { findBinary } from "../servers/find-binary.js";
import { createLspSupervisor } from "../supervisor/supervisor.js";
import { ci, copyFixture, packageBin, tempTree } from "../test-support/fixtures.js";
import { useServerFixture } from "../test-support/server-suite.js";
import { writeTool } from "../test-support/write-tool.js";
import { lspRenameTool } from "./lsp-rename-tool.js";
import { lspTool } from "./lsp-tool.js";

const found = existsSync(join(packageBin, "pyright-langserver"));

describe.skipIf(!found && !ci)("lsp against pyright", () => {
  beforeAll(() => {
    expect(found, `pyright-langserver missing in ${packageBin}; run pnpm install`).toBe(true);
  });
  const server = useServerFixture({
    fixture: "py-project",
    server: "pyright",
    tools: [lspTool, lspRenameTool, writeTool],
    binDirectories: [packageBin],
    diagnosticsTimeoutMs: 15_000,
    resultWrappers: [diagnosticsOnWrite({ boundMs: 30_000 })],
    expectProcesses: true,
  });
  const { invoke, text } = server;

  it("finds a definition in another module", async () => {
    const answer = await text({ action: "definition", file: "pkg/main.py", line: 4, symbol: "scale" });
    expect(answer).toContain("pkg/geometry.py:11:5  def scale(circle: Circle, factor: float) -> Circle:");
  });

  it("sees a file a write just changed, with no turn of the event loop between the write and the call", async () => {
    writeFileSync(join(server.dir, "pkg", "far.py"), "def reach() -> int:\n    return 1\n");
    writeFileSync(join(server.dir, "pkg", "near.py"), "from pkg.far import reach\n\nvalue = reach()\n");
    const ask = () => text({ action: "definition", file: "pkg/near.py", line: 3, symbol: "reach" });
    expect(await ask()).toContain("pkg/far.py:1:5  def reach() -> int:");
    // As a harness that runs a write tool and then lsp in one batch: only microtasks between them.
    writeFileSync(join(server.dir, "pkg", "far.py"), "# moved\n# down\ndef reach() -> int:\n    return 1\n");
    expect(await ask()).toContain("pkg/far.py:3:5  def reach() -> int:");
  });

  it("gives hover with the docstring, references and symbols", async () => {
    const hover = await text({ action: "hover", file: "pkg/main.py", line: 4, symbol: "scale" });
    expect(hover).toContain("Returns a scaled copy.");
    // The docstring as written: no HTML entities or markdown escapes.
    expect(hover).toContain("Args:\n    factor: how much_larger the copy is, e.g. 2 * radius.");
    const refs = await text({ action: "references", file: "pkg/geometry.py", line: 1, symbol: "Circle" });
    expect(refs).toContain("pkg/main.py:3:8  unit = Circle(1.0)");
    const outline = await text({ action: "symbols", file: "pkg/geometry.py" });
    expect(outline).toMatch(/class Circle/);
    expect(outline).toMatch(/ {2}method area/);
  });

  it("finds a type definition; says pyright offers no implementation", async () => {
    const type = await text({ action: "type_definition", file: "pkg/main.py", line: 4, symbol: "big" });
    expect(type).toBe("1 type definition of 'big':\npkg/geometry.py:1:7  class Circle:");
    const impl = await invoke("lsp", {
      action: "implementation",
      file: "pkg/main.py",
      line: 4,
      symbol: "scale",
    });
    expect(impl.error?.code).toBe("LSP_UNSUPPORTED");
    expect(resultText(impl)).toBe(
      "pyright-langserver (python) does not offer implementation: it declares no textDocument/implementation. Try references on the interface or method.",
    );
  });

  it("searches workspace symbols, with a file and with the running server", async () => {
    const search = await text({ action: "symbols", query: "scale", file: "pkg/main.py" });
    expect(search).toContain(
      "function scale  pkg/geometry.py:11:5  def scale(circle: Circle, factor: float) -> Circle:",
    );
    const running = await text({ action: "symbols", query: "Circle" });
    expect(running).toContain("class Circle  pkg/geometry.py:1:7  class Circle:");
  });

  it("reports diagnostics and only new ones on write", async () => {
    const main = join(server.dir, "pkg", "main.py");
    const original = readFileSync(main, "utf8");
    expect(await text({ action: "diagnostics", file: "pkg/main.py" })).toBe("no diagnostics in pkg/main.py");
    const broken = original.replace("print(big.area())", "print(big.perimeter())");
    const first = resultText(await invoke("write", { file: "pkg/main.py", content: broken }));
    expect(first).toContain("1 new diagnostic in pkg/main.py");
    expect(first).toMatch(/pkg\/main\.py:5:\d+ error .*perimeter/);
    const moved = resultText(await invoke("write", { file: "pkg/main.py", content: `\n\n${broken}` }));
    expect(moved).toContain("no new diagnostics in pkg/main.py (1 reported earlier still present)");
    const fixed = resultText(await invoke("write", { file: "pkg/main.py", content: original }));
    expect(fixed).toContain("pkg/main.py: clean (no errors or warnings)");
  });

  it('runs pyright --outputjson for diagnostics "*"', async () => {
    const main = join(server.dir, "pkg", "main.py");
    const original = readFileSync(main, "utf8");
    writeFileSync(main, original.replace("scale(unit, 2.0)", "scale(unit)"));
    try {
      const answer = await text({ action: "diagnostics", file: "*" });
      expect(answer).toMatch(/python \(pyright --outputjson in \.\): 1 problem\n/);
      expect(answer).toMatch(
        /pkg\/main\.py:4:\d+ error \[reportCallIssue\] Argument missing for parameter "factor"/,
      );
    } finally {
      writeFileSync(main, original);
    }
  });

  it("renames across files", async () => {
    const result = await invoke("lsp_rename", {
      file: "pkg/geometry.py",
      line: 11,
      symbol: "scale",
      new_name: "resize",
    });
    const answer = resultText(result);
    expect(result.isError, answer).toBe(false);
    expect(answer).toContain("pkg/main.py: 2 edits");
    expect(readFileSync(join(server.dir, "pkg", "main.py"), "utf8")).toContain("big = resize(unit, 2.0)");
    expect(readFileSync(join(server.dir, "pkg", "geometry.py"), "utf8")).toContain("def resize(");
  });

  it("asks about the name meant when another contains it but for a combining mark (मान and म)", async () => {
    writeFileSync(join(server.dir, "pkg", "hindi.py"), "मान = 1\nम = 2\nprint(मान + म)\n");
    const answer = await text({ action: "hover", file: "pkg/hindi.py", line: 3, symbol: "म" });
    expect(answer).toContain("(variable) म: Literal[2]");
    expect(answer).not.toContain("मान");
    expect(answer).not.toContain("occurs");
  });

  it("refuses a rename whose edit changes nothing (a name written with a combining mark), writing nothing", async () => {
    // "café" decomposed: e then U+0301 COMBINING ACUTE ACCENT.
    const name = "cafe\u0301";
    const content = `${name} = 1\nprint(${name})\n`;
    writeFileSync(join(server.dir, "pkg", "accent.py"), content);
    const result = await invoke("lsp_rename", {
      file: "pkg/accent.py",
      line: 2,
      symbol: name,
      new_name: "cost",
    });
    const answer = resultText(result);
    expect(result.error?.code, answer).toBe("LSP_RENAME_FAILED");
    expect(answer).toBe(
      `cannot rename '${name}' on line 2: the server's edit changes nothing (no file, no text): it does not take '${name}' there for a symbol it can rename (a name written with combining characters, or a file it has not analysed). Check it with lsp references or hover, or edit by hand; nothing was written`,
    );
    expect(readFileSync(join(server.dir, "pkg", "accent.py"), "utf8")).toBe(content);
  });
});

const python = findBinary("python3", [], []);

describe.skipIf((!found || !python.found) && !ci)("pyright with the project's .venv", () => {
  beforeAll(() => {
    expect(found, `pyright-langserver missing in ${packageBin}; run pnpm install`).toBe(true);
    expect(python.found, "python3 not on PATH (needed to make a .venv)").toBe(true);
  });
  const server = useServerFixture({
    fixture: "py-project",
    server: "pyright",
    tools: [lspTool],
    binDirectories: [packageBin],
    diagnosticsTimeoutMs: 15_000,
    expectProcesses: true,
  });
  const { text } = server;

  beforeAll(() => {
    // A module only the .venv has (no stubs, no py.typed), used with a type error.
    venvWithModule(server.dir);
    writeFileSync(
      join(server.dir, "pkg", "uses_venv.py"),
      "import venvonly\n\ncount: str = venvonly.answer()\n",
    );
    appendFileSync(
      join(server.dir, "pyproject.toml"),
      '\n[tool.pyright]\nreportMissingTypeStubs = "warning"\n',
    );
  });

  const expected = [
    'pkg/uses_venv.py:1:8 warning [reportMissingTypeStubs] Stub file not found for "venvonly"',
    'pkg/uses_venv.py:3:14 error [reportAssignmentType] Type "int" is not assignable to declared type "str"',
  ];

  it("answers diagnostics on a cold server (pull registered after initialize), resolving the .venv", async () => {
    // The first call starts pyright: it registers pull diagnostics just after initialize and
    // then publishes nothing, so a push wait begun before the registration must switch to pull.
    const answer = await text({ action: "diagnostics", file: "pkg/uses_venv.py" });
    expect(answer).not.toContain("may be incomplete");
    expect(answer).toContain("2 diagnostics in pkg/uses_venv.py:");
    for (const line of expected) expect(answer).toContain(line);
  });

  it('passes the .venv to pyright for diagnostics "*"', async () => {
    const answer = await text({ action: "diagnostics", file: "*" });
    expect(answer).toContain("python (pyright --outputjson --pythonpath .venv/bin/python in .): 2 problems");
    for (const line of expected) expect(answer).toContain(line);
    expect(answer).not.toContain("reportMissingImports");
  });

  it("offers pyright's quick fix for a module without stubs", async () => {
    const answer = await text({
      action: "code_actions",
      file: "pkg/uses_venv.py",
      line: 1,
      symbol: "venvonly",
    });
    expect(answer).toBe(
      "1 code action for 'venvonly' on line 1:\nCreate Type Stub For \"venvonly\" [quickfix]",
    );
  });
});

/** Makes `<dir>/.venv` holding a module `venvonly` that only it has (no stubs, no py.typed). */
function venvWithModule(dir: string): void {
  const venv = join(dir, ".venv");
  execFileSync(python.found ? python.path : "python3", ["-m", "venv", "--without-pip", venv]);
  const lib = join(venv, "lib");
  const sitePackages = join(
    lib,
    readdirSync(lib).find((name) => name.startsWith("python"))!,
    "site-packages",
  );
  mkdirSync(join(sitePackages, "venvonly"));
  writeFileSync(join(sitePackages, "venvonly", "__init__.py"), "def answer() -> int:\n    return 42\n");
}

describe.skipIf((!found || !python.found) && !ci)("pyright and a .venv made after it started", () => {
  it("hands the new interpreter to the running pyright on the next call, and status names it", async () => {
    const tree = tempTree("late-venv", {
      "pyproject.toml": '[project]\nname = "late"\nversion = "0"\n',
      "main.py": "import venvonly\n\ncount: str = venvonly.answer()\n",
    });
    const run = createRun({ workingDirectory: tree.dir });
    createLspSupervisor(run, { binDirectories: [packageBin], diagnosticsTimeoutMs: 20_000 });
    const registry = createRegistry({ tools: [lspTool], approval: "auto" });
    const lsp = async (args: Record<string, unknown>) =>
      resultText(await registry.invoke(run, { tool: "lsp", args }));
    try {
      const before = await lsp({ action: "diagnostics", file: "main.py" });
      expect(before).toMatch(
        /^main\.py:1:8 (error|warning) \[reportMissingImports\] Import "venvonly" could not be resolved/m,
      );
      expect(await lsp({ action: "status" })).toMatch(
        /^python: root \. .*state running \(pid \d+\), interpreter: none found \(no \.venv or venv/m,
      );
      const pid = /state running \(pid (\d+)\)/.exec(await lsp({ action: "status" }))?.[1];

      venvWithModule(tree.dir);
      // At most once a second the environment is looked for again.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const after = await lsp({ action: "diagnostics", file: "main.py" });
      expect(after).not.toContain("reportMissingImports");
      expect(after).toContain(
        'main.py:3:14 error [reportAssignmentType] Type "int" is not assignable to declared type "str"',
      );
      const status = await lsp({ action: "status" });
      expect(status).toMatch(/^python: root \. .*, interpreter \.venv\/bin\/python/m);
      // The same process: no restart was needed.
      expect(status).toContain(`(pid ${pid})`);
    } finally {
      await run.dispose();
      tree.remove();
    }
  });
});

/** A python with packages that pyright cannot resolve from the python on PATH (Debian's, here). */
const systemPython = ["/usr/bin/python3", python.found ? python.path : "python3"].find(
  (candidate) => spawnSync(candidate, ["-c", "import chardet, pandas"]).status === 0,
);

describe.skipIf((!found || !systemPython) && !ci)("pyright with a venv/ folder or a parent's .venv", () => {
  const uses = "import chardet\nimport pandas\n\nprint(chardet.detect(b'x'), pandas.DataFrame())\n";
  let tree: ReturnType<typeof tempTree> | undefined;
  let run: Run | undefined;
  let registry: Registry | undefined;
  const text = async (args: Record<string, unknown>): Promise<string> =>
    resultText(await registry!.invoke(run!, { tool: "lsp", args }));

  beforeAll(() => {
    expect(found, `pyright-langserver missing in ${packageBin}; run pnpm install`).toBe(true);
    expect(
      systemPython,
      "no python3 that imports chardet and pandas (Debian's python3-pandas)",
    ).toBeDefined();
    // svc/ has its own venv/; api/ has none and uses the working directory's .venv. Both are
    // made from a python that has the packages (--system-site-packages), the one on PATH has not.
    tree = tempTree("py-envs", {
      "svc/pyproject.toml": '[project]\nname = "svc"\n',
      "svc/uses.py": uses,
      "api/pyproject.toml": '[project]\nname = "api"\n',
      "api/uses.py": uses,
    });
    for (const environment of ["svc/venv", ".venv"]) {
      execFileSync(systemPython!, [
        "-m",
        "venv",
        "--system-site-packages",
        "--without-pip",
        join(tree.dir, environment),
      ]);
    }
    run = createRun({ workingDirectory: tree.dir });
    createLspSupervisor(run, { binDirectories: [packageBin], diagnosticsTimeoutMs: 15_000 });
    registry = createRegistry({ tools: [lspTool], approval: "auto" });
  });
  afterAll(async () => {
    await run?.dispose();
    tree?.remove();
  });

  it("resolves installed packages for the language server from svc/venv and from the parent .venv", async () => {
    expect(await text({ action: "diagnostics", file: "svc/uses.py" })).toBe("no diagnostics in svc/uses.py");
    expect(await text({ action: "diagnostics", file: "api/uses.py" })).toBe("no diagnostics in api/uses.py");
  });

  it('passes each root\'s environment to pyright for diagnostics "*"', async () => {
    const answer = await text({ action: "diagnostics", file: "*" });
    expect(answer).toContain(
      "python (pyright --outputjson --pythonpath svc/venv/bin/python in svc): 0 problems",
    );
    expect(answer).toContain(
      "python (pyright --outputjson --pythonpath .venv/bin/python in api): 0 problems",
    );
    expect(answer).not.toContain("reportMissingImports");
  });
});

describe.skipIf(!found && !ci)("pyright and a write whose check did not finish", () => {
  it(
    "reports that write's break at the next write's check, never as what the file had before it",
    {
      timeout: 180_000,
    },
    async () => {
      expect(found, `pyright-langserver missing in ${packageBin}; run pnpm install`).toBe(true);
      const fixture = copyFixture("py-project");
      const run = createRun({ workingDirectory: fixture.dir });
      const supervisor = createLspSupervisor(run, {
        binDirectories: [packageBin],
        diagnosticsTimeoutMs: 30_000,
      });
      // A 1 ms bound stands in for a check that does not finish in time (a loaded machine, a cold
      // server): the write returns unchecked while its check goes on and sends pyright the text.
      const hasty = createRegistry({
        tools: [writeTool],
        resultWrappers: [diagnosticsOnWrite({ boundMs: 1 })],
        approval: "auto",
      });
      const registry = createRegistry({
        tools: [lspTool, writeTool],
        resultWrappers: [diagnosticsOnWrite({ boundMs: 30_000 })],
        approval: "auto",
      });
      const main = join(fixture.dir, "pkg", "main.py");
      const original = readFileSync(main, "utf8");
      const broken = original.replace("print(big.area())", "print(big.aera())");
      try {
        // Open on pyright (as a question leaves it): what it has just before a write is read there.
        await supervisor.open(main);
        const unchecked = await hasty.invoke(run, {
          tool: "write",
          args: { file: "pkg/main.py", content: broken },
        });
        expect(resultText(unchecked)).toContain("not checked within the 1 ms bound");
        // pyright has the broken text by now (asked directly: the run's ledger and looks untouched).
        const now = await supervisor.diagnostics(main, { timeoutMs: 30_000 });
        expect(now.diagnostics.some((d) => JSON.stringify(d.message).includes("aera"))).toBe(true);
        const later = resultText(
          await registry.invoke(run, {
            tool: "write",
            args: { file: "pkg/main.py", content: `# touched\n${broken}` },
          }),
        );
        expect(later).toMatch(/^pkg\/main\.py:6:\d+ error .*"aera"/m);
        expect(later).not.toContain("still present");
      } finally {
        await run.dispose();
        fixture.remove();
      }
    },
  );
});
