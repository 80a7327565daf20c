import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readSync,
  readdirSync,
  realpathSync,
  statSync,
  type Stats,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, extname, isAbsolute, join } from "node:path";
import { DebugError } from "../errors/debug-error.js";
import type { OutputRing } from "../session/output-ring.js";
import {
  connectTcpAdapter,
  startListeningAdapter,
  startStdioAdapter,
  type AdapterProcess,
} from "./adapter-process.js";
import type { AdapterId, AdapterReport } from "./detect-adapter.js";
import { findAllOnPath } from "./find-binary.js";
import { sourceLanguage } from "./source-language.js";

/** How to start one adapter for one session, and what to send it. */
export interface SessionPlan {
  readonly request: "launch" | "attach";
  readonly args: Record<string, unknown>;
  readonly evaluateContext: string;
  readonly terminateDebuggee: boolean;
  /** False for adapters that never exit after disconnect (debugpy #672). */
  readonly exitsOnDisconnect?: boolean;
  readonly cleanupPaths: readonly string[];
  /**
   * True when the session speaks to whatever serves an attach's port (a TCP connection to it):
   * its initialize answer then tells which debugger that is. lldb's attach runs our own lldb-dap.
   */
  readonly connectsToPort?: boolean;
  /** Handshake bounds: delve compiles before it answers, so it gets longer. */
  readonly launchMs: number;
  start(output: OutputRing): Promise<AdapterProcess>;
  /** Ends an adapter started ahead of {@link start} (debugpy's), when the session is not started. */
  discard?(): Promise<void>;
}

/** debugpy's adapter run by `python`, under the reaper shim in the same interpreter. */
export function startDebugpyAdapter(python: string, cwd: string): AdapterProcess {
  return startStdioAdapter(python, ["-m", "debugpy.adapter"], cwd, python);
}

/**
 * The adapter a program calls for, from its extension (`.py` and `.pyw` are Python's); a folder
 * is a Python package when it holds `__main__.py` and no `.go` file (python runs the folder),
 * else a Go package.
 */
export function adapterForProgram(program: string): AdapterId {
  const extension = extname(namedProgram(program)).toLowerCase();
  if (extension === ".py" || extension === ".pyw") return "debugpy";
  if (extension === ".go") return "delve";
  if (extension === ".dart") return "dart";
  try {
    if (statSync(program).isDirectory()) return isPythonPackage(program) ? "debugpy" : "delve";
  } catch {
    // A missing program is reported by the launch itself.
  }
  return "lldb";
}

/**
 * The path whose extension tells a program's kind: the program itself, or, for a name without an
 * extension that is a symlink (`run` → `main.go`), the file it leads to.
 */
function namedProgram(program: string): string {
  if (extname(program) !== "") return program;
  try {
    return realpathSync(program);
  } catch {
    return program;
  }
}

