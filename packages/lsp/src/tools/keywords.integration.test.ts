import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRegistry, createRun, resultText } from "@tools/registry";
import { beforeAll, describe, expect, it } from "vitest";
import { findBinary } from "../servers/find-binary.js";
import { createLspSupervisor } from "../supervisor/supervisor.js";
import { ci, packageBin, tempTree } from "../test-support/fixtures.js";
import { useServerFixture } from "../test-support/server-suite.js";
import { lspTool } from "./lsp-tool.js";

/**
 * A keyword or an operator asked about, where the server finds nothing: the answer says it is no
 * name and what to give instead. Before, references of `export` in one package of a monorepo
 * said "no reference found" and then listed every file of the other packages writing `export`
 * as "not searched"; gopls's "no object found" came back as a failed request.
 */
describe.skipIf(!existsSync(join(packageBin, "typescript-language-server")) && !ci)(
  "a keyword asked about, against typescript-language-server",
  () => {
    it("says a keyword is no name, and does not list the other packages' files writing it", async () => {
      const tree = tempTree("keywords", {
        "package.json": '{ "name": "mono", "private": true }\n',
        "packages/a/tsconfig.json": '{ "compilerOptions": { "strict": true, "noEmit": true } }\n',
        "packages/a/src/index.ts":
          'export function greet(name: string): string {\n  return name;\n}\nexport const hi = greet("a") + 1;\ndeclare const store: any;\nexport const gone = store.delete;\n',
        "packages/b/tsconfig.json": '{ "compilerOptions": { "strict": true, "noEmit": true } }\n',
        "packages/b/src/main.ts": "export const one = 1;\nexport function two(): number {\n  return 2;\n}\n",
      });
      const run = createRun({ workingDirectory: tree.dir });
      createLspSupervisor(run, { diagnosticsTimeoutMs: 20_000, binDirectories: [packageBin] });
      const registry = createRegistry({ tools: [lspTool], approval: "auto" });
      const ask = async (args: Record<string, unknown>) =>
        resultText(
          await registry.invoke(run, { tool: "lsp", args: { file: "packages/a/src/index.ts", ...args } }),
        );
      try {
        // tsserver answers `export function greet` for greet: the header says so, and the other
        // package (which writes `export`, not `greet`) is not listed as unsearched.
        expect((await ask({ action: "references", line: 1, symbol: "export" })).split("\n")).toEqual([
          "'export' is a keyword of typescript, not a name; typescript-language-server answered for 'greet'",
          "2 references of 'greet':",
          "packages/a/src/index.ts:1:17  export function greet(name: string): string {",
          'packages/a/src/index.ts:4:19  export const hi = greet("a") + 1;',
        ]);
        // Nothing found at `export const`: the answer is that it is a keyword.
        expect(await ask({ action: "references", line: 4, symbol: "export" })).toBe(
          "'export' at packages/a/src/index.ts:4:1 is a keyword of typescript, not a name: give the name it introduces or acts on as symbol (e.g. 'hi')",
        );
        expect(await ask({ action: "hover", line: 4, symbol: "export" })).toBe(
          "'export' at packages/a/src/index.ts:4:1 is a keyword of typescript, not a name: give the name it introduces or acts on as symbol (e.g. 'hi')",
        );
        expect(await ask({ action: "references", line: 2, symbol: "return" })).toBe(
          "'return' at packages/a/src/index.ts:2:3 is a keyword of typescript, not a name: give the name it introduces or acts on as symbol (e.g. 'name')",
        );
        expect((await ask({ action: "definition", line: 2, symbol: "return" })).split("\n")).toEqual([
          "'return' is a keyword of typescript, not a name; typescript-language-server answered for 'greet'",
          "1 definition of 'greet':",
          "packages/a/src/index.ts:1:17  export function greet(name: string): string {",
        ]);
        expect(await ask({ action: "references", line: 4, symbol: "+" })).toBe(
          "'+' at packages/a/src/index.ts:4:30 is an operator, not a name: give the name it applies to as symbol (e.g. 'greet')",
        );
        // A member may be named by a reserved word: no keyword there, whatever the server finds.
        expect(await ask({ action: "definition", line: 6, symbol: "delete" })).toBe(
          "no definition found for 'delete' at packages/a/src/index.ts:6:27",
        );
      } finally {
        await run.dispose();
        tree.remove();
      }
    });
  },
);

