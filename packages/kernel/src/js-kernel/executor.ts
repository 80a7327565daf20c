// The JavaScript kernel's executor: runs user code in its own process so the messaging loop never
// blocks. SIGINT stops a synchronous loop (vm breakOnSigint) and abandons a pending promise alike.
import { randomBytes } from "node:crypto";
import fs, { fstatSync, rmSync, writeFileSync } from "node:fs";
import { createRequire, syncBuiltinESMExports } from "node:module";
import { tmpdir } from "node:os";
import { isAbsolute, join, relative, sep } from "node:path";
import { inspect } from "node:util";
import { Script, constants } from "node:vm";
import { Worker } from "node:worker_threads";
import { bridgeMarker, interruptedBeforeStart, shellTimeoutSeconds } from "../launch/python-setup.js";
import { cellTraceback } from "./cell-traceback.js";
import { CdError, changeDirectory } from "./change-directory.js";
import { compileCell, type CompiledCell } from "./compile-cell.js";
import {
  outputLimitsFrom,
  outputLimitsVariable,
  type FromExecutor,
  type ToExecutor,
} from "./executor-protocol.js";
import { cellEndMark, cellEndMarkVariable } from "./marked-stream.js";
import { OutputBudget } from "./output-budget.js";
import { SharedLock } from "./shared-lock.js";
import { bytesOfWriteSync, writeAllSync } from "./write-all-sync.js";

/**
 * Written to fd 1 and fd 2 after each cell, so the kernel knows it has read all the cell wrote
 * there (see MarkedStream). Out of the environment before anything copies it: the cells' own.
 */
const markKey = process.env[cellEndMarkVariable];
delete process.env[cellEndMarkVariable];

// Everything to the kernel goes through the budget, in order: output is bounded per cell.
const output = new OutputBudget(outputLimitsFrom(process.env[outputLimitsVariable]), (message, sent) => {
  // The callback comes once the message is written (with an error if the channel closed).
  if (process.send) process.send(message, undefined, undefined, () => sent());
  else sent();
});
const send = (message: FromExecutor): void => output.send(message);
const shellTool = process.env.TOOLS_KERNEL_SHELL_TOOL ?? "shell";

for (const name of ["stdout", "stderr"] as const) {
  const stream = process[name];
  stream.write = ((chunk: unknown, encoding?: unknown, callback?: unknown) => {
    const text = typeof chunk === "string" ? chunk : Buffer.from(chunk as Uint8Array).toString("utf8");
    output.stream(name, text);
    const done = typeof encoding === "function" ? encoding : callback;
    if (typeof done === "function") (done as () => void)();
    return true;
  }) as typeof stream.write;
}

/** What fd 1 and fd 2 were at start: the pipes to the kernel (file identity, and the stream's handle). */
const pipes = (
  [
    [1, "stdout"],
    [2, "stderr"],
  ] as const
).map(([fd, name]) => ({
  fd,
  name,
  identity: fileIdentity(fd),
  handle: (process[name] as unknown as { _handle?: { setBlocking?: (blocking: boolean) => number } })._handle,
}));

/** The file fd `fd` is open on (device and inode), or undefined when it is closed. */
function fileIdentity(fd: number): string | undefined {
  try {
    const stat = fstatSync(fd, { bigint: true });
    return `${stat.dev}:${stat.ino}`;
  } catch {
    return undefined;
  }
}

/**
 * fd 1 and fd 2 (or only `fd`) as far as they are still the pipes to the kernel: a cell may have
 * closed one, and a file it opened then took the number.
 */
function pipesLeft(fd?: number): typeof pipes {
  return pipes.filter(
    (pipe) =>
      (fd === undefined || pipe.fd === fd) &&
      pipe.identity !== undefined &&
      fileIdentity(pipe.fd) === pipe.identity,
  );
}

/**
 * Puts the pipes in blocking mode. Opening process.stdout makes its pipe non-blocking for every
 * process sharing it, and so does a Node child with stdio "inherit" (it sets the flags back at
 * exit, but not when killed, nor while it runs): then a cell's fs.writeSync(1, …) wrote short or
 * failed with EAGAIN, and so did children printing more than the pipe holds. Nothing writes
 * through the streams' handles (see above), so blocking costs the executor nothing.
 */
