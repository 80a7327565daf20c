import { rmSync, writeFileSync } from "node:fs";
import { defineTool, textResult } from "@tools/registry";
import { z } from "zod";

/** Stands in for the harness's write tool: writes a file and lists it in changedFiles. */
export const writeTool = defineTool({
  name: "write",
  tier: "write",
  parallelSafe: true,
  description: "Writes a file (test stand-in for the harness's write tool).",
  input: z.object({ file: z.string(), content: z.string() }),
  paths: (input) => [input.file],
  execute(input, ctx) {
    const absolute = ctx.resolvePath(input.file);
    writeFileSync(absolute, input.content);
    return textResult(`wrote ${input.file}`, { changedFiles: [absolute] });
  },
});

/** Stands in for a harness tool that deletes a file: removes it and lists it in changedFiles. */
export const deleteTool = defineTool({
  name: "delete",
  tier: "write",
  parallelSafe: true,
  description: "Deletes a file (test stand-in for a harness tool that removes files).",
  input: z.object({ file: z.string() }),
  paths: (input) => [input.file],
  execute(input, ctx) {
    const absolute = ctx.resolvePath(input.file);
    rmSync(absolute);
    return textResult(`deleted ${input.file}`, { changedFiles: [absolute] });
  },
});
