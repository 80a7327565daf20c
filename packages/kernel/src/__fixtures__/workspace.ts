import { execFileSync, execSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createRegistry,
  createRun,
  defineTool,
  textResult,
  type Registry,
  type Run,
  type Tool,
} from "@tools/registry";
import { z } from "zod";
import { evalTool } from "../eval/eval-tool.js";
import { createKernelFactory, kernelFactoryKey, type KernelFactoryOptions } from "../factory/kernel-factory.js";

/** True with CI=true: a missing backend fails instead of skipping. */
export const ci = process.env.CI === "true";

/** The Debian interpreter that has ipykernel, pandas and matplotlib. */
export const systemPython = "/usr/bin/python3";

/** Whether the Python backend is here (ipykernel importable by /usr/bin/python3). */
export const pythonFound = (() => {
  try {
    execFileSync(systemPython, ["-c", "import ipykernel, pandas, matplotlib"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();
if (!pythonFound && !ci) {
  console.warn("SKIPPING Python kernel tests: /usr/bin/python3 cannot import ipykernel, pandas and matplotlib");
}

/** A working directory with a project-local `.venv` (system site packages, so ipykernel is there). */
export function makeWorkspace(options: { venv?: boolean } = {}): { directory: string; remove: () => void } {
  const directory = mkdtempSync(join(tmpdir(), "kernel-ws-"));
  if (options.venv ?? true) {
    execFileSync(systemPython, ["-m", "venv", "--system-site-packages", "--without-pip", join(directory, ".venv")]);
  }
  writeFileSync(join(directory, "notes.txt"), "alpha\nbeta\n");
  return { directory, remove: () => rmSync(directory, { recursive: true, force: true }) };
}

/** A small `read`-like tool, as the harness's own would be. */
export const readTool: Tool = defineTool({
  name: "read",
  tier: "read",
  parallelSafe: true,
  description: "Reads a text file. Example: {\"path\": \"notes.txt\"}",
  input: z.object({ path: z.string() }),
  paths: (args) => [args.path],
  execute: async (args, context) => {
    const { readFile } = await import("node:fs/promises");
    return textResult(await readFile(context.resolvePath(args.path), "utf8"));
  },
});

/** A small `shell` tool, as the harness's own would be (exec tier: approval applies). */
export const shellTool: Tool = defineTool({
  name: "shell",
  tier: "exec",
  parallelSafe: true,
  description: "Runs a shell command. Example: {\"command\": \"ls\"}",
  input: z.object({ command: z.string() }),
  execute: (args, context) =>
    textResult(execSync(args.command, { cwd: context.run.workingDirectory, encoding: "utf8", shell: "/bin/bash" })),
});

/** A registry with eval, read and shell, and a run in `directory` wired with a kernel factory. */
export function makeRun(
  directory: string,
  factoryOptions: KernelFactoryOptions = {},
  registryTools: readonly Tool[] = [],
): { registry: Registry; run: Run } {
  const registry = createRegistry({ tools: [evalTool, readTool, shellTool, ...registryTools], approval: "auto" });
  const factory = createKernelFactory({ warmSpare: false, ...factoryOptions });
  const run = createRun({ workingDirectory: directory, resources: [[kernelFactoryKey, factory]] });
  return { registry, run };
}
