import { readdir } from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import { tempWorkspace, type TempWorkspace } from "./__fixtures__/temp-workspace.js";

let ws: TempWorkspace | undefined;
afterEach(async () => {
  await ws?.cleanup();
  ws = undefined;
});

describe("the fail-closed hint of createDemoRun", () => {
  it("under --approval ask, says to start with --approval auto or attach an operator", async () => {
    ws = await tempWorkspace({}, "ask");
    const result = await ws.call("write", { path: "a.txt", content: "x" });
    expect(result.error?.code).toBe("NO_APPROVER");
    expect(result.error?.message).toContain("start it with --approval auto");
    expect(result.error?.message).toContain("--operator jsonl");
  });

  it("under --approval auto, a worker's denied write says to attach an operator, not to use auto again", async () => {
    ws = await tempWorkspace({}, "auto");
    const result = await ws.call("write", { path: "a.txt", content: "x" }, "worker");
    expect(result.error?.code).toBe("NO_APPROVER");
    const message = result.error?.message ?? "";
    expect(message).not.toContain("start it with --approval auto");
    expect(message).toContain("--approval auto");
    expect(message).toContain("--operator jsonl");
    expect(message).toContain("interactive");
    expect(await readdir(ws.dir)).toEqual([]);
  });
});