function keepPipesBlocking(left = pipesLeft()): void {
  for (const pipe of left) pipe.handle?.setBlocking?.(true);
}
keepPipesBlocking();

/**
 * A cell's fs.writeSync to fd 1 or 2 sets the pipe blocking first: a Node child with stdio
 * "inherit" that the cell started makes it non-blocking as it starts (the reset at the start of
 * each cell comes too late for the cell that started it), and then a write of more than the pipe
 * holds wrote short, the rest lost without a word, or failed with EAGAIN. A child starting in the
 * middle of the write can still do so: the rest is written after setting blocking again
 * (writeAllSync). Also for `import { writeSync } from "node:fs"` in a cell.
 */
const writeSyncAsGiven = fs.writeSync;
const writeAsGiven = writeSyncAsGiven as (fd: number, ...rest: unknown[]) => number;
fs.writeSync = ((fd: number, ...rest: unknown[]) => {
  if (fd !== 1 && fd !== 2) return writeAsGiven(fd, ...rest);
  const setBlocking = () => keepPipesBlocking(pipesLeft(fd));
  setBlocking();
  const bytes = bytesOfWriteSync(rest);
  if (bytes === undefined) return writeAsGiven(fd, ...rest);
  return writeAllSync(writeSyncAsGiven, fd, bytes, setBlocking);
}) as typeof fs.writeSync;
syncBuiltinESMExports();

/**
 * Writes cell `id`'s end mark to fd 1 and fd 2 while they are still the pipes to the kernel,
 * after everything the cell wrote there; returns the streams it was written to. The mark is
 * shorter than PIPE_BUF, so one write puts it whole. Should a process the cell started have made
 * a pipe non-blocking again, a short write is completed and a full pipe (EAGAIN) waited out,
 * bounded (writeAllSync); a pipe the mark could not be written to is left out.
 */
function markCellEnd(id: number): ("stdout" | "stderr")[] {
  if (markKey === undefined || markKey === "") return [];
  const marked: ("stdout" | "stderr")[] = [];
  const bytes = cellEndMark(markKey, id);
  const left = pipesLeft();
  keepPipesBlocking(left);
  for (const pipe of left) {
    try {
      writeAllSync(writeSyncAsGiven, pipe.fd, bytes, () => keepPipesBlocking([pipe]));
      marked.push(pipe.name);
    } catch {
      // Full for longer than the bound, or gone: that stream goes unmarked.
    }
  }
  return marked;
}

const show = (value: unknown): string => (typeof value === "string" ? value : inspect(value, { depth: 4 }));

function display(value: unknown): void {
  output.display({ type: "display", kind: "display", data: { "text/plain": show(value) } });
}
display.html = (html: string) =>
  output.display({ type: "display", kind: "display", data: { "text/html": html, "text/plain": html } });
display.markdown = (text: string) =>
  output.display({ type: "display", kind: "display", data: { "text/markdown": text } });
display.png = (data: Uint8Array | string) =>
  output.display({
    type: "display",
    kind: "display",
    data: {
      "image/png": typeof data === "string" ? data : Buffer.from(data).toString("base64"),
      "text/plain": "<image>",
    },
  });

/**
 * Bridged calls in flight, by id: the kernel routes each input_reply back by the input_request it
 * answers, so several calls can run at once (`await Promise.all([tool(…), tool(…)])`).
 */
const pendingReplies = new Map<number, (value: string) => void>();
let nextCallId = 0;

class ToolError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = "ToolError";
  }
}

async function tool(name: string, args: unknown = {}): Promise<string> {
  const prompt = bridgeMarker + JSON.stringify({ tool: name, args });
  const id = ++nextCallId;
  const reply = await new Promise<string>((resolve) => {
    pendingReplies.set(id, resolve);
    send({ type: "input", id, prompt });
  });
  const data = JSON.parse(reply || '{"ok":false,"error":"the bridge gave no reply"}') as {
    ok: boolean;
    text?: string;
    error?: string;
    code?: string;
  };
  if (!data.ok) throw new ToolError(data.error ?? "the tool call failed", data.code ?? "TOOL_FAILED");
  return data.text ?? "";
}