describe.skipIf(!existsSync(join(packageBin, "typescript-language-server")) && !ci)(
  "a member named by a reserved word, against typescript-language-server",
  () => {
    it("answers for the member as for any name: no keyword refusal, the other packages searched", async () => {
      const tree = tempTree("keyword-members", {
        "package.json": '{ "name": "mono", "private": true }\n',
        "packages/a/tsconfig.json": '{ "compilerOptions": { "strict": true, "noEmit": true } }\n',
        "packages/a/src/store.ts":
          "export interface Store {\n  delete(key: string): void;\n  default: number;\n}\nexport class Box {\n  new = 1;\n}\n",
        "packages/b/tsconfig.json": '{ "compilerOptions": { "strict": true, "noEmit": true } }\n',
        "packages/b/src/main.ts": 'declare const s: any;\ns.delete("k");\n',
      });
      const run = createRun({ workingDirectory: tree.dir });
      createLspSupervisor(run, { diagnosticsTimeoutMs: 20_000, binDirectories: [packageBin] });
      const registry = createRegistry({ tools: [lspTool], approval: "auto" });
      const ask = async (args: Record<string, unknown>) =>
        resultText(
          await registry.invoke(run, { tool: "lsp", args: { file: "packages/a/src/store.ts", ...args } }),
        );
      try {
        // No implementation of an interface's method, no type definition of a number property:
        // nothing found for a name, not "a keyword of typescript".
        expect(await ask({ action: "implementation", line: 2, symbol: "delete" })).toMatch(
          /^no implementation found for 'delete' at packages\/a\/src\/store.ts:2:3/,
        );
        expect(await ask({ action: "type_definition", line: 3, symbol: "default" })).toBe(
          "no type definition found for 'default' at packages/a/src/store.ts:3:3",
        );
        expect(await ask({ action: "type_definition", line: 6, symbol: "new" })).toBe(
          "no type definition found for 'new' at packages/a/src/store.ts:6:3",
        );
        // The other package writing `.delete` is listed as not searched, as for any member.
        expect((await ask({ action: "references", line: 2, symbol: "delete" })).split("\n")).toEqual([
          "1 reference of 'delete':",
          "packages/a/src/store.ts:2:3  delete(key: string): void;",
          "not searched: 'delete' is also named in 1 file that the server which answered (root packages/a) does not search; if they use this symbol, ask from one of them:",
          'packages/b/src/main.ts:2  s.delete("k");',
        ]);
      } finally {
        await run.dispose();
        tree.remove();
      }
    });
  },
);

describe.skipIf(!existsSync(join(packageBin, "pyright-langserver")) && !ci)(
  "a keyword asked about, against pyright",
  () => {
    beforeAll(() => {
      expect(existsSync(join(packageBin, "pyright-langserver"))).toBe(true);
    });
    const server = useServerFixture({
      fixture: "py-project",
      server: "pyright",
      tools: [lspTool],
      binDirectories: [packageBin],
      diagnosticsTimeoutMs: 15_000,
      expectProcesses: true,
    });

    it("says 'def' is a keyword of python, and answers as usual for a name that is a keyword elsewhere", async () => {
      writeFileSync(
        join(server.dir, "pkg", "words.py"),
        "def twice(value: int) -> int:\n    return value * 2\n\n\nprint(new)\n",
      );
      expect(await server.text({ action: "references", file: "pkg/words.py", line: 1, symbol: "def" })).toBe(
        "'def' at pkg/words.py:1:1 is a keyword of python, not a name: give the name it introduces or acts on as symbol (e.g. 'twice')",
      );
      // `new` is a keyword of typescript, not of python: an unknown name, no refusal.
      expect(await server.text({ action: "definition", file: "pkg/words.py", line: 5, symbol: "new" })).toBe(
        "no definition found for 'new' at pkg/words.py:5:7",
      );
    });
  },
);

const gopls = findBinary("gopls", [], []);
describe.skipIf(!gopls.found && !ci)("a keyword asked about, against gopls", () => {
  beforeAll(() => {
    expect(gopls.found, "gopls not found on PATH").toBe(true);
  });
  const server = useServerFixture({
    fixture: "go-project",
    server: "gopls",
    tools: [lspTool],
    diagnosticsTimeoutMs: 20_000,
    expectProcesses: true,
  });

  it("says 'func' is a keyword of go, where gopls answers 'no object found'", async () => {
    expect(await server.text({ action: "references", file: "main.go", line: 5, symbol: "func" })).toBe(
      "'func' at main.go:5:1 is a keyword of go, not a name: give the name it introduces or acts on as symbol (e.g. 'greet')",
    );
    expect(await server.text({ action: "definition", file: "main.go", line: 6, symbol: "+" })).toBe(
      "'+' at main.go:6:18 is an operator, not a name: give the name it applies to as symbol (e.g. 'name')",
    );
  });
});

const clangd = findBinary("clangd", [], []);
describe.skipIf(!clangd.found && !ci)("a keyword asked about, against clangd", () => {
  beforeAll(() => {
    expect(clangd.found, "clangd not found on PATH").toBe(true);
  });
  const server = useServerFixture({
    fixture: "c-project",
    server: "clangd",
    tools: [lspTool],
    diagnosticsTimeoutMs: 20_000,
    expectProcesses: true,
  });

  it("says 'return' is a keyword of c", async () => {
    expect(await server.text({ action: "references", file: "main.c", line: 2, symbol: "return" })).toBe(
      "'return' at main.c:2:3 is a keyword of c, not a name: give the name it introduces or acts on as symbol (e.g. 'value')",
    );
  });
});
