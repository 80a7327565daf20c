import { spawn } from "node:child_process";
import { cp, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cliPath } from "../__fixtures__/cli-process.js";
import { sampleWorkspace } from "./tour/sample-workspace.js";

let dir: string;

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "harness-demo-piped-")));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/**
 * Runs `--interactive` with piped stdin: once the banner is out, `input(banner)` is written in
 * one chunk and stdin ends. Resolves with the exit code and everything on stdout (bounded).
 */
function interactiveSession(
  input: (banner: string) => string,
): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath, "--interactive", "--workdir", dir], {
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let sent = false;
    child.stderr.resume();
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      if (!sent && stdout.includes('"exit" ends.\n')) {
        sent = true;
        child.stdin.end(input(stdout));
      }
    });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`--interactive did not finish; its output:\n${stdout}`));
    }, 45_000);
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout });
    });
  });
}

describe("harness-demo --interactive with piped input", () => {
  it("runs every line that arrives in one chunk, in order, then exits 0 at end of input", async () => {
    await writeFile(join(dir, "a"), "first\n");
    await writeFile(join(dir, "b"), "second\n");
    const { code, stdout } = await interactiveSession(
      () => 'read {"path":"a"}\nread {"path":"b"}\nread path=a limit=1\n',
    );
    expect(code).toBe(0);
    const after = stdout.slice(stdout.indexOf('"exit" ends.\n'));
    expect(after).toBe('"exit" ends.\ntool> ok\n1\tfirst\ntool> ok\n1\tsecond\ntool> ok\n1\tfirst\n');
  });

  it(
    "runs the banner's own example calls as written, on the sample workspace's file",
    { timeout: 60_000 },
    async () => {
      await cp(join(sampleWorkspace, "src"), join(dir, "src"), { recursive: true });
      const { code, stdout } = await interactiveSession((banner) => {
        const examples = /Type a call: (.+), or (.+); "tools" lists them/.exec(banner);
        expect(examples).not.toBeNull();
        return `${examples![1]}\n${examples![2]}\n`;
      });
      expect(code).toBe(0);
      const results = stdout.split("tool> ").slice(1);
      expect(results).toHaveLength(2);
      expect(results[0]).toMatch(/^ok\n1\t\/\*\* A greeting for one person\. \*\/\n2\texport function greet/);
      expect(results[1]).toMatch(/^ok\n/);
      expect(results[1]).toContain("src/greet.ts:8");
    },
  );

  it("denies a call that needs a card saying stdin is not a terminal, not to run interactive", async () => {
    const { code, stdout } = await interactiveSession(() => 'shell command="echo hi"\n');
    expect(code).toBe(0);
    expect(stdout).toContain("error NO_APPROVER\n");
    expect(stdout).toContain("but stdin and stdout are not a terminal here (piped or redirected)");
    expect(stdout).not.toContain("or run `harness-demo interactive` to answer");
  });

  it("refuses stray words naming them, and reads a number-like value as the text a string argument takes", async () => {
    await writeFile(join(dir, "2024"), "a year\n");
    const { code, stdout } = await interactiveSession(
      () => "shell command=echo hello world\nread path=2024\n",
    );
    expect(code).toBe(0);
    const after = stdout.slice(stdout.indexOf('"exit" ends.\n'));
    expect(after).toBe(
      '"exit" ends.\ntool> ' +
        `not a call: 'hello world' are not name=value arguments; a value with spaces needs quotes: command="echo hello world" (or single quotes), or type the arguments as JSON\n` +
        "tool> ok\n1\ta year\n",
    );
  });
});
