import { existsSync, readFileSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ci, packageBin } from "../test-support/fixtures.js";
import { useServerFixture } from "../test-support/server-suite.js";
import { lspTool } from "./lsp-tool.js";

const found = existsSync(join(packageBin, "typescript-language-server"));

/** Times the file is replaced and asked about at once: tsserver lagged in 2 to 4 of 12 before. */
const rounds = 12;

// A file not open here is read by tsserver when its own watch tells it of a change: right after
// a `git checkout` (the file removed, then written anew) its answer named where the definition was,
// shown with the line now on disk there.
describe.skipIf(!found && !ci)("definitions in a file replaced on disk just before the question", () => {
  beforeAll(() => {
    expect(found, `typescript-language-server missing in ${packageBin}; run pnpm install`).toBe(true);
  });
  const server = useServerFixture({
    fixture: "ts-project",
    server: "typescript-language-server",
    tools: [lspTool],
    binDirectories: [packageBin],
    diagnosticsTimeoutMs: 15_000,
    expectProcesses: true,
  });

  it("names the line the definition is on now, the file removed and written again (git checkout) or written with an old mtime", async () => {
    const math = join(server.dir, "src/math.ts");
    const original = readFileSync(math, "utf8");
    const lineOf = (text: string, needle: string) =>
      text.split("\n").findIndex((line) => line.includes(needle)) + 1;
    const wrong: string[] = [];
    for (let i = 0; i < rounds; i++) {
      // Asked first: tsserver has math.ts as it is before the change.
      await server.text({ action: "definition", file: "src/app.ts", line: 3, symbol: "add" });
      // Settled a while, or not.
      if (i % 2 === 0) await new Promise((resolve) => setTimeout(resolve, 300));
      const text = "\n".repeat(i < 8 ? (i % 2 ? 3 : 7) : 10 + (i % 2)) + original;
      if (i >= 8) {
        // cp -p: written in place, its mtime an hour back.
        writeFileSync(math, text);
        const then = Date.now() / 1000 - 3600;
        utimesSync(math, then, then);
      } else {
        // git checkout: the file removed, then written anew.
        unlinkSync(math);
        writeFileSync(math, text);
      }
      const definition = await server.text({
        action: "definition",
        file: "src/app.ts",
        line: 3,
        symbol: "add",
      });
      const want = `src/math.ts:${lineOf(text, "export function add")}:17  export function add(`;
      if (!definition.includes(want)) wrong.push(`round ${i}: want ${want}, got ${definition}`);
      const type = await server.text({
        action: "type_definition",
        file: "src/app.ts",
        line: 5,
        symbol: "square",
      });
      const wantType = `src/math.ts:${lineOf(text, "export class Square")}:14  export class Square`;
      if (!type.includes(wantType)) wrong.push(`round ${i}: want ${wantType}, got ${type}`);
    }
    expect(wrong).toEqual([]);
  });
});
