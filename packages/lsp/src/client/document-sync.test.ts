import { describe, expect, it } from "vitest";
import type { ServerSpec } from "../servers/server-table.js";
import { DocumentSync } from "./document-sync.js";

const spec: ServerSpec = {
  language: "go",
  extensions: [".go"],
  markers: ["go.mod"],
  command: "gopls",
  args: [],
  settleMs: 0,
  diagnosticsWork: { titlePrefix: "diagnosing", perEdit: /^diagnosing (opened|changed|saved|close) files$/ },
};
const uri = "file:///w/main.go";
const flush = () => new Promise((resolve) => setImmediate(resolve));
const diagnostic = (message: string) => ({
  range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } },
  message,
});

describe("DocumentSync with per-edit diagnostics work (gopls)", () => {
  it("answers only when every edit's pass has ended and none runs, with the last publish", async () => {
    const sent: string[] = [];
    const sync = new DocumentSync(spec, {
      notify: async (method) => {
        sent.push(method);
      },
      request: async () => null,
      alive: () => true,
    });
    const work = (token: string, title: string) => {
      sync.onProgress(token, { kind: "begin", title });
      return () => sync.onProgress(token, { kind: "end" });
    };
    const load = work("load", "diagnosing initial workspace load");
    await sync.sync(uri, "go", "package main\n", true);
    expect(sent).toEqual(["textDocument/didOpen", "textDocument/didSave"]);
    let answer: { diagnostics: unknown[]; fresh: boolean } | undefined;
    void sync.awaitPublish(uri, Date.now() + 60_000).then((result) => (answer = result));
    work("a", "diagnosing opened files")();
    sync.onPublish({ uri, diagnostics: [] });
    work("b", "diagnosing saved files")();
    await flush();
    expect(answer, "the workspace load is still running").toBeUndefined();
    sync.onPublish({ uri, diagnostics: [diagnostic("printf: wrong type")] });
    load();
    await flush();
    expect(answer).toEqual({ diagnostics: [diagnostic("printf: wrong type")], fresh: true });

    // The next edit: a pass of the previous edit ending late must not answer it.
    await sync.sync(uri, "go", "package main\n\nfunc main() {}\n", true);
    answer = undefined;
    void sync.awaitPublish(uri, Date.now() + 60_000).then((result) => (answer = result));
    work("c", "diagnosing changed files")();
    await flush();
    expect(answer, "one of two edits had its pass").toBeUndefined();
    work("d", "diagnosing saved files")();
    await flush();
    // Nothing published for version 2: its diagnostics equal the last ones sent.
    expect(answer).toEqual({ diagnostics: [diagnostic("printf: wrong type")], fresh: true });
  });

  it("says not fresh when the bound passes before the passes end", async () => {
    const sync = new DocumentSync(spec, {
      notify: async () => {},
      request: async () => null,
      alive: () => true,
    });
    await sync.sync(uri, "go", "package main\n", false);
    sync.onPublish({ uri, diagnostics: [] });
    expect(await sync.awaitPublish(uri, Date.now())).toEqual({ diagnostics: [], fresh: false });
  });

  it("takes a publish of the edit's own version at once", async () => {
    const sync = new DocumentSync(spec, {
      notify: async () => {},
      request: async () => null,
      alive: () => true,
    });
    await sync.sync(uri, "go", "package main\n", false);
    sync.onPublish({ uri, version: 1, diagnostics: [diagnostic("x")] });
    expect(await sync.awaitPublish(uri, Date.now() + 60_000)).toEqual({
      diagnostics: [diagnostic("x")],
      fresh: true,
    });
  });

  it("ends the wait when the interrupt turns true on an event (a pull provider registered)", async () => {
    const pushSpec: ServerSpec = { ...spec, diagnosticsWork: undefined, language: "python" };
    const sync = new DocumentSync(pushSpec, {
      notify: async () => {},
      request: async () => null,
      alive: () => true,
    });
    await sync.sync(uri, "python", "x = 1\n", false);
    let registered = false;
    const waiting = sync.awaitPublish(uri, Date.now() + 60_000, () => registered);
    registered = true;
    sync.events.emit("change");
    // `interrupted` is only set by the interrupt (the 60 s deadline would leave it unset).
    expect(await waiting).toEqual({ diagnostics: [], fresh: false, interrupted: true });
  });
});
