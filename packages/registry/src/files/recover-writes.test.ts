import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { threadPrefix } from "../run/host-identity.js";
import { waitFor } from "../testing/processes.js";
import { recoverInterruptedWrites, recoverJournal } from "./recover-writes.js";
import { nodeFileOperations, type FileOperations } from "./file-operations.js";
import { parseJournal } from "./read-journal.js";
import { saveRecoveryReports } from "./recovery-report.js";
import { writeFiles, type FileChange, type WriteFilesOptions } from "./write-files.js";
import { journalFolder } from "./write-journal.js";

// A set whose writer stops for good in the middle (as when its process is killed): the real
// file system, except that one call never returns. The journal it left is then recovered as the
// reaper or the next writer would.

/** The real file system, except that the `nth` call of `operation` never returns. */
function stoppingAt(operation: "rename" | "unlink" | "writeFile", nth: number): FileOperations {
  let calls = 0;
  const real = nodeFileOperations[operation] as (...args: unknown[]) => Promise<void>;
  return {
    ...nodeFileOperations,
    [operation]: async (...args: unknown[]) => {
      if (++calls === nth) return new Promise<void>(() => undefined);
      return real(...args);
    },
  };
}

/** `text` as a regular expression matching it literally. */
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

const changedReason =
  "holds neither what the set wrote nor what was there before (changed by someone else since the set began); left as it is";

