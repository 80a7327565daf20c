import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readTextFile } from "../files/file-texts.js";
import { runCommand, type RunOptions } from "./run-command.js";

/** Extra tsc arguments for one run, how they are shown, and what to remove once it ended. */
export interface BuildInfoRedirect {
  readonly args: readonly string[];
  readonly shown: readonly string[];
  readonly remove: () => void;
}

/** Options that can mean tsc writes a `.tsbuildinfo`, or bring them in from another config. */
const mayWriteBuildInfo = /"(?:composite|incremental|extends)"/;

/**
 * Whether `tsc --noEmit -p root` writes a `.tsbuildinfo` into the project: when the resolved
 * config has `composite` or `incremental`. Asks `tsc --showConfig` (it follows `extends`) unless
 * the root's tsconfig.json names none of composite, incremental, extends. False when the config
 * cannot be read or resolved (the check itself then reports why). Rejects as `runCommand` does.
 */
export async function writesBuildInfo(tsc: string, root: string, options: RunOptions): Promise<boolean> {
  let text: string;
  try {
    text = readTextFile(join(root, "tsconfig.json"), 4 * 1024 * 1024);
  } catch {
    return false;
  }
  if (!mayWriteBuildInfo.test(text)) return false;
  const output = await runCommand(tsc, ["--showConfig", "-p", root], options);
  if (output.exitCode !== 0) return false;
  let config: { compilerOptions?: { composite?: unknown; incremental?: unknown } };
  try {
    config = JSON.parse(output.stdout) as typeof config;
  } catch {
    return false;
  }
  return config.compilerOptions?.composite === true || config.compilerOptions?.incremental === true;
}

/**
 * `--tsBuildInfoFile` pointing into a fresh temp folder, so a composite or incremental project
 * gets no `.tsbuildinfo` from a check. Only for such projects: older tsc (5.4 checked) rejects the
 * option without composite or incremental (TS5069); 5.9 accepts and ignores it there.
 */
export function buildInfoRedirect(): BuildInfoRedirect {
  const folder = mkdtempSync(join(tmpdir(), "lsp-tsbuildinfo-"));
  return {
    args: ["--tsBuildInfoFile", join(folder, "tsconfig.tsbuildinfo")],
    shown: ["--tsBuildInfoFile", "<temp file>"],
    remove: () => rmSync(folder, { recursive: true, force: true }),
  };
}
