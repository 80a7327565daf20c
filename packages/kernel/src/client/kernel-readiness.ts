import { KernelError } from "../kernel-error.js";
import type { KernelChannels } from "./kernel-channels.js";
import type { KernelProcess } from "./kernel-process.js";

/** The kernel {@link waitUntilReady} waits for, and how to name it in errors. */
export interface ReadinessTarget {
  readonly channels: KernelChannels;
  readonly process: KernelProcess;
  /** "python" or "javascript". */
  readonly language: string;
  /** How the interpreter was chosen ("/p/.venv/bin/python"). */
  readonly description: string;
}

/**
 * Waits until a just-started kernel is ready: a kernel_info_reply, one iopub message seen, AND
 * the stdin channel linked (the kernel drops input requests, the bridge's calls, sent before).
 * Iopub drops what was published before we subscribed, so kernel_info is re-sent (every 200 ms,
 * then every 50 ms once it replied) until something arrives. Throws `KERNEL_START_FAILED` when
 * the process ends first or after `timeoutMs`.
 */
export async function waitUntilReady(target: ReadinessTarget, timeoutMs: number): Promise<void> {
  const { channels, process: kernel, language, description } = target;
  const deadline = Date.now() + timeoutMs;
  let replied = false;
  while (!(replied && channels.iopubLive && channels.stdinLinked)) {
    if (kernel.exited !== undefined) {
      throw new KernelError({
        code: "KERNEL_START_FAILED",
        message: `the ${language} kernel (${description}) ${kernel.exited} before it was ready`,
      });
    }
    if (Date.now() > deadline) {
      throw new KernelError({
        code: "KERNEL_START_FAILED",
        message: `the ${language} kernel (${description}) was not ready after ${timeoutMs} ms (${missing(replied, channels)})${kernel.stderrNote()}`,
      });
    }
    const waitMs = replied ? 50 : 200;
    const reply = channels.request(channels.shell, "kernel_info_request", {}, waitMs).then(
      () => true,
      () => false,
    );
    const seen = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), waitMs);
      channels.onFirstIopub(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    const exit = new Promise<boolean>((resolve) => kernel.onExitOnce(() => resolve(false)));
    if (await Promise.race([reply, exit])) replied = true;
    await Promise.race([seen, exit]);
  }
}

/** What a kernel that is not ready still lacks, as shown in the error. */
function missing(replied: boolean, channels: KernelChannels): string {
  const lacks = [
    ...(replied ? [] : ["no kernel_info_reply on shell"]),
    ...(channels.iopubLive ? [] : ["nothing on iopub"]),
    ...(channels.stdinLinked ? [] : ["stdin not linked"]),
  ];
  return lacks.join(", ");
}
