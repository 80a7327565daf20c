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

/** Stands in for a harness tool that writes several files at once (an apply_patch). */
export const writeFilesTool = defineTool({
  name: "write_files",
  tier: "write",
  parallelSafe: true,
  description: "Writes several files (test stand-in for a harness's apply_patch).",
  input: z.object({ files: z.record(z.string(), z.string()) }),
  paths: (input) => Object.keys(input.files),
  execute(input, ctx) {
    const written = Object.entries(input.files).map(([file, content]) => {
      const absolute = ctx.resolvePath(file);
      writeFileSync(absolute, content);
      return absolute;
    });
    return textResult(`wrote ${Object.keys(input.files).join(", ")}`, { changedFiles: written });
  },
});

/**
 * A write tool that, once it wrote its file, waits until the test lets it return (a write whose
 * tool is still running, as a harness's apply_patch between two files): `written` resolves after
 * the write; `finish` lets the call return. `named: false`: it declares no `paths` (as structural
 * `resolve`, whose files are those of a staged change).
 */
export function gatedWriteTool(options: { named?: boolean } = {}): {
  tool: ReturnType<typeof defineTool>;
  written: Promise<void>;
  finish: () => void;
} {
  let onWritten: () => void = () => undefined;
  let finish: () => void = () => undefined;
  const written = new Promise<void>((resolve) => (onWritten = resolve));
  const gate = new Promise<void>((resolve) => (finish = resolve));
  const tool = defineTool({
    name: "gated_write",
    tier: "write",
    parallelSafe: true,
    description: "Writes a file, then waits to be let return (test stand-in for a long write tool).",
    input: z.object({ file: z.string(), content: z.string() }),
    ...(options.named === false ? {} : { paths: (input: { file: string }) => [input.file] }),
    async execute(input, ctx) {
      const absolute = ctx.resolvePath(input.file);
      writeFileSync(absolute, input.content);
      onWritten();
      await gate;
      return textResult(`wrote ${input.file}`, { changedFiles: [absolute] });
    },
  });
  return { tool, written, finish };
}
