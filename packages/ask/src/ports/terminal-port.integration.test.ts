import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { constants, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { pasteGapMs } from "./bracketed-paste.js";

// The terminal port in a real terminal: a fixture script runs the built package inside a tmux
// session on a private socket (in a scratch folder, removed afterwards); the test types with send-keys and reads with capture-pane.
const ci = process.env.CI === "true";
const here = dirname(fileURLToPath(import.meta.url));
const fixture = join(here, "..", "__fixtures__", "terminal-question.mjs");
const sighupParent = join(here, "..", "__fixtures__", "sighup-parent.mjs");
const built = join(here, "..", "..", "dist", "index.js");
// A private tmux server per test: a server that is still shutting down never meets the next test.
let socket = "";
const session = "ask";
const scratch = mkdtempSync(join(tmpdir(), "ask-tmux-"));
const config = join(scratch, "tmux.conf");
writeFileSync(config, "set -g remain-on-exit on\nset -g history-limit 2000\n");

function tmux(...args: string[]): string {
  return execFileSync("tmux", ["-S", socket, "-f", config, ...args], { encoding: "utf8", stdio: "pipe" });
}

const found = (() => {
  try {
    execFileSync("tmux", ["-V"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

interface CallResult {
  isError: boolean;
  code: string | null;
  text: string;
}

let counter = 0;

/**
 * The fixture last started, which writes `marker` first thing once it runs. Twice in some hundred
 * CI runs, a fixture drew nothing at all for 30 s (a blank pane, in tests that pass in 0.3 s
 * otherwise): one that has not written its marker within {@link startBoundMs} is started once
 * more, saying so with the state of the pane's processes. One that started and draws nothing
 * still fails.
 */
let launched: { marker: string; at: number; relaunch: () => void; retried: boolean } | undefined;
const startBoundMs = 10_000;

/** The pane's processes as `ps` shows them (state and where each waits), for a fixture that did not start. */
function paneProcesses(): string {
  try {
    const pid = tmux("list-panes", "-t", session, "-F", "#{pane_pid} #{pane_dead}").trim();
    const panePid = pid.split(" ")[0] ?? "";
    const ps = execFileSync("ps", ["-o", "pid,stat,wchan:32,args", "-p", panePid, "--ppid", panePid], {
      encoding: "utf8",
    });
    return `pane ${pid}\n${ps}`;
  } catch (error) {
    return `(could not look: ${String(error)})`;
  }
}

/**
 * Starts the fixture in a fresh tmux session; returns where its results will be written. `inShell`:
 * typed at an interactive shell (job control, so Ctrl+Z stops it and `fg` brings it back; line
 * editing off, so the shell itself never turns on bracketed paste mode).
 */
function start(scenario: object, stdoutTo?: string, columns = 220, inShell = false, rows = 60): string {
  const resultFile = join(scratch, `result-${++counter}.json`);
  const marker = join(scratch, `started-${counter}`);
  socket = join(scratch, `tmux-${counter}.sock`);
  const command =
    [process.execPath, fixture, JSON.stringify(scenario), resultFile, marker]
      .map((part) => `'${part.replace(/'/g, `'\\''`)}'`)
      .join(" ") + (stdoutTo === undefined ? "" : ` > '${stdoutTo}'`);
  const size = ["-x", String(columns), "-y", String(rows)];
  const launch = () => {
    if (!inShell) {
      tmux("new-session", "-d", "-s", session, ...size, command);
      return;
    }
    tmux("new-session", "-d", "-s", session, ...size, "env PS1='$ ' bash --norc --noprofile --noediting -i");
    type(command);
  };
  launch();
  launched = {
    marker,
    at: Date.now(),
    retried: false,
    relaunch: () => {
      try {
        tmux("kill-server");
      } catch {
        // No server left to kill.
      }
      launch();
    },
  };
  return resultFile;
}

function pane(): string {
  return tmux("capture-pane", "-p", "-J", "-t", session, "-S", "-2000");
}

async function until<T>(what: string, check: () => T | undefined, timeoutMs = 30_000): Promise<T> {
  let deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    const fixture = launched;
    if (
      fixture &&
      !fixture.retried &&
      !existsSync(fixture.marker) &&
      Date.now() - fixture.at > startBoundMs
    ) {
      console.warn(
        `the fixture did not start within ${startBoundMs} ms; starting it once more. ${paneProcesses()}`,
      );
      fixture.retried = true;
      fixture.relaunch();
      fixture.at = Date.now();
      deadline = Date.now() + timeoutMs;
      continue;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the pane shows:\n${pane()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function paneShows(text: string): Promise<string> {
  return until(`the pane to show ${JSON.stringify(text)}`, () => {
    const shown = pane();
    return shown.includes(text) ? shown : undefined;
  });
}

/** The card is drawn and its prompt is up: what is typed now is read as the reply. */
function cardReady(count = 1): Promise<string> {
  return until(`card ${count} with its prompt`, () => {
    const shown = pane();
    // The last line of the card, folded or not on a narrow terminal, then the prompt.
    const ready = shown.match(/(until\s+you\s+answer\.|counts\s+as\s+no\s+answer\.)\n>/g)?.length ?? 0;
    return ready >= count ? shown : undefined;
  });
}

function results(file: string): Promise<CallResult[]> {
  return until(`results in ${file}`, () =>
    existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as CallResult[]) : undefined,
  );
}

function type(text: string): void {
  tmux("send-keys", "-t", session, "-l", text);
  tmux("send-keys", "-t", session, "Enter");
}

/** Everything the program writes to the terminal from now on, read back by the returned function. */
function recordBytes(name: string): () => string {
  const bytes = join(scratch, name);
  writeFileSync(bytes, "");
  tmux("pipe-pane", "-o", "-t", session, `cat >> '${bytes}'`);
  return () => readFileSync(bytes, "utf8");
}

/** The pid the fixture wrote to `pidFile` once it started. */
function fixturePid(pidFile: string): Promise<number> {
  return until("the fixture's pid", () =>
    existsSync(pidFile) ? Number(readFileSync(pidFile, "utf8")) : undefined,
  );
}

/**
 * What was written up to the shell's "Stopped", checked to leave the terminal out of paste mode.
 * The pane shows the shell's word first; what the program wrote before it may still be on its way.
 */
async function writtenUntilStopped(written: () => string): Promise<string> {
  await paneShows("Stopped");
  const stopped = await until("what was written up to the stop", () => {
    const text = written();
    return text.includes("Stopped") ? text : undefined;
  });
  expect(stopped).toContain("\u001b[?2004l");
  expect(stopped.lastIndexOf("\u001b[?2004l")).toBeGreaterThan(stopped.lastIndexOf("\u001b[?2004h"));
  return stopped;
}

/** After `fg`: paste mode on again and the whole card drawn anew with the typed line "2: a no". */
async function drawnAgainAfterFg(written: () => string, stopped: string): Promise<void> {
  type("fg");
  const again = await until("paste mode on again and the card drawn anew", () => {
    const after = written().slice(stopped.length);
    return after.includes("\u001b[?2004h") && /-- Question[^]*> 2: a no/.test(after) ? after : undefined;
  });
  expect(again).toContain("Which database should the new service use?");
}

/** The pane's terminal modes that raw mode turns off (key by key, no echo, Ctrl+C a key), as they are now. */
function rawModes(): string[] {
  const tty = tmux("display-message", "-p", "-t", session, "#{pane_tty}").trim();
  const modes = execFileSync("stty", ["-F", tty, "-a"], { encoding: "utf8" }).split(/[\s;]+/);
  return ["icanon", "echo", "isig"].map((mode) => (modes.includes(`-${mode}`) ? `-${mode}` : mode));
}

const question = {
  question: "Which database should the new service use?",
  context: "The migration scripts depend on it.",
  options: [
    { label: "Postgres", description: "what production runs" },
    { label: "SQLite" },
    { label: "MySQL" },
  ],
};

/** A question of 33 lines, none wider than 110 columns: taller than a 15-row terminal. */
const tallQuestion = {
  question: "Which region should the replica run in?",
  options: Array.from({ length: 12 }, (_, index) => ({
    label: `region-${String(index + 1).padStart(2, "0")}`,
    description: `datacentre ${index + 1}`,
  })),
  allow_free_text: true,
};

beforeAll(() => {
  if (found && !existsSync(built))
    throw new Error(`${built} is missing: run 'pnpm --filter @tools/ask run build' first`);
});

afterEach(() => {
  launched = undefined;
  if (socket === "") return;
  try {
    tmux("kill-server");
  } catch {
    // No server left to kill.
  }
  socket = "";
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("TerminalQuestionPort in tmux", () => {
  it("finds tmux (required with CI=true)", () => {
    if (!found) console.warn("tmux not found: the terminal-port tests are skipped");
    expect(found || !ci).toBe(true);
  });

  it.skipIf(!found && !ci)(
    "draws the numbered card, explains a bad reply, then records the answer",
    async () => {
      const file = start({ args: { ...question, allow_free_text: true } });
      const shown = await cardReady();
      expect(shown).toContain("No time limit");
      expect(shown).toContain(
        "Which database should the new service use?\n  The migration scripts depend on it.\n",
      );
      expect(shown).toContain("  1. Postgres\n     what production runs\n  2. SQLite\n  3. MySQL\n");
      expect(shown).toContain("  0. Decline to answer");
      type("1,3");
      await paneShows("! This question takes one choice, not 2");
      type("2: only in tests");
      const [result] = await results(file);
      expect(result).toEqual({
        isError: false,
        code: null,
        text: 'The operator answered.\nChosen option: "SQLite"\nTheir note: "only in tests"',
      });
      expect(await paneShows("SCENARIO DONE")).toContain('-> answered: SQLite, "only in tests"');
    },
  );

  it.skipIf(!found && !ci)("declines with 0", async () => {
    const file = start({ args: question });
    expect(await cardReady()).toContain("Reply with one number (1-3).");
    type("0");
    const [result] = await results(file);
    expect(result?.isError).toBe(false);
    expect(result?.text).toMatch(/^The operator declined to answer\. This is not an answer\. Carry on/);
    expect(pane()).toContain("-> declined");
  });

  it.skipIf(!found && !ci)("declines with Ctrl+C", async () => {
    const file = start({ args: question });
    expect(await cardReady()).toContain("Reply with one number (1-3).");
    tmux("send-keys", "-t", session, "C-c");
    const [result] = await results(file);
    expect(result?.isError).toBe(false);
    expect(result?.text).toContain('The operator declined to answer ("dismissed with Ctrl+C")');
  });

  it.skipIf(!found && !ci)(
    "says Ctrl+D ended the card, not that the terminal closed: the next card is shown and answered",
    async () => {
      const file = start({ args: question, calls: 2 });
      await cardReady();
      tmux("send-keys", "-t", session, "C-d");
      await cardReady(2);
      type("1");
      const [pressed, next] = await results(file);
      expect(pressed?.code).toBe("ASK_NO_HUMAN");
      // Before: "(the terminal closed before an answer)", with the terminal still there.
      expect(pressed?.text).toMatch(
        /^The question was shown, but the operator's channel closed before an answer \(the input was ended with Ctrl\+D at the card\)\./,
      );
      expect(pane()).toContain("(no answer recorded: the input was ended with Ctrl+D at the card)");
      expect(next?.text).toBe('The operator answered.\nChosen option: "Postgres"');
    },
  );

  it.skipIf(!found && !ci)(
    "takes the first line of a multi-line paste and says the rest went nowhere",
    async () => {
      const file = start({ args: { ...question, allow_free_text: true } });
      await cardReady();
      // A paste as a terminal delivers it: one read, lines ended by carriage returns, the last one
      // not yet entered.
      tmux("set-buffer", "-b", "paste", "2: first line of a note\nsecond line\nthird");
      tmux("paste-buffer", "-b", "paste", "-t", session);
      const [result] = await results(file);
      expect(result?.text).toBe(
        'The operator answered.\nChosen option: "SQLite"\nTheir note: "first line of a note"',
      );
      expect(await paneShows("SCENARIO DONE")).toContain(
        '-> answered: SQLite, "first line of a note"\n  (2 more lines pasted after the reply went nowhere: a reply is one line)\n',
      );
    },
  );

  it.skipIf(!found && !ci)(
    "folds the card at spaces on a narrow terminal, so no word is broken",
    async () => {
      const file = start({ args: { ...question, allow_free_text: true } }, undefined, 40);
      await cardReady();
      // As the terminal shows it, its own line breaks kept (capture-pane without -J).
      const rows = tmux("capture-pane", "-p", "-t", session, "-S", "-2000").split("\n");
      const card = rows.slice(rows.findIndex((row) => row.startsWith("-- Question")));
      expect(card.slice(0, 3)).toEqual([
        `-- Question ${"-".repeat(28)}`,
        "Which database should the new service",
        "use?",
      ]);
      expect(card).toContain("  0. Decline to answer (the agent");
      expect(card).toContain("     carries on with a stated");
      // A refused reply's note too: folded at spaces, its rows under its indentation.
      type("1,3");
      await paneShows("takes one choice");
      const below = tmux("capture-pane", "-p", "-t", session, "-S", "-2000").split("\n");
      const refused = below.lastIndexOf("> 1,3");
      // Before: as the terminal wrapped it at the 40th column, "2: type…" and " answer, or 0…" at
      // the rows' starts.
      expect(below.slice(refused + 1, refused + 5)).toEqual([
        "  ! This question takes one choice, not",
        "  2: type a number from 1 to 3 or your",
        "  own answer, or 0 to decline.",
        ">",
      ]);
      type("2");
      const [result] = await results(file);
      expect(result?.text).toBe('The operator answered.\nChosen option: "SQLite"');
    },
  );

  it.skipIf(!found && !ci)("multi-selects with 1,3", async () => {
    const file = start({ args: { ...question, multi_select: true } });
    expect(await cardReady()).toContain('several separated by commas ("1,3")');
    type("1,3");
    const [result] = await results(file);
    expect(result?.text).toBe('The operator answered.\nChosen options: "Postgres", "MySQL"');
  });

  it.skipIf(!found && !ci)(
    "times out with nobody typing, and says so on the card and in the result",
    async () => {
      const file = start({ args: question, timeoutMs: 1_500 });
      expect(await cardReady()).toContain("Waiting up to 2 s; after that it counts as no answer.");
      const [result] = await results(file);
      expect(result?.isError).toBe(true);
      expect(result?.code).toBe("ASK_TIMED_OUT");
      expect(result?.text).toMatch(
        /^No answer within 2 s: the operator may be away\. This is not an answer\./,
      );
      expect(await paneShows("SCENARIO DONE")).toContain(
        "(no answer recorded: timed out after 2 s with no answer)",
      );
    },
  );

  it.skipIf(!found && !ci)(
    "writes the no-answer note on a line of its own, after the line being typed, never over it",
    async () => {
      // 10 s: the keys below must reach the card before it times out, also on a loaded machine.
      const file = start({ args: { ...question, allow_free_text: true }, timeoutMs: 10_000 });
      await cardReady();
      tmux("send-keys", "-t", session, "-l", "2: a no");
      await paneShows("> 2: a no");
      // The cursor moved back into the line: the note must still not be written over it.
      tmux("send-keys", "-t", session, "Left", "Left", "Left");
      const [result] = await results(file);
      expect(result?.code).toBe("ASK_TIMED_OUT");
      expect(await paneShows("SCENARIO DONE")).toMatch(
        /\n> 2: a no\n {2}\(no answer recorded: timed out after 10 s with no answer\)\n/,
      );
    },
  );

  it.skipIf(!found && !ci)(
    "draws the permission card: allow once asks again, 'for the run' remembers",
    async () => {
      const file = start({ mode: "approve", calls: 3 });
      const shown = await cardReady();
      expect(shown).toContain("Allow ast_edit: stage 12 replacements in 2 files?");
      expect(shown).toContain('  Arguments: files=["a.ts","b.ts"]');
      expect(shown).toContain("  1. Allow once\n");
      expect(shown).toContain("  2. Allow this tool for the run\n");
      expect(shown).toContain("  3. Deny\n");
      type("1");
      await cardReady(2);
      type("2");
      const calls = await results(file);
      expect(calls.map((call) => call.text)).toEqual(["staged", "staged", "staged"]);
      expect(pane().split("-- Permission").length - 1).toBe(2);
    },
  );

  it.skipIf(!found && !ci)("denies with 3", async () => {
    const file = start({ mode: "approve", calls: 1 });
    expect(await cardReady()).toContain("Allow ast_edit: stage 12 replacements in 2 files?");
    type("3");
    const [result] = await results(file);
    expect(result?.code).toBe("APPROVAL_DENIED");
    expect(result?.text).toContain("the operator chose Deny");
  });
});

describe("TerminalQuestionPort: resize and bracketed paste", () => {
  /** The visible screen as the terminal shows it, its own line breaks kept (no -J, no scrollback). */
  const screen = () => tmux("capture-pane", "-p", "-t", session).split("\n");
  // The card drawn again and, below it, the line being typed (the redraw may be read in parts).
  const screenWith = (row: string) =>
    until(`the screen to show the row ${JSON.stringify(row)} and the typed line`, () => {
      const rows = screen();
      return rows.includes(row) && rows.indexOf("> 2: a note") > rows.indexOf(row) ? rows : undefined;
    });

  it.skipIf(!found && !ci)(
    "draws the card again for the new width on a resize: folded at spaces, one copy, the typed line kept",
    async () => {
      const file = start({ args: { ...question, allow_free_text: true } }, undefined, 100);
      await cardReady();
      tmux("send-keys", "-t", session, "-l", "2: a note");
      await paneShows("> 2: a note");
      tmux("resize-window", "-t", session, "-x", "40");
      // Drawn for 100 columns, the terminal would wrap "(the agent carries on…" mid-word.
      const narrow = await screenWith("     carries on with a stated");
      expect(narrow.filter((row) => row.startsWith("-- Question"))).toEqual([
        `-- Question ${"-".repeat(28)}`,
      ]);
      const card = narrow.slice(narrow.findIndex((row) => row.startsWith("-- Question")));
      expect(card.slice(1, 3)).toEqual(["Which database should the new service", "use?"]);
      expect(Math.max(...narrow.map((row) => row.length))).toBeLessThanOrEqual(40);
      expect(narrow).toContain("> 2: a note");
      tmux("resize-window", "-t", session, "-x", "120");
      const wide = await screenWith(
        '  0. Decline to answer (the agent carries on with a stated assumption); "0: reason" says why',
      );
      expect(wide.filter((row) => row.startsWith("-- Question"))).toHaveLength(1);
      expect(wide).toContain("Which database should the new service use?");
      expect(wide).not.toContain("     carries on with a stated");
      expect(wide).toContain("> 2: a note");
      tmux("send-keys", "-t", session, "Enter");
      const [result] = await results(file);
      expect(result?.text).toBe('The operator answered.\nChosen option: "SQLite"\nTheir note: "a note"');
    },
  );

  it.skipIf(!found && !ci)(
    "draws a card taller than the terminal again from its end on a resize, leaving no copy in the scrollback",
    async () => {
      // 33 lines on a 15-row terminal, none wider than 110 columns (so the terminal rewraps none).
      const file = start({ args: tallQuestion }, undefined, 110, false, 15);
      await cardReady();
      tmux("send-keys", "-t", session, "-l", "2: a note");
      await paneShows("> 2: a note");
      const history = () => tmux("capture-pane", "-p", "-J", "-t", session, "-S", "-");
      const written = recordBytes("tall.txt");
      const redraws = () => written().split("lines above not shown").length - 1;
      for (const [index, columns] of [130, 150, 120].entries()) {
        tmux("resize-window", "-t", session, "-x", String(columns));
        // This resize's own redraw (the screen alone would still show the one before), then the prompt under it.
        await until(`the card drawn again for ${columns} columns`, () => {
          const rows = screen();
          const marker = rows.findIndex((row) => row.startsWith("… ("));
          return redraws() === index + 1 && marker >= 0 && rows.indexOf("> 2: a note") > marker
            ? true
            : undefined;
        });
      }
      const rows = screen();
      // The card's end and the prompt fit the screen, under a row saying what is not drawn again.
      expect(rows.find((row) => row.startsWith("… ("))).toMatch(
        /^… \(\d+ lines above not shown: make the window taller to see the whole card\)$/,
      );
      expect(rows).toContain("No time limit: the question waits until you answer.");
      expect(rows.filter((row) => row === "> 2: a note")).toHaveLength(1);
      // The top of the card is in the scrollback once, from when it was first drawn: not a copy per redraw.
      const all = history();
      expect(all.split("-- Question").length - 1).toBe(1);
      expect(all.split("Which region should the replica run in?").length - 1).toBe(1);
      expect(all.split("  12. region-12").length - 1).toBe(1);
      tmux("send-keys", "-t", session, "Enter");
      const [result] = await results(file);
      expect(result?.text).toBe('The operator answered.\nChosen option: "region-02"\nTheir note: "a note"');
    },
  );

  it.skipIf(!found && !ci)(
    "clears the rows of a typed line below the cursor on a resize: a wrapped note drawn over them keeps none of it",
    async () => {
      const file = start({ args: question }, undefined, 100);
      await cardReady();
      // A refused reply: its note is wider than 60 columns, so the terminal wraps it after the resize.
      type(`9 ${"Q".repeat(150)}`);
      await paneShows("is not an option");
      // A line over three rows, the cursor moved back to its start (its first row).
      tmux("send-keys", "-t", session, "-l", "w".repeat(240));
      await until("the typed line", () => (/w+$/.exec(pane().trimEnd())?.[0].length ?? 0) >= 40 || undefined);
      tmux("send-keys", "-t", session, "Home");
      await until("the cursor at the line's start", () =>
        tmux("display-message", "-p", "-t", session, "#{cursor_x}").trim() === "2" ? true : undefined,
      );
      tmux("resize-window", "-t", session, "-x", "60");
      const rows = await until("the card drawn again for 60 columns, the typed line under it", () => {
        const shown = screen();
        const folded = shown.indexOf('     assumption); "0: reason" says why');
        const typed = shown.findIndex((row) => row.startsWith("> w"));
        return folded >= 0 && typed > folded ? shown : undefined;
      });
      const ends = rows.filter((row) => row.includes("or 0 to decline."));
      expect(ends).toHaveLength(1);
      expect(ends[0]).toMatch(/or 0 to decline\.$/);
      // Ctrl+E, Ctrl+U: the line emptied before the answer.
      tmux("send-keys", "-t", session, "C-e", "C-u");
      type("2");
      const [result] = await results(file);
      expect(result?.text).toBe('The operator answered.\nChosen option: "SQLite"');
    },
  );

  it.skipIf(!found && !ci)(
    "reads a multi-line paste into a free-text answer as one line: nothing is submitted until Enter",
    async () => {
      const file = start({ args: { ...question, allow_free_text: true } });
      await cardReady();
      tmux("set-buffer", "-b", "paste", "2: first line of a note\nsecond line\n");
      // -p: with the paste markers, as a terminal sends a paste once the program asks for them.
      tmux("paste-buffer", "-p", "-b", "paste", "-t", session);
      await paneShows("> 2: first line of a note second line");
      tmux("send-keys", "-t", session, "-l", " (pasted)");
      tmux("send-keys", "-t", session, "Enter");
      const [result] = await results(file);
      expect(result?.text).toBe(
        'The operator answered.\nChosen option: "SQLite"\nTheir note: "first line of a note second line (pasted)"',
      );
      const after = await paneShows("SCENARIO DONE");
      expect(after).not.toContain("went nowhere");
      expect(after).not.toMatch(/20[01]~/);
    },
  );

  it.skipIf(!found && !ci)("reads a paste into a choice list as text: '1⏎3' picks both", async () => {
    const file = start({ args: { ...question, multi_select: true } });
    await cardReady();
    tmux("set-buffer", "-b", "paste", "1\n3");
    tmux("paste-buffer", "-p", "-b", "paste", "-t", session);
    await paneShows("> 1 3");
    tmux("send-keys", "-t", session, "Enter");
    const [result] = await results(file);
    expect(result?.text).toBe('The operator answered.\nChosen options: "Postgres", "MySQL"');
  });

  it.skipIf(!found && !ci)(
    "ends a paste whose end marker never comes once its burst is over: Enter then submits",
    async () => {
      const file = start({ args: { ...question, allow_free_text: true } });
      await cardReady();
      // As a terminal that sends a paste's start marker (ESC [ 200 ~) but never its end marker.
      tmux("send-keys", "-t", session, "-H", "1b", "5b", "32", "30", "30", "7e");
      tmux("send-keys", "-t", session, "-l", "2: a note");
      await paneShows("> 2: a note");
      // The human presses Enter after the paste: typed, so it submits (it was ignored for good).
      await new Promise((resolve) => setTimeout(resolve, pasteGapMs + 200));
      tmux("send-keys", "-t", session, "Enter");
      const [result] = await results(file);
      expect(result?.text).toBe('The operator answered.\nChosen option: "SQLite"\nTheir note: "a note"');
    },
  );

  it.skipIf(!found && !ci)("turns bracketed paste mode off again when the card times out", async () => {
    const go = join(scratch, "go-paste");
    const file = start({ args: question, timeoutMs: 1_500, waitFor: go });
    await paneShows("READY");
    // Everything the program writes to the terminal, from before the card is drawn.
    const output = recordBytes("bytes.txt");
    writeFileSync(go, "");
    const [result] = await results(file);
    expect(result?.code).toBe("ASK_TIMED_OUT");
    const written = await until("the program's output", () => {
      const text = output();
      return text.includes("SCENARIO DONE") ? text : undefined;
    });
    expect(written.split("\u001b[?2004h")).toHaveLength(2);
    expect(written.split("\u001b[?2004l")).toHaveLength(2);
    expect(written.indexOf("\u001b[?2004l")).toBeGreaterThan(written.indexOf("\u001b[?2004h"));
    expect(written.indexOf("\u001b[?2004l")).toBeLessThan(written.indexOf("(no answer recorded: timed out"));
  });
});

describe("TerminalQuestionPort: the process stopped or killed while a card is up", () => {
  it.skipIf(!found && !ci).each([
    ["SIGTERM", "Terminated"],
    ["SIGHUP", "Hangup"],
  ] as const)(
    "turns bracketed paste mode off, says the card was cut off after the typed line, then dies by %s as it would without the card",
    async (signal, shellSays) => {
      // At a shell, which reaps it and says how it ended (tmux does not always collect the status).
      const pidFile = join(scratch, `pid-${signal}`);
      start({ args: question, pidFile }, undefined, 220, true);
      await cardReady();
      const written = recordBytes(`killed-${signal}.txt`);
      // Cut off mid-line, the cursor moved back into what was typed.
      tmux("send-keys", "-t", session, "-l", "2: a no");
      await paneShows("> 2: a no");
      tmux("send-keys", "-t", session, "Left", "Left", "Left");
      await until("the cursor moved back", () =>
        tmux("display-message", "-p", "-t", session, "#{cursor_x}").trim() === "6" ? true : undefined,
      );
      const id = await fixturePid(pidFile);
      process.kill(id, signal);
      // The typed line left whole, then a line saying the question was cut off, then the shell's word.
      expect(await paneShows(shellSays)).toMatch(
        new RegExp(
          `\\n> 2: a no\\n {2}\\(no answer recorded: the process was ended by ${signal} before an answer\\)\\n(\\[\\d+\\]\\+ +)?${shellSays}`,
        ),
      );
      type('echo "status=$?"');
      // 128 + the signal's number: the shell saw it killed by that signal.
      await paneShows(`status=${128 + constants.signals[signal]}`);
      // What the shell got back: a terminal out of paste mode.
      const bytes = written();
      expect(bytes).toContain("\u001b[?2004l");
      expect(bytes.lastIndexOf("\u001b[?2004l")).toBeGreaterThan(bytes.lastIndexOf("\u001b[?2004h"));
      expect(bytes.indexOf("\u001b[?2004l")).toBeLessThan(bytes.indexOf(shellSays));
    },
  );

  it.skipIf(!found && !ci)(
    "folds the note on a narrow terminal at spaces, as the card is: what stays on the screen breaks no word",
    async () => {
      const pidFile = join(scratch, "pid-narrow");
      start({ args: question, pidFile }, undefined, 40, true);
      await cardReady();
      tmux("send-keys", "-t", session, "-l", "2: a no");
      await paneShows("> 2: a no");
      process.kill(await fixturePid(pidFile), "SIGTERM");
      await paneShows("Terminated");
      // As the terminal shows it, its own line breaks kept (capture-pane without -J).
      const rows = tmux("capture-pane", "-p", "-t", session, "-S", "-2000").split("\n");
      const typed = rows.lastIndexOf("> 2: a no");
      // Before: "  (no answer recorded: the process was e" / "nded by SIGTERM before an answer)".
      expect(rows.slice(typed, typed + 3)).toEqual([
        "> 2: a no",
        "  (no answer recorded: the process was",
        "  ended by SIGTERM before an answer)",
      ]);
      expect(rows[typed + 3]).toMatch(/^(\[\d+\]\+ +)?Terminated/);
    },
  );

  it.skipIf(!found && !ci)(
    "Ctrl+Z leaves the shell a terminal out of paste mode; fg draws the card again, the typed line kept",
    async () => {
      const file = start({ args: { ...question, allow_free_text: true } }, undefined, 220, true);
      await cardReady();
      const written = recordBytes("stopped.txt");
      tmux("send-keys", "-t", session, "-l", "2: a no");
      await paneShows("> 2: a no");
      tmux("send-keys", "-t", session, "C-z");
      const stopped = await writtenUntilStopped(written);
      await drawnAgainAfterFg(written, stopped);
      type("te");
      const [result] = await results(file);
      expect(result?.text).toBe('The operator answered.\nChosen option: "SQLite"\nTheir note: "a note"');
    },
  );
});

describe("TerminalQuestionPort: the card's time while the process is stopped", () => {
  it.skipIf(!found && !ci)(
    "does not count the time stopped: fg after longer than the card's timeout draws it again, and it is answered",
    async () => {
      const file = start(
        // Long enough that the steps before the stop and after fg fit in it on a loaded machine.
        { args: { ...question, allow_free_text: true }, timeoutMs: 8_000 },
        undefined,
        220,
        true,
      );
      await cardReady();
      const written = recordBytes("stopped-long.txt");
      tmux("send-keys", "-t", session, "-l", "2: a no");
      await paneShows("> 2: a no");
      tmux("send-keys", "-t", session, "C-z");
      const stopped = await writtenUntilStopped(written);
      // Stopped longer than the card's whole time: the shell has the terminal, the card is not shown.
      await new Promise((resolve) => setTimeout(resolve, 9_000));
      // Before: fg ended the card at once, "(no answer recorded: timed out after 8 s with no answer)".
      await drawnAgainAfterFg(written, stopped);
      type("te");
      const [result] = await results(file);
      expect(result?.text).toBe('The operator answered.\nChosen option: "SQLite"\nTheir note: "a note"');
    },
  );
});

/**
 * Starts the fixture in a fresh tmux session under a host that takes the SIGHUP (the session's
 * leader) and records how it ended, its stderr and the card's results in files named for `name`.
 */
function startUnderSighupHost(
  name: string,
  scenario: object,
): { stderrFile: string; resultFile: string; ended: () => Promise<object> } {
  const exitFile = join(scratch, `${name}-exit.json`);
  const stderrFile = join(scratch, `${name}-stderr.txt`);
  const resultFile = join(scratch, `${name}-result.json`);
  socket = join(scratch, `tmux-${++counter}.sock`);
  const command = [
    process.execPath,
    sighupParent,
    exitFile,
    stderrFile,
    fixture,
    JSON.stringify(scenario),
    resultFile,
  ]
    .map((part) => `'${part.replace(/'/g, `'\\''`)}'`)
    .join(" ");
  tmux("new-session", "-d", "-s", session, "-x", "220", "-y", "60", command);
  return {
    stderrFile,
    resultFile,
    ended: () =>
      until("the card's process to end", () =>
        existsSync(exitFile) ? (JSON.parse(readFileSync(exitFile, "utf8")) as object) : undefined,
      ),
  };
}

describe("TerminalQuestionPort: the terminal goes away while a card is up", () => {
  it.skipIf(!found && !ci)(
    "ends the card as the terminal closing, with no unhandled error, under a host that takes the SIGHUP",
    async () => {
      // The tmux server killed, as an ssh session dropped: the host (the session's leader) gets the
      // SIGHUP and carries on; the card's process sees only its terminal fail (end of input, and EIO
      // on setting raw mode back and on every write).
      const {
        stderrFile,
        resultFile,
        ended: hostEnded,
      } = startUnderSighupHost("gone", {
        args: question,
        terminalGone: true,
      });
      await cardReady();
      tmux("kill-server");
      const ended = await hostEnded();
      const stderr = readFileSync(stderrFile, "utf8");
      // Before: "Unhandled 'error' event … setRawMode EIO" from readline's own close, then a SIGSEGV.
      expect(stderr).toBe("");
      expect(ended).toEqual({ code: 0, signal: null });
      const [result] = await results(resultFile);
      expect(result?.code).toBe("ASK_NO_HUMAN");
      expect(result?.text).toMatch(
        /^The question was shown, but the operator's channel closed before an answer \(the terminal closed before an answer\)\./,
      );
    },
  );
});

describe("TerminalQuestionPort: the terminal already gone when a card opens", () => {
  it.skipIf(!found && !ci)(
    "ends the card as the terminal closed, never shown, with no unhandled error, and the host carries on",
    async () => {
      // The tmux server killed while the program waits to ask (the host, the session's leader, takes
      // the SIGHUP): the card then opens on a hung-up terminal, where setting raw mode, as readline
      // does when it is made, fails with EIO, and so does every write.
      const go = join(scratch, "go-gone");
      const {
        stderrFile,
        resultFile,
        ended: hostEnded,
      } = startUnderSighupHost("gone-before", {
        args: question,
        terminalGone: true,
        waitFor: go,
        calls: 2,
        hostUsesTerminal: true,
      });
      await paneShows("READY");
      tmux("kill-server");
      writeFileSync(go, "");
      const ended = await hostEnded();
      // Before: the card failed as the port failing (ASK_PORT_FAILED, "setRawMode EIO"), the
      // half-made readline left listening on the terminal.
      expect(readFileSync(stderrFile, "utf8")).toBe("");
      expect(ended).toEqual({ code: 0, signal: null });
      const [one, two, host] = (await results(resultFile)) as [CallResult, CallResult, object];
      for (const call of [one, two])
        expect(call).toMatchObject({
          code: "ASK_NO_HUMAN",
          text: expect.stringMatching(
            /^No human is attached to answer \(the terminal closed before the card was shown\), so the question was not asked\. Carry on/,
          ),
        });
      // The host, going on with its terminal, meets only its own error: nothing of the card listens.
      expect(host).toEqual({ host: ["handled: setRawMode EIO"], keypressListeners: 0 });
    },
  );
});

describe("TerminalQuestionPort: a card taller than the terminal, stopped and brought back", () => {
  it.skipIf(!found && !ci)(
    "fg draws it again from its end, as a resize does: no copy of its top in the scrollback",
    async () => {
      // 33 lines on a 15-row terminal, at a shell (job control).
      const file = start({ args: tallQuestion }, undefined, 110, true, 15);
      await cardReady();
      const written = recordBytes("tall-fg.txt");
      tmux("send-keys", "-t", session, "-l", "2: a no");
      await paneShows("> 2: a no");
      tmux("send-keys", "-t", session, "C-z");
      const stopped = await writtenUntilStopped(written);
      type("fg");
      await until("paste mode on again and the card's end drawn anew with the typed line", () => {
        const after = written().slice(stopped.length);
        return after.includes("\u001b[?2004h") && /lines above not shown[^]*> 2: a no/.test(after)
          ? true
          : undefined;
      });
      const history = tmux("capture-pane", "-p", "-J", "-t", session, "-S", "-");
      // The card's top, in the scrollback once: from when it was first drawn.
      expect(history.split("-- Question").length - 1).toBe(1);
      expect(history.split("  1. region-01").length - 1).toBe(1);
      type("te");
      const [result] = await results(file);
      expect(result?.text).toBe('The operator answered.\nChosen option: "region-02"\nTheir note: "a note"');
    },
  );
});

describe("TerminalQuestionPort: stopped from outside", () => {
  it.skipIf(!found && !ci)(
    "kill -TSTP gives the shell its terminal back (paste and raw mode off); fg draws the card again",
    async () => {
      const pidFile = join(scratch, "pid-SIGTSTP");
      const file = start({ args: { ...question, allow_free_text: true }, pidFile }, undefined, 220, true);
      await cardReady();
      const written = recordBytes("tstp.txt");
      tmux("send-keys", "-t", session, "-l", "2: a no");
      await paneShows("> 2: a no");
      const id = await fixturePid(pidFile);
      process.kill(id, "SIGTSTP");
      const stopped = await writtenUntilStopped(written);
      // The shell's terminal reads lines and echoes them again.
      type(
        `echo "modes: $(stty -a | tr ' ;' '\\n\\n' | grep -x -e -icanon -e icanon -e -echo -e echo | tr '\\n' ' ')end"`,
      );
      const modes = await until("the terminal's modes", () => /modes: [-a-z ]*end/.exec(pane())?.[0]);
      expect(modes).toBe("modes: icanon echo end");
      await drawnAgainAfterFg(written, stopped);
      type("te");
      const [result] = await results(file);
      expect(result?.text).toBe('The operator answered.\nChosen option: "SQLite"\nTheir note: "a note"');
    },
  );
});

describe("TerminalQuestionPort: Ctrl+Z with a host that listens for SIGTSTP", () => {
  it.skipIf(!found && !ci)(
    "a host that does not stop: the card is set up again, so Ctrl+C still declines",
    async () => {
      const file = start({ args: { ...question, allow_free_text: true }, hostTstp: "ignore" });
      await cardReady();
      const written = recordBytes("host-ignores.txt");
      tmux("send-keys", "-t", session, "-l", "2: a no");
      await paneShows("> 2: a no");
      tmux("send-keys", "-t", session, "C-z");
      await until("paste mode off for the stop, then the card drawn anew", () => {
        const after = written();
        const off = after.lastIndexOf("\u001b[?2004l");
        return off >= 0 && /-- Question[^]*> 2: a no/.test(after.slice(off)) ? true : undefined;
      });
      // Key by key without echo again: a cooked terminal would send Ctrl+C as a SIGINT, killing the process.
      const tty = tmux("display-message", "-p", "-t", session, "#{pane_tty}").trim();
      const modes = execFileSync("stty", ["-F", tty, "-a"], { encoding: "utf8" }).split(/[\s;]+/);
      expect(modes).toContain("-icanon");
      expect(modes).toContain("-echo");
      expect(modes).toContain("-isig");
      // Paste mode waits for the next key, so a paste before it comes unmarked: read as a paste all
      // the same, its line break submits nothing.
      expect(written().lastIndexOf("\u001b[?2004h")).toBeLessThan(written().lastIndexOf("\u001b[?2004l"));
      tmux("set-buffer", "-b", "paste", "te\nmore");
      tmux("paste-buffer", "-b", "paste", "-t", session);
      await paneShows("> 2: a note more");
      await until("paste mode on again", () =>
        written().lastIndexOf("\u001b[?2004h") > written().lastIndexOf("\u001b[?2004l") ? true : undefined,
      );
      tmux("send-keys", "-t", session, "C-c");
      const [result] = await results(file);
      expect(result?.text).toContain('The operator declined to answer ("dismissed with Ctrl+C")');
    },
  );

  it.skipIf(!found && !ci)(
    "a host that does not stop: a paste longer than one read before paste mode is on again submits nothing",
    async () => {
      const file = start({ args: { ...question, allow_free_text: true }, hostTstp: "ignore" });
      await cardReady();
      const written = recordBytes("host-ignores-long-paste.txt");
      tmux("send-keys", "-t", session, "C-z");
      await until("paste mode off for the stop, then the card drawn anew", () => {
        const after = written();
        const off = after.lastIndexOf("\u001b[?2004l");
        return off >= 0 && /-- Question[^]*> /.test(after.slice(off)) ? true : undefined;
      });
      // 200 lines, 8 KiB: more than the terminal's input buffer, so the card reads it in several
      // reads, all sent unmarked (the terminal not yet back in paste mode).
      const lines = Array.from({ length: 200 }, (_, index) => `line ${index} of a pasted log`);
      tmux("set-buffer", "-b", "paste", lines.join("\n"));
      tmux("paste-buffer", "-p", "-b", "paste", "-t", session);
      await until("the whole paste on the prompt's line, the reply not submitted", () => {
        // Before: the paste's first read was read as a paste, and the next one's first line break
        // submitted the reply, cut off there.
        if (existsSync(file)) throw new Error(`submitted: ${readFileSync(file, "utf8").slice(0, 200)}`);
        return pane().includes("line 199 of a pasted log") ? true : undefined;
      });
      await until("paste mode on again", () =>
        written().lastIndexOf("\u001b[?2004h") > written().lastIndexOf("\u001b[?2004l") ? true : undefined,
      );
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(existsSync(file)).toBe(false);
      tmux("send-keys", "-t", session, "Enter");
      const [result] = await results(file);
      expect(result?.text).toBe(`The operator answered.\nTheir answer: "${lines.join(" ")}"`);
    },
  );

  it.skipIf(!found && !ci)(
    "a host that stops: the shell gets its terminal back, and fg draws the card again once",
    async () => {
      const file = start(
        { args: { ...question, allow_free_text: true }, hostTstp: "stop" },
        undefined,
        220,
        true,
      );
      await cardReady();
      const written = recordBytes("host-stops.txt");
      tmux("send-keys", "-t", session, "-l", "2: a no");
      await paneShows("> 2: a no");
      tmux("send-keys", "-t", session, "C-z");
      const stopped = await writtenUntilStopped(written);
      await drawnAgainAfterFg(written, stopped);
      type("te");
      const [result] = await results(file);
      expect(result?.text).toBe('The operator answered.\nChosen option: "SQLite"\nTheir note: "a note"');
      expect(written().slice(stopped.length).split("-- Question")).toHaveLength(2);
    },
  );

  it.skipIf(!found && !ci)(
    "a host that stops a moment after its listener has returned: the shell gets its terminal back, and fg sets the card up again",
    async () => {
      const file = start(
        { args: { ...question, allow_free_text: true }, hostTstp: "stop-later", hostStopAfterMs: 20 },
        undefined,
        220,
        true,
      );
      await cardReady();
      const written = recordBytes("host-stops-later.txt");
      tmux("send-keys", "-t", session, "-l", "2: a no");
      await paneShows("> 2: a no");
      tmux("send-keys", "-t", session, "C-z");
      // Stopped with paste mode off, as the shell needs it.
      const stopped = await writtenUntilStopped(written);
      await drawnAgainAfterFg(written, stopped);
      expect(rawModes()).toEqual(["-icanon", "-echo", "-isig"]);
      tmux("send-keys", "-t", session, "C-c");
      const [result] = await results(file);
      expect(result?.text).toContain('The operator declined to answer ("dismissed with Ctrl+C")');
    },
  );

  it.skipIf(!found && !ci)(
    "a host that stops long after its listener has returned, the card set up again meanwhile: fg sets it up and draws it again",
    async () => {
      const file = start(
        { args: { ...question, allow_free_text: true }, hostTstp: "stop-later", hostStopAfterMs: 1_500 },
        undefined,
        220,
        true,
      );
      await cardReady();
      const written = recordBytes("host-stops-much-later.txt");
      tmux("send-keys", "-t", session, "-l", "2: a no");
      await paneShows("> 2: a no");
      tmux("send-keys", "-t", session, "C-z");
      // Before: the card set up again 200 ms after the host's listener turned paste mode on, and the
      // shell got it: its pastes came wrapped in markers ("$'\E[200~echo': command not found").
      const stopped = await writtenUntilStopped(written);
      // The card drawn anew meanwhile, in raw mode, which the shell sets back for a stopped job.
      expect(stopped.slice(stopped.lastIndexOf("\u001b[?2004l"))).toMatch(/-- Question[^]*> 2: a no/);
      tmux("set-buffer", "-b", "paste", 'echo "pasted-$((6 * 7))"');
      tmux("paste-buffer", "-p", "-b", "paste", "-t", session);
      tmux("send-keys", "-t", session, "Enter");
      await paneShows("\npasted-42\n");
      // fg sets the card up and draws it anew, key by key.
      await drawnAgainAfterFg(written, stopped);
      expect(rawModes()).toEqual(["-icanon", "-echo", "-isig"]);
      tmux("send-keys", "-t", session, "C-c");
      const [result] = await results(file);
      expect(result?.text).toContain('The operator declined to answer ("dismissed with Ctrl+C")');
    },
  );
});

describe("TerminalQuestionPort: a stop the kernel drops", () => {
  it.skipIf(!found && !ci)(
    "kill -TSTP to a program tmux runs directly (an orphaned process group, never stopped) leaves the card working",
    async () => {
      const pidFile = join(scratch, "pid-orphaned");
      // Not at a shell: the session's own process, so the kernel drops a stop signal sent to it.
      const file = start({ args: { ...question, allow_free_text: true }, pidFile });
      await cardReady();
      const written = recordBytes("orphaned.txt");
      const id = await fixturePid(pidFile);
      process.kill(id, "SIGTSTP");
      // Paste mode turned off for the stop that never came, then on again with the card drawn anew.
      await until("paste mode on again and the card drawn anew", () => {
        const after = written();
        return after.lastIndexOf("\u001b[?2004h") > after.lastIndexOf("\u001b[?2004l") &&
          after.includes("\u001b[?2004l") &&
          /-- Question[^]*until you answer\.[^]*> /.test(after.slice(after.lastIndexOf("\u001b[?2004l")))
          ? true
          : undefined;
      });
      // The terminal still reads key by key without echo, as the card set it up.
      const tty = tmux("display-message", "-p", "-t", session, "#{pane_tty}").trim();
      const modes = execFileSync("stty", ["-F", tty, "-a"], { encoding: "utf8" }).split(/[\s;]+/);
      expect(modes).toContain("-icanon");
      expect(modes).toContain("-echo");
      // Line editing works: the cursor moved back, a letter put in.
      tmux("send-keys", "-t", session, "-l", "2: a nte");
      await paneShows("> 2: a nte");
      tmux("send-keys", "-t", session, "Left", "Left", "o");
      await paneShows("> 2: a note");
      tmux("send-keys", "-t", session, "Enter");
      const [result] = await results(file);
      expect(result?.text).toBe('The operator answered.\nChosen option: "SQLite"\nTheir note: "a note"');
      expect(pane()).not.toContain("^[[D");
    },
  );
});

describe("TerminalQuestionPort: a secret card (getpass)", () => {
  it.skipIf(!found && !ci)(
    "draws nothing of what is typed, still edits the line, and never shows the answer back",
    async () => {
      const file = start({ mode: "secret" });
      const shown = await until("the secret card's prompt", () => {
        const text = pane();
        return /not shown back\.\nNo time limit: the question waits until you answer\.\n>/.test(text)
          ? text
          : undefined;
      });
      expect(shown).toContain("(secret: what you type is hidden and never shown back)");
      // An empty line is refused without showing anything typed; then a secret edited with backspace.
      tmux("send-keys", "-t", session, "Enter");
      await paneShows("! Nothing was typed");
      tmux("send-keys", "-t", session, "-l", "hunter2-wrongX");
      tmux("send-keys", "-t", session, "BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace");
      tmux("send-keys", "-t", session, "-l", "!ok");
      tmux("send-keys", "-t", session, "Enter");
      const [result] = (await results(file)) as (CallResult & { received: string[] })[];
      expect(result?.received).toEqual(["hunter2-!ok"]);
      expect(result?.text).toBe(
        "The operator answered. Their answer is a secret: it went to the caller and is not shown here.",
      );
      const after = await paneShows("SCENARIO DONE");
      expect(after).toContain("-> answered (a secret, not shown)");
      for (const piece of ["hunter", "wrong", "!ok", "*"]) expect(after).not.toContain(piece);
    },
  );

  it.skipIf(!found && !ci)("declines with Ctrl+C, the secret typed so far dropped", async () => {
    const file = start({ mode: "secret" });
    await paneShows("No time limit: the question waits until you answer.\n>");
    tmux("send-keys", "-t", session, "-l", "half-typed");
    tmux("send-keys", "-t", session, "C-c");
    const [result] = (await results(file)) as (CallResult & { received: string[] })[];
    expect(result?.received).toEqual([]);
    expect(result?.text).toContain('The operator declined to answer ("dismissed with Ctrl+C")');
    expect(await paneShows("SCENARIO DONE")).not.toContain("half-typed");
  });
});

describe("TerminalQuestionPort: a secret typed at a terminal whose output is redirected", () => {
  it.skipIf(!found && !ci)("still stops the terminal's own echo", async () => {
    const drawn = join(scratch, "drawn.txt");
    const file = start({ mode: "secret", attached: true }, drawn);
    await until("the card in the redirected output", () =>
      existsSync(drawn) && readFileSync(drawn, "utf8").includes("until you answer.\n> ") ? true : undefined,
    );
    type("hunter2-typed");
    const [result] = (await results(file)) as (CallResult & { received: string[] })[];
    expect(result?.received).toEqual(["hunter2-typed"]);
    expect(pane()).not.toContain("hunter2");
    expect(readFileSync(drawn, "utf8")).not.toContain("hunter2");
  });
});

describe("TerminalQuestionPort type-ahead", () => {
  it.skipIf(!found && !ci)(
    "ignores what was typed before the card appeared: a stray 3 does not deny",
    async () => {
      const go = join(scratch, "go");
      const file = start({ mode: "approve", calls: 1, waitFor: go });
      await paneShows("READY");
      type("3");
      writeFileSync(go, "");
      await paneShows("(ignored what was typed before the card appeared)\n>");
      type("1");
      const [result] = await results(file);
      expect(result).toEqual({ isError: false, code: null, text: "staged" });
    },
  );
});

describe("TerminalQuestionPort under a host that reads its terminal itself", () => {
  it.skipIf(!found && !ci)(
    "leaves the terminal and the input as it found them: raw mode on and still read after the card",
    async () => {
      const file = start({ args: question, hostReads: true });
      await cardReady();
      type("2");
      await paneShows("HOST READS");
      tmux("send-keys", "-t", session, "-l", "h");
      const [answer, after] = (await results(file)) as unknown as [CallResult, { host: object }];
      expect(answer?.text).toBe('The operator answered.\nChosen option: "SQLite"');
      // Before: the card's readline set raw mode off and paused the input as it closed, so the
      // host's keys were echoed by the terminal and never reached it.
      expect(after.host).toEqual({ sttySame: true, isRaw: true, flowing: true, gotKeyAfterCard: true });
    },
  );
});

describe("TerminalQuestionPort without a terminal", () => {
  it("fails at once when stdin is not a TTY, never blocking", async () => {
    const file = join(scratch, "headless.json");
    const child = spawn(process.execPath, [fixture, JSON.stringify({ args: question }), file], {
      stdio: ["pipe", "pipe", "inherit"],
    });
    try {
      await until("the headless run to end", () => (child.exitCode === null ? undefined : child.exitCode));
      const [result] = await results(file);
      expect(result?.code).toBe("ASK_NO_HUMAN");
      expect(result?.text).toMatch(
        /^No human is attached to answer, so the question was not asked\. Carry on/,
      );
    } finally {
      child.kill();
    }
  });
});
