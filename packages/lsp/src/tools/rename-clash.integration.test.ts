import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRegistry, createRun, resultText } from "@tools/registry";
import { beforeAll, describe, expect, it } from "vitest";
import { diagnosticsOnWrite } from "../diagnostics/diagnostics-on-write.js";
import { findBinary } from "../servers/find-binary.js";
import { createLspSupervisor } from "../supervisor/supervisor.js";
import { ci, copyFixture, packageBin, tempTree } from "../test-support/fixtures.js";
import { useServerFixture } from "../test-support/server-suite.js";
import { lspRenameTool } from "./lsp-rename-tool.js";
import { lspTool } from "./lsp-tool.js";

const found = existsSync(join(packageBin, "typescript-language-server"));

describe.skipIf(!found && !ci)(
  "lsp_rename refuses a new name that clashes (typescript-language-server)",
  () => {
    beforeAll(() => {
      expect(found, `typescript-language-server missing in ${packageBin}; run pnpm install`).toBe(true);
    });
    const server = useServerFixture({
      fixture: "ts-project",
      server: "typescript-language-server",
      tools: [lspTool, lspRenameTool],
      binDirectories: [packageBin],
      diagnosticsTimeoutMs: 15_000,
      resultWrappers: [diagnosticsOnWrite({ boundMs: 30_000 })],
      expectProcesses: true,
    });
    const write = (path: string, content: string): void => writeFileSync(join(server.dir, path), content);
    const read = (path: string): string => readFileSync(join(server.dir, path), "utf8");
    const rename = (file: string, line: number, symbol: string, newName: string) =>
      server.invoke("lsp_rename", { file, line, symbol, new_name: newName });

    it("refuses a local renamed to an outer name it uses (shadowing: no error, another value), writing nothing", async () => {
      const scope =
        "const limit = 10;\nexport function clamp(n: number): number {\n  const max = 5;\n  return Math.min(n, max, limit);\n}\n";
      write("src/scope.ts", scope);
      // The project's first load can take longer than one request's bound on a busy machine:
      // diagnostics wait for it within their own bound.
      expect(await server.text({ action: "diagnostics", file: "src/scope.ts" })).toContain("src/scope.ts");
      const result = await rename("src/scope.ts", 3, "max", "limit");
      const answer = resultText(result);
      expect(result.error?.code, answer).toBe("LSP_RENAME_CLASH");
      expect(answer.split("\n")).toEqual([
        "renaming 'max' to 'limit' would clash with a name already declared or visible where it is used (checked on the server in memory; nothing was written):",
        "- src/scope.ts:4:27 (return Math.min(n, max, limit);): this 'limit' means the one declared at src/scope.ts:1:7 (const limit = 10;), and would mean the renamed 'max' instead",
        "Pick another name, one not declared in or visible from those places, and call lsp_rename again.",
      ]);
      expect(read("src/scope.ts")).toBe(scope);
      // The server is back on the disk's text: its answers are about `max`, not the probe.
      expect(
        await server.text({ action: "references", file: "src/scope.ts", line: 3, symbol: "max" }),
      ).toContain("src/scope.ts:4:22");
      // A name that clashes with nothing still goes through.
      const fine = await rename("src/scope.ts", 3, "max", "ceiling");
      expect(fine.isError, resultText(fine)).toBe(false);
      expect(resultText(fine)).toContain("renamed 'max' to 'ceiling': 2 edits in 1 file");
      expect(read("src/scope.ts")).toBe(scope.replaceAll("max", "ceiling"));
    });

    it("a read of a file while the rename's check holds its edited text waits until the disk's text is back", async () => {
      const source = "export function area(side: number): number {\n  return side * side;\n}\n";
      write("src/probe.ts", source);
      expect(await server.text({ action: "diagnostics", file: "src/probe.ts" })).toContain("src/probe.ts");
      const [client] = server.supervisor.runningClients();
      const uri = server.supervisor.uriOf(join(server.dir, "src/probe.ts"));
      const sync = client!.sync.bind(client);
      let read: Promise<string> | undefined;
      client!.sync = async (at, languageId, text, save) => {
        const sent = await sync(at, languageId, text, save);
        // The check has just sent the edit in memory: a read of the file starts now.
        if (at === uri && text.includes("edge") && !read)
          read = server.text({ action: "references", file: "src/probe.ts", line: 1, symbol: "side" });
        return sent;
      };
      try {
        const result = await rename("src/probe.ts", 1, "side", "edge");
        expect(read).toBeDefined();
        // The read did not send the disk's text over the check's (which left it unchecked)...
        expect(resultText(result)).toBe(
          [
            "renamed 'side' to 'edge': 3 edits in 1 file",
            "src/probe.ts: 3 edits",
            "",
            "LSP diagnostics after this write:",
            "src/probe.ts: clean (no errors or warnings)",
          ].join("\n"),
        );
        // ...and was answered about the text before the edit, not about the probe's.
        expect(await read).toBe(
          [
            "3 references of 'side':",
            "src/probe.ts:1:22  export function area(side: number): number {",
            "src/probe.ts:2:10  return side * side;",
            "src/probe.ts:2:17  return side * side;",
          ].join("\n"),
        );
      } finally {
        client!.sync = sync;
      }
    });

    it("renames over an error already there that names another symbol of the old name (not a clash)", async () => {
      // The property 'name' is not the local renamed: its error is the same before and after.
      const source =
        'interface Foo {\n  id: number;\n}\nexport function show(foo: Foo): string {\n  const name = "x";\n  return name + String(foo.name);\n}\n';
      write("src/show.ts", source);
      expect(await server.text({ action: "diagnostics", file: "src/show.ts" })).toContain(
        "Property 'name' does not exist on type 'Foo'",
      );
      const result = await rename("src/show.ts", 5, "name", "title");
      expect(result.isError, resultText(result)).toBe(false);
      expect(resultText(result)).toContain("renamed 'name' to 'title': 2 edits in 1 file");
      expect(read("src/show.ts")).toBe(
        source.replace('const name = "x"', 'const title = "x"').replace("return name +", "return title +"),
      );
    });

    it("renames although an error elsewhere loses its suggestion of the old name (not a clash)", async () => {
      // TypeScript's "Cannot find name 'computeTotl'. Did you mean 'computeTotal'?" (2552) is
      // "Cannot find name 'computeTotl'." (2304) once computeTotal is renamed: no new name there.
      write("src/total.ts", "export function computeTotal(xs: number[]): number {\n  return xs.length;\n}\n");
      const use =
        'import { computeTotal } from "./total.js";\nexport const t = computeTotal([1, 2]);\nexport const u = computeTotl([1]);\n';
      write("src/typo.ts", use);
      expect(await server.text({ action: "diagnostics", file: "src/typo.ts" })).toContain(
        "Did you mean 'computeTotal'?",
      );
      const result = await rename("src/total.ts", 1, "computeTotal", "sumAll");
      const answer = resultText(result);
      expect(result.isError, answer).toBe(false);
      expect(answer.split("\n").slice(0, 2)).toEqual([
        "(not fully checked for a clash of 'sumAll' with names already there: a new error naming neither 'computeTotal' nor 'sumAll', away from the edited places, was not counted as a clash (src/typo.ts:3:18 error [TS2304] Cannot find name 'computeTotl'. (typescript)); check the changed files' diagnostics)",
        "renamed 'computeTotal' to 'sumAll': 3 edits in 2 files",
      ]);
      expect(read("src/typo.ts")).toBe(use.replaceAll("computeTotal", "sumAll"));
    });

    it("refuses an import alias renamed to a local's name as a clash, not as a declaration left out", async () => {
      // Go to definition on the alias answers the original declaration, which the edit leaves
      // alone: still a clash in this file, not "rename it where it is declared".
      write("src/aliased-m.ts", "export function foo(): number {\n  return 1;\n}\n");
      const user =
        'import { foo as bar } from "./aliased-m";\nconst baz = 1;\nexport const out = bar() + baz;\n';
      write("src/aliased.ts", user);
      expect(await server.text({ action: "diagnostics", file: "src/aliased.ts" })).toContain(
        "src/aliased.ts",
      );
      const result = await rename("src/aliased.ts", 1, "bar", "baz");
      const answer = resultText(result);
      expect(result.error?.code, answer).toBe("LSP_RENAME_CLASH");
      expect(answer).toContain("renaming 'bar' to 'baz' would clash");
      expect(answer).not.toContain("rename it where it is declared");
      expect(read("src/aliased.ts")).toBe(user);
    });

    it("refuses an outer name renamed to a local's that its use would then mean", async () => {
      const source =
        "const rate = 3;\nexport function scaled(n: number): number {\n  const factor = 2;\n  return n * rate * factor;\n}\n";
      write("src/rate.ts", source);
      const result = await rename("src/rate.ts", 1, "rate", "factor");
      const answer = resultText(result);
      expect(result.error?.code, answer).toBe("LSP_RENAME_CLASH");
      expect(answer).toContain(
        "- src/rate.ts:4:14 (return n * rate * factor;): this use of 'rate' would mean the 'factor' declared at src/rate.ts:3:9 (const factor = 2;) instead",
      );
      expect(read("src/rate.ts")).toBe(source);
    });

    it("refuses a local renamed to another local of its scope (a redeclaration), naming the errors", async () => {
      const source =
        "export function tally(items: number[]): number {\n  let count = 0;\n  let total = 0;\n  for (const item of items) {\n    count += 1;\n    total += item;\n  }\n  console.log(total, count);\n  return total / count;\n}\n";
      write("src/tally.ts", source);
      const result = await rename("src/tally.ts", 2, "count", "total");
      const answer = resultText(result);
      expect(result.error?.code, answer).toBe("LSP_RENAME_CLASH");
      expect(answer).toContain(
        "src/tally.ts:2:7 error [TS2451] Cannot redeclare block-scoped variable 'total'. (typescript) — the line would read: let total = 0;",
      );
      expect(read("src/tally.ts")).toBe(source);
    });

    it("refuses a function renamed to another function of its module, across the files using it", async () => {
      const shapes =
        "export function totalArea(sides: number[]): number {\n  return sides.reduce((a, b) => a + b, 0);\n}\nexport function describe(sides: number[]): string {\n  return `area ${totalArea(sides)}`;\n}\n";
      const report = 'import { describe } from "./shapes.js";\nexport const text = describe([1, 2]);\n';
      write("src/shapes.ts", shapes);
      write("src/report.ts", report);
      const result = await rename("src/shapes.ts", 4, "describe", "totalArea");
      const answer = resultText(result);
      expect(result.error?.code, answer).toBe("LSP_RENAME_CLASH");
      expect(answer).toContain("src/shapes.ts:4:17 error [TS2393] Duplicate function implementation.");
      expect(read("src/shapes.ts")).toBe(shapes);
      expect(read("src/report.ts")).toBe(report);
      // The file using it was checked with the server's copy of it set back too.
      expect(await server.text({ action: "diagnostics", file: "src/report.ts" })).toBe(
        "no diagnostics in src/report.ts",
      );
    });
  },
);

