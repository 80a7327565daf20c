import { existsSync, mkdirSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { defineTool, resultText, textResult } from "@tools/registry";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { diagnosticsOnWrite } from "../diagnostics/diagnostics-on-write.js";
import { ci, packageBin } from "../test-support/fixtures.js";
import { useServerFixture } from "../test-support/server-suite.js";
import { lspTool } from "./lsp-tool.js";

const found = existsSync(join(packageBin, "typescript-language-server"));

/** Writes many files in one call (as a rename or a patch does) and lists them all as changed. */
const writeManyTool = defineTool({
  name: "write_many",
  tier: "write",
  parallelSafe: true,
  description: "Writes several files (test stand-in for a tool that changes many files at once).",
  input: z.object({ files: z.record(z.string(), z.string()) }),
  paths: (input) => Object.keys(input.files),
  async execute(input, ctx) {
    const written = await Promise.all(
      Object.entries(input.files).map(async ([file, content]) => {
        const absolute = ctx.resolvePath(file);
        mkdirSync(dirname(absolute), { recursive: true });
        await writeFile(absolute, content);
        return absolute;
      }),
    );
    return textResult(`wrote ${written.length} files`, { changedFiles: written });
  },
});

/** How many unknown names each broken file uses (each one error TS2304); the others are clean. */
const broken: Readonly<Record<number, number>> = { 5: 3, 11: 2, 17: 1, 23: 1 };
const path = (i: number) => `src/gen/f${String(i).padStart(2, "0")}.ts`;

/** 30 files; `touch` changes every file's text so each is checked again. */
function thirtyFiles(touch: string): Record<string, string> {
  return Object.fromEntries(
    Array.from({ length: 30 }, (_, i) => {
      const errors = Array.from(
        { length: broken[i] ?? 0 },
        (_, k) => `export const bad${k} = missing${k};\n`,
      );
      return [path(i), `// ${touch}\nexport const value${i} = ${i};\n${errors.join("")}`];
    }),
  );
}

/** `f05.ts:3:20 error [TS2304] Cannot find name 'missing0'.` for the k-th unknown name of file i. */
const unknownName = (i: number, k: number) =>
  `${path(i)}:${k + 3}:${"export const badN = ".length + 1} error [TS2304] Cannot find name 'missing${k}'. (typescript)`;

describe.skipIf(!found && !ci)("diagnostics on write over 30 files (typescript-language-server)", () => {
  beforeAll(() => {
    expect(found, `typescript-language-server missing in ${packageBin}; run pnpm install`).toBe(true);
  });
  // Small bounds, so that one write of 30 files shows every cut.
  const server = useServerFixture({
    fixture: "ts-project",
    server: "typescript-language-server",
    tools: [lspTool, writeManyTool],
    binDirectories: [packageBin],
    diagnosticsTimeoutMs: 20_000,
    resultWrappers: [diagnosticsOnWrite({ boundMs: 45_000, totalLimit: 4, fileLimit: 2 })],
    expectProcesses: true,
  });
  const writeAll = async (touch: string) => {
    const result = await server.invoke("write_many", { files: thirtyFiles(touch) });
    const text = resultText(result);
    expect(result.isError, text).toBe(false);
    return text.slice(text.indexOf("LSP diagnostics after this write:")).split("\n");
  };

  it("lists the most broken files first within the bounds, collapses the clean ones, and reports the rest on later writes", async () => {
    expect(await writeAll("first")).toEqual([
      "LSP diagnostics after this write:",
      `3 new diagnostics in ${path(5)}:`,
      unknownName(5, 0),
      unknownName(5, 1),
      unknownName(5, 2),
      `2 new diagnostics in ${path(11)}:`,
      unknownName(11, 0),
      "… 1 more new diagnostic",
      `… and 2 more new diagnostics in 2 more files (${path(17)}, ${path(23)}); lsp diagnostics lists them`,
      "26 files clean",
    ]);

    // What the first write left out was not recorded: this write reports it as new.
    expect(await writeAll("second")).toEqual([
      "LSP diagnostics after this write:",
      `1 new diagnostic in ${path(11)} (1 reported earlier still present):`,
      unknownName(11, 1),
      `1 new diagnostic in ${path(17)}:`,
      unknownName(17, 0),
      `… and 1 more new diagnostic in 1 more file (${path(23)}); lsp diagnostics lists them`,
      `26 files clean; 1 with no new diagnostics (3 reported earlier still present): ${path(5)}`,
    ]);

    // lsp diagnostics lists what was left out, and records it: the next write does not repeat it.
    expect(await server.text({ action: "diagnostics", file: path(23) })).toContain(unknownName(23, 0));
    expect(await writeAll("third")).toEqual([
      "LSP diagnostics after this write:",
      `26 files clean; 4 with no new diagnostics (7 reported earlier still present): ${path(5)}, ${path(11)}, ${path(17)}, ${path(23)}`,
    ]);
  });
});
