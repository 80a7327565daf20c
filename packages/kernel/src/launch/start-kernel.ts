import { spawn } from "node:child_process";
import { createProcessMark } from "@tools/registry";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { KernelClient, type KernelLanguage } from "../client/kernel-client.js";
import type { OutputLimits } from "../eval/output-limits.js";
import { outputLimitsVariable } from "../js-kernel/executor-protocol.js";
import { KernelError } from "../kernel-error.js";
import { createConnectionDirectory } from "../protocol/connection.js";
import { assertIpykernel, findPython } from "./find-python.js";
import { pythonSetupCode } from "./python-setup.js";

/** What starting one kernel needs. */
export interface StartKernelOptions {
  readonly language: KernelLanguage;
  /** The kernel's working directory (the run's). */
  readonly cwd: string;
  /** A Python interpreter to use instead of the project's. */
  readonly pythonPath?: string;
  /** The harness's shell tool that `!cmd` and `%%bash` call; default "shell". */
  readonly shellTool: string;
  readonly readyTimeoutMs: number;
  /** Longest wait for the Python kernel's helper cell, in ms; default `readyTimeoutMs`. */
  readonly setupTimeoutMs?: number;
  /**
   * The result's output limits (any left out: the default): the JavaScript kernel sends no more
   * text than about them per cell, and no image the result would not show.
   */
  readonly outputLimits?: Partial<OutputLimits>;
}

/** The compiled JavaScript kernel (tests running from src use the built copy in dist). */
function jsKernelScript(): string {
  const beside = fileURLToPath(new URL("../js-kernel/main.js", import.meta.url));
  if (existsSync(beside)) return beside;
  const built = fileURLToPath(new URL("../../dist/js-kernel/main.js", import.meta.url));
  if (existsSync(built)) return built;
  throw new KernelError({
    code: "KERNEL_NOT_FOUND",
    message: `the JavaScript kernel script is missing (looked for ${beside} and ${built}); build @tools/kernel first`,
  });
}

/**
 * Spawns a kernel in its own process group with a private socket directory, waits until it is
 * ready and installs the in-kernel helpers. The caller owns the returned client.
 */
export async function startKernel(options: StartKernelOptions): Promise<KernelClient> {
  let command: string;
  let args: string[];
  let description: string;
  const connection = createConnectionDirectory(options.language);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    JPY_PARENT_PID: String(process.pid),
    PYDEVD_DISABLE_FILE_VALIDATION: "1",
    TOOLS_KERNEL_PARENT_PID: String(process.pid),
    TOOLS_KERNEL_SHELL_TOOL: options.shellTool,
  };
  if (options.outputLimits) {
    const { maxChars, maxLines, maxImages, maxImageBytes } = options.outputLimits;
    env[outputLimitsVariable] = JSON.stringify({ maxChars, maxLines, maxImages, maxImageBytes });
  }
  if (options.language === "python") {
    const interpreter = findPython(options.cwd, options.pythonPath);
    try {
      await assertIpykernel(interpreter);
    } catch (error) {
      connection.remove();
      throw error;
    }
    command = interpreter!.path;
    args = [
      "-m",
      "ipykernel_launcher",
      "-f",
      connection.file,
      "--InteractiveShell.colors=NoColor",
      "--HistoryManager.hist_file=:memory:",
    ];
    description = `${interpreter!.path}, from ${interpreter!.source}`;
  } else {
    command = process.execPath;
    args = [jsKernelScript(), connection.file];
    description = `node ${process.version}`;
  }
  // What cells start carries the mark, also a daemon that leaves the kernel's group and session:
  // it ends with the kernel, and with the host's reaper should the host die first.
  const mark = createProcessMark();
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...env, ...mark.env },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const client = await KernelClient.connect({
    language: options.language,
    child,
    connection,
    readyTimeoutMs: options.readyTimeoutMs,
    description,
    mark: mark.value,
  });
  if (options.language === "python") {
    const setupMs = options.setupTimeoutMs ?? options.readyTimeoutMs;
    let timer: NodeJS.Timeout | undefined;
    try {
      // Bounded: a kernel that answered kernel_info and then stalls would hold the start, the
      // eval call and its lane for good.
      const outcome = await Promise.race([
        client.execute(
          pythonSetupCode({
            parentPid: process.pid,
            shellTool: options.shellTool,
            ...(options.outputLimits ? { outputLimits: options.outputLimits } : {}),
          }),
          {},
          { silent: true },
        ),
        new Promise<never>((_resolve, reject) => {
          timer = setTimeout(
            () => reject(new Error(`the setup cell did not finish within ${setupMs} ms`)),
            setupMs,
          );
        }),
      ]);
      if (outcome.status !== "ok") throw new Error(`the setup cell ended with status ${outcome.status}`);
    } catch (error) {
      await client.dispose();
      throw new KernelError({
        code: "KERNEL_START_FAILED",
        message: `the python kernel (${description}) started but its helpers could not be installed: ${String(error)}`,
        cause: error,
      });
    } finally {
      clearTimeout(timer);
    }
  }
  return client;
}
