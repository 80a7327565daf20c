// A registry and run for tests: a read tool, a small write-tier tool, a tool that hangs until
// cancelled, a tool calling another, and approvers that allow or deny (recording what they were asked).
import { EventEmitter, once } from "node:events";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import {
  createRegistry,
  createRun,
  defineTool,
  resultText,
  type ApprovalRequest,
  type Approver,
  type Registry,
  type Run,
  type ToolResult,
} from "@tools/registry";
import { createVibeList, vibeListKey, type VibeList, type VibeListOptions } from "../list/vibe-list.js";
import { vibeTools } from "../tools/vibe-tools.js";
import type { WorkerStatus } from "../list/worker.js";

export const probe = new EventEmitter();

export const readNoteTool = defineTool({
  name: "read_note",
  tier: "read",
  parallelSafe: true,
  description: "Reads a note file. Example: {\"file\": \"a.txt\"}",
  input: z.object({ file: z.string() }),
  paths: (input) => [input.file],
  execute: (input, ctx) => readFileSync(ctx.resolvePath(input.file), "utf8"),
});

export const writeNoteTool = defineTool({
  name: "write_note",
  tier: "write",
  parallelSafe: true,
  description: "Writes a note file. Example: {\"file\": \"a.txt\", \"text\": \"hi\"}",
  input: z.object({ file: z.string(), text: z.string() }),
  paths: (input) => [input.file],
  summarize: (input) => `write ${input.file}`,
  execute(input, ctx) {
    const path = ctx.resolvePath(input.file);
    writeFileSync(path, input.text);
    return { content: [{ type: "text", text: `wrote ${input.file}` }], isError: false, changedFiles: [path] };
  },
});

/** Emits `hang-entered` when called and `hang-aborted` when its signal aborts; never finishes on its own. */
export const hangTool = defineTool({
  name: "hang",
  tier: "read",
  parallelSafe: true,
  description: "Waits until cancelled. Example: {}",
  input: z.object({}),
  execute: (_input, ctx) =>
    new Promise<string>((_resolve, reject) => {
      probe.emit("hang-entered");
      ctx.signal.addEventListener(
        "abort",
        () => {
          probe.emit("hang-aborted");
          reject(new Error("hang was cancelled"));
        },
        { once: true },
      );
    }),
});

/** Calls another tool from inside its own call, on the caller's surface (as an eval cell's `tool(...)`). */
export const relayTool = defineTool({
  name: "relay",
  tier: "read",
  parallelSafe: true,
  description: 'Calls another tool. Example: {"tool": "read_note", "args": {"file": "a.txt"}}',
  input: z.object({ tool: z.string(), args: z.record(z.string(), z.unknown()).optional() }),
  execute: async (input, ctx) => {
    const result = await ctx.invoke(input.tool, input.args ?? {});
    return result.isError ? `${result.error?.code}: ${resultText(result)}` : resultText(result);
  },
});

export class RecordingApprover implements Approver {
  readonly requests: ApprovalRequest[] = [];
  constructor(private readonly allow: boolean) {}
  attached(): boolean {
    return true;
  }
  request(request: ApprovalRequest): Promise<{ allow: true } | { allow: false; reason: string }> {
    this.requests.push(request);
    return Promise.resolve(this.allow ? { allow: true } : { allow: false, reason: "not in this test" });
  }
}

export interface Kit {
  readonly registry: Registry;
  readonly run: Run;
  readonly dir: string;
  readonly list: VibeList;
  /** Calls a tool as the main agent, or on `surface`. */
  readonly call: (tool: string, args?: unknown, surface?: string) => Promise<ToolResult & { text: string }>;
  readonly cleanup: () => Promise<void>;
}

export function createKit(
  options: Omit<VibeListOptions, "registry" | "run"> & { approver?: Approver; approval?: "ask" | "auto" },
): Kit {
  const dir = mkdtempSync(join(tmpdir(), "vibe-test-"));
  writeFileSync(join(dir, "note.txt"), "the note says 42");
  const registry = createRegistry({
    tools: [readNoteTool, writeNoteTool, hangTool, relayTool, ...vibeTools],
    approval: options.approval ?? "auto",
    ...(options.approver ? { approver: options.approver } : {}),
  });
  const run = createRun({ workingDirectory: dir });
  const { approver: _approver, approval: _approval, ...listOptions } = options;
  const list = createVibeList({ registry, run, ...listOptions });
  run.wire(vibeListKey, list);
  return {
    registry,
    run,
    dir,
    list,
    async call(tool, args = {}, surface = "main") {
      const result = await registry.invoke(run, { tool, args, surface });
      return { ...result, text: resultText(result) };
    },
    async cleanup() {
      await run.dispose();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Resolves when the worker reaches `status` (bounded); rejects with what it reached instead. */
export function reachStatus(list: VibeList, id: string, status: WorkerStatus, ms = 10_000): Promise<void> {
  if (list.get(id).status === status) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`${id} did not reach ${status} in ${ms}ms; it is ${list.get(id).status}`));
    }, ms);
    const off = list.on((event) => {
      if (event.type === "status" && event.worker.id === id && event.worker.status === status) {
        clearTimeout(timer);
        off();
        resolve();
      }
    });
  });
}

/** Resolves with the next `name` event of `emitter`, at most `ms`. */
export async function nextEvent(emitter: EventEmitter, name: string, ms = 10_000): Promise<unknown[]> {
  return await once(emitter, name, { signal: AbortSignal.timeout(ms) });
}


/** Resolves once `predicate` holds (checked every 10 ms); rejects after `ms`. */
export async function until(predicate: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > end) throw new Error(`condition not reached in ${ms / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** An approver that holds vibe_send's cards until the test answers them; everything else is allowed. */
export function heldSendCards() {
  const cards: ((allow: boolean) => void)[] = [];
  return {
    cards,
    approver: {
      attached: () => true,
      request: (request: { tool: string }) =>
        request.tool === "vibe_send"
          ? new Promise<{ allow: true } | { allow: false; reason: string }>((resolve) =>
              cards.push((allow) => resolve(allow ? { allow: true } : { allow: false, reason: "no" })),
            )
          : Promise.resolve({ allow: true as const }),
    },
  };
}
