import { describe, expect, it } from "vitest";
import { answerServerRequest, type ServerRequestState } from "./server-requests.js";

describe("answerServerRequest", () => {
  const state: ServerRequestState = { pullIdentifiers: new Set() };
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
});
