import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

/** The built CLI's shim (`pnpm run build` first). */
export const cliPath = fileURLToPath(new URL("../../bin/harness-demo.js", import.meta.url));

/** Runs the CLI to completion; bounded by `timeoutMs`. */
export function runCli(
  args: readonly string[],
  timeoutMs = 15_000,
  env?: Readonly<Record<string, string>>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath, ...args], {
      stdio: ["ignore", "pipe", "pipe"],
      ...(env === undefined ? {} : { env: { ...process.env, ...env } }),
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`harness-demo ${args.join(" ")} did not finish in ${timeoutMs} ms\n${stderr}`));
    }, timeoutMs);
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A JSON-lines session with `harness-demo serve`. */
export class ServeSession {
  readonly child: ChildProcessWithoutNullStreams;
  /** Every stdout line, parsed, in arrival order. */
  readonly responses: Record<string, unknown>[] = [];
  /** Stdout lines that were not JSON (must stay empty). */
  readonly stray: string[] = [];
  private readonly waiters: (() => void)[] = [];
  readonly exited: Promise<number | null>;

  constructor(args: readonly string[], env?: Readonly<Record<string, string>>) {
    this.child = spawn(process.execPath, [cliPath, "serve", ...args], {
      stdio: ["pipe", "pipe", "pipe"],
      ...(env === undefined ? {} : { env: { ...process.env, ...env } }),
    });
    this.child.stderr.resume();
    createInterface({ input: this.child.stdout }).on("line", (line) => {
      try {
        this.responses.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        this.stray.push(line);
      }
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.exited = new Promise((resolve) => this.child.once("exit", (code) => resolve(code)));
  }

  /** Writes one raw line. */
  sendLine(line: string): void {
    this.child.stdin.write(`${line}\n`);
  }

  /** Sends a request and waits for the response with its id. */
  async call(request: Record<string, unknown>, timeoutMs = 10_000): Promise<Record<string, unknown>> {
    this.sendLine(JSON.stringify(request));
    return this.response((response) => response["id"] === request["id"], timeoutMs);
  }

  /** Waits (bounded) for a response matching `predicate`. */
  async response(
    predicate: (response: Record<string, unknown>) => boolean,
    timeoutMs = 10_000,
  ): Promise<Record<string, unknown>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.responses.find(predicate);
      if (found) return found;
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error("no matching response from harness-demo serve");
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, remaining);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Ends input and waits (bounded) for the process to exit; kills it if it does not. */
  async close(timeoutMs = 10_000): Promise<number | null> {
    this.child.stdin.end();
    return this.waitExit(timeoutMs);
  }

  /** Waits (bounded) for exit, killing the process at the deadline. */
  async waitExit(timeoutMs = 10_000): Promise<number | null> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<"late">((resolve) => {
      timer = setTimeout(() => resolve("late"), timeoutMs);
    });
    const outcome = await Promise.race([this.exited, late]);
    clearTimeout(timer);
    if (outcome === "late") {
      this.child.kill("SIGKILL");
      throw new Error(`harness-demo serve did not exit within ${timeoutMs} ms`);
    }
    return outcome;
  }
}
