import type * as FsPromises from "node:fs/promises";
import { afterEach, describe, expect, it, vi } from "vitest";
import { tempWorkspace, type TempWorkspace } from "../__fixtures__/temp-workspace.js";

// A file system without modes (CIFS, some FUSE mounts) refuses chmod: injected here, since no
// such file system is mounted on the test machine.
vi.mock("node:fs/promises", async (importOriginal) => {
  const actual = await importOriginal<typeof FsPromises>();
  return {
    ...actual,
    chmod: vi.fn(() =>
      Promise.reject(Object.assign(new Error("operation not permitted (injected)"), { code: "EPERM" })),
    ),
  };
});

let ws: TempWorkspace;
afterEach(async () => ws.cleanup());

describe("apply_patch where chmod is refused", () => {
  it("still moves a file, keeping what mode it can", async () => {
    ws = await tempWorkspace({ "run.sh": "echo a\n" });
    const result = await ws.call("apply_patch", {
      patch: [
        "*** Begin Patch",
        "*** Update File: run.sh",
        "*** Move to: bin/run.sh",
        "@@",
        "-echo a",
        "+echo b",
        "*** End Patch",
      ].join("\n"),
    });
    expect(ws.toolText(result)).toBe("applied the patch:\nR run.sh → bin/run.sh");
    expect(await ws.read("bin/run.sh")).toBe("echo b\n");
  });
});
