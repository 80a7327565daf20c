// Tools used by this package's own tests (not exported from the package).
import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { defineTool } from "../tool/define-tool.js";
import { resourceKey } from "../run/resource-key.js";

export const fakeSupervisorKey = resourceKey<{ name: string }>("fake supervisor");

export function tempDir(prefix = "tools-registry-"): string {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

export const echoTool = defineTool({
  name: "echo",
  tier: "read",
  description: "Echoes its text.",
  parallelSafe: true,
  input: z.object({ text: z.string(), times: z.number().int().min(1).optional() }),
  execute: (input) => input.text.repeat(input.times ?? 1),
});

export const writeNoteTool = defineTool({
  name: "write_note",
  tier: "write",
  description: "Pretends to write a note to a file.",
  parallelSafe: true,
  input: z.object({ path: z.string(), text: z.string() }),
  paths: (input) => [input.path],
  summarize: (input) => `write ${input.text.length} characters to ${input.path}`,
  execute: (input, context) => ({
    content: [{ type: "text", text: `wrote ${input.path}` }],
    isError: false,
    changedFiles: [context.resolvePath(input.path)],
  }),
});

export const runProgramTool = defineTool({
  name: "run_program",
  tier: "exec",
  description: "Pretends to run a program.",
  parallelSafe: false,
  input: z.object({ program: z.string() }),
  requires: [fakeSupervisorKey],
  execute: (input) => `ran ${input.program}`,
});
