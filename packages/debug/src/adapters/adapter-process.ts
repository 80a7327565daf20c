import { spawn, type ChildProcess } from "node:child_process";
import { connect, type Socket } from "node:net";
import { createProcessMark, outputTargets, signalGroup } from "@tools/registry";
import { DapConnection } from "../dap/dap-connection.js";
import { firstChildOf } from "../internal/process-tree.js";
import { reaperShim } from "./reaper-shim.js";

/** A running adapter: the DAP connection to it and, unless we attached over TCP, its process. */
export interface AdapterProcess {
  readonly connection: DapConnection;
  /** The adapter process we spawned (own process group); undefined for a direct TCP attach. */
  readonly child: ChildProcess | undefined;
  /** The socket, for adapters spoken to over TCP. */
  readonly socket: Socket | undefined;
  /** Resolves when the adapter process exits (or the socket closes, without a process). */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The last lines the adapter wrote to stderr (and, for delve, stdout before the listen line). */
  stderrTail(): string;
  /** True when the adapter runs under the reaper shim: the shim reaps the adapter's whole tree. */
  readonly reaps: boolean;
  /** The adapter's own pid (under the shim, the shim's child), while it runs. */
  adapterPid(): number | undefined;
  /**
   * What the adapter's stdout and stderr are open on (see {@link outputTargets}) when the
   * debuggee inherits them (delve): whoever else still writes there at the end was left by the
   * program. Absent for adapters that speak DAP on their stdio.
   */
  readonly programOutput?: readonly string[];
  /**
   * The process mark the adapter was spawned with (see `createProcessMark`): the program it
   * launches and whatever that starts inherit it, also a daemon no parent id or output leads back
   * to. Absent for a direct TCP attach.
   */
  readonly mark?: string;
}

/** Where to send text the adapter process writes that is really the debuggee's output. */
export type ProgramOutputSink = (category: "stdout" | "stderr", text: string) => void;

const tailLimit = 4000;

function appendTail(tail: { text: string }, chunk: string): void {
  tail.text = (tail.text + chunk).slice(-tailLimit);
}

/**
 * Spawns an adapter in its own process group, with a process mark. `stdin`: "pipe" for an adapter
 * that speaks DAP on its stdio; "ignore" (/dev/null) for one that serves TCP and hands its own
 * stdin to the program (delve).
 */
function spawnAdapter(
  command: string,
  args: readonly string[],
  cwd: string,
  stdin: "pipe" | "ignore" = "pipe",
): { child: ChildProcess; mark: string } {
  const mark = createProcessMark();
  const child = spawn(command, args, {
    cwd,
    // Own process group: terminate can signal the adapter and whatever it left in its group.
    detached: true,
    stdio: [stdin, "pipe", "pipe"],
    env: { ...process.env, PYDEVD_DISABLE_FILE_VALIDATION: "1", ...mark.env },
  });
  return { child, mark: mark.value };
}

function exitOf(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve({ code: child.exitCode, signal: child.signalCode });
      return;
    }
    child.once("exit", (code, signal) => resolve({ code, signal }));
    child.once("error", () => resolve({ code: null, signal: null }));
  });
}

/**
 * Spawns an adapter that speaks DAP on its stdio (debugpy, lldb-dap, dart). With `reaper` (a
 * python to run it with), the adapter runs under {@link reaperShim}, which reaps its whole tree;
 * a `-m module` adapter run by that same python starts in the shim's own interpreter.
 */
export function startStdioAdapter(
  command: string,
  args: readonly string[],
  cwd: string,
  reaper?: string,
): AdapterProcess {
  let spawned: { child: ChildProcess; mark: string };
  if (!reaper || process.platform !== "linux") spawned = spawnAdapter(command, args, cwd);
  else if (command === reaper && args[0] === "-m") {
    // One interpreter for shim and adapter: the shim forks and runs the module in the child.
    spawned = spawnAdapter(reaper, ["-c", reaperShim, ...args], cwd);
  } else spawned = spawnAdapter(reaper, ["-S", "-c", reaperShim, command, ...args], cwd);
  const { child, mark } = spawned;
  const tail = { text: "" };
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (chunk: string) => appendTail(tail, chunk));
  child.on("error", (error) => appendTail(tail, `\n${error.message}`));
  const connection = new DapConnection(child.stdout!, child.stdin!);
  const exited = exitOf(child);
  void exited.then(({ code, signal }) =>
    connection.close(`the adapter exited (${signal ?? `code ${code}`})`),
  );
  const reaps = child.spawnargs.includes(reaperShim);
  const adapterPid = shimChild(child, reaps);
  return {
    connection,
    child,
    socket: undefined,
    exited,
    stderrTail: () => tail.text,
    reaps,
    adapterPid,
    mark,
  };
}

function connectSocket(host: string, port: number, timeoutMs: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no connection to ${host}:${port} within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.once("connect", () => {
      clearTimeout(timer);
      resolve(socket);
    });
    socket.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

function socketExit(socket: Socket): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => socket.once("close", () => resolve({ code: null, signal: null })));
}

/**
 * SIGKILL for an adapter's process group (under the reaper shim, the adapter is the shim's
 * child); spawned detached, the child leads the group, which lasts as long as it does.
 */
