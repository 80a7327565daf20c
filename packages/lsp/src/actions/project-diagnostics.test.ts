import { chmodSync } from "node:fs";
import { join } from "node:path";
import { createRun } from "@tools/registry";
import { afterEach, describe, expect, it } from "vitest";
import { createLspSupervisor } from "../supervisor/supervisor.js";
import { tempTree } from "../test-support/fixtures.js";
import { projectDiagnostics } from "./project-diagnostics.js";

/**
 * diagnostics("*") when a checker misbehaves. The checkers here are fakes, placed where the
 * project-local lookup finds them first: the real tsc and pyright cannot be made to hang or to
 * print something other than their report (pyright --outputjson prints JSON even for a broken
 * config), but a wrapper script or a stuck build can.
 */
const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function project(files: Record<string, string>, executables: readonly string[]) {
  const tree = tempTree("project-check", files);
  cleanups.push(tree.remove);
  for (const path of executables) chmodSync(join(tree.dir, path), 0o755);
  const run = createRun({ workingDirectory: tree.dir });
  const supervisor = createLspSupervisor(run);
  cleanups.push(() => run.dispose());
  return {
    dir: tree.dir,
    check: (budgetMs?: number) =>
      projectDiagnostics(
        {
          supervisor,
          resolvePath: (path) => join(tree.dir, path),
          progress: () => undefined,
          signal: new AbortController().signal,
        },
        budgetMs,
      ),
  };
}

describe("diagnostics *", () => {
  it("says a checker printed something other than its report, quoting how its output ends", async () => {
    const { check } = project(
      {
        "pyproject.toml": '[project]\nname = "app"\n',
        "app.py": "x: int = 1\n",
        ".venv/bin/pyright":
          "#!/bin/sh\necho 'pyright wrapper: installing node 20 into ~/.cache'\necho 'download failed' >&2\nexit 1\n",
      },
      [".venv/bin/pyright"],
    );
    const answer = await check();
    expect(answer).toMatch(
      /^python \(\.\): not checked: pyright --outputjson exited with code 1 but its output is not the report it should print \(.+\); its output ends with: download failed \| pyright wrapper: installing node 20 into ~\/\.cache$/,
    );
  });

  it("stops a checker at the call's bound and lists the roots it had no time for", async () => {
    const { check } = project(
      {
        "a/tsconfig.json": "{}\n",
        "a/node_modules/.bin/tsc": "#!/bin/sh\nsleep 30\n",
        "b/tsconfig.json": "{}\n",
        "b/node_modules/.bin/tsc": "#!/bin/sh\necho 'index.ts(1,7): error TS2322: nope'\nexit 2\n",
      },
      ["a/node_modules/.bin/tsc", "b/node_modules/.bin/tsc"],
    );
    const answer = await check(1_500);
    // The checker's own bound is what was left of the call's when it started (under load, a
    // little less than 1.5 s).
    expect(answer.split("\n")).toEqual([
      expect.stringMatching(
        /^typescript \(a\): not checked: tsc was stopped \(still running at its 1\.\d s bound\)$/,
      ),
      'typescript (b): not checked: the 1.5 s bound of one diagnostics("*") call was reached; use diagnostics on this root\'s files',
    ]);
  });

  it("runs every root when the bound allows, each with what is left of it", async () => {
    const { check } = project(
      {
        "b/tsconfig.json": "{}\n",
        "b/node_modules/.bin/tsc": "#!/bin/sh\necho 'index.ts(1,7): error TS2322: nope'\nexit 2\n",
      },
      ["b/node_modules/.bin/tsc"],
    );
    const answer = await check(60_000);
    expect(answer.split("\n")).toEqual([
      "typescript (tsc --noEmit --pretty false -p b in b): 1 problem",
      "b/index.ts:1:7 error [TS2322] nope",
    ]);
  });

  // tsc prints no warnings of its own: the fakes print them, in tsc's format.
  it("lists every root's errors before any root's warnings, so many warnings never hide an error", async () => {
    const warnings = Array.from(
      { length: 250 },
      (_, index) => `echo 'index.ts(${index + 1},1): warning TS6133: unused ${index + 1}'`,
    ).join("\n");
    const { check } = project(
      {
        "a/tsconfig.json": "{}\n",
        "a/node_modules/.bin/tsc": `#!/bin/sh\n${warnings}\necho 'util.ts(3,1): error TS1005: a'\nexit 2\n`,
        "b/tsconfig.json": "{}\n",
        "b/node_modules/.bin/tsc":
          "#!/bin/sh\necho 'main.ts(9,2): warning TS6133: b'\necho 'index.ts(1,7): error TS2322: b'\nexit 2\n",
      },
      ["a/node_modules/.bin/tsc", "b/node_modules/.bin/tsc"],
    );
    const lines = (await check(60_000)).split("\n");
    expect(lines.slice(0, 5)).toEqual([
      "typescript (tsc --noEmit --pretty false -p a in a): 251 problems",
      "typescript (tsc --noEmit --pretty false -p b in b): 2 problems",
      "a/util.ts:3:1 error [TS1005] a",
      "b/index.ts:1:7 error [TS2322] b",
      "a/index.ts:1:1 warning [TS6133] unused 1",
    ]);
    expect(lines).toHaveLength(2 + 200 + 1);
    expect(lines.at(-1)).toMatch(/53 more problems/);
    expect(lines).not.toContain("b/main.ts:9:2 warning [TS6133] b");
  });
});
