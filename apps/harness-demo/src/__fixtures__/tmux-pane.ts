import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { promisify } from "node:util";

const exec = promisify(execFile);

/** Whether tmux is installed (the terminal tests skip without it). */
export const tmuxFound = existsSync("/usr/bin/tmux") || existsSync("/usr/local/bin/tmux");

/**
 * A test's private tmux server (its socket at `socket`) and the window named "demo" the test runs
 * the demo in: commands, the pane's text, typing, and the server's end.
 */
export class TmuxPane {
  constructor(readonly socket: string) {}

  /** Runs tmux on the test's private server. */
  async tmux(...args: string[]): Promise<string> {
    const { stdout } = await exec("tmux", ["-S", this.socket, ...args], { timeout: 10_000 });
    return stdout;
  }

  /** The whole pane, with its scrollback. */
  screen(): Promise<string> {
    return this.tmux("capture-pane", "-p", "-t", "demo", "-S", "-500");
  }

  /** Polls the pane until `needle` shows up (bounded); returns the pane. */
  async waitForScreen(needle: string | RegExp, timeoutMs = 20_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const text = await this.screen();
      if (typeof needle === "string" ? text.includes(needle) : needle.test(text)) return text;
      if (Date.now() > deadline) throw new Error(`'${String(needle)}' did not show up; the pane:\n${text}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Types a line and presses Enter. */
  async type(line: string): Promise<void> {
    await this.tmux("send-keys", "-t", "demo", "-l", line);
    await this.tmux("send-keys", "-t", "demo", "Enter");
  }

  /** Ends the server and whatever runs in it, whatever state the test left. */
  async kill(): Promise<void> {
    await exec("tmux", ["-S", this.socket, "kill-server"]).catch(() => undefined);
  }
}