/** Where the kernel started: the run's folder, where the shell tool runs its commands. */
const startDirectory = process.cwd();

/** `word` as one word for sh: as it is when it holds nothing the shell reads, else single-quoted. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/**
 * `command` to run where the cell is: the shell tool runs in the run's folder, so after `%cd`
 * it goes there first — relative inside the run's folder (the approval card shows the command,
 * not a long path), absolute outside it.
 */
function whereTheCellIs(command: string): string {
  const here = process.cwd();
  if (here === startDirectory) return command;
  const inside = relative(startDirectory, here);
  const where = inside === ".." || inside.startsWith(`..${sep}`) || isAbsolute(inside) ? here : inside;
  // A folder named like an option ("-x") is not read as one.
  return `cd ${shellWord(where.startsWith("-") ? `./${where}` : where)} && ${command}`;
}

/** The environment the executor started with; the shell tool runs in the harness's own. */
const startEnvironment = { ...process.env };

/**
 * What the cell changed in `process.env` (set, changed, deleted), as a child process of the cell
 * would see it (the shell tool runs in the harness's environment): `export`/`unset` lines in a
 * new private file (0600, created exclusively), and `command` sourcing and deleting it first. The
 * values are never in the command's text, which the approval card shows and logs keep. `file` is
 * undefined when nothing changed; the caller deletes it too, should the command not run.
 */
function withCellEnvironment(command: string): { command: string; file?: string } {
  const lines: string[] = [];
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && startEnvironment[name] !== value && /^[A-Za-z_]\w*$/.test(name))
      lines.push(`export ${name}=${shellWord(value)}\n`);
  }
  for (const name of Object.keys(startEnvironment)) {
    if (process.env[name] === undefined && /^[A-Za-z_]\w*$/.test(name)) lines.push(`unset ${name}\n`);
  }
  if (lines.length === 0) return { command };
  const file = join(tmpdir(), `tools-env-${randomBytes(8).toString("hex")}.sh`);
  writeFileSync(file, lines.join(""), { mode: 0o600, flag: "wx" });
  const quoted = shellWord(file);
  return { command: `. ${quoted}; rm -f ${quoted}; ${command}`, file };
}

/**
 * The `timeout_seconds` the shell tool is asked for: the most it allows. A refusal naming a smaller
 * maximum ("at most 300", "<=300") lowers it to that, one naming none drops it (the tool takes no
 * such argument); for this and later commands.
 */
let timeoutSent: number | undefined = shellTimeoutSeconds;

const largestTimeout = /(?:at most|<=|less than or equal to)\s*(\d+)/;

/**
 * Runs `command` through the shell tool with the most time it allows (%%bash has no way to ask
 * for more). The refusal of an argument comes before anything runs (and before any approval card).
 */
async function shell(command: string): Promise<string> {
  while (timeoutSent !== undefined) {
    try {
      return await tool(shellTool, { command, timeout_seconds: timeoutSent });
    } catch (error) {
      const refused =
        error instanceof ToolError &&
        error.code === "INVALID_ARGUMENTS" &&
        error.message.includes("timeout_seconds");
      if (!refused) throw error;
      const smaller = Number(largestTimeout.exec(error.message)?.[1]);
      timeoutSent = smaller > 0 && smaller < timeoutSent ? smaller : undefined;
    }
  }
  return tool(shellTool, { command });
}

