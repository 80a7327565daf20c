import { expect, it } from "vitest";
import * as api from "./index.js";

it("exports exactly the public API", () => {
  expect(Object.keys(api).sort()).toEqual([
    "LspError",
    "LspSupervisor",
    "createLspSupervisor",
    "defaultServers",
    "diagnosticsLedgerKey",
    "diagnosticsOnWrite",
    "lspRenameTool",
    "lspSupervisorKey",
    "lspTool",
    "recordDiagnostics",
  ]);
});
