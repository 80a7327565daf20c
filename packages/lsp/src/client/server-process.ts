import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createProcessMark, signalGroup, terminateProcess } from "@tools/registry";

/** Lines of the server's stderr kept (see {@link ServerProcess.stderrTail}). */
const stderrLines = 20;

/**
 * A language server's process: spawned in its root, detached in a process group of its own,
 * with a temporary folder of its own and the process mark whatever it starts carries; the last
 * lines of its stderr kept.
 */
export class ServerProcess {
  readonly child: ChildProcess;
  readonly pid: number | undefined;
  private readonly stderr: string[] = [];
  /**
   * The process's own temporary folder (its TMPDIR), removed once it has ended: servers leave
   * files there (typescript-language-server a folder of tsserver cancellation files per start).
   */
  private readonly temporaryFolder: string | undefined;
  /** The process mark the server and whatever it starts carry. */
  private readonly mark: string;

  /** Spawns `binary` with `args` in `root`, with `env` (its TMPDIR and mark added). */
  constructor(binary: string, args: readonly string[], root: string, env: NodeJS.ProcessEnv) {
    this.temporaryFolder = makeTemporaryFolder(env.TMPDIR || tmpdir());
    // What the server starts (tsserver, a gopls daemon) carries its mark and ends with it.
    const mark = createProcessMark();
    this.mark = mark.value;
    this.child = spawn(binary, [...args], {
      cwd: root,
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
      env: {
        ...env,
        ...(this.temporaryFolder === undefined ? {} : { TMPDIR: this.temporaryFolder }),
        ...mark.env,
      },
    });
    this.pid = this.child.pid;
    this.child.stderr?.setEncoding("utf8");
    this.child.stderr?.on("data", (chunk: string) => {
      this.stderr.push(...chunk.split("\n").filter((line) => line.trim() !== ""));
      if (this.stderr.length > stderrLines) this.stderr.splice(0, this.stderr.length - stderrLines);
    });
    // A write to a dead server's stdin must not become an unhandled error.
    this.child.stdin?.on("error", () => undefined);
  }

  /** The last lines the server wrote to stderr. */
  stderrTail(): string {
    return this.stderr.join("\n");
  }

  /** Ends the process and its whole group (and whatever carries its mark): SIGTERM, then SIGKILL after 1 s. */
  terminate(): Promise<void> {
    return terminateProcess(this.child, { group: true, mark: this.mark, graceMs: 1000 });
  }

  /** Kills the process group at once (SIGKILL). */
  kill(): void {
    signalGroup(this.child, "SIGKILL");
  }

  /** Removes the process's temporary folder (once it has ended). */
  removeTemporaryFolder(): void {
    if (this.temporaryFolder !== undefined) rmSync(this.temporaryFolder, { recursive: true, force: true });
  }
}

/** A new folder for one server process's temporary files, or undefined when it cannot be made (the server then uses `parent`). */
function makeTemporaryFolder(parent: string): string | undefined {
  try {
    return mkdtempSync(join(parent, "lsp-tmp-"));
  } catch {
    return undefined;
  }
}