const helpers = {
  async sh(command: string) {
    const withEnvironment = withCellEnvironment(whereTheCellIs(command));
    try {
      const text = await shell(withEnvironment.command);
      if (text !== "") process.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
    } catch (error) {
      let message = (error as Error).message;
      // The shell tool's advice (raise timeout_seconds) cannot be followed from %%bash.
      if (error instanceof ToolError && error.code === "TIMEOUT")
        message = message.replace(
          /raise timeout_seconds \(at most \d+\) or run it in smaller steps/,
          `%%bash already runs with the shell tool's longest time limit (${timeoutSent === undefined ? "" : `${timeoutSent} s, `}no way to raise it from a cell): split the work into shorter commands, one cell each`,
        );
      // The cell never named the shell tool: say which tool %%bash needs, and what works without it.
      if (error instanceof ToolError && error.code === "UNKNOWN_TOOL")
        message = `%%bash runs the command through the harness's shell tool '${shellTool}', which this run does not have (${message}). Run it from the cell instead: require('child_process').execSync(command, { encoding: 'utf8' })`;
      process.stderr.write(`${message}\n`);
    } finally {
      // The command deletes it once read; not when it was refused, failed or never ran.
      if (withEnvironment.file !== undefined) rmSync(withEnvironment.file, { force: true });
    }
  },
  cd(argument: string) {
    const printed = changeDirectory(argument);
    if (printed !== undefined) process.stdout.write(`${printed}\n`);
  },
  async timeit(fn: () => unknown, number: number, repeat: number) {
    let loops = number;
    if (loops <= 0) {
      loops = 1;
      for (;;) {
        const start = performance.now();
        for (let i = 0; i < loops; i++) await fn();
        if (performance.now() - start >= 200 || loops >= 1e7) break;
        loops *= 10;
      }
    }
    const runs: number[] = [];
    for (let r = 0; r < (repeat || 5); r++) {
      const start = performance.now();
      for (let i = 0; i < loops; i++) await fn();
      runs.push((performance.now() - start) / loops);
    }
    const best = Math.min(...runs);
    const [value, unit] = best >= 1000 ? [best / 1000, "s"] : best >= 1 ? [best, "ms"] : [best * 1000, "µs"];
    process.stdout.write(
      `${value.toPrecision(3)} ${unit} per loop (best of ${runs.length} runs, ${loops} loops each)\n`,
    );
  },
};

Object.assign(globalThis, {
  display,
  tool,
  ToolError,
  __tools__: helpers,
  require: createRequire(join(process.cwd(), "[eval]")),
});

/** The interrupt, as the cell sees it (thrown where the cell was waiting). */
class KeyboardInterrupt extends Error {
  constructor(message = "Interrupted by user") {
    super(message);
    this.name = "KeyboardInterrupt";
  }
}

/**
 * The interrupt: the kernel writes the id of the cell it is meant for, a line each, to fd 4, read
 * by a thread of ours (the cell may hold the main thread in a loop). An interrupt never reaches
 * another cell, and SIGINT never reaches the executor where it kills it: vm takes SIGINT to stop
 * a cell's synchronous part only while the script runs, and in the moments it swaps the handlers
 * around that, SIGINT's default (the executor's end, its state lost) is in place. So the thread
 * sends SIGINT to this process only while the cell it is meant for is inside its script's run
 * (between `enter` and `leave`, which the compiled cell calls), under a lock `leave` takes too:
 * - before the cell's code starts, the interrupt is kept and raised at its start: none of it ran;
 * - while its synchronous part runs, SIGINT stops it (vm's breakOnSigint);
 * - while it awaits (a promise, a tool() call), the main thread rejects its wait;
 * - once it has ended, or for another cell, it is dropped: the cell ran to its end.
 */
const interruptState = new Int32Array(new SharedArrayBuffer(4 * Int32Array.BYTES_PER_ELEMENT));
/** The indexes of {@link interruptState}: the lock, and three cell ids (0: none). */
const [lockAt, insideAt, askedAt, signalledAt] = [0, 1, 2, 3] as const;
const interruptFd = 4;

