import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createRegistry, createRun, resultText, type Run } from "@tools/registry";
import { afterAll, afterEach, expect, it } from "vitest";
import { createStructuralParser, structuralParserKey } from "../parser/structural-parser.js";
import { structuralTools } from "./structural-tools.js";

// Another process SIGKILLed halfway through a change set (x.txt renamed into place, y.txt not):
// writeFiles rolls it back before the next set it writes, and `resolve accept` in a run of the
// same workspace (the killed writer's, as its journal names it) says so.

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

const savedTmpdir = process.env.TMPDIR;
const folders: string[] = [];
let run: Run | undefined;
const parser = createStructuralParser();
afterAll(() => parser.dispose());
afterEach(async () => {
  if (savedTmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmpdir;
  await run?.dispose();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

it("accept ends its answer with a note naming the files of another process's set it rolled back", async () => {
  const dir = mkdtempSync(join(tmpdir(), "structural-recovery-"));
  const journals = mkdtempSync(join(tmpdir(), "structural-journals-"));
  folders.push(dir, journals);
  writeFileSync(join(dir, "x.txt"), "x\n");
  writeFileSync(join(dir, "y.txt"), "y\n");
  writeFileSync(join(dir, "m.py"), "foo(1)\n");
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

  run = createRun({ workingDirectory: dir, resources: [[structuralParserKey, parser]] });
  const registry = createRegistry({ tools: [...structuralTools], approval: "auto" });
  await registry.invoke(run, {
    tool: "ast_edit",
    args: { pattern: "foo($A)", rewrite: "bar($A)", language: "python" },
  });
  const accepted = resultText(
    await registry.invoke(run, { tool: "resolve", args: { edit_id: "edit_1", action: "accept" } }),
  );
  expect(accepted).toMatch(/^edit_1 accepted: 1 replacement written to 1 file\n {2}m\.py\n/);
  expect(accepted).toMatch(
    new RegExp(`\\nnote: rolled back a change set that process ${child.pid} left half written when it ended`),
  );
  expect(accepted).toContain(join(dir, "x.txt"));
  expect(readFileSync(join(dir, "x.txt"), "utf8")).toBe("x\n");
  expect(readFileSync(join(dir, "m.py"), "utf8")).toBe("bar(1)\n");
});
