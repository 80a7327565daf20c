import { ToolsError, type SchemaFormat } from "@tools/registry";
import type { WorkerBackend } from "@tools/vibe";
import { createDemoRun } from "../create-demo-run.js";

/**
 * The worker backend of a schema export: vibe mode is on, so the vibe_* tools are on the surface,
 * but no worker is ever started (no key, no agent CLI needed). `gated`: whether the workers' own
 * calls pass the approval gate (a model backend) or not (an agent CLI, `--vibe-command`), which
 * decides the tier and text vibe_spawn and vibe_send have in the run.
 */
function schemaOnlyBackend(gated: boolean): WorkerBackend {
  return {
    description: "none (schema export only)",
    gated,
    perform: () => Promise.reject(new Error("the schema export starts no workers")),
  };
}

/**
 * The schemas of one surface of the demo run, in a harness's format. `vibe`: with vibe mode on,
 * so the vibe_* tools are included, as a run on a model backend ("gated") or on an agent CLI
 * ("ungated") has them. An unknown surface is a `USAGE` error naming the known ones.
 */
export async function surfaceSchemas(
  workingDirectory: string,
  surface: string,
  format: SchemaFormat,
  options: { vibe?: "gated" | "ungated" } = {},
): Promise<unknown> {
  const demo = createDemoRun({
    workingDirectory,
    ...(options.vibe ? { vibeBackend: schemaOnlyBackend(options.vibe === "gated") } : {}),
  });
  try {
    try {
      demo.registry.surface(surface);
    } catch (error) {
      // A surface that does not exist is a usage error of `tools --surface` (exit code 2).
      if (ToolsError.isInstance(error) && error.code === "UNKNOWN_SURFACE") {
        throw new ToolsError({ code: "USAGE", message: `--surface: ${error.message}`, cause: error });
      }
      throw error;
    }
    return demo.registry.schema(demo.run, surface, format);
  } finally {
    await demo.dispose();
  }
}