const interruptThreadCode = `
const { workerData, parentPort } = require("node:worker_threads");
const { Socket } = require("node:net");
const state = workerData.state;
const input = new Socket({ fd: workerData.fd, readable: true, writable: false });
let text = "";
input.setEncoding("utf8");
input.on("data", (chunk) => {
  text += chunk;
  for (let end = text.indexOf("\\n"); end >= 0; end = text.indexOf("\\n")) {
    const id = Number(text.slice(0, end));
    text = text.slice(end + 1);
    if (!(id > 0)) continue;
    while (Atomics.compareExchange(state, ${lockAt}, 0, 1) !== 0);
    try {
      Atomics.store(state, ${askedAt}, id);
      if (Atomics.load(state, ${insideAt}) === id && Atomics.load(state, ${signalledAt}) !== id) {
        Atomics.store(state, ${signalledAt}, id);
        process.kill(process.pid, "SIGINT");
      }
    } finally {
      Atomics.store(state, ${lockAt}, 0);
    }
    parentPort.postMessage(id);
  }
});
input.on("error", () => input.destroy());
`;

/** The lock of {@link interruptState}, as this (the main) thread takes it; the interrupt thread's value is 1. */
const interruptLock = new SharedLock(interruptState, lockAt, 2);
const underLock = <T>(change: () => T): T => interruptLock.run(change);

/** Without fd 4 (an executor started by hand), no interrupts but SIGINT's. */
if (fileIdentity(interruptFd) !== undefined) {
  const thread = new Worker(interruptThreadCode, {
    eval: true,
    workerData: { state: interruptState, fd: interruptFd },
  });
  thread.on("message", (id: number) => interruptCell(id));
  thread.on("error", (error) => process.stderr.write(`the interrupt thread failed: ${error.message}\n`));
  thread.unref();
}

/** The cell running now (its id, 0 when none), and how an interrupt ends its wait. */
let runningId = 0;
let interruptCurrent: ((error: Error) => void) | undefined;

/** An interrupt meant for cell `id`: it stops the cell's wait if it is the one running, else nothing. */
function interruptCell(id: number): void {
  if (id !== runningId || interruptCurrent === undefined) return;
  // Bridged calls in flight are abandoned: their late replies are dropped.
  pendingReplies.clear();
  interruptCurrent(new KeyboardInterrupt());
}

// A SIGINT from elsewhere, outside a cell's script run: it does not end the executor.
process.on("SIGINT", () => undefined);

/** The wrapper's promise once the cell's synchronous part has run (see `leave`), for the running cell. */
let leftWith: Promise<unknown> | undefined;

const cellGuard = {
  enter: "__tools__.enter",
  leave: "__tools__.leave",
};
Object.assign(helpers, {
  /** The cell's code starts: an interrupt that came for it before is raised here, none of it run. */
  enter() {
    const id = runningId;
    const asked = underLock(() => {
      if (Atomics.load(interruptState, askedAt) === id) return true;
      Atomics.store(interruptState, insideAt, id);
      return false;
    });
    if (asked) throw new KeyboardInterrupt(interruptedBeforeStart);
  },
  /** The cell's synchronous part has run: no SIGINT is sent past here, and one on its way is waited for. */
  leave(promise: Promise<unknown>) {
    const id = runningId;
    leftWith = promise;
    const signalled = underLock(() => {
      Atomics.store(interruptState, insideAt, 0);
      return Atomics.load(interruptState, signalledAt) === id;
    });
    // SIGINT was sent while the cell was inside: it ends the script right here (vm's handler is
    // in place until the script returns), bounded should it never come.
    if (signalled) {
      const until = Date.now() + 5000;
      while (Date.now() < until);
    }
    return promise;
  },
});

/** True for the error vm throws when SIGINT stopped a script. */
function scriptInterrupted(caught: unknown): boolean {
  return caught instanceof Error && /Script execution (was )?interrupted/.test(caught.message);
}

/** Every cell run so far by its file name, so a stack through an earlier cell's function maps too. */
const cells = new Map<string, Pick<CompiledCell, "cellLine" | "cellLines">>();

