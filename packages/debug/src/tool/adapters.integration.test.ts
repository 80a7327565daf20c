import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ci, debugRun, removeWorkspace, workspace } from "../__fixtures__/harness.js";

const found = existsSync("/usr/bin/python3");

/** Processes whose command line mentions `text` (zombies have an empty one and count too). */
function processesMentioning(text: string): string[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry) && Number(entry) !== process.pid)
    .flatMap((pid) => {
      try {
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
        return cmdline.includes(text) ? [`${pid}: ${cmdline}`] : [];
      } catch {
        return [];
      }
    });
}
if (!found && !ci)
  console.warn("SKIPPING the interpreter pairing test: /usr/bin/python3 with debugpy is missing");

describe.skipIf(!found && !ci)("adapters: debugpy interpreter pairing", () => {
  let dir: string;
  beforeAll(() => {
    expect(found, "python3-debugpy must be installed").toBe(true);
    dir = workspace("python");
    // A project venv that cannot import debugpy (no system site packages).
    execFileSync("/usr/bin/python3", ["-m", "venv", "--without-pip", join(dir, ".venv")], {
      stdio: "ignore",
    });
  });
  afterAll(() => removeWorkspace(dir));

  it("runs the adapter with a python that has debugpy and warns that it cannot debug the project's venv", async () => {
    const { run, call } = debugRun(dir);
    try {
      const adapters = await call({ op: "adapters" });
      const line = adapters.text.split("\n").findIndex((text) => text.startsWith("debugpy:"));
      const debugpy = adapters.text
        .split("\n")
        .slice(line, line + 2)
        .join("\n");
      expect(debugpy).toMatch(/debugpy: marker pyproject\.toml found; binary \/\S+python3?\S*; usable/);
      expect(debugpy).not.toContain(".venv/bin/python; usable");
      // The project's own python is named as the working directory sees it.
      expect(debugpy).toContain(
        "cannot debug .venv/bin/python; install debugpy there: .venv/bin/python -m pip install debugpy",
      );
    } finally {
      await run.dispose();
    }
  });

  it("starts the adapter with the likely python during detection and leaves nothing when detection picks another", async () => {
    // A fresh workspace: its .venv python has never been probed.
    const fresh = workspace("python");
    execFileSync("/usr/bin/python3", ["-m", "venv", "--without-pip", join(fresh, ".venv")], {
      stdio: "ignore",
    });
    const { run, call } = debugRun(fresh, { launchMs: 5000 });
    try {
      // The project's .venv comes first, so the launch starts the adapter with it while detection
      // probes; it cannot import debugpy, so detection picks another python and that start is discarded.
      const launch = await call({ op: "launch", program: "app.py" });
      expect(launch.code).toBe("DEBUG_LAUNCH_FAILED");
      expect(launch.text).toContain("cannot debug .venv/bin/python;");
      expect(processesMentioning(join(fresh, ".venv/bin/python"))).toEqual([]);
    } finally {
      await run.dispose();
      removeWorkspace(fresh);
    }
  });
});

describe.skipIf(!found && !ci)("adapters: a root marker in a subfolder", () => {
  let dir: string;
  beforeAll(() => {
    // backend/pyproject.toml, nothing at the top: launch finds the marker from the program's folder up.
    dir = mkdtempSync(join(tmpdir(), "tools-debug-mono-"));
    cpSync(new URL("../__fixtures__/python", import.meta.url).pathname, join(dir, "backend"), {
      recursive: true,
    });
  });
  afterAll(() => removeWorkspace(dir));

  it("says what launch would do: the marker below serves the programs in its folder", async () => {
    const { run, call } = debugRun(dir);
    try {
      const adapters = await call({ op: "adapters" });
      expect(adapters.text).toMatch(
        /^debugpy: marker backend\/pyproject\.toml found; binary \/\S+; usable for programs under backend\/$/m,
      );
      expect(adapters.text).toMatch(
        /^delve: .*no root marker \(go\.mod\) in the working directory nor in the folders up to 2 levels below it/m,
      );
      const launch = await call({ op: "launch", program: "backend/early.py" });
      expect(launch.isError, launch.text).toBe(false);
      expect(launch.text).toContain("the program exited with code 0");
    } finally {
      await run.dispose();
    }
  });
});
