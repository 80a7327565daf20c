import { resourceKey } from "@tools/registry";
import type { KernelClient, KernelLanguage } from "../client/kernel-client.js";
import { defaultOutputLimits, type OutputLimits } from "../eval/output-limits.js";
import { startKernel } from "../launch/start-kernel.js";

/** Options of {@link createKernelFactory}. */
export interface KernelFactoryOptions {
  /** A Python interpreter to use instead of the project's (`.venv`, `venv`, then PATH). */
  readonly pythonPath?: string;
  /** The harness's shell tool that `!cmd` and `%%bash` call with `{ command }`; default "shell". */
  readonly shellTool?: string;
  /** Longest wait for a kernel to become ready, in ms; default 30 000. */
  readonly readyTimeoutMs?: number;
  /** A cell with no output for this long is interrupted, in ms; default 300 000 (5 minutes). */
  readonly inactivityMs?: number;
  /**
   * A cell running this long in all is interrupted, also when it keeps printing, in ms; time in
   * bridged calls (and their approval cards) is not counted; default 1 800 000 (30 minutes).
   */
  readonly cellTimeLimitMs?: number;
  /** How long an interrupted cell gets to stop before its kernel is killed, in ms; default 5 000. */
  readonly interruptGraceMs?: number;
  /**
   * Longest wait for the kernel to say it started a cell (its busy status), in ms; default 15 000.
   * A kernel silent that long is hung or stopped: it is interrupted, then killed.
   */
  readonly acknowledgeMs?: number;
  /** Keep a started spare kernel per language so `reset` does not wait for a cold start; default true. */
  readonly warmSpare?: boolean;
  /** Output bounds of one cell. */
  readonly limits?: Partial<OutputLimits>;
}

/** The factory's settings with defaults applied. */
export interface KernelSettings {
  readonly shellTool: string;
  readonly readyTimeoutMs: number;
  readonly inactivityMs: number;
  readonly cellTimeLimitMs: number;
  readonly interruptGraceMs: number;
  readonly acknowledgeMs: number;
  readonly warmSpare: boolean;
  readonly limits: OutputLimits;
}

/**
 * Starts kernels for a run. Wire it under {@link kernelFactoryKey} to register `eval`; the tool
 * keeps one kernel per (run, language), owned by the run, so `run.dispose()` ends them all.
 */
export interface KernelFactory {
  readonly settings: KernelSettings;
  /** Starts a ready kernel with the in-kernel helpers installed; the caller owns it. */
  start(language: KernelLanguage, workingDirectory: string): Promise<KernelClient>;
}

/** The resource key `eval` requires: "no kernel factory is wired for this run". */
export const kernelFactoryKey = resourceKey<KernelFactory>("kernel factory");

/** Creates a kernel factory. It holds no processes itself; runs own what it starts. */
export function createKernelFactory(options: KernelFactoryOptions = {}): KernelFactory {
  const settings: KernelSettings = {
    shellTool: options.shellTool ?? "shell",
    readyTimeoutMs: options.readyTimeoutMs ?? 30_000,
    inactivityMs: options.inactivityMs ?? 300_000,
    cellTimeLimitMs: options.cellTimeLimitMs ?? 1_800_000,
    interruptGraceMs: options.interruptGraceMs ?? 5_000,
    acknowledgeMs: options.acknowledgeMs ?? 15_000,
    warmSpare: options.warmSpare ?? true,
    limits: { ...defaultOutputLimits, ...options.limits },
  };
  return {
    settings,
    start: (language, workingDirectory) =>
      startKernel({
        language,
        cwd: workingDirectory,
        shellTool: settings.shellTool,
        readyTimeoutMs: settings.readyTimeoutMs,
        outputLimits: settings.limits,
        ...(options.pythonPath !== undefined ? { pythonPath: options.pythonPath } : {}),
      }),
  };
}