/** True for an ELF file (a compiled program or library), by its first four bytes. */
function isElf(file: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(file, "r");
    const head = Buffer.alloc(4);
    return readSync(fd, head, 0, 4, 0) === 4 && head.toString("latin1") === "\x7fELF";
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function isPythonPackage(folder: string): boolean {
  if (!existsSync(join(folder, "__main__.py"))) return false;
  try {
    return !readdirSync(folder).some((name) => extname(name).toLowerCase() === ".go");
  } catch {
    return false;
  }
}

/**
 * Refuses a program the adapter cannot run (an adapter forced against the program's kind): the
 * launch would otherwise fail deep in the adapter ("spawn ENOTDIR" for a .py file given to delve).
 */
export function checkProgramFits(id: AdapterId, program: string, shown: string): void {
  const named = namedProgram(program);
  const extension = extname(named).toLowerCase();
  let folder = false;
  try {
    folder = statSync(program).isDirectory();
  } catch {
    // A missing program is reported by the launch itself.
  }
  const source = [".py", ".pyw", ".go", ".dart"].includes(extension);
  // Another language's source, or a compiled binary: a file without extension may be a script.
  const language = folder ? undefined : sourceLanguage(named)?.name;
  const binary = !folder && language === undefined && isElf(program);
  const python = "debugpy runs Python: give a .py file or a folder with __main__.py";
  const misfit =
    id === "delve"
      ? !folder && extension !== ".go"
        ? "delve builds a Go package: give its folder or a .go file"
        : undefined
      : id === "lldb" && (folder || source)
        ? "lldb-dap runs a compiled binary: build it first and give the binary"
        : id === "debugpy" && language !== undefined && language !== "Python"
          ? python
          : id === "debugpy" && binary
            ? `it is a compiled binary, and ${python}`
            : id === "dart" && !folder && extension !== ".dart" && (language !== undefined || binary)
              ? "dart runs a .dart file: give the .dart file to run (its main)"
              : undefined;
  if (misfit) {
    // A native source (C, Rust, …) is not lldb's to run as it is: its binary is.
    const usual = adapterForProgram(program);
    const instead =
      usual === "lldb" && !binary && language !== undefined
        ? `build ${shown} and give its binary (lldb runs it)`
        : `leave adapter out to use ${usual}`;
    throw new DebugError(
      "DEBUG_BAD_ARGUMENTS",
      `cannot launch ${shown} with ${id}: ${misfit}, or ${instead}`,
    );
  }
}

/**
 * Refuses a program that is not there to run, before an adapter starts (debugpy would report
 * "started" and then the program's exit, and a FIFO would hang the launch until its wait ran
 * out): it must exist and be a regular file, or a folder where the adapter takes one (a Go
 * package for delve, a folder with `__main__.py` for debugpy). A binary for lldb must be
 * executable. `forced`: the adapter was named, so the program must also fit it
 * ({@link checkProgramFits}). `shown` is the path as the reply shows it.
 */
export function checkProgram(id: AdapterId, program: string, shown: string, forced: boolean): void {
  const refuse = (why: string): never => {
    throw new DebugError("DEBUG_BAD_ARGUMENTS", `cannot launch ${shown}: ${why}`);
  };
  let info: Stats;
  try {
    info = statSync(program);
  } catch {
    // `shown` is relative unless the path lies outside the working directory.
    return refuse(
      isAbsolute(shown)
        ? "it does not exist; give the program's path relative to the working directory"
        : "it does not exist in the working directory; give the program's path relative to it",
    );
  }
  if (!info.isFile() && !info.isDirectory()) {
    refuse("it is a FIFO, socket or device, not a program; give the program's file or folder");
  }
  if (forced) checkProgramFits(id, program, shown);
  if (info.isDirectory()) {
    if (id === "debugpy" && !existsSync(join(program, "__main__.py"))) {
      refuse("it is a folder without __main__.py; give the .py file to run");
    }
    if (id === "dart") refuse("it is a folder; give the .dart file to run (its main)");
  } else if (id === "lldb" && (info.mode & 0o111) === 0) {
    refuse("it is not executable; give the compiled binary (build it first)");
  }
}

/** The launch plan for a program with a usable adapter. */
export function launchPlan(
  report: AdapterReport,
  program: string,
  args: readonly string[],
  cwd: string,
  launchMs: number,
): SessionPlan {
  const binary = report.binary!;
  switch (report.id) {
    case "debugpy":
      return {
        request: "launch",
        args: {
          program,
          args,
          cwd,
          // internalConsole: any terminal console needs runInTerminal, which we refuse.
          console: "internalConsole",
          justMyCode: true,
          stopOnEntry: false,
          // Children (subprocess, multiprocessing, os.fork) run free: with subProcess on, debugpy
          // starts each child waiting for a debugger to attach (a startDebugging / debugpyAttach
          // the tool does not serve), so `subprocess.run([sys.executable, …])` hung for good.
          subProcess: false,
          python: [report.debuggeePython ?? binary],
          env: { PYDEVD_DISABLE_FILE_VALIDATION: "1" },
        },
        evaluateContext: "repl",
        terminateDebuggee: true,
        exitsOnDisconnect: false,
        cleanupPaths: [],
        launchMs,
        start: () => Promise.resolve(startDebugpyAdapter(binary, cwd)),
      };
    case "lldb":
      return {
        request: "launch",
        args: {
          program,
          args,
          cwd,
          stopOnEntry: false,
          // lldb gives the program a terminal for its stdin, which nobody can type into: a read
          // waited for good. /dev/null gets end of file at once, as under debugpy and delve; its
          // stdout and stderr stay on the terminal. `?`: lldb-dap echoes nothing of it on success.
          preRunCommands: ["?settings set target.input-path /dev/null"],
        },
        evaluateContext: "watch",
        terminateDebuggee: true,
        cleanupPaths: [],
        launchMs,
        start: () => Promise.resolve(startStdioAdapter(binary, [], cwd)),
      };
    case "dart":
      return {
        request: "launch",
        args: { program, args, cwd, console: "debugConsole" },
        evaluateContext: "repl",
        terminateDebuggee: true,
        cleanupPaths: [],
        launchMs,
        start: () => Promise.resolve(startStdioAdapter(binary, ["debug_adapter"], cwd)),
      };
    case "delve": {
      // A temporary output path: delve's default `__debug_bin` would be left in the project.
      const buildDir = mkdtempSync(join(tmpdir(), "tools-debug-dlv-"));
      // A .go file's package is its folder (a link `run` → `cmd/main.go` builds cmd).
      const named = namedProgram(program);
      const packageDir = extname(named).toLowerCase() === ".go" ? dirname(named) : program;
      return {
        request: "launch",
        args: {
          mode: "debug",
          program: packageDir,
          args,
          cwd,
          output: join(buildDir, "__debug_bin"),
          stopOnEntry: false,
          hideSystemGoroutines: true,
        },
        evaluateContext: "watch",
        terminateDebuggee: true,
        cleanupPaths: [buildDir],
        // Delve compiles before it answers: a cold build takes seconds.
        launchMs: Math.max(launchMs, 120_000),
        start: (output) =>
          startListeningAdapter(
            binary,
            ["dap", "--listen", "127.0.0.1:0"],
            packageDir,
            (category, text) => output.push(category, text),
            15_000,
            // The reaper shim's python: delve leaves a program that died while stopped unreaped.
            reaperPython(process.env.PATH ?? ""),
          ),
      };
    }
  }
}

/**
 * A python3 on `searchPath` to run the reaper shim with: the first that is a binary, not a
 * version manager's script (a pyenv shim starts in ~0.5 s, each launch); else the first one.
 */
export function reaperPython(searchPath: string): string | undefined {
  const all = findAllOnPath("python3", searchPath);
  const script = (path: string): boolean => {
    const head = Buffer.alloc(2);
    let fd: number | undefined;
    try {
      fd = openSync(path, "r");
      return readSync(fd, head, 0, 2, 0) === 2 && head.toString() === "#!";
    } catch {
      return true;
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  };
  return all.find((path) => !script(path)) ?? all[0];
}

/** The attach plan for a debuggee listening on `port` on this machine. */
export function attachPlan(report: AdapterReport, port: number, cwd: string, launchMs: number): SessionPlan {
  switch (report.id) {
    case "debugpy":
      // `python -m debugpy --listen PORT` serves an adapter on that port: speak to it directly.
      return {
        request: "attach",
        args: { justMyCode: true },
        evaluateContext: "repl",
        terminateDebuggee: false,
        cleanupPaths: [],
        launchMs,
        connectsToPort: true,
        start: () => connectTcpAdapter("127.0.0.1", port),
      };
    case "delve":
      // `dlv --headless --listen PORT debug|exec|attach …` serves DAP on its port (mode remote).
      return {
        request: "attach",
        args: { mode: "remote", stopOnEntry: false },
        evaluateContext: "watch",
        terminateDebuggee: false,
        cleanupPaths: [],
        launchMs,
        connectsToPort: true,
        start: () => connectTcpAdapter("127.0.0.1", port),
      };
    case "lldb": {
      const binary = report.binary!;
      // An lldb-server / gdbserver listening on PORT. lldb-dap runs attachCommands in async mode
      // and then polls the process's state, failing on the state it has before the connection's
      // first stop is handled ("process unloaded during launch or attach", seen under load). In
      // synchronous mode `gdb-remote` returns once the process has stopped; async mode, which
      // lldb-dap's event thread needs, is restored after it. Without Python in lldb the `script`
      // lines fail alone and the attach goes on as before.
      return {
        request: "attach",
        args: {
          attachCommands: [
            "script lldb.debugger.SetAsync(False)",
            `gdb-remote 127.0.0.1:${port}`,
            "script lldb.debugger.SetAsync(True)",
          ],
        },
        evaluateContext: "watch",
        terminateDebuggee: false,
        cleanupPaths: [],
        launchMs,
        start: () => Promise.resolve(startStdioAdapter(binary, [], cwd)),
      };
    }
    case "dart":
      throw new DebugError(
        "DEBUG_BAD_ARGUMENTS",
        "dart cannot attach by port: its VM service needs a full ws:// URI with an auth code; launch the program instead",
      );
  }
}
