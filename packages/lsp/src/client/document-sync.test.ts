import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ServerSpec } from "../servers/server-table.js";
import { DocumentSync, lostBeginMs, lostEndMs } from "./document-sync.js";

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
/** A channel to a server that takes everything and answers nothing of its own. */
const silent = () => ({ notify: async () => {}, request: async () => null, alive: () => true });
const diagnostic = (message: string) => ({
  range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } },
  message,
});

/**
 * A sync on a fake channel that records each notification as "didChange a.c" (the method and
 * the file's last three characters), with " v<version>" and " forced" (clangd's forceRebuild)
 * when `versions` is set.
 */
function recordingSync(server: ServerSpec, options: { versions: boolean }) {
  const sent: string[] = [];
  const sync = new DocumentSync(server, {
    notify: async (method, params) => {
      const { textDocument, forceRebuild } = params as {
        textDocument: { uri: string; version?: number };
        forceRebuild?: boolean;
      };
      const version =
        options.versions && textDocument.version !== undefined ? ` v${textDocument.version}` : "";
      const forced = options.versions && forceRebuild ? " forced" : "";
      sent.push(`${method.replace("textDocument/", "")} ${textDocument.uri.slice(-3)}${version}${forced}`);
    },
    request: async () => null,
    alive: () => true,
  });
  return { sent, sync };
}

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

  it("keeps the publishes of files not open for a server checking the workspace, marked once its first check ended", async () => {
    const workspaceSpec: ServerSpec = {
      ...spec,
      publishesWorkspace: true,
      diagnosticsWork: { ...spec.diagnosticsWork!, workspaceLoad: /^diagnosing initial workspace load$/ },
    };
    const sync = new DocumentSync(workspaceSpec, silent());
    const other = "file:///w/cmd/main.go";
    sync.onProgress("load", { kind: "begin", title: "diagnosing initial workspace load" });
    sync.onPublish({ uri: other, diagnostics: [diagnostic("old")] });
    expect(sync.publishMark(), "the workspace is still being checked").toBeUndefined();
    sync.onProgress("load", { kind: "end" });
    const mark = sync.publishMark();
    expect(mark).toBeTypeOf("number");

    await sync.sync(uri, "go", "package main\n", true);
    sync.onProgress("a", { kind: "begin", title: "diagnosing opened files" });
    sync.onProgress("a", { kind: "end" });
    sync.onProgress("c", { kind: "begin", title: "diagnosing saved files" });
    let done: boolean | undefined;
    void sync.awaitWorkDone(Date.now() + 60_000).then((result) => (done = result));
    // Versioned for the open document, without a version for the other: both count.
    sync.onPublish({ uri, version: 1, diagnostics: [] });
    await flush();
    expect(done, "the pass publishing the other file has not ended").toBeUndefined();
    sync.onPublish({ uri: other, diagnostics: [diagnostic("old"), diagnostic("new")] });
    sync.onProgress("c", { kind: "end" });
    await flush();
    expect(done).toBe(true);
    expect(sync.unopenedPublishes()).toEqual([
      { uri: other, diagnostics: [diagnostic("old"), diagnostic("new")], mark: mark! + 2 },
    ]);
    // Opened, its publishes go to the document.
    await sync.sync(other, "go", "package main\n", false);
    expect(sync.unopenedPublishes()).toEqual([]);
  });

  it("says when publishes for files not open were dropped past its bound, and marks publishes across servers in order", () => {
    const workspaceSpec: ServerSpec = { ...spec, publishesWorkspace: true };
    const channel = silent();
    const sync = new DocumentSync(workspaceSpec, channel);
    for (let i = 0; i < 20_000; i++) sync.onPublish({ uri: `file:///w/f${i}.go`, diagnostics: [] });
    expect(sync.unopenedComplete()).toBe(true);
    sync.onPublish({ uri: "file:///w/last.go", diagnostics: [diagnostic("bad")] });
    expect(sync.unopenedComplete(), "the first file's publish was dropped").toBe(false);
    const kept = sync.unopenedPublishes();
    expect(kept).toHaveLength(20_000);
    expect(kept.some(({ uri }) => uri === "file:///w/f0.go")).toBe(false);
    // A restarted server's publishes are marked after the stopped one's.
    const restarted = new DocumentSync(workspaceSpec, channel);
    restarted.onPublish({ uri: "file:///w/f0.go", diagnostics: [] });
    expect(restarted.unopenedPublishes()[0]!.mark).toBeGreaterThan(kept.at(-1)!.mark);
  });

  it("says not fresh when the bound passes before the passes end", async () => {
    const sync = new DocumentSync(spec, silent());
    await sync.sync(uri, "go", "package main\n", false);
    sync.onPublish({ uri, diagnostics: [] });
    expect(await sync.awaitPublish(uri, Date.now())).toEqual({ diagnostics: [], fresh: false });
  });

  // gopls ends every item it begins; a lost one is a failure mode only a fake can show.
  it("counts passes that never began, after a long silence, as lost, and items never ended after a longer one", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      const sync = new DocumentSync(spec, silent());
      const work = (token: string, title: string) => {
        sync.onProgress(token, { kind: "begin", title });
        return () => sync.onProgress(token, { kind: "end" });
      };
      const answer = async () => {
        sync.onPublish({ uri, diagnostics: [] });
        return (await sync.awaitPublish(uri, Date.now() + 50)).fresh;
      };
      let text = "package main\n";
      const edit = () => sync.sync(uri, "go", (text += "\n"), false);
      await edit(); // its pass never begins
      expect(await answer()).toBe(false);
      vi.setSystemTime(Date.now() + lostBeginMs - 1_000);
      await edit();
      work("a", "diagnosing changed files")();
      expect(await answer(), "not yet silent long enough: the first pass may still come").toBe(false);

      vi.setSystemTime(Date.now() + lostBeginMs);
      await edit();
      work("b", "diagnosing changed files")();
      expect(await answer(), "the lost pass no longer holds the waits").toBe(true);

      work("c", "diagnosing changed files"); // its end never comes
      vi.setSystemTime(Date.now() + lostBeginMs);
      await edit();
      work("d", "diagnosing changed files")();
      expect(await answer(), "an item running for a while may be a long pass").toBe(false);
      vi.setSystemTime(Date.now() + lostEndMs);
      await edit();
      work("e", "diagnosing changed files")();
      expect(await answer(), "silent past the longer bound, it counts as ended").toBe(true);
      // Counted to the edits sent, never past them: the next edit waits for its own pass.
      await edit();
      expect(await answer(), "the next edit's pass has not run").toBe(false);
      work("f", "diagnosing changed files")();
      expect(await answer()).toBe(true);

      // The workspace's first check let go of after the longer silence still counts when it ends.
      const load = new DocumentSync(
        {
          ...spec,
          diagnosticsWork: { ...spec.diagnosticsWork!, workspaceLoad: /^diagnosing initial workspace load$/ },
        },
        silent(),
      );
      load.onProgress("load", { kind: "begin", title: "diagnosing initial workspace load" });
      vi.setSystemTime(Date.now() + lostEndMs);
      await load.sync(uri, "go", "package main\n", false);
      expect(load.publishMark()).toBeUndefined();
      load.onProgress("load", { kind: "end" });
      expect(load.publishMark()).toBeTypeOf("number");
    } finally {
      vi.useRealTimers();
    }
  });

  it("takes a publish of the edit's own version at once", async () => {
    const sync = new DocumentSync(spec, silent());
    await sync.sync(uri, "go", "package main\n", false);
    sync.onPublish({ uri, version: 1, diagnostics: [diagnostic("x")] });
    expect(await sync.awaitPublish(uri, Date.now() + 60_000)).toEqual({
      diagnostics: [diagnostic("x")],
      fresh: true,
    });
  });

  it("ends the wait when the interrupt turns true on an event (a pull provider registered)", async () => {
    const pushSpec: ServerSpec = { ...spec, diagnosticsWork: undefined, language: "python" };
    const sync = new DocumentSync(pushSpec, silent());
    await sync.sync(uri, "python", "x = 1\n", false);
    let registered = false;
    const waiting = sync.awaitPublish(uri, Date.now() + 60_000, () => registered);
    registered = true;
    sync.events.emit("change");
    // `interrupted` is only set by the interrupt (the 60 s deadline would leave it unset).
    expect(await waiting).toEqual({ diagnostics: [], fresh: false, interrupted: true });
  });
});

