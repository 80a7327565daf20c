import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { resultText } from "@tools/registry";
import { beforeAll, describe, expect, it } from "vitest";
import { ci, packageBin } from "../test-support/fixtures.js";
import { useServerFixture } from "../test-support/server-suite.js";
import { lspRenameTool } from "./lsp-rename-tool.js";
import { lspTool } from "./lsp-tool.js";

const found = existsSync(join(packageBin, "typescript-language-server"));

/**
 * A file that does not exist (deleted, or never created) asked about: the answer says so in the
 * product's words, with its own code. Before, every action gave Node's "ENOENT: no such file or
 * directory, stat '/tmp/…'" as LSP_BAD_ARGUMENTS, and a C file with no marker was answered
 * about its missing root marker instead.
 */
describe.skipIf(!found && !ci)("a file that does not exist, against typescript-language-server", () => {
  beforeAll(() => {
    expect(found, `typescript-language-server missing in ${packageBin}; run pnpm install`).toBe(true);
  });
  const server = useServerFixture({
    fixture: "ts-project",
    server: "typescript-language-server",
    tools: [lspTool, lspRenameTool],
    binDirectories: [packageBin],
    diagnosticsTimeoutMs: 15_000,
    expectProcesses: true,
  });

  const asked = (file: string) =>
    [
      ["lsp", { action: "definition", file, line: 1, symbol: "x" }],
      ["lsp", { action: "type_definition", file, line: 1, symbol: "x" }],
      ["lsp", { action: "implementation", file, line: 1, symbol: "x" }],
      ["lsp", { action: "references", file, line: 1, symbol: "x" }],
      ["lsp", { action: "hover", file, line: 1, symbol: "x" }],
      ["lsp", { action: "code_actions", file, line: 1, symbol: "x" }],
      ["lsp", { action: "symbols", file }],
      ["lsp", { action: "symbols", file, query: "add" }],
      ["lsp", { action: "diagnostics", file }],
      ["lsp_rename", { file, line: 1, symbol: "x", new_name: "y" }],
    ] as const;

  it("says a file never created does not exist, for every action that takes a file", async () => {
    for (const file of ["src/never.ts", "nowhere/never.ts", "never.c"]) {
      for (const [tool, args] of asked(file)) {
        const result = await server.invoke(tool, args);
        const text = resultText(result);
        expect(result.error?.code, `${tool} ${JSON.stringify(args)} ${file}: ${text}`).toBe(
          "LSP_FILE_NOT_FOUND",
        );
        expect(text).toMatch(
          new RegExp(`^${file.replace(/\./g, "\\.")} does not exist \\(deleted or never created\\): `),
        );
        expect(text).not.toContain("ENOENT");
      }
    }
    const result = await server.invoke("lsp", {
      action: "hover",
      file: "src/never.ts",
      line: 1,
      symbol: "x",
    });
    expect(resultText(result)).toBe(
      "src/never.ts does not exist (deleted or never created): give the path of an existing file, relative to the working directory; src/ holds app.ts, math.ts",
    );
    expect(resultText(await server.invoke("lsp", { action: "diagnostics", file: "nowhere/never.ts" }))).toBe(
      "nowhere/never.ts does not exist (deleted or never created): give the path of an existing file, relative to the working directory; there is no folder nowhere/ either",
    );
  });

  it("says a link whose target is gone is one, not that the file listed in its folder does not exist", async () => {
    symlinkSync(join(server.dir, "src", "moved.ts"), join(server.dir, "src", "link.ts"));
    mkdirSync(join(server.dir, "gone"));
    symlinkSync(join(server.dir, "gone"), join(server.dir, "linked"));
    rmSync(join(server.dir, "gone"), { recursive: true });
    try {
      const result = await server.invoke("lsp", {
        action: "hover",
        file: "src/link.ts",
        line: 1,
        symbol: "x",
      });
      expect(result.error?.code).toBe("LSP_FILE_NOT_FOUND");
      expect(resultText(result)).toBe(
        "src/link.ts is a symbolic link to src/moved.ts, which does not exist: give the path of an existing file, relative to the working directory; src/ holds app.ts, link.ts, math.ts",
      );
      expect(await server.text({ action: "diagnostics", file: "linked/a.ts" })).toBe(
        "linked/a.ts does not exist (deleted or never created): give the path of an existing file, relative to the working directory; linked is a symbolic link to gone, which does not exist",
      );
    } finally {
      rmSync(join(server.dir, "src", "link.ts"));
      rmSync(join(server.dir, "linked"));
    }
  });

  it("says a file deleted after it was asked about does not exist", async () => {
    const path = join(server.dir, "src", "brief.ts");
    writeFileSync(path, "export const brief = 1;\n");
    expect(await server.text({ action: "hover", file: "src/brief.ts", line: 1, symbol: "brief" })).toContain(
      "const brief: 1",
    );
    rmSync(path);
    for (const [tool, args] of asked("src/brief.ts")) {
      const result = await server.invoke(tool, args);
      expect(result.error?.code, `${tool} ${JSON.stringify(args)}: ${resultText(result)}`).toBe(
        "LSP_FILE_NOT_FOUND",
      );
      expect(resultText(result)).toMatch(/^src\/brief\.ts does not exist \(deleted or never created\): /);
    }
  });
});
