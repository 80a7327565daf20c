import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ServeSession } from "../__fixtures__/cli-process.js";
import { copySampleWorkspace, type WorkspaceCopy } from "./tour/sample-workspace.js";

let workspace: WorkspaceCopy | undefined;
let session: ServeSession | undefined;

afterEach(async () => {
  if (session && session.child.exitCode === null && session.child.signalCode === null) await session.close();
  session = undefined;
  await workspace?.remove();
  workspace = undefined;
});

describe("harness-demo serve with every package wired", () => {
  it(
    "calls ast_grep and eval (Python from the project's .venv, then JavaScript) through JSON lines",
    { timeout: 60_000 },
    async () => {
      workspace = await copySampleWorkspace();
      expect(workspace.venvError).toBeUndefined();
      // The Python project is the working directory: eval finds its .venv there.
      session = new ServeSession(["--workdir", join(workspace.path, "python"), "--approval", "auto"]);

      const grep = await session.call({
        id: "g",
        tool: "ast_grep",
        args: { pattern: "total($X)", language: "python" },
      });
      expect(grep["ok"]).toBe(true);
      expect(JSON.stringify(grep["content"])).toContain("report.py:8");

      const cell = await session.call(
        {
          id: "e",
          tool: "eval",
          args: {
            code: "import sys, pandas as pd\nprint(sys.prefix.endswith('.venv'))\npd.read_csv('sales.csv').units.sum()",
            description: "sum the units sold in the sales file",
          },
        },
        45_000,
      );
      expect(cell).toMatchObject({ id: "e", ok: true, error: null });
      expect(cell["content"]).toEqual([{ type: "text", text: "True\n81" }]);

      const js = await session.call(
        {
          id: "j",
          tool: "eval",
          args: {
            code: "[1, 2, 3].map((x) => x * 2)",
            language: "javascript",
            description: "double a few numbers in javascript",
          },
        },
        30_000,
      );
      expect(js["ok"]).toBe(true);
      expect(JSON.stringify(js["content"])).toContain("2, 4, 6");

      // Plan mode cannot reach eval (exec tier).
      const refused = await session.call({
        id: "p",
        surface: "plan",
        tool: "eval",
        args: { code: "1", description: "try to run code from plan mode" },
      });
      expect(refused["ok"]).toBe(false);
      expect(refused["error"]).toContain("plan mode sees read tools only");

      expect(await session.close(20_000)).toBe(0);
      expect(session.stray).toEqual([]);
    },
  );
});
