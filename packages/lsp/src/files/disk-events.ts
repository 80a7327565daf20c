/**
 * Lets the event loop read the file-change events already queued by the kernel (two turns:
 * one poll phase between them), so a write that finished before the call is seen by it.
 * Navigation does without: between a shell command and the model's next call, the loop has
 * turned many times.
 */
export async function settleDiskEvents(): Promise<void> {
  for (let turn = 0; turn < 2; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
}
