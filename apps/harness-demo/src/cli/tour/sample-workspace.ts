import { cp, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The sample workspace shipped with the app (`apps/harness-demo/workspace`). */
export const sampleWorkspace = fileURLToPath(new URL("../../../workspace", import.meta.url));

/** A fresh temporary copy of the sample workspace, and how to remove it. */
export async function copySampleWorkspace(): Promise<{ path: string; remove: () => Promise<void> }> {
  const parent = await realpath(await mkdtemp(join(tmpdir(), "harness-demo-")));
  const path = join(parent, "workspace");
  await cp(sampleWorkspace, path, { recursive: true });
  return { path, remove: () => rm(parent, { recursive: true, force: true }) };
}
