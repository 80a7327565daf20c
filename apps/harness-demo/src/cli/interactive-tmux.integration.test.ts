import { existsSync } from "node:fs";
import { mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cliPath } from "../__fixtures__/cli-process.js";
import { TmuxPane, tmuxFound } from "../__fixtures__/tmux-pane.js";

let dir: string;
let pane: TmuxPane;

/** How many times `needle` shows on the pane. */
function count(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "harness-demo-tmux-")));
  pane = new TmuxPane(join(dir, "sock"));
  await writeFile(join(dir, "hello.txt"), "hello\nworld\n");
});

afterEach(async () => {
  // Ends the session and the demo in it, whatever state the test left.
  await pane.kill();
  await rm(dir, { recursive: true, force: true });
});

describe.skipIf(!tmuxFound)("harness-demo --interactive in a real terminal (tmux)", () => {
  it(
    "runs a typed tool call, and answers an ask_user card and a permission card in the terminal",
    { timeout: 60_000 },
    async () => {
      const command = `${process.execPath} ${cliPath} --interactive --workdir ${dir} --approval ask`;
      await pane.tmux("new-session", "-d", "-x", "160", "-y", "50", "-s", "demo", command);
      await pane.waitForScreen(/^tool>/m);

      await pane.type("read path=hello.txt");
      const read = await pane.waitForScreen(/1\s+hello\n2\s+world/);
      expect(read).toContain("tool> read path=hello.txt\nok\n");

      await pane.type(
        'ask_user question="Which region first?" options=[{"label":"north"},{"label":"south"}]',
      );
      const card = await pane.waitForScreen("Reply with one number (1-2).");
      expect(card).toContain("-- Question");
      expect(card).toContain("  2. south");
      await pane.type("2");
      await pane.waitForScreen('Chosen option: "south"');

      await pane.type("write path=notes.txt content=hi");
      const permission = await pane.waitForScreen("Reply with one number (1-3).");
      expect(permission).toContain("Allow write: write notes.txt");
      expect(permission).toContain("1. Allow once");
      await pane.type("1");
      await pane.waitForScreen("created notes.txt");
      expect(await readFile(join(dir, "notes.txt"), "utf8")).toBe("hi");

      // A second write asks again; denied in the terminal, nothing is written.
      await pane.type("write path=no.txt content=x");
      await pane.waitForScreen(/Allow write: write no\.txt[\s\S]*Reply with one number \(1-3\)\./);
      await pane.type("3");
      const denied = await pane.waitForScreen("error APPROVAL_DENIED");
      expect(count(denied, "tool>")).toBeGreaterThanOrEqual(4);
      expect(existsSync(join(dir, "no.txt"))).toBe(false);

      // "exit" ends the program, and tmux closes its session with it.
      await pane.type("exit");
      await waitForExit();
    },
  );

  it(
    "keeps the tool calls out of a card's up arrow, and a card's answers out of the tool prompt's",
    { timeout: 60_000 },
    async () => {
      const command = `${process.execPath} ${cliPath} --interactive --workdir ${dir} --approval ask`;
      await pane.tmux("new-session", "-d", "-x", "160", "-y", "50", "-s", "demo", command);
      await pane.waitForScreen(/^tool>/m);
      await pane.type("read path=hello.txt");
      await pane.waitForScreen(/2\s+world\ntool>/);
      await pane.type(
        'ask_user question="Which region first?" options=[{"label":"north"},{"label":"south"}]',
      );
      await pane.waitForScreen(/Reply with one number \(1-2\)\.[\s\S]*\n> ?$/m);
      // Before: the up arrow brought back the ask_user call, and Enter sent it as the answer.
      await pane.tmux("send-keys", "-t", "demo", "Up");
      await pane.tmux("send-keys", "-t", "demo", "-l", "2");
      await pane.waitForScreen(/^> 2$/m);
      expect(await pane.screen()).not.toMatch(/^> .*ask_user/m);
      await pane.tmux("send-keys", "-t", "demo", "Enter");
      await pane.waitForScreen('Chosen option: "south"');
      await pane.waitForScreen(/"south"\ntool>/);
      // At the tool prompt the up arrow goes back through the calls, never the card's "2".
      await pane.tmux("send-keys", "-t", "demo", "Up");
      await pane.waitForScreen(/"south"\ntool> ask_user question=/);
      await pane.tmux("send-keys", "-t", "demo", "Up");
      await pane.waitForScreen(/"south"\ntool> read path=hello\.txt$/m);
      await pane.tmux("send-keys", "-t", "demo", "C-u");
      await pane.type("exit");
      await waitForExit();
    },
  );

  it(
    "runs every line of a paste, in order, and a card opened by one answers the next typed line",
    { timeout: 60_000 },
    async () => {
      await writeFile(join(dir, "second.txt"), "second file\n");
      const command = `${process.execPath} ${cliPath} --interactive --workdir ${dir} --approval ask`;
      await pane.tmux("new-session", "-d", "-x", "160", "-y", "50", "-s", "demo", command);
      await pane.waitForScreen(/^tool>/m);

      // Both lines reach the program in one chunk, as a paste does.
      await pane.tmux("set-buffer", "-b", "paste", "read path=hello.txt\nread path=second.txt\n");
      await pane.tmux("paste-buffer", "-b", "paste", "-t", "demo");
      const both = await pane.waitForScreen(/1\s+second file/);
      expect(both).toMatch(/1\s+hello\n2\s+world/);

      // The session's reader stays the terminal's only reader: a card still takes the next line.
      await pane.type("write path=pasted.txt content=hi");
      await pane.waitForScreen(/Allow write: write pasted\.txt[\s\S]*Reply with one number \(1-3\)\./);
      await pane.type("1");
      await pane.waitForScreen("created pasted.txt");
      expect(await readFile(join(dir, "pasted.txt"), "utf8")).toBe("hi");
      await pane.type("exit");
      await waitForExit();
    },
  );

  it(
    "declines a card at Ctrl+D on its empty line and goes on; Ctrl+D at an empty tool prompt ends the session",
    { timeout: 60_000 },
    async () => {
      const command = `${process.execPath} ${cliPath} --interactive --workdir ${dir} --approval ask`;
      await pane.tmux("new-session", "-d", "-x", "160", "-y", "50", "-s", "demo", command);
      await pane.waitForScreen(/^tool>/m);
      await pane.type(
        'ask_user question="Which region first?" options=[{"label":"north"},{"label":"south"}]',
      );
      await pane.waitForScreen(/Reply with one number \(1-2\)\.[\s\S]*\n> ?$/m);
      // Typed text on the card's line: Ctrl+D deletes right, as in any line editor (nothing here).
      await pane.tmux("send-keys", "-t", "demo", "-l", "2");
      await pane.waitForScreen(/^> 2$/m);
      await pane.tmux("send-keys", "-t", "demo", "C-a");
      await pane.tmux("send-keys", "-t", "demo", "C-d");
      await pane.waitForScreen(/^> ?$/m);
      // Before: the whole session ended here (readline closed on the end of input).
      await pane.tmux("send-keys", "-t", "demo", "C-d");
      const declined = await pane.waitForScreen(/^> \^D$[\s\S]*declined[\s\S]*\ntool>$/m);
      expect(declined).not.toContain("error ASK_NO_HUMAN");
      await pane.type("read path=hello.txt");
      await pane.waitForScreen(/2\s+world\ntool>/);
      await pane.tmux("send-keys", "-t", "demo", "C-d");
      await waitForExit();
    },
  );

  it(
    "drops a line typed in part at Ctrl+C, as a shell does, and ends the session at Ctrl+C on an empty prompt",
    { timeout: 60_000 },
    async () => {
      const command = `${process.execPath} ${cliPath} --interactive --workdir ${dir} --approval ask`;
      await pane.tmux("new-session", "-d", "-x", "160", "-y", "50", "-s", "demo", command);
      await pane.waitForScreen(/^tool>/m);
      await pane.tmux("send-keys", "-t", "demo", "-l", "read path=hello");
      await pane.waitForScreen(/^tool> read path=hello$/m);
      await pane.tmux("send-keys", "-t", "demo", "C-c");
      // The session goes on (it ended here, its run with it): a fresh prompt takes the next call.
      await pane.waitForScreen(/^tool> \^C\ntool>$/m);
      await pane.type("read path=hello.txt");
      const read = await pane.waitForScreen(/1\s+hello\n2\s+world/);
      expect(read).not.toContain("path=hellotool>");
      await pane.waitForScreen(/2\s+world\ntool>$/m);
      await pane.tmux("send-keys", "-t", "demo", "C-c");
      await waitForExit();
    },
  );

  it(
    "reads a cell's getpass() on a secret card without drawing what is typed, nor keeping it in history",
    { timeout: 90_000 },
    async () => {
      const command = `${process.execPath} ${cliPath} --interactive --workdir ${dir} --approval auto --python /usr/bin/python3`;
      await pane.tmux("new-session", "-d", "-x", "160", "-y", "50", "-s", "demo", command);
      await pane.waitForScreen(/^tool>/m);
      const cell = {
        code: "import getpass\npw = getpass.getpass('DB password: ')\nlen(pw), pw[::-1] == 'ko-2retnuh'",
        description: "read the database password with getpass",
      };
      await pane.type(`eval ${JSON.stringify(cell)}`);
      const card = await pane.waitForScreen(/counts as no answer\.\n>/, 60_000);
      expect(card).toContain("(secret: what you type is hidden and never shown back)");
      // Typed with a slip and a backspace, as a person would.
      await pane.tmux("send-keys", "-t", "demo", "-l", "hunter2-okX");
      await pane.tmux("send-keys", "-t", "demo", "BSpace", "Enter");
      const done = await pane.waitForScreen("(10, True)", 30_000);
      expect(done).toContain("-> answered (a secret, not shown)");
      expect(done).not.toContain("hunter2");
      // The up arrow at the next prompt brings back the eval call, never the secret.
      await pane.waitForScreen(/\(10, True\)\ntool>/);
      await pane.tmux("send-keys", "-t", "demo", "Up");
      await pane.waitForScreen(/\(10, True\)\ntool> eval \{"code"/);
      expect(await pane.screen()).not.toContain("hunter2");
      await pane.tmux("send-keys", "-t", "demo", "C-u");
      await pane.type("exit");
      await waitForExit();
    },
  );

  it(
    "--vibe-command: a background worker's start, progress and end show above the prompt, what was typed at it kept",
    { timeout: 60_000 },
    async () => {
      const command = `${process.execPath} ${cliPath} --interactive --workdir ${dir} --approval auto --vibe-command sh`;
      await pane.tmux("new-session", "-d", "-x", "160", "-y", "50", "-s", "demo", command);
      await pane.waitForScreen(/^tool>/m);
      // A real `sh` as the agent CLI: it works until the test creates `go` (30 s at most).
      const brief =
        "echo step one; for i in $(seq 1 300); do [ -e go ] && break; sleep 0.1; done; echo all done";
      await pane.type(`vibe_spawn brief="${brief}" label=tester`);
      await pane.waitForScreen('  worker w1 "tester" (fast) started');
      await pane.waitForScreen('  worker w1 "tester" (fast) … step one');
      await pane.waitForScreen(/Spawned w1[^\n]*\n(.*\n)*tool>$/m);
      // The operator is typing the next call when the worker ends.
      await pane.tmux("send-keys", "-t", "demo", "-l", "read path=hel");
      await pane.waitForScreen(/^tool> read path=hel$/m);
      await writeFile(join(dir, "go"), "");
      const ended = await pane.waitForScreen(
        /  worker w1 "tester" \(fast\) is done after \d+\.\d s: step one …\ntool> read path=hel$/m,
      );
      expect(count(ended, "is done after")).toBe(1);
      expect(count(ended, '"tester" (fast) started')).toBe(1);
      // What was typed is still the line being edited: finishing it runs it.
      await pane.type("lo.txt");
      await pane.waitForScreen(/tool> read path=hello.txt\nok\n1\s+hello/);
      await pane.type("exit");
      await waitForExit();
    },
  );

  it(
    "writes a call's result above what was typed ahead while it ran, and keeps that for the next prompt",
    { timeout: 60_000 },
    async () => {
      const command = `${process.execPath} ${cliPath} --interactive --workdir ${dir} --approval auto`;
      await pane.tmux("new-session", "-d", "-x", "160", "-y", "50", "-s", "demo", command);
      await pane.waitForScreen(/^tool>/m);
      await pane.type('shell command="while [ ! -e go ]; do sleep 0.1; done; echo finished"');
      await pane.waitForScreen(/^tool> shell command=.*$/m);
      await pane.tmux("send-keys", "-t", "demo", "-l", "read path=hel");
      await pane.waitForScreen(/^read path=hel$/m);
      await writeFile(join(dir, "go"), "");
      // Before: "read path=helok" and the result ran on from the typed text.
      const shown = await pane.waitForScreen(/^tool> read path=hel$/m);
      expect(shown).not.toContain("read path=helok");
      expect(shown).toMatch(/^ok\n[\s\S]*finished[\s\S]*\ntool> read path=hel$/m);
      await pane.tmux("send-keys", "-t", "demo", "-l", "lo.txt");
      await pane.tmux("send-keys", "-t", "demo", "Enter");
      await pane.waitForScreen(/1\s+hello\n2\s+world/);
    },
  );

  it(
    "--vibe-command: a worker's line while a call runs goes above what is typed ahead, not onto it",
    { timeout: 60_000 },
    async () => {
      const command = `${process.execPath} ${cliPath} --interactive --workdir ${dir} --approval auto --vibe-command sh`;
      await pane.tmux("new-session", "-d", "-x", "160", "-y", "50", "-s", "demo", command);
      await pane.waitForScreen(/^tool>/m);
      // A line every 0.3 s until the test creates `go` (30 s at most).
      const brief =
        "for i in $(seq 1 100); do echo line $i; [ -e go ] && break; sleep 0.3; done; echo all done";
      await pane.type(`vibe_spawn brief="${brief}" label=tester`);
      await pane.waitForScreen(/Spawned w1[^\n]*\n(.*\n)*tool>$/m);
      // A call that runs while the worker works; the operator types the next one ahead.
      await pane.type("vibe_wait worker_id=w1 timeout_seconds=60");
      await pane.waitForScreen(/^tool> vibe_wait worker_id=w1 timeout_seconds=60$/m);
      await pane.tmux("send-keys", "-t", "demo", "-l", "read path=hel");
      await pane.waitForScreen(/^read path=hel$/m);
      // The worker's next lines (three or so in a second) go above what was typed, which stays
      // the last line, drawn again below them.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const shown = (await pane.screen()).trimEnd().split("\n");
      expect(shown.at(-1)).toBe("read path=hel");
      expect(shown.at(-2)).toMatch(/^ {2}worker w1 "tester" \(fast\) … line \d+$/);
      expect(shown.join("\n")).not.toMatch(/read path=hel\s*worker/);
      await writeFile(join(dir, "go"), "");
      await pane.waitForScreen("is done after");
    },
  );
});

/** Waits (bounded) until the program exited and tmux closed its session with it. */
async function waitForExit(): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (
    await pane.tmux("has-session", "-t", "demo").then(
      () => true,
      () => false,
    )
  ) {
    if (Date.now() > deadline) throw new Error(`the demo did not exit; the pane:\n${await pane.screen()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
