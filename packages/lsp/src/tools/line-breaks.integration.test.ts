import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { resultText } from "@tools/registry";
import { beforeAll, describe, expect, it } from "vitest";
import { findBinary } from "../servers/find-binary.js";
import { ci, packageBin } from "../test-support/fixtures.js";
import { useServerFixture } from "../test-support/server-suite.js";
import { lspRenameTool } from "./lsp-rename-tool.js";
import { lspTool } from "./lsp-tool.js";

/**
 * Files holding characters on which a server's line and column counting differs from the
 * user's (lines split at "\n", as `read` shows them): U+2028 and a byte order mark for
 * tsserver, a lone "\r" for gopls and clangd (which count "\n" only, as the user does).
 */
const tsFound = existsSync(join(packageBin, "typescript-language-server"));

describe.skipIf(!tsFound && !ci)(
  "positions in files tsserver counts otherwise (typescript-language-server)",
  () => {
    beforeAll(() => {
      expect(tsFound, `typescript-language-server missing in ${packageBin}; run pnpm install`).toBe(true);
    });
    const server = useServerFixture({
      fixture: "ts-project",
      server: "typescript-language-server",
      tools: [lspTool, lspRenameTool],
      binDirectories: [packageBin],
      diagnosticsTimeoutMs: 15_000,
      expectProcesses: true,
    });
    const write = (path: string, content: string): void => writeFileSync(join(server.dir, path), content);
    const read = (path: string): string => readFileSync(join(server.dir, path), "utf8");

    // Must stay the suite's first test: the server starts on its first call.
    it("counts a byte order mark alike whether the file is open or not, and keeps it through a rename", async () => {
      write("src/bom.ts", "\ufeffexport const foo = 1;\nexport const fooTwice = foo * 2;\n");
      write("src/bom-use.ts", 'import { foo } from "./bom.js";\nexport const three = foo + 2;\n');
      // src/bom.ts is not open (and was there before the server started, so no search opens it):
      // tsserver reads it from disk, without the mark.
      const closed = await server.text({
        action: "references",
        file: "src/bom-use.ts",
        line: 2,
        symbol: "foo",
      });
      expect(closed).toContain("src/bom.ts:1:15  ");
      expect(closed).toContain("src/bom.ts:2:25  export const fooTwice = foo * 2;");
      const renamed = await server.invoke("lsp_rename", {
        file: "src/bom-use.ts",
        line: 2,
        symbol: "foo",
        new_name: "fooValue",
      });
      expect(renamed.error, resultText(renamed)).toBeUndefined();
      expect(read("src/bom.ts")).toBe(
        "\ufeffexport const fooValue = 1;\nexport const fooTwice = fooValue * 2;\n",
      );
      expect(read("src/bom-use.ts")).toBe(
        'import { fooValue } from "./bom.js";\nexport const three = fooValue + 2;\n',
      );
      // Open now (the rename's check opened it, or this call does): the same columns.
      expect(
        await server.text({ action: "hover", file: "src/bom.ts", line: 1, symbol: "fooValue" }),
      ).toContain("fooValue");
      const open = await server.text({
        action: "references",
        file: "src/bom.ts",
        line: 2,
        symbol: "fooValue",
      });
      expect(open).toContain("src/bom.ts:1:15  ");
      expect(open).toContain("src/bom.ts:2:25  export const fooTwice = fooValue * 2;");
      expect(open).toContain("src/bom-use.ts:2:22  export const three = fooValue + 2;");
    });

    it("lands on the user's lines past a U+2028 in a string, also after an edit", async () => {
      const pick = "export function pick(n: number) { return n; }";
      write("src/sep.ts", `export const sep = "a\u2028b";\n${pick}\nexport const r = pick(1);\n`);
      expect(
        await server.text({ action: "definition", file: "src/sep.ts", line: 3, symbol: "pick" }),
      ).toContain(`src/sep.ts:2:17  ${pick}`);
      // An edit while open: the server's copy must be the new text, not a mix of old and new.
      write(
        "src/sep.ts",
        `export const sep = "a\u2028b";\n${pick}\nexport const r = pick(1);\nexport const s = pick(2);\nexport const bad: number = "x";\n`,
      );
      const diagnostics = await server.text({ action: "diagnostics", file: "src/sep.ts" });
      expect(diagnostics.split("\n").filter((line) => line.startsWith("src/sep.ts:"))).toEqual([
        expect.stringMatching(/^src\/sep\.ts:5:14 error \[TS2322\]/),
      ]);
      const references = await server.text({
        action: "references",
        file: "src/sep.ts",
        line: 2,
        symbol: "pick",
      });
      expect(references).toContain(`src/sep.ts:2:17  ${pick}`);
      expect(references).toContain("src/sep.ts:3:18  export const r = pick(1);");
      expect(references).toContain("src/sep.ts:4:18  export const s = pick(2);");
      // A second edit, from a text holding U+2028 to another.
      write("src/sep.ts", `export const sep = "a\u2028b\u2029c";\n${pick}\nexport const r = pick(1);\n`);
      expect(await server.text({ action: "diagnostics", file: "src/sep.ts" })).toBe(
        "no diagnostics in src/sep.ts",
      );
      expect(
        await server.text({ action: "definition", file: "src/sep.ts", line: 3, symbol: "pick" }),
      ).toContain(`src/sep.ts:2:17  ${pick}`);
    });

    it("puts a diagnostic on line 1 of a file with a byte order mark where tsc's check does", async () => {
      write("src/bom-bad.ts", '\ufeffexport const wrong: number = "x";\n');
      const own = await server.text({ action: "diagnostics", file: "src/bom-bad.ts" });
      expect(own).toMatch(/^src\/bom-bad\.ts:1:15 error \[TS2322\]/m);
      const project = await server.text({ action: "diagnostics", file: "*" });
      expect(project).toMatch(/^src\/bom-bad\.ts:1:15 error \[TS2322\]/m);
    });
  },
);

