import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { tsserverProjectFiles, tsserverReload, type PassThroughRequest } from "./tsserver-reload.js";

describe("tsserver reload of the files changed on disk", () => {
  it("sends one reload per file, the file as its own text, and counts the answers", async () => {
    const sent: unknown[] = [];
    const request = (async (method: string, params: unknown) => {
      sent.push([method, params]);
      return (params as { arguments: [string, { file: string }] }).arguments[1].file.endsWith("gone.ts")
        ? null
        : { success: true };
    }) as PassThroughRequest;
    expect(await tsserverReload(request, ["/p/a b ü.ts", "/p/gone.ts"])).toEqual({
      answered: 1,
      cutShort: [],
    });
    expect(sent).toEqual([
      [
        "workspace/executeCommand",
        {
          command: "typescript.tsserverRequest",
          arguments: ["reload", { file: "/p/a b ü.ts", tmpfile: "/p/a b ü.ts" }],
        },
      ],
      [
        "workspace/executeCommand",
        {
          command: "typescript.tsserverRequest",
          arguments: ["reload", { file: "/p/gone.ts", tmpfile: "/p/gone.ts" }],
        },
      ],
    ]);
  });

  // Each request listens to the signal it is given (boundedRequest): hundreds of files changed by
  // a checkout put hundreds of listeners on the call's signal at once, and Node warned of a leak
  // (MaxListenersExceededWarning) on the process's stderr at every such hover.
  it("reloads hundreds of files under one abort signal without a listener-leak warning, and lets go of it", async () => {
    const caller = new AbortController();
    const request = ((_method: string, _params: unknown, _timeout: undefined, signal?: AbortSignal) =>
      new Promise((resolve) => {
        const onAbort = (): void => undefined;
        signal?.addEventListener("abort", onAbort);
        setImmediate(() => {
          signal?.removeEventListener("abort", onAbort);
          resolve({ success: true } as never);
        });
      })) as PassThroughRequest;
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning);
    };
    process.on("warning", onWarning);
    try {
      const files = Array.from({ length: 300 }, (_, i) => `/p/f${i}.ts`);
      expect((await tsserverReload(request, files, caller.signal)).answered).toBe(300);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings.filter((warning) => warning.name === "MaxListenersExceededWarning")).toEqual([]);
    expect(getEventListeners(caller.signal, "abort")).toHaveLength(0);
  });

  it("stops waiting when the caller's signal aborts", async () => {
    const caller = new AbortController();
    const request = ((_method: string, _params: unknown, _timeout: undefined, signal?: AbortSignal) =>
      new Promise((_resolve, reject) => {
        if (signal?.aborted) reject(signal.reason);
        signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
      })) as PassThroughRequest;
    const answered = tsserverReload(request, ["/p/a.ts", "/p/b.ts"], caller.signal);
    caller.abort(new Error("cancelled"));
    expect(await answered).toEqual({ answered: 0, cutShort: ["/p/a.ts", "/p/b.ts"] });
    expect(await tsserverReload(request, ["/p/a.ts"], caller.signal)).toEqual({
      answered: 0,
      cutShort: ["/p/a.ts"],
    });
  });

  it("lists the files of the open files' projects, one projectInfo per project, none when tsserver does not say", async () => {
    const asked: string[] = [];
    const projects: Record<string, string[]> = {
      "/p/src/app.ts": ["/lib/lib.d.ts", "/p/src/app.ts", "/p/src/math.ts"],
      "/p/tools/run.ts": ["/p/tools/run.ts"],
    };
    const request = (async (_method: string, params: unknown) => {
      const file = (params as { arguments: [string, { file: string }] }).arguments[1].file;
      asked.push(file);
      return projects[file] ? { success: true, body: { fileNames: projects[file] } } : { success: false };
    }) as PassThroughRequest;
    const knows = await tsserverProjectFiles(request, ["/p/src/app.ts", "/p/src/math.ts", "/p/tools/run.ts"]);
    expect(asked).toEqual(["/p/src/app.ts", "/p/tools/run.ts"]);
    expect(["/p/src/math.ts", "/p/tools/run.ts", "/p/dist/app.js"].map((file) => knows?.(file))).toEqual([
      true,
      true,
      false,
    ]);
    expect(await tsserverProjectFiles(request, ["/p/src/app.ts", "/p/old.ts"])).toBeUndefined();
    // None open: tsserver may still hold the projects of the files closed on it.
    expect(await tsserverProjectFiles(request, [])).toBeUndefined();
  });
});