describe.skipIf(!found && !ci)("lsp_rename from a package importing a project it references", () => {
  it("renames both sides, not taking the import of the new name (its file not on this server) for a clash", async () => {
    const config = (extra: string) =>
      `{"compilerOptions":{"composite":true,"strict":true,"module":"nodenext","outDir":"dist","rootDir":"src"},"include":["src"]${extra}}\n`;
    const index =
      "export function shared(n: number): number { return n + 1; }\nexport const localA = shared(1);\n";
    const main =
      'import { shared } from "../../a/src/index.js";\nexport const useB = shared(2) + shared(3);\n';
    const tree = tempTree("referenced", {
      "package.json": '{"name":"root","private":true,"type":"module"}\n',
      "tsconfig.json": '{"files":[],"references":[{"path":"packages/a"},{"path":"packages/b"}]}\n',
      "packages/a/package.json": '{"name":"a","private":true,"type":"module"}\n',
      "packages/a/tsconfig.json": config(""),
      "packages/a/src/index.ts": index,
      "packages/b/package.json": '{"name":"b","private":true,"type":"module"}\n',
      "packages/b/tsconfig.json": config(',"references":[{"path":"../a"}]'),
      "packages/b/src/main.ts": main,
    });
    const run = createRun({ workingDirectory: tree.dir });
    createLspSupervisor(run, { diagnosticsTimeoutMs: 30_000, binDirectories: [packageBin] });
    const registry = createRegistry({ tools: [lspRenameTool, lspTool], approval: "auto" });
    const read = (path: string): string => readFileSync(join(tree.dir, path), "utf8");
    try {
      // The project's first load can take longer than one request's bound on a busy machine.
      await registry.invoke(run, {
        tool: "lsp",
        args: { action: "diagnostics", file: "packages/b/src/main.ts" },
      });
      const result = await registry.invoke(run, {
        tool: "lsp_rename",
        args: { file: "packages/b/src/main.ts", line: 2, symbol: "shared(2)", new_name: "zqxUnique42" },
      });
      const answer = resultText(result);
      expect(result.isError, answer).toBe(false);
      expect(answer).toContain("renamed 'shared' to 'zqxUnique42': 5 edits in 2 files");
      expect(answer).toContain(
        "an error saying packages/a/src/index.ts exports no 'zqxUnique42' not counted (its edit was not shown to this server)",
      );
      expect(read("packages/a/src/index.ts")).toBe(index.replaceAll("shared", "zqxUnique42"));
      expect(read("packages/b/src/main.ts")).toBe(main.replaceAll("shared", "zqxUnique42"));
    } finally {
      await run.dispose();
      tree.remove();
    }
  });
});