/** One describe per server that counts "\n" only: a lone "\r" stays inside its line. */
function loneCarriageReturnSuite(options: {
  command: string;
  fixture: string;
  file: string;
  content: string;
  definition: { line: number; symbol: string; expected: string };
  hover: { line: number; symbol: string; expected: string };
  /** `expected` undefined: the server fails the rename (clangd 14 in such a file). */
  rename: { line: number; symbol: string; newName: string; expected?: string };
  outline?: RegExp[];
}): void {
  const binary = findBinary(options.command, [], []);
  describe.skipIf(!binary.found && !ci)(
    `a lone carriage return in a file, against ${options.command}`,
    () => {
      beforeAll(() => {
        expect(binary.found, `${options.command} not found on PATH`).toBe(true);
      });
      const server = useServerFixture({
        fixture: options.fixture,
        server: options.command,
        tools: [lspTool, lspRenameTool],
        diagnosticsTimeoutMs: 20_000,
      });

      it("finds definitions, hovers, symbols and renames on the user's lines", async () => {
        writeFileSync(join(server.dir, options.file), options.content);
        const { definition, hover, rename } = options;
        expect(
          await server.text({
            action: "definition",
            file: options.file,
            line: definition.line,
            symbol: definition.symbol,
          }),
        ).toContain(definition.expected);
        expect(
          await server.text({ action: "hover", file: options.file, line: hover.line, symbol: hover.symbol }),
        ).toContain(hover.expected);
        if (options.outline) {
          const outline = await server.text({ action: "symbols", file: options.file });
          for (const row of options.outline) expect(outline).toMatch(row);
        }
        const renamed = await server.invoke("lsp_rename", {
          file: options.file,
          line: rename.line,
          symbol: rename.symbol,
          new_name: rename.newName,
        });
        if (rename.expected === undefined) {
          // The server cannot rename here: refused, and nothing written at a wrong place.
          expect(renamed.error?.code, resultText(renamed)).toBe("LSP_RENAME_FAILED");
          expect(readFileSync(join(server.dir, options.file), "utf8")).toBe(options.content);
        } else {
          expect(renamed.error, resultText(renamed)).toBeUndefined();
          expect(readFileSync(join(server.dir, options.file), "utf8")).toBe(rename.expected);
        }
      });
    },
  );
}

const cText =
  "static int one(void) { return 1; }\rstatic int two(void) { return 2; }\nint use(void) {\n  return two() + one();\n}\n";
loneCarriageReturnSuite({
  command: "clangd",
  fixture: "c-project",
  file: "lone.c",
  content: cText,
  definition: { line: 3, symbol: "two", expected: "lone.c:1:47  " },
  hover: { line: 3, symbol: "one", expected: "one" },
  outline: [/one.*:1\b/, /two.*:1\b/, /use.*:2\b/],
  // clangd 14 maps its own rename's ranges (clang's line table) back with "\n" line ends only,
  // and answers "there is no symbol at the given location".
  rename: { line: 3, symbol: "two", newName: "second" },
});

const goText =
  "package main\n\n// note one\rnote two\nfunc helperA() int { return 1 }\n\nfunc useA() int {\n\treturn helperA()\n}\n";
loneCarriageReturnSuite({
  command: "gopls",
  fixture: "go-project",
  file: "lone.go",
  content: goText,
  definition: { line: 7, symbol: "helperA", expected: "lone.go:4:6  func helperA() int { return 1 }" },
  hover: { line: 7, symbol: "helperA", expected: "func helperA() int" },
  outline: [/helperA.*:4\b/, /useA.*:6\b/],
  rename: {
    line: 4,
    symbol: "helperA",
    newName: "helperFirst",
    expected: goText.replaceAll("helperA", "helperFirst"),
  },
});
