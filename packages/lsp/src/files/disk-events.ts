/**
 * Lets the event loop read the file-change events already queued by the kernel (two turns:
 * one poll phase between them), so a write that finished before the call is seen by it, even
 * one a harness ran in the same batch as the call, with only microtasks between them.
 */
export function settleDiskEvents(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));
}
