import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { resultText } from "@tools/registry";
import { afterAll, describe, expect, it } from "vitest";
import { ci, packageBin } from "../test-support/fixtures.js";
import { useServerFixture } from "../test-support/server-suite.js";
import { lspRenameTool } from "./lsp-rename-tool.js";

// Another process SIGKILLed halfway through a change set (x.txt renamed into place, y.txt not):
// the registry's writeFiles rolls it back before the next set it writes, and lsp_rename's answer
// in a run of the same workspace (the killed writer's, as its journal names it) says so, so that
// the agent knows x.txt changed back.

const found = existsSync(join(packageBin, "typescript-language-server"));
const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const killedWriter = `
import { nodeFileOperations, writeFiles } from "@tools/registry";
let renames = 0;
const ops = {
  ...nodeFileOperations,
  rename: async (from, to) => {
    if (++renames === 2) {
      console.log("stopped");
      setInterval(() => {}, 1000);
      return new Promise(() => {});
    }
    return nodeFileOperations.rename(from, to);
  },
};
const dir = process.argv[1];
await writeFiles([{ path: dir + "/x.txt", content: "X\\n" }, { path: dir + "/y.txt", content: "Y\\n" }], ops, {
  workspace: dir,
});
`;

describe.skipIf(!found && !ci)("lsp_rename after another process's half-written set", () => {
  const server = useServerFixture({
    fixture: "ts-project",
    server: "typescript-language-server",
    tools: [lspRenameTool],
    binDirectories: [packageBin],
    diagnosticsTimeoutMs: 15_000,
  });
  const savedTmpdir = process.env.TMPDIR;
  const journals = mkdtempSync(join(tmpdir(), "lsp-journals-"));
  afterAll(() => {
    if (savedTmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmpdir;
    rmSync(journals, { recursive: true, force: true });
  });

  it("ends its answer with a note naming the files the roll back put back", async () => {
    const dir = server.dir;
    writeFileSync(join(dir, "x.txt"), "x\n");
    writeFileSync(join(dir, "y.txt"), "y\n");
    // Journals of this test alone: no other test's write picks up the roll back's report.
    process.env.TMPDIR = journals;
    const child = spawn(process.execPath, ["--input-type=module", "-e", killedWriter, dir], {
      cwd: packageDir,
      env: { ...process.env, TMPDIR: journals },
      stdio: ["ignore", "pipe", "inherit"],
    });
    const exited = new Promise((resolve) => child.once("exit", resolve));
    const stopped = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 15_000);
      child.stdout.on("data", (chunk: Buffer) => {
        if (chunk.toString().includes("stopped")) {
          clearTimeout(timer);
          resolve(true);
        }
      });
    });
    expect(stopped).toBe(true);
    expect(readFileSync(join(dir, "x.txt"), "utf8")).toBe("X\n");
    child.kill("SIGKILL");
    await exited;
    // writeFiles sweeps for dead writers' journals at most once a second per process.
    await new Promise((resolve) => setTimeout(resolve, 1_100));

    const result = await server.invoke("lsp_rename", {
      file: "src/app.ts",
      line: 3,
      symbol: "add",
      new_name: "sum",
    });
    const answer = resultText(result);
    expect(result.isError, answer).toBe(false);
    expect(answer).toMatch(/^renamed 'add' to 'sum': \d+ edits in 2 files\n/);
    expect(answer).toMatch(
      new RegExp(
        `\\nnote: rolled back a change set that process ${child.pid} left half written when it ended`,
      ),
    );
    expect(answer).toContain(join(dir, "x.txt"));
    expect(readFileSync(join(dir, "x.txt"), "utf8")).toBe("x\n");
    expect(readFileSync(join(dir, "src/app.ts"), "utf8")).toContain("sum(1, 2)");
  });
});
