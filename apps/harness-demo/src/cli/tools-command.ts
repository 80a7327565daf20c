import type { SchemaFormat } from "@tools/registry";
import type { WorkerBackend } from "@tools/vibe";
import { createDemoRun } from "../create-demo-run.js";

/**
 * The worker backend of a schema export: vibe mode is on, so the vibe_* tools are on the surface,
 * but no worker is ever started (no key, no agent CLI needed).
 */
const schemaOnlyBackend: WorkerBackend = {
  description: "none (schema export only)",
  gated: true,
  perform: () => Promise.reject(new Error("the schema export starts no workers")),
};

/**
 * The schemas of one surface of the demo run, in a harness's format. `vibe`: with vibe mode on,
 * so the vibe_* tools are included.
 */
export async function surfaceSchemas(
  workingDirectory: string,
  surface: string,
  format: SchemaFormat,
  options: { vibe?: boolean } = {},
): Promise<unknown> {
  const demo = createDemoRun({
    workingDirectory,
    ...(options.vibe === true ? { vibeBackend: schemaOnlyBackend } : {}),
  });
  try {
    return demo.registry.schema(demo.run, surface, format);
  } finally {
    await demo.dispose();
  }
}
