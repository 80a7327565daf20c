import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as registry from "@tools/registry";
import { expect, it } from "vitest";
import { describeDebugpy } from "./__fixtures__/describe-debugpy.js";
import * as debug from "./index.js";

/** The README's first TypeScript block, its imports taken out (the test supplies them). */
function readmeSample(): string {
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
  const block = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  if (!block) throw new Error("README.md has no ts block");
  return block.replace(/^import[\s\S]*?;\n/gm, "");
}

describeDebugpy(
  "the README sample",
  (project) => {
    it("runs as written: the launch stops on the breakpoint", async () => {
      const printed: string[] = [];
      const results: registry.ToolResult[] = [];
      /** The registry's own createRegistry, recording what each call of the sample answered. */
      const createRegistry: typeof registry.createRegistry = (options) => {
        const created = registry.createRegistry(options);
        const invoke = created.invoke.bind(created);
        created.invoke = async (...args) => {
          const result = await invoke(...args);
          results.push(result);
          return result;
        };
        return created;
      };
      const scope = {
        ...registry,
        ...debug,
        createRegistry,
        workingDirectory: project.dir,
        console: { log: (text: string) => printed.push(text) },
      };
      const names = Object.keys(scope);
      // oxlint-disable-next-line typescript/no-implied-eval -- the sample is this package's own README
      const sample = new Function(...names, `return (async () => {\n${readmeSample()}\n})();`) as (
        ...values: unknown[]
      ) => Promise<void>;
      await sample(...names.map((name) => (scope as Record<string, unknown>)[name]));
      // Every call of the sample is answered, none refused (NO_APPROVER under the default policy).
      expect(results.map((result) => result.error?.code ?? "ok")).toEqual(["ok", "ok"]);
      expect(printed).toHaveLength(1);
      expect(printed[0]).toContain("started debugpy: app.py");
      expect(printed[0]).toContain("stopped (breakpoint)");
      expect(printed[0]).toContain("app.py:12 in work");
    });
  },
  (dir) => {
    // The sample's app.py: a breakpoint on line 12, in a function that is called.
    const body = Array.from({ length: 10 }, (_, index) => `    x${index} = ${index}`).join("\n");
    writeFileSync(join(dir, "app.py"), `def work():\n${body}\n    return x9\n\nprint(work())\n`);
  },
);
