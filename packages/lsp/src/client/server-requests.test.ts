import { describe, expect, it } from "vitest";
import {
  answerServerRequest,
  newServerRequestState,
  watchedBy,
  type ServerRequestState,
} from "./server-requests.js";

describe("answerServerRequest", () => {
  const state: ServerRequestState = newServerRequestState();
  const context = {
    settings: { python: { analysis: { diagnosticMode: "openFilesOnly" } } },
    root: "/r",
    state,
  };

  it("answers workspace/configuration per section, null when unknown", () => {
    expect(
      answerServerRequest(
        "workspace/configuration",
        { items: [{ section: "python.analysis" }, { section: "gopls" }] },
        context,
      ),
    ).toEqual([{ diagnosticMode: "openFilesOnly" }, null]);
  });

  it("remembers dynamically registered pull diagnostics until unregistered", () => {
    answerServerRequest(
      "client/registerCapability",
      {
        registrations: [
          { id: "1", method: "textDocument/diagnostic", registerOptions: { identifier: "pyright" } },
        ],
      },
      context,
    );
    expect([...state.pullIdentifiers]).toEqual(["pyright"]);
    answerServerRequest(
      "client/unregisterCapability",
      { unregisterations: [{ id: "1", method: "textDocument/diagnostic" }] },
      context,
    );
    expect(state.pullIdentifiers.size).toBe(0);
  });

  it("declines server-initiated edits and answers anything else with null", () => {
    expect(answerServerRequest("workspace/applyEdit", { edit: {} }, context)).toMatchObject({
      applied: false,
    });
    expect(answerServerRequest("window/workDoneProgress/create", { token: "t" }, context)).toBeNull();
    expect(answerServerRequest("workspace/workspaceFolders", null, context)).toEqual([
      { uri: "file:///r", name: "r" },
    ]);
  });

  it("remembers file watchers (string and relative globs, with their kinds) until unregistered", () => {
    const watchers = newServerRequestState();
    const own = { ...context, root: "/w", state: watchers };
    answerServerRequest(
      "client/registerCapability",
      {
        registrations: [
          // gopls's registration, as sent.
          {
            id: "gopls-0",
            method: "workspace/didChangeWatchedFiles",
            registerOptions: { watchers: [{ globPattern: "**/*.{go,mod,sum,work}", kind: 7 }] },
          },
          // pyright's relative pattern on a library folder; a create-only watcher.
          {
            id: "pyright-1",
            method: "workspace/didChangeWatchedFiles",
            registerOptions: {
              watchers: [
                { globPattern: { baseUri: "file:///usr/lib/python3.11", pattern: "**/*.py" } },
                { globPattern: "lib/*.json", kind: 1 },
                { globPattern: { baseUri: "https://example.com/x", pattern: "**" } },
              ],
            },
          },
        ],
      },
      own,
    );
    expect(watchedBy(watchers, "/w", "/w/cmd/main.go", 2)).toBe(true);
    expect(watchedBy(watchers, "/w", "/w/go.sum", 3)).toBe(true);
    expect(watchedBy(watchers, "/w", "/w/README.md", 2)).toBe(false);
    expect(watchedBy(watchers, "/w", "/usr/lib/python3.11/asyncio/tasks.py", 2)).toBe(true);
    expect(watchedBy(watchers, "/w", "/usr/lib/python3.12/asyncio/tasks.py", 2)).toBe(false);
    // A string glob is also matched relative to the root; the kind bits are honoured.
    expect(watchedBy(watchers, "/w", "/w/lib/settings.json", 1)).toBe(true);
    expect(watchedBy(watchers, "/w", "/w/lib/settings.json", 2)).toBe(false);
    answerServerRequest(
      "client/unregisterCapability",
      { unregisterations: [{ id: "gopls-0", method: "workspace/didChangeWatchedFiles" }] },
      own,
    );
    expect(watchedBy(watchers, "/w", "/w/cmd/main.go", 2)).toBe(false);
    expect(watchers.fileWatchers.size).toBe(1);
  });
});
