import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "../testing/fixture-tools.js";
import { dead, waitFor } from "../testing/processes.js";
import { reaperModules, transpileModules } from "../testing/transpiled-modules.js";

// A real writer killed with SIGKILL in the middle of a change set: the set is rolled back by the
// reaper its host started (at once), or, where the reaper cannot run the recovery (no Node), by
// the next process that writes files.

const writerModules = [
  ...reaperModules,
  "files/write-files",
  "files/file-operations",
  "files/temporary-name",
  "files/read-regular-file",
  "files/read-journal",
  "files/recover-writes",
  "files/recovery-report",
  "files/recovery-sweep",
  "files/old-leftovers",
  "errors/tools-error",
  "result/bounded-output",
  "result/whole-characters",
];

/**
 * `host.js <dir> <count> <renames>`: writes a set that rewrites f0…f<count-1>, creates
 * new/deep/n.txt and deletes gone.txt, and stops for good before rename number <renames>,
 * printing its reaper's pid. `single.js <dir>` writes big.txt alone and stops before its rename.
 * `next.js <dir>` writes one file, as the next run would.
 */
const scripts: Record<string, string> = {
  "host.js": `
import { nodeFileOperations } from "./files/file-operations.js";
import { writeFiles } from "./files/write-files.js";
import { reaperPid } from "./run/process-mark.js";
const [dir, count, stopAt] = process.argv.slice(2);
let renames = 0;
const ops = {
  ...nodeFileOperations,
  rename: async (from, to) => {
    if (++renames === Number(stopAt)) {
      console.log(JSON.stringify({ reaper: reaperPid() }));
      setInterval(() => {}, 1000);
      return new Promise(() => {});
    }
    return nodeFileOperations.rename(from, to);
  },
};
const changes = [];
for (let i = 0; i < Number(count); i++) {
  changes.push({ path: dir + "/f" + i + ".txt", expected: "old " + i + "\\n", content: "new " + i + "\\n" });
  if (i === 2) changes.push({ path: dir + "/new/deep/n.txt", expected: null, content: "n\\n" });
}
changes.push({ path: dir + "/gone.txt", content: null });
await writeFiles(changes, ops);
console.log("finished");
`,
  "single.js": `
import { nodeFileOperations } from "./files/file-operations.js";
import { writeFiles } from "./files/write-files.js";
import { reaperPid } from "./run/process-mark.js";
const [dir] = process.argv.slice(2);
const ops = {
  ...nodeFileOperations,
  rename: () => {
    console.log(JSON.stringify({ reaper: reaperPid() }));
    setInterval(() => {}, 1000);
    return new Promise(() => {});
  },
};
await writeFiles([{ path: dir + "/big.txt", content: "x".repeat(1 << 20) }], ops);
`,
  "next.js": `
import { writeFiles } from "./files/write-files.js";
const outcome = await writeFiles([{ path: process.argv[2] + "/other.txt", content: "other\\n" }]);
console.log(JSON.stringify({ ok: outcome.ok, warnings: outcome.warnings ?? [] }));
`,
};

/**
 * A folder with the writer's modules and scripts; without the recovery program when `recovery`
 * is false, as for a reaper that finds no Node to run it with.
 */
function writerFolder(recovery: boolean): string {
  const folder = tempDir();
  transpileModules(folder, recovery ? [...writerModules, "files/recover-writes-main"] : writerModules);
  for (const [name, text] of Object.entries(scripts)) writeFileSync(join(folder, name), text);
  return folder;
}

/** The first line the child prints. */
function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    child.stdout!.on("data", (data: Buffer) => {
      text += data.toString();
      if (text.includes("\n")) resolve(text.split("\n")[0]!);
    });
    child.once("exit", () => reject(new Error(`exited before printing a line (${text})`)));
  });
}

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

