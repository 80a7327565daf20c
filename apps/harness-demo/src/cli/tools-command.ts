import type { SchemaFormat } from "@tools/registry";
import { createDemoRun } from "../create-demo-run.js";

/** The schemas of one surface of the demo run, in a harness's format. */
export async function surfaceSchemas(
  workingDirectory: string,
  surface: string,
  format: SchemaFormat,
): Promise<unknown> {
  const demo = createDemoRun({ workingDirectory });
  try {
    return demo.registry.schema(demo.run, surface, format);
  } finally {
    await demo.dispose();
  }
}
