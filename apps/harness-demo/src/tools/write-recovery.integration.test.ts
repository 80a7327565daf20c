import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { tempWorkspace, type TempWorkspace } from "../__fixtures__/temp-workspace.js";

// A real writer SIGKILLed halfway through a change set (a.txt renamed into place, b.txt not), as
// a session's write tool in the same workspace (its run's working directory, not the process's
// working folder): the registry's writeFiles rolls such a set back before the next write of any
// process, and the next write tool of a run in that workspace tells the agent, so that it knows
// a.txt changed back.

const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const writer = `
import { nodeFileOperations, writeFiles } from "@tools/registry";
const dir = process.argv[1];
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
await writeFiles([{ path: dir + "/a.txt", content: "A\\n" }, { path: dir + "/b.txt", content: "B\\n" }], ops, {
  workspace: dir,
});
`;

let ws: TempWorkspace | undefined;
let journals: string | undefined;
const savedTmpdir = process.env.TMPDIR;
afterEach(async () => {
  if (savedTmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmpdir;
  await ws?.cleanup();
  if (journals) await rm(journals, { recursive: true, force: true });
});

describe("a write after another process's half-written change set", () => {
  it("says the set was rolled back, naming the files put back, once", async () => {
    ws = await tempWorkspace({ "a.txt": "a\n", "b.txt": "b\n" });
    // Journals of this test alone: no other test's write picks up the roll back's report.
    journals = await mkdtemp(join(tmpdir(), "harness-demo-journals-"));
    process.env.TMPDIR = journals;
    const child = spawn(process.execPath, ["--input-type=module", "-e", writer, ws.dir], {
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
    expect(await ws.read("a.txt")).toBe("A\n");
    child.kill("SIGKILL");
    await exited;

    // writeFiles sweeps for dead writers' journals at most once a second per process: write
    // until a write has swept (bounded), as an agent's next writes would.
    let told = "";
    for (let attempt = 0; attempt < 15 && !told; attempt++) {
      const text = ws.text(await ws.call("write", { path: "c.txt", content: `c ${attempt}\n` }));
      if (text.includes("note: rolled back")) told = text;
      else await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(told).toMatch(/^created c\.txt|^overwrote c\.txt/);
    expect(told).toMatch(
      new RegExp(
        `\\nnote: rolled back a change set that process ${child.pid} left half written when it ended`,
      ),
    );
    expect(told).toContain(join(ws.dir, "a.txt"));
    expect(await ws.read("a.txt")).toBe("a\n");
    expect(await ws.read("b.txt")).toBe("b\n");
    // Told once.
    const next = ws.text(await ws.call("edit", { path: "c.txt", old_string: "c", new_string: "d" }));
    expect(next).not.toContain("rolled back");
  });
});
