// The JavaScript kernel's executor: runs user code in its own process so the messaging loop never
// blocks. SIGINT stops a synchronous loop (vm breakOnSigint) and abandons a pending promise alike.
import { createRequire } from "node:module";
import { join } from "node:path";
import { inspect } from "node:util";
import { Script, constants } from "node:vm";
import { bridgeMarker } from "../launch/python-setup.js";
import { compileCell } from "./compile-cell.js";
import type { FromExecutor, ToExecutor } from "./executor-protocol.js";

const send = (message: FromExecutor): void => {
  process.send?.(message);
};
const shellTool = process.env.TOOLS_KERNEL_SHELL_TOOL ?? "shell";

for (const name of ["stdout", "stderr"] as const) {
  const stream = process[name];
  stream.write = ((chunk: unknown, encoding?: unknown, callback?: unknown) => {
    const text = typeof chunk === "string" ? chunk : Buffer.from(chunk as Uint8Array).toString("utf8");
    send({ type: "stream", name, text });
    const done = typeof encoding === "function" ? encoding : callback;
    if (typeof done === "function") (done as () => void)();
    return true;
  }) as typeof stream.write;
}

const show = (value: unknown): string => (typeof value === "string" ? value : inspect(value, { depth: 4 }));

function display(value: unknown): void {
  send({ type: "display", kind: "display", data: { "text/plain": show(value) } });
}
display.html = (html: string) =>
  send({ type: "display", kind: "display", data: { "text/html": html, "text/plain": html } });
display.markdown = (text: string) =>
  send({ type: "display", kind: "display", data: { "text/markdown": text } });
display.png = (data: Uint8Array | string) =>
  send({
    type: "display",
    kind: "display",
    data: {
      "image/png": typeof data === "string" ? data : Buffer.from(data).toString("base64"),
      "text/plain": "<image>",
    },
  });

/** Replies to bridged calls arrive in order; the lock keeps one call on the channel at a time. */
let pendingReply: ((value: string) => void) | undefined;
let lock: Promise<unknown> = Promise.resolve();

class ToolError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = "ToolError";
  }
}

function tool(name: string, args: unknown = {}): Promise<string> {
  const call = lock.then(
    () =>
      new Promise<string>((resolve) => {
        pendingReply = resolve;
        send({ type: "input", prompt: bridgeMarker + JSON.stringify({ tool: name, args }) });
      }),
  );
  lock = call.catch(() => undefined);
  return call.then((reply) => {
    const data = JSON.parse(reply || '{"ok":false,"error":"the bridge gave no reply"}') as {
      ok: boolean;
      text?: string;
      error?: string;
      code?: string;
    };
    if (!data.ok) throw new ToolError(data.error ?? "the tool call failed", data.code ?? "TOOL_FAILED");
    return data.text ?? "";
  });
}

const helpers = {
  async sh(command: string) {
    try {
      const text = await tool(shellTool, { command });
      if (text !== "") process.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
    } catch (error) {
      process.stderr.write(`${(error as Error).message}\n`);
    }
  },
  cd(path: string) {
    process.chdir(path.trim().replace(/^['"]|['"]$/g, "") || (process.env.HOME ?? "/"));
    process.stdout.write(`${process.cwd()}\n`);
  },
  async timeit(fn: () => unknown, number: number, repeat: number) {
    let loops = number;
    if (loops <= 0) {
      loops = 1;
      for (;;) {
        const start = performance.now();
        for (let i = 0; i < loops; i++) await fn();
        if (performance.now() - start >= 200 || loops >= 1e7) break;
        loops *= 10;
      }
    }
    const runs: number[] = [];
    for (let r = 0; r < (repeat || 5); r++) {
      const start = performance.now();
      for (let i = 0; i < loops; i++) await fn();
      runs.push((performance.now() - start) / loops);
    }
    const best = Math.min(...runs);
    const [value, unit] = best >= 1000 ? [best / 1000, "s"] : best >= 1 ? [best, "ms"] : [best * 1000, "µs"];
    process.stdout.write(
      `${value.toPrecision(3)} ${unit} per loop (best of ${runs.length} runs, ${loops} loops each)\n`,
    );
  },
};

Object.assign(globalThis, {
  display,
  tool,
  ToolError,
  __tools__: helpers,
  require: createRequire(join(process.cwd(), "[eval]")),
});

let interruptCurrent: ((error: Error) => void) | undefined;
process.on("SIGINT", () => {
  // A bridged call in flight is abandoned: its late reply is dropped by the client.
  pendingReply = undefined;
  lock = Promise.resolve();
  interruptCurrent?.(Object.assign(new Error("Interrupted by user"), { name: "KeyboardInterrupt" }));
});

function cleanStack(error: Error): string[] {
  const lines = (error.stack ?? `${error.name}: ${error.message}`).split("\n");
  const here = /executor\.js|node:internal|node:vm/;
  return lines.filter((line) => !here.test(line));
}

async function execute(code: string): Promise<"ok" | "error"> {
  try {
    const interrupted = new Promise<never>((_, reject) => {
      interruptCurrent = reject;
    });
    const script = new Script(compileCell(code), {
      filename: "cell.js",
      importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
    });
    const completion = script.runInThisContext({ breakOnSigint: true }) as Promise<
      { __echo: unknown } | undefined
    >;
    const value = await Promise.race([completion, interrupted]);
    if (value !== undefined && value.__echo !== undefined) {
      send({ type: "display", kind: "result", data: { "text/plain": inspect(value.__echo, { depth: 4 }) } });
    }
    return "ok";
  } catch (caught) {
    const error =
      caught instanceof Error ? caught : Object.assign(new Error(show(caught)), { name: "Uncaught" });
    const interrupted = /Script execution (was )?interrupted/.test(error.message);
    const ename = interrupted ? "KeyboardInterrupt" : error.name;
    const evalue = interrupted ? "Interrupted by user" : error.message;
    send({
      type: "error",
      ename,
      evalue,
      traceback: interrupted ? [`${ename}: ${evalue}`] : cleanStack(error),
    });
    return "error";
  } finally {
    interruptCurrent = undefined;
  }
}

process.on("message", (message: ToExecutor) => {
  if (message.type === "input_reply") {
    const reply = pendingReply;
    pendingReply = undefined;
    reply?.(message.value);
    return;
  }
  void execute(message.code).then((status) => send({ type: "done", id: message.id, status }));
});
process.on("disconnect", () => process.exit(0));
process.on("uncaughtException", (error) => {
  process.stderr.write(`Uncaught exception: ${error.stack ?? error.message}\n`);
});
process.on("unhandledRejection", (reason) => {
  process.stderr.write(
    `Unhandled promise rejection: ${reason instanceof Error ? reason.stack : show(reason)}\n`,
  );
});
