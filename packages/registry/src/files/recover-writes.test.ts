import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { threadPrefix } from "../run/host-identity.js";
import { waitFor } from "../testing/processes.js";
import { recoverInterruptedWrites, recoverJournal } from "./recover-writes.js";
import { nodeFileOperations, writeFiles, type FileChange, type FileOperations } from "./write-files.js";
import { journalFolder, parseJournal } from "./write-journal.js";

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
  async function stopped(changes: FileChange[], ops: FileOperations, done: () => boolean): Promise<void> {
    void writeFiles(changes, ops);
    expect(await waitFor(done, 5000)).toBe(true);
  }

  const set = (): FileChange[] => [
    { path: at("a.txt"), label: "a.txt", expected: "a.txt\n", content: "A\n" },
    { path: at("new/deep/n.txt"), label: "new/deep/n.txt", expected: null, content: "N\n" },
    { path: at("b.txt"), label: "b.txt", expected: "b.txt\n", content: "B\n" },
    { path: at("c.txt"), label: "c.txt", expected: "c.txt\n", content: "C\n" },
    { path: at("d.txt"), label: "d.txt", expected: "d.txt\n", content: null },
  ];

  it("puts rewritten files back, removes created files, folders and the temporary file", async () => {
    chmodSync(at("a.txt"), 0o640);
    // a.txt, n.txt and b.txt are renamed into place; c.txt's rename never happens.
    await stopped(set(), stoppingAt("rename", 4), () => read("b.txt") === "B\n");
    expect(listing().some((name) => name.endsWith(".tmp"))).toBe(true);
    // The writer is alive: no one else's sweep touches its set.
    expect(await recoverInterruptedWrites()).toEqual([]);
    expect(read("a.txt")).toBe("A\n");

    // As the reaper does once the writer's thread ended.
    const reports = await recoverInterruptedWrites({ owner: threadPrefix() });
    expect(reports).toEqual([{ restored: ["a.txt", "new/deep/n.txt", "b.txt"], left: [] }]);
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
    await stopped(set(), stoppingAt("rename", 4), () => read("b.txt") === "B\n");
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
    expect(await recoverInterruptedWrites({ now: Date.now() + 11 * 60_000 })).toEqual([]);
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
    expect(reports).toEqual([{ restored: ["a.txt", "new/deep/n.txt", "b.txt"], left: [] }]);
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
    expect(report).toEqual({ restored: ["a.txt", "d.txt"], left: [] });
    expect(statSync(at("d.txt")).mode & 0o777).toBe(0o600);
    expect(read("a.txt")).toBe("a.txt\n");
    expect(listing()).toEqual(["a.txt", "b.txt", "c.txt", "d.txt"]);
    expect(read("d.txt")).toBe("d.txt\n");
  });

  it("leaves a file someone changed after the set wrote it, and says so", async () => {
    await stopped(set(), stoppingAt("rename", 4), () => read("b.txt") === "B\n");
    writeFileSync(at("a.txt"), "saved by an editor after the crash\n");
    const [report] = await recoverInterruptedWrites({ owner: threadPrefix() });
    expect(report).toEqual({
      restored: ["new/deep/n.txt", "b.txt"],
      left: [{ label: "a.txt", reason: changedReason }],
    });
    expect(read("a.txt")).toBe("saved by an editor after the crash\n");
    expect(read("b.txt")).toBe("b.txt\n");
    // The journal is kept for a human, with its original bytes, and a note saying why.
    const kept = journals();
    expect(kept.map((name) => name.replace(/^.*?\./, "."))).toEqual([".left", ".left.txt"]);
    expect(readFileSync(join(journalFolder(), kept[1]!), "utf8")).toContain(`a.txt: ${changedReason}`);
    const journal = parseJournal(readFileSync(join(journalFolder(), kept[0]!)));
    expect(Buffer.from(journal!.entries[0]!.original!).toString()).toBe("a.txt\n");
    // A kept journal is no longer swept.
    expect(await recoverInterruptedWrites({ owner: threadPrefix() })).toEqual([]);
  });

  it("leaves a file it had not written alone, even when someone changed it", async () => {
    await stopped(set(), stoppingAt("rename", 2), () => read("a.txt") === "A\n");
    writeFileSync(at("c.txt"), "edited\n");
    const [report] = await recoverInterruptedWrites({ owner: threadPrefix() });
    expect(report).toEqual({ restored: ["a.txt"], left: [{ label: "c.txt", reason: changedReason }] });
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
    expect(await recoverJournal(path)).toEqual({ restored: [], left: [] });
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
});
