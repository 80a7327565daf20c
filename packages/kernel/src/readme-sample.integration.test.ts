import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { ci, makeWorkspace, pythonFound } from "./__fixtures__/workspace.js";

const packageRoot = new URL("../", import.meta.url);

/** The README's TypeScript sample (it is plain JavaScript), importing the built packages. */
function readmeSample(): string {
  const readme = readFileSync(new URL("README.md", packageRoot), "utf8");
  const sample = /```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
  const built = (path: string) => JSON.stringify(pathToFileURL(new URL(path, packageRoot).pathname).href);
  return sample
    .replace('"@tools/registry"', built("node_modules/@tools/registry/dist/index.js"))
    .replace('"@tools/kernel"', built("dist/index.js"));
}

describe.skipIf(!pythonFound && !ci)("the README's sample", () => {
  it("runs as written and prints the DataFrame's head", async () => {
    expect(pythonFound).toBe(true);
    const workspace = makeWorkspace();
    try {
      writeFileSync(join(workspace.directory, "sales.csv"), "month,total\njan,120\nfeb,95\n");
      writeFileSync(join(workspace.directory, "sample.mjs"), readmeSample());
      const { code, stdout, stderr } = await new Promise<{
        code: number | null;
        stdout: string;
        stderr: string;
      }>((resolve) => {
        const child = execFile(
          process.execPath,
          ["sample.mjs"],
          { cwd: workspace.directory, timeout: 50_000 },
          (_error, out, err) => resolve({ code: child.exitCode, stdout: out, stderr: err }),
        );
      });
      expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
      expect(stdout).toMatch(/month\s+total\n0\s+jan\s+120\n1\s+feb\s+95\n$/);
    } finally {
      workspace.remove();
    }
  });
});
