import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { resultText, type ApprovalPolicy, type ToolResult } from "@tools/registry";
import { createDemoRun, type DemoRun } from "../create-demo-run.js";

/** A temporary working directory with a demo run on it, for tool tests. */
export interface TempWorkspace {
  readonly dir: string;
  readonly demo: DemoRun;
  /** Invokes a tool through the whole registry chain. */
  call(tool: string, args: unknown, surface?: string): Promise<ToolResult>;
  /** The call's text (all text parts). */
  text(result: ToolResult): string;
  /** The call's text without the section diagnostics-on-write appends to a write. */
  toolText(result: ToolResult): string;
  read(path: string): Promise<string>;
  /** Disposes the run and removes the folder. */
  cleanup(): Promise<void>;
}

/** Creates a temp folder holding `files` (relative path → content) and a run on it. */
export async function tempWorkspace(
  files: Record<string, string | Uint8Array> = {},
  approval: ApprovalPolicy = "auto",
): Promise<TempWorkspace> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), "harness-demo-test-")));
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  const demo = createDemoRun({ workingDirectory: dir, approval });
  return {
    dir,
    demo,
    call: (tool, args, surface = "main") => demo.registry.invoke(demo.run, { tool, args, surface }),
    text: resultText,
    toolText: (result) => resultText(result).split("\n\nLSP diagnostics after this write:")[0]!,
    read: (path) => readFile(join(dir, path), "utf8"),
    async cleanup() {
      await demo.dispose();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