describe.skipIf(!findBinary("clangd", [], []).found && !ci)(
  "lsp_rename refuses a new name that clashes (clangd)",
  () => {
    it("refuses a function renamed to one an included header declares with other types", async () => {
      const tree = tempTree("clang-clash", {
        "compile_flags.txt": "-std=c11\n",
        "vec.h":
          "#ifndef VEC_H\n#define VEC_H\ntypedef struct {\n  int *items;\n  int len;\n} Vec;\nvoid vec_free(Vec *v);\n#endif\n",
        "main.c":
          '#include "vec.h"\n\nint sum(const int *items, int len) {\n  int total = 0;\n  for (int i = 0; i < len; i++) total += items[i];\n  return total;\n}\n\nint main(void) {\n  int items[] = {1, 2, 3};\n  return sum(items, 3) - 6;\n}\n',
      });
      const run = createRun({ workingDirectory: tree.dir });
      createLspSupervisor(run, { diagnosticsTimeoutMs: 20_000 });
      const registry = createRegistry({ tools: [lspRenameTool, lspTool], approval: "auto" });
      const main = readFileSync(join(tree.dir, "main.c"), "utf8");
      try {
        const result = await registry.invoke(run, {
          tool: "lsp_rename",
          args: { file: "main.c", line: 3, symbol: "sum", new_name: "vec_free" },
        });
        const answer = resultText(result);
        expect(result.error?.code, answer).toBe("LSP_RENAME_CLASH");
        expect(answer).toMatch(/main\.c:3:5 error .*conflicting types for 'vec_free'/i);
        expect(readFileSync(join(tree.dir, "main.c"), "utf8")).toBe(main);
        const fine = await registry.invoke(run, {
          tool: "lsp_rename",
          args: { file: "main.c", line: 3, symbol: "sum", new_name: "add_all" },
        });
        expect(fine.isError, resultText(fine)).toBe(false);
        expect(readFileSync(join(tree.dir, "main.c"), "utf8")).toBe(main.replaceAll("sum(", "add_all("));
      } finally {
        await run.dispose();
        tree.remove();
      }
    });
  },
);

