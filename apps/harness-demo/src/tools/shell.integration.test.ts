import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempWorkspace, type TempWorkspace } from "../__fixtures__/temp-workspace.js";
import { processAlive, waitFor } from "../__fixtures__/wait-for.js";

let ws: TempWorkspace;
afterEach(async () => ws.cleanup());

async function pidFrom(path: string): Promise<number> {
  await waitFor(
    async () => (await readFile(path, "utf8").catch(() => "")).trim() !== "",
    `${path} to be written`,
  );
  return Number((await readFile(path, "utf8")).trim());
}

describe("shell", () => {
  it("returns the exit code and the combined stdout and stderr", async () => {
    ws = await tempWorkspace();
    const result = await ws.call("shell", { command: "echo out; echo err >&2; exit 3" });
    expect(result.isError).toBe(false);
    const text = ws.text(result);
    expect(text.split("\n")[0]).toBe("exit code 3");
    expect(text).toContain("out");
    expect(text).toContain("err");
  });

  it("runs in cwd inside the workspace and refuses one outside", async () => {
    ws = await tempWorkspace({ "sub/file.txt": "x" });
    expect(ws.text(await ws.call("shell", { command: "ls", cwd: "sub" }))).toBe("exit code 0\nfile.txt");
    const outside = await ws.call("shell", { command: "ls", cwd: ".." });
    expect(outside.error?.code).toBe("GUARDRAIL_REFUSED");
  });

  it("keeps the head and the tail of long output with a note of what was left out", async () => {
    ws = await tempWorkspace();
    const text = ws.text(await ws.call("shell", { command: "seq 1 5000" }));
    const lines = text.split("\n");
    expect(lines.slice(0, 3)).toEqual(["exit code 0", "1", "2"]);
    expect(lines).toContain("… 4800 lines left out …");
    expect(lines[lines.length - 1]).toBe("5000");
    expect(lines.length).toBeLessThan(210);
  });

  it("kills the whole process group on timeout", async () => {
    ws = await tempWorkspace();
    const result = await ws.call("shell", {
      command: "sleep 30 & echo $! > sleep.pid; echo started; wait",
      timeout_seconds: 1,
    });
    expect(result.error?.code).toBe("TIMEOUT");
    expect(result.error?.message).toContain("timed out after 1 s");
    expect(result.error?.message).toContain("started");
    const pid = await pidFrom(join(ws.dir, "sleep.pid"));
    await waitFor(() => !processAlive(pid), `sleep ${pid} to end`);
    expect(processAlive(pid)).toBe(false);
  });

  it("ends a running sleep when the run is disposed", async () => {
    ws = await tempWorkspace();
    const pending = ws.call("shell", { command: "sleep 30 & echo $! > sleep.pid; wait" });
    const pid = await pidFrom(join(ws.dir, "sleep.pid"));
    expect(processAlive(pid)).toBe(true);
    await ws.demo.dispose();
    const result = await pending;
    expect(result.error?.code).toBe("RUN_DISPOSED");
    await waitFor(() => !processAlive(pid), `sleep ${pid} to end`);
    expect(processAlive(pid)).toBe(false);
  });

  it("ends the command when the call is cancelled", async () => {
    ws = await tempWorkspace();
    const controller = new AbortController();
    const pending = ws.demo.registry.invoke(ws.demo.run, {
      tool: "shell",
      args: { command: "sleep 30 & echo $! > sleep.pid; wait" },
      signal: controller.signal,
    });
    const pid = await pidFrom(join(ws.dir, "sleep.pid"));
    controller.abort();
    const result = await pending;
    expect(result.error?.code).toBe("CANCELLED");
    await waitFor(() => !processAlive(pid), `sleep ${pid} to end`);
    expect(processAlive(pid)).toBe(false);
  });

  it("ends background processes the command leaves behind", async () => {
    ws = await tempWorkspace();
    const result = await ws.call("shell", { command: "sleep 30 & echo $!" });
    const pid = Number(ws.text(result).split("\n")[1]);
    expect(ws.text(result).split("\n")[0]).toBe("exit code 0");
    await waitFor(() => !processAlive(pid), `sleep ${pid} to end`);
    expect(processAlive(pid)).toBe(false);
  });

  it("is not on plan mode's surface, and runs one call at a time", async () => {
    ws = await tempWorkspace();
    expect((await ws.call("shell", { command: "true" }, "plan")).error?.code).toBe("TIER_EXCEEDED");
    const first = ws.call("shell", { command: "echo a >> order.txt; sleep 0.2; echo b >> order.txt" });
    const second = ws.call("shell", { command: "echo c >> order.txt" });
    await Promise.all([first, second]);
    expect(await ws.read("order.txt")).toBe("a\nb\nc\n");
  });
});