describe("DocumentSync push freshness (no progress tracking)", () => {
  // The channel is a stand-in for the connection: these tests pin the freshness rule itself,
  // with publishes in an order chosen here (a real server's timing could not be made to show
  // each case on demand). Fake timers make the settle and the bound advance only when told.
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const pushSpec: ServerSpec = {
    language: "python",
    extensions: [".py"],
    markers: ["pyproject.toml"],
    command: "pyright-langserver",
    args: ["--stdio"],
  };
  const pyUri = "file:///w/main.py";
  const open = async () => {
    const sync = new DocumentSync(pushSpec, silent());
    await sync.sync(pyUri, "python", "x = 1\n", false);
    return sync;
  };
  type Answer = { diagnostics: unknown[]; fresh: boolean; interrupted?: true };
  const watch = (waiting: Promise<Answer>) => {
    const state: { answer?: Answer } = {};
    void waiting.then((answer) => (state.answer = answer));
    return state;
  };

  it("without a version, takes the first publish after the edit, then settles for follow-ups", async () => {
    const sync = await open();
    sync.onPublish({ uri: pyUri, diagnostics: [diagnostic("before the edit")] });
    await sync.sync(pyUri, "python", "x = \n", false);
    const state = watch(sync.awaitPublish(pyUri, Date.now() + 60_000));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(state.answer, "a publish from before the edit is no answer").toBeUndefined();
    sync.onPublish({ uri: pyUri, diagnostics: [diagnostic("syntax")] });
    await vi.advanceTimersByTimeAsync(0);
    expect(state.answer, "the settle after the first fresh publish").toBeUndefined();
    // A follow-up within the settle (a second phase) replaces it and restarts the settle.
    await vi.advanceTimersByTimeAsync(200);
    sync.onPublish({ uri: pyUri, diagnostics: [diagnostic("syntax"), diagnostic("semantic")] });
    await vi.advanceTimersByTimeAsync(200);
    expect(state.answer).toBeUndefined();
    await vi.advanceTimersByTimeAsync(200);
    expect(state.answer).toEqual({
      diagnostics: [diagnostic("syntax"), diagnostic("semantic")],
      fresh: true,
    });
  });

  it("a publish that arrived before the edit does not count: at the bound the answer is not fresh", async () => {
    const sync = await open();
    sync.onPublish({ uri: pyUri, diagnostics: [diagnostic("of version 1")] });
    await sync.sync(pyUri, "python", "x = 2\n", false);
    const state = watch(sync.awaitPublish(pyUri, Date.now() + 5_000));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(state.answer).toEqual({ diagnostics: [diagnostic("of version 1")], fresh: false });
  });

  it("an older versioned publish arriving after the edit is not fresh; the edit's own version is", async () => {
    const sync = await open();
    await sync.sync(pyUri, "python", "x = 2\n", false);
    expect(sync.versionOf(pyUri)).toBe(2);
    const state = watch(sync.awaitPublish(pyUri, Date.now() + 60_000));
    sync.onPublish({ uri: pyUri, version: 1, diagnostics: [diagnostic("of version 1")] });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(state.answer, "version 1 answers an older text").toBeUndefined();
    sync.onPublish({ uri: pyUri, version: 2, diagnostics: [] });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(state.answer).toEqual({ diagnostics: [], fresh: true });
  });
});