function killGroup(child: ChildProcess): void {
  signalGroup(child, "SIGKILL");
}

/** Connects to an adapter already listening on a TCP port (debugpy --listen, dlv --headless). */
export async function connectTcpAdapter(
  host: string,
  port: number,
  timeoutMs = 5000,
): Promise<AdapterProcess> {
  const socket = await connectSocket(host, port, timeoutMs);
  const connection = new DapConnection(socket, socket);
  return {
    connection,
    child: undefined,
    socket,
    exited: socketExit(socket),
    stderrTail: () => "",
    reaps: false,
    adapterPid: () => undefined,
  };
}

/**
 * Spawns an adapter that serves DAP only on TCP (`dlv dap --listen 127.0.0.1:0`), reads the
 * address it prints, and connects. What the process writes afterwards is the debuggee's output
 * (delve ignores `outputMode: remote`), so it goes to `sink`. With `reaper` (a python), the
 * adapter runs under {@link reaperShim}: delve does not reap a program that died while stopped,
 * which then outlived the session as a zombie where PID 1 does not reap; the shim reaps it.
 */
export async function startListeningAdapter(
  command: string,
  args: readonly string[],
  cwd: string,
  sink: ProgramOutputSink,
  timeoutMs: number,
  reaper?: string,
): Promise<AdapterProcess> {
  // The program inherits delve's stdin: /dev/null, so a read gets end of file at once (as under
  // debugpy) instead of waiting for good on a pipe nobody writes to.
  const { child, mark } =
    reaper && process.platform === "linux"
      ? spawnAdapter(reaper, ["-S", "-c", reaperShim, command, ...args], cwd, "ignore")
      : spawnAdapter(command, args, cwd, "ignore");
  const reaps = child.spawnargs.includes(reaperShim);
  const adapterPid = shimChild(child, reaps);
  // Read now, while it runs: the debuggee it starts writes to the same stdout.
  const programOutput = child.pid === undefined ? [] : outputTargets(child.pid);
  const tail = { text: "" };
  const exited = exitOf(child);
  child.stderr?.setEncoding("utf8");
  child.stdout?.setEncoding("utf8");
  const address = await new Promise<{ host: string; port: number }>((resolve, reject) => {
    let listening = false;
    const timer = setTimeout(
      () => fail(`${command} printed no listen address within ${timeoutMs} ms`),
      timeoutMs,
    );
    function fail(message: string): void {
      clearTimeout(timer);
      killGroup(child);
      reject(new Error(`${message}${tail.text ? `: ${tail.text.trim()}` : ""}`));
    }
    child.stdout?.on("data", (chunk: string) => {
      if (listening) {
        sink("stdout", chunk);
        return;
      }
      appendTail(tail, chunk);
      const match = /listening at:?\s*\[?([\w.:-]+?)\]?:(\d+)/i.exec(tail.text);
      if (match) {
        listening = true;
        // delve runs now, before it starts a program whose orphans the shim adopts: learn it.
        adapterPid();
        clearTimeout(timer);
        resolve({ host: match[1]!, port: Number(match[2]) });
      }
    });
    child.stderr?.on("data", (chunk: string) => {
      if (listening) sink("stderr", chunk);
      appendTail(tail, chunk);
    });
    child.once("error", (error) => fail(`${command} could not start (${error.message})`));
    void exited.then(({ code, signal }) => {
      if (!listening) fail(`${command} exited (${signal ?? `code ${code}`}) before listening`);
    });
  });
  let socket: Socket;
  try {
    socket = await connectSocket(address.host, address.port, 5000);
  } catch (error) {
    killGroup(child);
    throw error;
  }
  const connection = new DapConnection(socket, socket);
  void exited.then(({ code, signal }) =>
    connection.close(`the adapter exited (${signal ?? `code ${code}`})`),
  );
  return {
    connection,
    child,
    socket,
    exited,
    stderrTail: () => tail.text,
    reaps,
    adapterPid,
    programOutput,
    mark,
  };
}

/**
 * The adapter's own pid: the child itself, or under the reaper shim the shim's first child,
 * remembered once seen (see {@link firstChildOf}), and undefined once it has ended.
 */
function shimChild(child: ChildProcess, reaps: boolean): () => number | undefined {
  if (!reaps || !child.pid) return () => child.pid;
  return firstChildOf(child.pid);
}

/**
 * Stops an adapter that was started but is not used (a launch that chose another one): SIGTERM
 * (the reaper shim forwards it and reaps), then SIGKILL for its process group if it lingers.
 */
export async function discardAdapter(adapter: AdapterProcess): Promise<void> {
  const child = adapter.child;
  if (!child?.pid) return;
  const running = (): boolean => child.exitCode === null && child.signalCode === null;
  const exitWithin = (ms: number): Promise<unknown> =>
    Promise.race([adapter.exited, new Promise((resolve) => setTimeout(resolve, ms))]);
  if (running()) {
    child.kill("SIGTERM");
    await exitWithin(1000);
  }
  // Whatever is left in its group (the shim's child when the shim died first).
  signalGroup(child, "SIGKILL");
  if (running()) await exitWithin(1000);
  adapter.connection.close("the adapter was not used");
}