describe("rolling back a set whose writer stopped", () => {
  let root: string;
  let previousTmp: string | undefined;
  let dir: string;
  const at = (name: string) => join(dir, name);
  const read = (name: string) => readFileSync(at(name), "utf8");
  const listing = () => readdirSync(dir, { recursive: true, encoding: "utf8" }).sort();
  const journals = () => readdirSync(journalFolder()).sort();

  beforeAll(() => {
    // Journals go to a folder of this test's own, through the system's temporary folder.
    root = mkdtempSync(join(tmpdir(), "recover-writes-"));
    previousTmp = process.env.TMPDIR;
    process.env.TMPDIR = root;
  });
  afterAll(() => {
    process.env.TMPDIR = previousTmp;
    if (previousTmp === undefined) delete process.env.TMPDIR;
    rmSync(root, { recursive: true, force: true });
  });
  beforeEach(() => {
    dir = mkdtempSync(join(root, "work-"));
    for (const name of ["a.txt", "b.txt", "c.txt", "d.txt"]) writeFileSync(at(name), `${name}\n`);
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(journalFolder(), { recursive: true, force: true });
  });

  /** Starts writing `changes` with `ops` and waits until it has stopped for good at `done`. */
  async function stopped(
    changes: FileChange[],
    ops: FileOperations,
    done: () => boolean,
    options?: WriteFilesOptions,
  ): Promise<void> {
    void writeFiles(changes, ops, options);
    expect(await waitFor(done, 5000)).toBe(true);
  }

  const set = (): FileChange[] => [
    { path: at("a.txt"), label: "a.txt", expected: "a.txt\n", content: "A\n" },
    { path: at("new/deep/n.txt"), label: "new/deep/n.txt", expected: null, content: "N\n" },
    { path: at("b.txt"), label: "b.txt", expected: "b.txt\n", content: "B\n" },
    { path: at("c.txt"), label: "c.txt", expected: "c.txt\n", content: "C\n" },
    { path: at("d.txt"), label: "d.txt", expected: "d.txt\n", content: null },
  ];

  /**
   * Where `stoppingAt("rename", 4)` stops a {@link set} for good: a.txt, n.txt and b.txt renamed
   * into place, c.txt's temporary file written and waiting for its rename.
   */
  const beforeCsRename = () => read("b.txt") === "B\n" && listing().some((name) => name.endsWith(".tmp"));

  it("puts rewritten files back, removes created files, folders and the temporary file", async () => {
    chmodSync(at("a.txt"), 0o640);
    // a.txt, n.txt and b.txt are renamed into place; c.txt's rename never happens.
    await stopped(set(), stoppingAt("rename", 4), beforeCsRename);
    // The writer is alive: no one else's sweep touches its set.
    expect(await recoverInterruptedWrites()).toEqual([]);
    expect(read("a.txt")).toBe("A\n");

    // As the reaper does once the writer's thread ended.
    const reports = await recoverInterruptedWrites({ owner: threadPrefix() });
    expect(reports).toEqual([
      {
        pid: process.pid,
        workspace: process.cwd(),
        begunAt: expect.any(Number),
        recoveredAt: expect.any(Number),
        rolledBack: true,
        restored: [at("a.txt"), at("new/deep/n.txt"), at("b.txt")],
        left: [],
      },
    ]);
    expect(listing()).toEqual(["a.txt", "b.txt", "c.txt", "d.txt"]);
    expect(["a.txt", "b.txt", "c.txt", "d.txt"].map(read)).toEqual([
      "a.txt\n",
      "b.txt\n",
      "c.txt\n",
      "d.txt\n",
    ]);
    expect(statSync(at("a.txt")).mode & 0o777).toBe(0o640);
    expect(journals()).toEqual([]);
  });

  it("rolls back a gone writer's fresh journal of this boot and namespace, and leaves another scope's, an old one and an unsafe folder's", async () => {
    await stopped(set(), stoppingAt("rename", 4), beforeCsRename);
    const [name] = journals();
    const mine = join(journalFolder(), name!);
    // As a writer that is gone: an id no process has.
    const gone = (suffix: string) => join(journalFolder(), `999999999-1-0-${suffix}.journal`);
    const bytes = readFileSync(mine);
    rmSync(mine);
    const header = bytes.subarray(0, bytes.indexOf(0x0a)).toString("utf8");
    const rest = bytes.subarray(bytes.indexOf(0x0a));
    const elsewhere = header.replace(/"host":"[^"]*"/, '"host":"another-boot pid:[1]"');
    expect(elsewhere).not.toBe(header);

    // Another boot or pid namespace: its writer may be alive there; nothing is touched.
    writeFileSync(gone("elsewhere"), Buffer.concat([Buffer.from(elsewhere), rest]), { mode: 0o600 });
    expect(await recoverInterruptedWrites()).toEqual([]);
    expect(read("a.txt")).toBe("A\n");
    rmSync(gone("elsewhere"));

    // Found over 10 minutes after: kept for a human, not rolled back.
    writeFileSync(gone("old"), bytes, { mode: 0o600 });
    expect(await recoverInterruptedWrites({ now: Date.now() + 11 * 60_000 })).toMatchObject([
      {
        pid: 999999999,
        rolledBack: false,
        restored: [],
        kept: join(journalFolder(), "999999999-1-0-old.left"),
      },
    ]);
    expect(read("a.txt")).toBe("A\n");
    expect(journals()).toEqual(["999999999-1-0-old.left", "999999999-1-0-old.left.txt"]);
    expect(readFileSync(join(journalFolder(), "999999999-1-0-old.left.txt"), "utf8")).toContain(
      "was not rolled back",
    );
    for (const left of journals()) rmSync(join(journalFolder(), left));

    // A folder others may write to (removed and made again by someone else): not acted on.
    writeFileSync(gone("fresh"), bytes, { mode: 0o600 });
    chmodSync(journalFolder(), 0o777);
    expect(await recoverInterruptedWrites()).toEqual([]);
    expect(read("a.txt")).toBe("A\n");
    chmodSync(journalFolder(), 0o700);

    // Fresh, of this boot and namespace, its writer gone: rolled back.
    const reports = await recoverInterruptedWrites();
    expect(reports).toMatchObject([{ restored: [at("a.txt"), at("new/deep/n.txt"), at("b.txt")], left: [] }]);
    expect(["a.txt", "b.txt", "c.txt"].map(read)).toEqual(["a.txt\n", "b.txt\n", "c.txt\n"]);
  });

  it("puts back a file the set deleted before it stopped", async () => {
    // a.txt is written and d.txt deleted; the writer stops before deleting c.txt.
    chmodSync(at("d.txt"), 0o600);
    const changes: FileChange[] = [
      { path: at("a.txt"), label: "a.txt", content: "A\n" },
      { path: at("d.txt"), label: "d.txt", content: null },
      { path: at("c.txt"), label: "c.txt", content: null },
    ];
    await stopped(changes, stoppingAt("unlink", 2), () => !existsSync(at("d.txt")));
    const [journal] = journals();
    const report = await recoverJournal(join(journalFolder(), journal!));
    expect(report).toMatchObject({ restored: [at("a.txt"), at("d.txt")], left: [] });
    expect(statSync(at("d.txt")).mode & 0o777).toBe(0o600);
    expect(read("a.txt")).toBe("a.txt\n");
    expect(listing()).toEqual(["a.txt", "b.txt", "c.txt", "d.txt"]);
    expect(read("d.txt")).toBe("d.txt\n");
  });

  it("leaves a file someone changed after the set wrote it, and says so", async () => {
    await stopped(set(), stoppingAt("rename", 4), beforeCsRename);
    writeFileSync(at("a.txt"), "saved by an editor after the crash\n");
    const [report] = await recoverInterruptedWrites({ owner: threadPrefix() });
    expect(report).toMatchObject({
      restored: [at("new/deep/n.txt"), at("b.txt")],
      left: [{ path: at("a.txt"), reason: changedReason }],
    });
    expect(read("a.txt")).toBe("saved by an editor after the crash\n");
    expect(read("b.txt")).toBe("b.txt\n");
    // The journal is kept for a human, with its original bytes, and a note saying why.
    const kept = journals();
    expect(kept.map((name) => name.replace(/^.*?\./, "."))).toEqual([".left", ".left.txt"]);
    expect(readFileSync(join(journalFolder(), kept[1]!), "utf8")).toContain(
      `${at("a.txt")}: ${changedReason}`,
    );
    const journal = parseJournal(readFileSync(join(journalFolder(), kept[0]!)));
    expect(Buffer.from(journal!.entries[0]!.original!).toString()).toBe("a.txt\n");
    // A kept journal is no longer swept.
    expect(await recoverInterruptedWrites({ owner: threadPrefix() })).toEqual([]);
  });

  it("leaves a file it had not written alone, even when someone changed it", async () => {
    // Stopped for good with n.txt's temporary file written, waiting for its rename.
    await stopped(
      set(),
      stoppingAt("rename", 2),
      () => read("a.txt") === "A\n" && listing().some((name) => name.endsWith(".tmp")),
    );
    writeFileSync(at("c.txt"), "edited\n");
    const [report] = await recoverInterruptedWrites({ owner: threadPrefix() });
    expect(report).toMatchObject({
      restored: [at("a.txt")],
      left: [{ path: at("c.txt"), reason: changedReason }],
    });
    expect([read("a.txt"), read("c.txt")]).toEqual(["a.txt\n", "edited\n"]);
    expect(listing()).toEqual(["a.txt", "b.txt", "c.txt", "d.txt"]);
  });

  it("removes only the temporary file of a single file whose write stopped", async () => {
    await stopped(
      [{ path: at("a.txt"), content: "A\n" }],
      stoppingAt("rename", 1),
      () => listing().length === 5,
    );
    const journal = parseJournal(readFileSync(join(journalFolder(), journals()[0]!)));
    // Nothing but the temporary file is recorded: no bytes read, none kept.
    expect(journal?.entries).toEqual([
      {
        target: at("a.txt"),
        label: at("a.txt"),
        temp: expect.stringMatching(/\.a\.txt\.[0-9a-f]{12}\.tmp$/),
      },
    ]);
    await recoverInterruptedWrites({ owner: threadPrefix() });
    expect(listing()).toEqual(["a.txt", "b.txt", "c.txt", "d.txt"]);
    expect(read("a.txt")).toBe("a.txt\n");
    expect(journals()).toEqual([]);
  });

  it("removes a journal cut off while it was written, touching nothing", async () => {
    mkdirSync(journalFolder(), { mode: 0o700, recursive: true });
    const path = join(journalFolder(), `${threadPrefix()}000000000000.journal`);
    writeFileSync(path, `{"version":1,"folders":[],"entries":[],"dataLength":100}\nab`);
    expect(await recoverJournal(path)).toMatchObject({ rolledBack: true, restored: [], left: [] });
    expect(journals()).toEqual([]);
  });

  it("leaves no journal behind a set that was written, or put back after a failure", async () => {
    expect((await writeFiles(set())).ok).toBe(true);
    expect(journals()).toEqual([]);
    const failing: FileOperations = {
      ...nodeFileOperations,
      rename: async (from, to) => {
        if (to === at("c.txt")) throw new Error("disk full (injected)");
        return nodeFileOperations.rename(from, to);
      },
    };
    const outcome = await writeFiles(
      [
        { path: at("a.txt"), content: "again\n" },
        { path: at("c.txt"), content: "again\n" },
      ],
      failing,
    );
    expect(outcome).toMatchObject({ ok: false, restored: 1, notRestored: [] });
    expect(journals()).toEqual([]);
  });

  it("tells the next writeFiles of a set it rolled back, in the outcome's warnings", async () => {
    await stopped(set(), stoppingAt("rename", 4), beforeCsRename);
    // As the journal of a writer that is gone.
    renameSync(join(journalFolder(), journals()[0]!), join(journalFolder(), "999999999-1-0-gone.journal"));
    // Past this process's once-a-second sweep, whatever wrote before.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 2000);
    let outcome;
    try {
      outcome = await writeFiles([{ path: at("other.txt"), content: "other\n" }]);
    } finally {
      vi.useRealTimers();
    }
    expect(outcome).toEqual({
      ok: true,
      changed: [at("other.txt")],
      warnings: [
        expect.stringMatching(
          new RegExp(
            `^rolled back a change set that process ${process.pid} left half written when it ended \\(begun [^,]+Z, rolled back [^)]+Z\\): restored 3 files: ${escaped(at("a.txt"))}, ${escaped(at("new/deep/n.txt"))}, ${escaped(at("b.txt"))}; those files hold their content from before that set; if that set was a change you wanted, make it again$`,
          ),
        ),
      ],
    });
    expect(["a.txt", "b.txt", "c.txt"].map(read)).toEqual(["a.txt\n", "b.txt\n", "c.txt\n"]);
    // Told once: the next call has nothing to say.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 4000);
    try {
      expect(await writeFiles([{ path: at("other.txt"), content: "again\n" }])).toEqual({
        ok: true,
        changed: [at("other.txt")],
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it("names the workspace its writer gives (a run's working directory) and tells its report to a writer of that workspace", async () => {
    const project = join(root, "project");
    await stopped(set(), stoppingAt("rename", 4), beforeCsRename, { workspace: project });
    // As the reaper does once the writer's thread ended: rolled back, the report saved.
    const reports = await recoverInterruptedWrites({ owner: threadPrefix() });
    expect(reports.map((report) => report.workspace)).toEqual([project]);
    expect(["a.txt", "b.txt", "c.txt"].map(read)).toEqual(["a.txt\n", "b.txt\n", "c.txt\n"]);
    await saveRecoveryReports(journalFolder(), reports);
    const write = async (options: WriteFilesOptions, later: number) => {
      // Past this process's once-a-second sweep, whatever wrote before.
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(Date.now() + later);
      try {
        return await writeFiles([{ path: at("other.txt"), content: "x\n" }], nodeFileOperations, options);
      } finally {
        vi.useRealTimers();
      }
    };
    // A writer of the process's working folder is not told; one of the project is, once.
    // (Past the test before's last sweep, at +4 s, and before the next test's first, at +10 s.)
    expect((await write({}, 5_000)).warnings).toBeUndefined();
    const told = await write({ workspace: project }, 6_500);
    expect(told.warnings).toEqual([
      expect.stringMatching(/^rolled back a change set that process \d+ left half written/),
    ]);
    expect((await write({ workspace: project }, 8_000)).warnings).toBeUndefined();
  });

  it("names a workspace given relatively by its absolute path, so that its journal stays readable and is rolled back", async () => {
    await stopped(set(), stoppingAt("rename", 4), beforeCsRename, { workspace: "project" });
    const reports = await recoverInterruptedWrites({ owner: threadPrefix() });
    expect(reports).toEqual([
      expect.objectContaining({ workspace: join(process.cwd(), "project"), rolledBack: true }),
    ]);
    expect(["a.txt", "b.txt", "c.txt"].map(read)).toEqual(["a.txt\n", "b.txt\n", "c.txt\n"]);
  });

  it("tells a roll back only to a writer of the set's workspace, and saves another workspace's for a writer there", async () => {
    await stopped(set(), stoppingAt("rename", 4), beforeCsRename);
    // As the journal of a gone writer that worked in another project of this user's.
    const [name] = journals();
    const bytes = readFileSync(join(journalFolder(), name!));
    rmSync(join(journalFolder(), name!));
    const newline = bytes.indexOf(0x0a);
    const header = JSON.parse(bytes.subarray(0, newline).toString("utf8")) as Record<string, unknown>;
    expect(header.workspace).toBe(process.cwd());
    const elsewhere = join(root, "another-project");
    writeFileSync(
      join(journalFolder(), "999999999-1-0-gone.journal"),
      Buffer.concat([
        Buffer.from(JSON.stringify({ ...header, workspace: elsewhere })),
        bytes.subarray(newline),
      ]),
      { mode: 0o600 },
    );
    // And a report a reaper saved of a set of that project's.
    const saved = {
      pid: 999999998,
      workspace: elsewhere,
      begunAt: Date.now(),
      recoveredAt: Date.now(),
      rolledBack: true,
      restored: [at("theirs.txt")],
      left: [],
    };
    writeFileSync(join(journalFolder(), "000000000003.recovered.json"), JSON.stringify(saved), {
      mode: 0o600,
    });
    const reportsSaved = () => journals().filter((file) => file.endsWith(".recovered.json"));
    const write = async (content: string, later: number) => {
      // Past this process's once-a-second sweep, whatever wrote before.
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(Date.now() + later);
      try {
        return await writeFiles([{ path: at("other.txt"), content }]);
      } finally {
        vi.useRealTimers();
      }
    };

    // The set is rolled back all the same (its writer is gone), but this writer, working
    // elsewhere, is told of neither; both reports stay for a writer of that project.
    expect(await write("other\n", 10_000)).toEqual({ ok: true, changed: [at("other.txt")] });
    expect(["a.txt", "b.txt", "c.txt"].map(read)).toEqual(["a.txt\n", "b.txt\n", "c.txt\n"]);
    expect(existsSync(at("new"))).toBe(false);
    expect(reportsSaved()).toHaveLength(2);
    const reports = reportsSaved().map(
      (file) => JSON.parse(readFileSync(join(journalFolder(), file), "utf8")) as { workspace: string },
    );
    expect(reports.map((report) => report.workspace)).toEqual([elsewhere, elsewhere]);
    expect(await write("again\n", 20_000)).toEqual({ ok: true, changed: [at("other.txt")] });
    expect(reportsSaved()).toHaveLength(2);
  });

  it("tells each workspace's writer in this process of its set rolled back at its first write, also within the second another workspace's writer swept in", async () => {
    const first = join(root, "first-project");
    const second = join(root, "second-project");
    const third = join(root, "third-project");
    const tempOf = (name: string) =>
      listing().some((file) => file.startsWith(`.${name}.`) && file.endsWith(".tmp"));
    // A set of the third workspace's stops (its writer, this thread, alive) with x.txt renamed
    // into place and y.txt's temporary file written; then one of the second's, as above.
    writeFileSync(at("x.txt"), "x.txt\n");
    writeFileSync(at("y.txt"), "y.txt\n");
    const pair: FileChange[] = [
      { path: at("x.txt"), label: "x.txt", expected: "x.txt\n", content: "X\n" },
      { path: at("y.txt"), label: "y.txt", expected: "y.txt\n", content: "Y\n" },
    ];
    await stopped(pair, stoppingAt("rename", 2), () => read("x.txt") === "X\n" && tempOf("y.txt"), {
      workspace: third,
    });
    const [thirdJournal] = journals();
    await stopped(set(), stoppingAt("rename", 4), () => read("b.txt") === "B\n" && tempOf("c.txt"), {
      workspace: second,
    });
    const secondJournal = journals().find((name) => name !== thirdJournal);
    // As the journal of a writer that is gone.
    const leaveGone = (name: string, tag: string) =>
      renameSync(join(journalFolder(), name), join(journalFolder(), `999999999-1-0-${tag}.journal`));
    leaveGone(secondJournal!, "second");
    const rolledBack = expect.stringMatching(/^rolled back a change set that process \d+ left half written/);

    // All at one instant, past every sweep of the tests before.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 100_000);
    try {
      const write = (workspace: string) =>
        writeFiles([{ path: at("other.txt"), content: `${workspace}\n` }], nodeFileOperations, { workspace });
      // The first workspace's writer sweeps: the second's set is rolled back, its report saved.
      expect(await write(first)).toEqual({ ok: true, changed: [at("other.txt")] });
      expect(["a.txt", "b.txt", "c.txt"].map(read)).toEqual(["a.txt\n", "b.txt\n", "c.txt\n"]);
      // The second's writer is told at its first write, in the same second.
      expect((await write(second)).warnings).toEqual([rolledBack]);
      // The third's writer goes; the first's writer, within its second, does not sweep again...
      leaveGone(thirdJournal!, "third");
      expect(await write(first)).toEqual({ ok: true, changed: [at("other.txt")] });
      expect(read("x.txt")).toBe("X\n");
      // ...but the third's writer, at its first write, rolls its set back and is told.
      expect((await write(third)).warnings).toEqual([rolledBack]);
      expect(["x.txt", "y.txt"].map(read)).toEqual(["x.txt\n", "y.txt\n"]);
    } finally {
      vi.useRealTimers();
    }
    expect(journals()).toEqual([]);
  });

  it("removes kept journals, their notes and untaken reports over a week old, telling only the fresh report", async () => {
    mkdirSync(journalFolder(), { mode: 0o700, recursive: true });
    const report = (path: string) =>
      JSON.stringify({
        pid: 999999999,
        begunAt: Date.now(),
        recoveredAt: Date.now(),
        rolledBack: true,
        restored: [path],
        left: [],
        workspace: process.cwd(),
      });
    const inFolder = (name: string) => join(journalFolder(), name);
    const eightDaysAgo = new Date(Date.now() - 8 * 24 * 60 * 60_000);
    for (const [name, text] of [
      ["999999999-1-0-old.left", "journal"],
      ["999999999-1-0-old.left.txt", "note"],
      ["000000000000.recovered.json", report(at("old.txt"))],
      ["000000000001.recovered.part", report(at("old-part.txt"))],
    ] as const) {
      writeFileSync(inFolder(name), text, { mode: 0o600 });
      utimesSync(inFolder(name), eightDaysAgo, eightDaysAgo);
    }
    writeFileSync(inFolder("999999999-1-0-new.left"), "journal", { mode: 0o600 });
    writeFileSync(inFolder("999999999-1-0-new.left.txt"), "note", { mode: 0o600 });
    writeFileSync(inFolder("000000000002.recovered.json"), report(at("fresh.txt")), { mode: 0o600 });
    // Past this process's once-a-second sweep, whatever wrote before (the test before
    // moved the clock 4 s on).
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 60_000);
    let outcome;
    try {
      outcome = await writeFiles([{ path: at("other.txt"), content: "other\n" }]);
    } finally {
      vi.useRealTimers();
    }
    expect(outcome?.warnings).toEqual([expect.stringContaining(`restored 1 file: ${at("fresh.txt")};`)]);
    expect(journals()).toEqual(["999999999-1-0-new.left", "999999999-1-0-new.left.txt"]);
  });

  it("keeps a corrupted journal as .left with a reason naming the field, and rolls nothing back from it", async () => {
    await stopped(set(), stoppingAt("rename", 4), beforeCsRename);
    const [name] = journals();
    const bytes = readFileSync(join(journalFolder(), name!));
    rmSync(join(journalFolder(), name!));
    const end = bytes.indexOf(0x0a);
    const rest = bytes.subarray(end);
    const dataLength = rest.byteLength - 1;
    type Header = { entries: Record<string, unknown>[] } & Record<string, unknown>;
    const header = () => JSON.parse(bytes.subarray(0, end).toString("utf8")) as Header;
    const halfWritten = listing();
    const corruptions: [string, string, string][] = [
      ["json", '{"version":1,"folders":[', "its first line is not JSON"],
      [
        "mode",
        JSON.stringify({
          ...header(),
          entries: header().entries.map((entry, index) =>
            index === 0 ? { ...entry, mode: "rw-r--r--" } : entry,
          ),
        }),
        'entries[0].mode is "rw-r--r--", expected a file mode',
      ],
      [
        "temp",
        JSON.stringify({
          ...header(),
          entries: header().entries.map((entry, index) =>
            index === 3 ? { ...entry, temp: at("d.txt") } : entry,
          ),
        }),
        "entries[3].temp is",
      ],
      [
        "range",
        JSON.stringify({
          ...header(),
          entries: header().entries.map((entry, index) =>
            index === 2 ? { ...entry, original: [0, dataLength + 1] } : entry,
          ),
        }),
        `entries[2].original is [0,${dataLength + 1}], expected [offset, length] within the ${dataLength} bytes after the header`,
      ],
      [
        "entries",
        JSON.stringify({ ...header(), entries: { a: 1 } }),
        'entries is {"a":1}, expected a list of entries',
      ],
      [
        "target",
        JSON.stringify({
          ...header(),
          entries: header().entries.map((entry, index) =>
            index === 1 ? { ...entry, target: "n.txt" } : entry,
          ),
        }),
        'entries[1].target is "n.txt", expected an absolute path',
      ],
      [
        "wrote",
        JSON.stringify({
          ...header(),
          entries: header().entries.map((entry, index) => (index === 0 ? { ...entry, wrote: 42 } : entry)),
        }),
        "entries[0].wrote is 42",
      ],
      [
        "longer",
        `${bytes.subarray(0, end).toString("utf8")}`,
        `dataLength is ${dataLength}, expected the ${dataLength + 3} bytes after the header`,
      ],
    ];
    for (const [what, line, problem] of corruptions) {
      const tail = what === "longer" ? Buffer.concat([rest, Buffer.from("xyz")]) : rest;
      writeFileSync(
        join(journalFolder(), `999999999-1-0-${what}.journal`),
        Buffer.concat([Buffer.from(line), tail]),
        {
          mode: 0o600,
        },
      );
      const reports = await recoverInterruptedWrites();
      expect(reports, what).toEqual([
        expect.objectContaining({
          rolledBack: false,
          restored: [],
          left: [{ path: "(the whole set)", reason: expect.stringContaining(problem) as string }],
          kept: expect.stringMatching(/\.left$/) as string,
        }),
      ]);
      expect(reports[0]!.left[0]!.reason, what).toMatch(
        /^the journal is corrupt: .*; nothing was rolled back from it$/,
      );
      // Nothing touched: the set is as the writer left it, d.txt (named as a temporary file) too.
      expect(listing(), what).toEqual(halfWritten);
      expect([read("a.txt"), read("b.txt"), read("d.txt")], what).toEqual(["A\n", "B\n", "d.txt\n"]);
      const kept = reports[0]!.kept!;
      expect(readFileSync(`${kept}.txt`, "utf8"), what).toContain(problem);
      rmSync(kept);
      rmSync(`${kept}.txt`);
    }
  });

  it("reads only the header of a gone writer's journal to judge it, not the originals after it", async () => {
    mkdirSync(journalFolder(), { mode: 0o700, recursive: true });
    const original = Buffer.alloc(16 << 20, 0x61);
    const header = {
      version: 1,
      host: "another-boot pid:[1]",
      pid: 999999999,
      folders: [],
      entries: [
        {
          target: at("a.txt"),
          label: "a.txt",
          temp: at(".a.txt.000000000000.tmp"),
          wrote: null,
          present: true,
          original: [0, original.byteLength],
        },
      ],
      dataLength: original.byteLength,
    };
    const path = join(journalFolder(), "999999999-1-0-big.journal");
    writeFileSync(path, Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), original]), {
      mode: 0o600,
    });
    // Bytes this process has read, by any read call (Linux).
    const bytesRead = () => Number(/^rchar:\s*(\d+)$/m.exec(readFileSync("/proc/self/io", "utf8"))![1]);
    const before = bytesRead();
    // Another boot or namespace's: judged by its header, and left alone.
    expect(await recoverInterruptedWrites()).toEqual([]);
    expect(bytesRead() - before).toBeLessThan(1 << 20);
    expect(existsSync(path)).toBe(true);
  });
});
