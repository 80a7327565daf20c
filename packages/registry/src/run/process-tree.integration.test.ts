import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { afterEach, describe, expect, it } from "vitest";
import { outputTargets, writersOf } from "./process-tree.js";

// Real terminals: Linux gives a closed pseudo-terminal's name (/dev/pts/N) to the next one opened.
// A program's output named by its terminal alone took the next terminal's writers (a tmux pane
// the machine opened meanwhile) for what the program left running, and they were killed.

/**
 * A Python program that, on each line it reads, runs a `sleep` writing to a new pseudo-terminal
 * and prints its pid and the terminal's name; on "again" it first ends the last one and closes its
 * terminal, then opens terminals until one has that terminal's name (the lowest free number: at
 * once unless another program took it meanwhile), holding the others while it looks.
 */
const terminalsScript = `
import os, pty, subprocess, sys
last = None
for line in sys.stdin:
    held = []
    if line.strip() == "again" and last is not None:
        process, master, slave, name = last
        process.kill(); process.wait(); os.close(slave); os.close(master)
        for _ in range(64):
            master, slave = pty.openpty()
            if os.ttyname(slave) == name:
                break
            held.append((master, slave))
    else:
        master, slave = pty.openpty()
    process = subprocess.Popen(["sleep", "60"], stdin=subprocess.DEVNULL, stdout=slave, stderr=slave)
    for pair in held:
        os.close(pair[0]); os.close(pair[1])
    last = (process, master, slave, os.ttyname(slave))
    print(process.pid, last[3], flush=True)
`;

const leftovers: ChildProcess[] = [];
/** The sleeps: the Python program's children, which its SIGKILL leaves running. */
const sleeps: number[] = [];
afterEach(() => {
  for (const child of leftovers.splice(0)) child.kill("SIGKILL");
  for (const pid of sleeps.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Gone already.
    }
  }
});

describe("outputTargets and writersOf on a terminal", () => {
  it("tell a terminal from the next one given its name: the writer of the new one is not found", async () => {
    const python = spawn("python3", ["-c", terminalsScript], { stdio: ["pipe", "pipe", "inherit"] });
    leftovers.push(python);
    const lines = createInterface({ input: python.stdout! })[Symbol.asyncIterator]();
    const next = async (request: string): Promise<{ pid: number; name: string }> => {
      python.stdin!.write(`${request}\n`);
      const line = await lines.next();
      const [pid, name] = String(line.value).split(" ");
      sleeps.push(Number(pid));
      return { pid: Number(pid), name: name! };
    };
    const first = await next("first");
    const targets = outputTargets(first.pid);
    expect(targets).toHaveLength(1);
    expect(targets[0]).toMatch(new RegExp(`^${first.name}@\\d+$`));
    expect(writersOf(targets).map(({ pid }) => pid)).toContain(first.pid);

    const second = await next("again");
    // The same name, another terminal: the first one's writers are gone, and the second's sleep
    // is not one of them.
    expect(second.name).toBe(first.name);
    expect(writersOf(targets).map(({ pid }) => pid)).not.toContain(second.pid);
    expect(writersOf(targets)).toEqual([]);
    const secondTargets = outputTargets(second.pid);
    expect(secondTargets).not.toEqual(targets);
    expect(writersOf(secondTargets).map(({ pid }) => pid)).toContain(second.pid);
  });
});