describe("DocumentSync on a server that rebuilds only new text (clangd's forceRebuild; fake channel)", () => {
  const clangd: ServerSpec = {
    ...spec,
    language: "c",
    command: "clangd",
    diagnosticsWork: undefined,
    rebuild: "force-rebuild",
    includedExtensions: [".h"],
    indexScope: "open-files",
  };
  const a = "file:///w/a.c";
  const b = "file:///w/b.c";
  const h = "file:///w/u.h";

  const recording = () => recordingSync(clangd, { versions: true });

  it("checks an unchanged document again by a forced change, never by a close and reopen", async () => {
    const { sent, sync } = recording();
    await sync.sync(a, "c", "int a;\n", true);
    await sync.sync(b, "c", "int b;\n", true);
    await sync.sync(b, "c", "int b2;\n", true);
    await sync.sync(a, "c", "int a;\n", true);
    expect(sent.slice(4)).toEqual([
      "didChange b.c v2",
      "didSave b.c",
      "didChange a.c v2 forced",
      "didSave a.c",
    ]);
    // A header changed: the documents sent before it are built again, in place.
    await sync.sync(h, "c", "int u(void);\n", false);
    await sync.sync(h, "c", "int u(int);\n", false);
    sent.length = 0;
    expect((await sync.refreshIncluders()).sort()).toEqual([a, b].sort());
    expect(sent.sort()).toEqual(["didChange a.c v3 forced", "didChange b.c v3 forced"]);
  });

  it("sends again only the documents whose text includes a changed file, when told which do", async () => {
    const { sent, sync } = recording();
    await sync.sync(a, "c", '#include "u.h"\nint a;\n', false);
    await sync.sync(b, "c", "int b;\n", false);
    sync.noteChanges([h]);
    sent.length = 0;
    const asked: (readonly string[])[] = [];
    const refreshed = await sync.refreshIncluders(async (changed) => {
      asked.push(changed);
      return (text) => text.includes("u.h");
    });
    expect(asked).toEqual([[h]]);
    expect(refreshed).toEqual([a]);
    expect(sent).toEqual(["didChange a.c v2 forced"]);
    // b.c counts as up to date: nothing more to send.
    expect(await sync.refreshIncluders(async () => () => true)).toEqual([]);
  });

  it("sends every stale document again when the include test fails, as without one", async () => {
    const { sent, sync } = recording();
    await sync.sync(a, "c", '#include "u.h"\nint a;\n', false);
    await sync.sync(b, "c", "int b;\n", false);
    sync.noteChanges([h]);
    sent.length = 0;
    // The test throws while made, or while run on one document.
    await expect(
      sync.refreshIncluders(async () => {
        throw new RangeError("Maximum call stack size exceeded");
      }),
    ).resolves.toEqual([a, b]);
    sync.noteChanges([h]);
    sent.length = 0;
    const refreshed = await sync.refreshIncluders(async () => (text) => {
      if (text.includes("u.h")) throw new Error("unreadable");
      return false;
    });
    expect(refreshed).toEqual([a]);
    expect(sent).toEqual(["didChange a.c v3 forced"]);
  });

  it("closes a document on the server only once it published its last version, without holding the call", async () => {
    const { sent, sync } = recording();
    await sync.sync(a, "c", "int a;\n", false);
    await sync.sync(a, "c", "int a2;\n", false);
    // clangd 14 hangs on a close that comes while the open and a change are still queued.
    await sync.close(a);
    expect(sync.isOpen(a)).toBe(false);
    expect(sent).toEqual(["didOpen a.c v1", "didChange a.c v2"]);
    sync.onPublish({ uri: a, version: 1, diagnostics: [] });
    await flush();
    expect(sent).toHaveLength(2);
    sync.onPublish({ uri: a, version: 2, diagnostics: [] });
    await flush();
    expect(sent).toEqual(["didOpen a.c v1", "didChange a.c v2", "didClose a.c"]);
    // Published already: closed at once.
    await sync.sync(b, "c", "int b;\n", false);
    sync.onPublish({ uri: b, version: 1, diagnostics: [] });
    await sync.close(b);
    expect(sent.slice(3)).toEqual(["didOpen b.c v1", "didClose b.c"]);
  });

  it("never sends the close of a document whose last version the server has not published, however long it takes", async () => {
    // A fake channel: clangd 14 hangs only when its preamble build of the document outlasts
    // the wait (a heavy include under load), which a test cannot make happen on time.
    vi.useFakeTimers();
    try {
      const { sent, sync } = recording();
      await sync.sync(a, "c", "int a;\n", false);
      await sync.sync(a, "c", "int a2;\n", false);
      await sync.close(a);
      await vi.advanceTimersByTimeAsync(120_000);
      expect(sent).toEqual(["didOpen a.c v1", "didChange a.c v2"]);
      sync.onPublish({ uri: a, version: 2, diagnostics: [] });
      await vi.advanceTimersByTimeAsync(0);
      expect(sent).toEqual(["didOpen a.c v1", "didChange a.c v2", "didClose a.c"]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("opens a document whose close waits for the server as a forced change (the server still has it open)", async () => {
    const { sent, sync } = recording();
    await sync.sync(a, "c", "int a;\n", false);
    await sync.close(a);
    await sync.sync(a, "c", "int a;\n", true);
    // The publish of the version the close waited for comes after the document is open again.
    sync.onPublish({ uri: a, version: 1, diagnostics: [] });
    await flush();
    expect(sent).toEqual(["didOpen a.c v1", "didChange a.c v2 forced", "didSave a.c"]);
    expect(sync.isOpen(a)).toBe(true);
    let answer: unknown;
    void sync.awaitPublish(a, Date.now() + 60_000).then((value) => (answer = value));
    sync.onPublish({ uri: a, version: 2, diagnostics: [] });
    await vi.waitFor(() => expect(answer).toEqual({ diagnostics: [], fresh: true }));
  });

  it("forces the build of a change back to a text sent since the last publish, not of a new text", async () => {
    const { sent, sync } = recording();
    await sync.sync(a, "c", "int foo;\n", false);
    sync.onPublish({ uri: a, version: 1, diagnostics: [] });
    // A rename's check: the edit in memory, its analysis, then the text before again.
    await sync.sync(a, "c", "int bar;\n", false);
    sync.onPublish({ uri: a, version: 2, diagnostics: [] });
    await sync.sync(a, "c", "int foo;\n", false);
    // The write: the edit's text again, which the server may have built last (version 3 may
    // have been skipped for it).
    await sync.sync(a, "c", "int bar;\n", true);
    expect(sent).toEqual([
      "didOpen a.c v1",
      "didChange a.c v2",
      "didChange a.c v3",
      "didChange a.c v4 forced",
      "didSave a.c",
    ]);
    // Once version 4 is published, what it built last is that text: an older one is new again.
    sync.onPublish({ uri: a, version: 4, diagnostics: [] });
    sent.length = 0;
    await sync.sync(a, "c", "int foo;\n", false);
    expect(sent).toEqual(["didChange a.c v5"]);
  });

  it("forces the build of a change back to the text of the open after many changes the server has not answered", async () => {
    const { sent, sync } = recording();
    await sync.sync(a, "c", "int v0;\n", false);
    // A busy server: no publish for any of them, and it may still be at the open's text.
    for (let i = 1; i <= 40; i++) await sync.sync(a, "c", `int v${i};\n`, false);
    sent.length = 0;
    await sync.sync(a, "c", "int v0;\n", false);
    expect(sent).toEqual(["didChange a.c v42 forced"]);
    // Once a version is published, the texts before it are new to the server again.
    sync.onPublish({ uri: a, version: 42, diagnostics: [] });
    sent.length = 0;
    await sync.sync(a, "c", "int v1;\n", false);
    expect(sent).toEqual(["didChange a.c v43"]);
    // A run too long to keep every text's print: any text may be what it built last.
    for (let i = 0; i < 100; i++) await sync.sync(a, "c", `int w${i};\n`, false);
    sent.length = 0;
    await sync.sync(a, "c", "int never_sent;\n", false);
    expect(sent).toEqual(["didChange a.c v144 forced"]);
    sync.onPublish({ uri: a, version: 144, diagnostics: [] });
    sent.length = 0;
    await sync.sync(a, "c", "int w0;\n", false);
    expect(sent).toEqual(["didChange a.c v145"]);
  });
});

describe("DocumentSync re-checks (fake channel: it records what would reach a server)", () => {
  const clangd: ServerSpec = { ...spec, language: "c", command: "clangd", diagnosticsWork: undefined };
  const a = "file:///w/a.c";
  const b = "file:///w/b.c";

  const recording = () => recordingSync(clangd, { versions: false });

  it("reopens an unchanged document only after another document's text changed", async () => {
    const { sent, sync } = recording();
    await sync.sync(a, "c", "int a;\n", true);
    await sync.sync(b, "c", "int b;\n", true);
    // Checking each in turn with nothing changed: no re-check (opens and saves change nothing).
    await sync.sync(a, "c", "int a;\n", true);
    await sync.sync(b, "c", "int b;\n", true);
    expect(sent).toEqual(["didOpen a.c", "didSave a.c", "didOpen b.c", "didSave b.c"]);
    await sync.sync(b, "c", "int b2;\n", true);
    await sync.sync(a, "c", "int a;\n", true);
    await sync.sync(a, "c", "int a;\n", true);
    expect(sent.slice(4)).toEqual([
      "didChange b.c",
      "didSave b.c",
      "didClose a.c",
      "didOpen a.c",
      "didSave a.c",
    ]);
    sync.noteChanges(); // a file changed on disk
    await sync.sync(b, "c", "int b2;\n", true);
    expect(sent.slice(9)).toEqual(["didClose b.c", "didOpen b.c", "didSave b.c"]);
  });

  it("runs two syncs of one document in turn: one reopen, not two interleaved", async () => {
    const { sent, sync } = recording();
    await sync.sync(a, "c", "int a;\n", true);
    await sync.sync(b, "c", "int b;\n", true);
    await sync.sync(b, "c", "int b2;\n", true);
    sent.length = 0;
    await Promise.all([sync.sync(a, "c", "int a;\n", true), sync.sync(a, "c", "int a;\n", true)]);
    expect(sent).toEqual(["didClose a.c", "didOpen a.c", "didSave a.c"]);
  });

  it("ignores a versionless publish from a server that versions them (clangd clearing a closed file)", async () => {
    const { sync } = recording();
    await sync.sync(a, "c", "int a;\n", true);
    sync.onPublish({ uri: a, version: 1, diagnostics: [diagnostic("real")] });
    await sync.close(a);
    await sync.sync(a, "c", "int a;\n", true);
    // The close's clearing publish arrives after the new open: not the answer for the new open.
    sync.onPublish({ uri: a, diagnostics: [] });
    let answer: { diagnostics: unknown[]; fresh: boolean } | undefined;
    void sync.awaitPublish(a, Date.now() + 60_000).then((result) => (answer = result));
    await flush();
    expect(answer).toBeUndefined();
    // Nor is a late publish for the closed document's version 1: the new open is version 2.
    sync.onPublish({ uri: a, version: 1, diagnostics: [diagnostic("old")] });
    await flush();
    expect(answer).toBeUndefined();
    expect(sync.versionOf(a)).toBe(2);
    sync.onPublish({ uri: a, version: 2, diagnostics: [diagnostic("real")] });
    await flush();
    expect(answer).toEqual({ diagnostics: [diagnostic("real")], fresh: true });
  });

  it("does not count a document whose close is on its way as synced: a sync then opens it again", async () => {
    // A search's overflow closes a parked file while another call opens it: before, the call saw
    // it synced, sent nothing, and the close then took it away from under its request.
    const { sent, sync } = recording();
    await sync.sync(a, "c", "int a;\n", false);
    sent.length = 0;
    const closing = sync.close(a);
    expect(sync.isSynced(a, "int a;\n")).toBe(false);
    expect(sync.openUris(), "not among those a catch-up brings up to date").toEqual([]);
    await Promise.all([closing, sync.sync(a, "c", "int a;\n", false)]);
    expect(sync.openUris()).toEqual([a]);
    expect(sent).toEqual(["didClose a.c", "didOpen a.c"]);
    expect([sync.isOpen(a), sync.isSynced(a, "int a;\n"), sync.versionOf(a)]).toEqual([true, true, 2]);
  });

  it("keeps a document whose second close is queued out of the open ones while it is opened again", async () => {
    let opening: () => void = () => undefined;
    const sync: DocumentSync = new DocumentSync(clangd, {
      // The reopen's didOpen is held until the test lets it go.
      notify: (method): Promise<void> =>
        method === "textDocument/didOpen" && sync.isOpen(a) && sync.versionOf(a) === 2
          ? new Promise<void>((resolve) => (opening = resolve))
          : Promise.resolve(),
      request: async () => null,
      alive: () => true,
    });
    await sync.sync(a, "c", "int a;\n", false);
    const first = sync.close(a);
    const reopened = sync.sync(a, "c", "int a;\n", false);
    const second = sync.close(a);
    await first;
    for (let turn = 0; turn < 5 && !sync.isOpen(a); turn++) await flush();
    expect(sync.isOpen(a), "opened again, its didOpen on its way").toBe(true);
    expect(sync.openUris(), "its second close is still queued").toEqual([]);
    opening();
    await Promise.all([reopened, second]);
    expect([sync.isOpen(a), sync.openUris()]).toEqual([false, []]);
  });

  it("ends a wait for a document closed meanwhile, as not fresh", async () => {
    const { sync } = recording();
    await sync.sync(a, "c", "int a;\n", true);
    const pending = sync.awaitPublish(a, Date.now() + 60_000);
    await sync.close(a);
    expect(await pending).toEqual({ diagnostics: [], fresh: false });
  });
});