async function execute(id: number, code: string): Promise<"ok" | "error"> {
  output.startCell();
  keepPipesBlocking();
  runningId = id;
  leftWith = undefined;
  try {
    const interrupted = new Promise<never>((_, reject) => {
      interruptCurrent = reject;
    });
    const filename = `cell-${id}.js`;
    const compiled = compileCell(code, cellGuard);
    cells.set(filename, { cellLine: compiled.cellLine, cellLines: compiled.cellLines });
    const script = new Script(compiled.source, {
      filename,
      importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
    });
    let completion: Promise<unknown>;
    try {
      completion = script.runInThisContext({ breakOnSigint: true }) as Promise<unknown>;
    } catch (caught) {
      // SIGINT came as the synchronous part ended: the cell is where one during its awaits finds it.
      if (!scriptInterrupted(caught) || leftWith === undefined) throw caught;
      completion = leftWith;
    } finally {
      // SIGINT ends the script wherever it is, inside `enter` or `leave` under the lock too (sent
      // just before `leave` took it): V8 runs no `finally` there, and the lock stays held.
      interruptLock.releaseAbandoned();
      // Should the script have been stopped inside (a SIGINT from elsewhere), it is out now.
      underLock(() => Atomics.store(interruptState, insideAt, 0));
    }
    // An interrupt that came while the synchronous part ran: the wait ends at once. One for a
    // cell that has already ended (its promise settled) loses the race below: dropped.
    if (Atomics.load(interruptState, askedAt) === id) interruptCell(id);
    // Anything else came from a `return` of the cell's own (`return null` at top level).
    const value = await Promise.race([completion, interrupted]);
    // A promise the cell left rejected is reported at the end of this turn: in this cell's output.
    await new Promise((resolve) => setImmediate(resolve));
    if (typeof value === "object" && value !== null && "__echo" in value && value.__echo !== undefined) {
      output.display({
        type: "display",
        kind: "result",
        data: { "text/plain": inspect(value.__echo, { depth: 4 }) },
      });
    }
    return "ok";
  } catch (caught) {
    if (caught instanceof KeyboardInterrupt || scriptInterrupted(caught)) {
      const evalue = caught instanceof KeyboardInterrupt ? caught.message : "Interrupted by user";
      send({ type: "error", ename: "KeyboardInterrupt", evalue, traceback: [] });
    } else if (caught instanceof CdError) {
      // Its line says it all; the stack is the rewritten line's.
      send({ type: "error", ename: caught.name, evalue: caught.message, traceback: [] });
    } else if (caught instanceof Error) {
      const stack = caught.stack ?? `${caught.name}: ${caught.message}`;
      const traceback = cellTraceback(stack, cells);
      // `!ls` by reflex from IPython: the line after a syntax error's header is the cell's line.
      if (caught instanceof SyntaxError && /^\s*!/.test(traceback[1] ?? "")) {
        traceback.push(
          `(a leading ! is JavaScript's not, not a shell command; run one with await tool(${JSON.stringify(shellTool)}, { command: "…" }))`,
        );
      }
      send({ type: "error", ename: caught.name, evalue: caught.message, traceback });
    } else {
      // A thrown non-Error has no stack to show.
      send({ type: "error", ename: "Uncaught", evalue: show(caught), traceback: [] });
    }
    return "error";
  } finally {
    interruptCurrent = undefined;
    runningId = 0;
    leftWith = undefined;
  }
}

process.on("message", (message: ToExecutor) => {
  if (message.type === "input_reply") {
    const reply = pendingReplies.get(message.id);
    pendingReplies.delete(message.id);
    reply?.(message.value);
    return;
  }
  void execute(message.id, message.code).then((status) =>
    send({ type: "done", id: message.id, status, marked: markCellEnd(message.id) }),
  );
});
process.on("disconnect", () => process.exit(0));
// A cell's process.exit(): what it printed just before still goes (the channel writes at once when idle).
process.on("exit", () => output.flushAll());
/** An error thrown or rejected outside the cell's own await: its stack as the cell's lines. */
function strayError(reason: unknown): string {
  if (!(reason instanceof Error)) return show(reason);
  return cellTraceback(reason.stack ?? `${reason.name}: ${reason.message}`, cells).join("\n");
}
process.on("uncaughtException", (error) => {
  process.stderr.write(`Uncaught exception: ${strayError(error)}\n`);
});
process.on("unhandledRejection", (reason) => {
  process.stderr.write(`Unhandled promise rejection: ${strayError(reason)}\n`);
});