/**
 * A call reaching a file a rename's clash check holds waits for the check (see ProbedDocuments);
 * when the wait outlasts the call's bound, the error names the check. The check is held open by
 * the test itself: a real one cannot be made to last past a bound on demand.
 */
describe.skipIf(!found && !ci)(
  "a call waiting on a rename's clash check (typescript-language-server)",
  () => {
    it("names the check it waited on when the call's bound is reached", async () => {
      const { dir, remove } = copyFixture("ts-project");
      const run = createRun({ workingDirectory: dir });
      const supervisor = createLspSupervisor(run, {
        binDirectories: [packageBin],
        requestTimeoutMs: 3_000,
        diagnosticsTimeoutMs: 20_000,
      });
      const registry = createRegistry({ tools: [lspTool], approval: "auto" });
      const definition = (file: string, line: number, symbol: string) =>
        registry.invoke(run, { tool: "lsp", args: { action: "definition", file, line, symbol } });
      try {
        // The project loaded (diagnostics wait for it within their own bound), and answered once:
        // each later call runs under the 3 s bound. math.ts is open too.
        const diagnostics = { action: "diagnostics", file: "src/app.ts" };
        expect(resultText(await registry.invoke(run, { tool: "lsp", args: diagnostics }))).toContain(
          "src/app.ts",
        );
        expect(resultText(await definition("src/app.ts", 3, "add"))).toContain("src/math.ts:2:");
        expect(resultText(await definition("src/math.ts", 2, "add"))).toContain("src/math.ts:2:");
        const client = supervisor.runningClientFor(join(dir, "src/app.ts"))!;
        const held = (file: string) => client.probes.begin([supervisor.uriOf(join(dir, file))], 60_000);

        let end = held("src/app.ts");
        let answer = await definition("src/app.ts", 3, "add");
        end();
        expect(answer.error?.code, resultText(answer)).toBe("LSP_TIMEOUT");
        expect(resultText(answer)).toContain(
          "it was waiting for lsp_rename's clash check to end (it has the renamed text of src/app.ts on typescript-language-server in memory, set back to the disk's text when it ends)",
        );

        // Another open file held: the call sends the files changed on disk once the check ends.
        end = held("src/math.ts");
        answer = await definition("src/app.ts", 3, "add");
        end();
        expect(answer.error?.code, resultText(answer)).toBe("LSP_TIMEOUT");
        expect(resultText(answer)).toContain(
          "it was waiting for lsp_rename's clash check to end (it has the renamed text of src/math.ts on typescript-language-server in memory, set back to the disk's text when it ends), then to send the files changed on disk to typescript-language-server",
        );
        // Once the check ended, the call answers.
        expect(resultText(await definition("src/app.ts", 3, "add"))).toContain("src/math.ts:2:");
      } finally {
        await run.dispose();
        remove();
      }
    });
  },
);