describe("a writer killed in the middle of a change set", () => {
  const count = 12;
  let work: string;
  let journals: string;
  /** The environment of every child: journals in a temporary folder of this test's own. */
  let env: NodeJS.ProcessEnv;

  function prepare(): void {
    work = tempDir();
    const tmp = tempDir();
    env = { ...process.env, TMPDIR: tmp };
    journals = join(tmp, `tools-write-journal-${process.getuid!()}`);
    for (let i = 0; i < count; i++) writeFileSync(join(work, `f${i}.txt`), `old ${i}\n`);
    writeFileSync(join(work, "gone.txt"), "gone\n");
  }

  const listing = () => readdirSync(work, { recursive: true, encoding: "utf8" }).sort();
  const rewritten = () =>
    Array.from({ length: count }, (_, i) => readFileSync(join(work, `f${i}.txt`), "utf8")).filter((text) =>
      text.startsWith("new"),
    ).length;
  const untouched = () =>
    rewritten() === 0 &&
    JSON.stringify(listing()) ===
      JSON.stringify([...Array.from({ length: count }, (_, i) => `f${i}.txt`), "gone.txt"].sort()) &&
    readdirSync(journals).filter((name) => !name.endsWith(".recovered.json")).length === 0;

  /** The process id of the last host started. */
  let hostPid = 0;

  /** Starts the host, waits until it has stopped halfway, and kills it; returns its reaper. */
  async function killHalfway(
    folder: string,
    script = "host.js",
    args = [String(count), "7"],
  ): Promise<number> {
    const host = spawn(process.execPath, [script, work, ...args], {
      cwd: folder,
      env,
      stdio: ["ignore", "pipe", "inherit"],
    });
    children.push(host);
    hostPid = host.pid!;
    const { reaper } = JSON.parse(await firstLine(host)) as { reaper: number };
    expect(typeof reaper).toBe("number");
    host.kill("SIGKILL");
    return reaper;
  }

  /**
   * Runs next.js, the next writer, working in `cwd` (the killed host's folder unless given), and
   * returns what it printed.
   */
  async function nextWriter(folder: string, cwd = folder): Promise<{ ok: boolean; warnings: string[] }> {
    const next = spawn(process.execPath, [join(folder, "next.js"), work], {
      cwd,
      env,
      stdio: ["ignore", "pipe", "inherit"],
    });
    children.push(next);
    const printed = JSON.parse(await firstLine(next)) as { ok: boolean; warnings: string[] };
    unlinkSync(join(work, "other.txt"));
    return printed;
  }

  /** What the next writer is told of the killed set: its six files written were put back. */
  const toldOfRollBack = (warnings: string[]) => {
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      new RegExp(
        `^rolled back a change set that process ${hostPid} left half written when it ended \\(begun \\d{4}-\\d\\d-\\d\\dT[^,]+Z, rolled back [^)]+Z\\): restored 6 files: `,
      ),
    );
    for (const name of ["f0.txt", "f4.txt", "new/deep/n.txt"])
      expect(warnings[0]).toContain(join(work, name));
    expect(warnings[0]).not.toContain("f5.txt");
  };

  it("is rolled back by its reaper: files put back, created ones removed, no temporary file left; the next writer is told", async () => {
    prepare();
    const folder = writerFolder(true);
    const reaper = await killHalfway(folder);
    expect(await waitFor(untouched, 10_000)).toBe(true);
    expect(await waitFor(() => dead(reaper), 10_000)).toBe(true);
    expect(readFileSync(join(work, "gone.txt"), "utf8")).toBe("gone\n");
    expect(existsSync(join(work, "new"))).toBe(false);
    // The reaper's report is not told to a writer working in another folder (another project of
    // this user's), but to the next writer working where the killed host did, once.
    expect((await nextWriter(folder, tempDir())).warnings).toEqual([]);
    const next = await nextWriter(folder);
    expect(next.ok).toBe(true);
    toldOfRollBack(next.warnings);
    expect(readdirSync(journals)).toEqual([]);
    expect((await nextWriter(folder)).warnings).toEqual([]);
  });

  it("is rolled back by the next process that writes files when the reaper cannot run Node", async () => {
    prepare();
    const folder = writerFolder(false);
    const reaper = await killHalfway(folder);
    expect(await waitFor(() => dead(reaper), 10_000)).toBe(true);
    // Left half written: f0…f4 rewritten, new/deep/n.txt created, a temporary file beside f5.
    expect(rewritten()).toBe(5);
    expect(existsSync(join(work, "new/deep/n.txt"))).toBe(true);
    expect(listing().filter((name) => name.endsWith(".tmp"))).toHaveLength(1);
    expect(readdirSync(journals)).toHaveLength(1);

    // The next run's own write is done, and it is told of the roll back; everything else is as
    // before the killed set.
    const next = await nextWriter(folder);
    expect(next.ok).toBe(true);
    toldOfRollBack(next.warnings);
    expect(untouched()).toBe(true);
  });

  it("leaves no temporary file of a single file it was writing", async () => {
    prepare();
    const reaper = await killHalfway(writerFolder(true), "single.js");
    expect(await waitFor(() => dead(reaper), 10_000)).toBe(true);
    expect(untouched()).toBe(true);
  });
});
