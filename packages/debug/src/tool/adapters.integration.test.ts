import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ci, debugRun, removeWorkspace, workspace } from "../__fixtures__/harness.js";

const found = existsSync("/usr/bin/python3");
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
      expect(debugpy).toContain(`cannot debug ${join(dir, ".venv/bin/python")}`);
      expect(debugpy).toContain("-m pip install debugpy");
    } finally {
      await run.dispose();
    }
  });
});
