import { ToolsError, type ToolsErrorOptions } from "@tools/registry";

/** The codes @tools/kernel raises. */
export type KernelErrorCode =
  | "KERNEL_NOT_FOUND"
  | "KERNEL_START_FAILED"
  | "KERNEL_DIED"
  | "KERNEL_TIMEOUT"
  /** The kernel went idle for a request without answering it; it and its state are kept. */
  | "KERNEL_NO_REPLY"
  /** The cell holds something the kernel cannot take (a NUL, an unpaired surrogate); not sent. */
  | "INVALID_CODE"
  | "KERNEL_DISPOSED";

/** A failure of a kernel or of the eval tool; `code` says which. */
export class KernelError extends ToolsError {
  constructor(options: ToolsErrorOptions & { code: KernelErrorCode }) {
    super(options);
    this.name = "KernelError";
  }
}
