import type { DebugProtocol } from "@vscode/debugprotocol";
import { vi } from "vitest";
import { DapConnection } from "../dap/dap-connection.js";

/**
 * Spies on every DAP connection's writes (called through); returns a reader of the commands of
 * the requests written so far, in order. The test's `vi.restoreAllMocks()` ends the spying.
 */
export function sentCommands(): () => string[] {
  const wire = DapConnection.prototype as unknown as { write(message: DebugProtocol.ProtocolMessage): void };
  const write = vi.spyOn(wire, "write");
  return () =>
    write.mock.calls
      .map(([message]) => message)
      .filter((message) => message.type === "request")
      .map((message) => (message as DebugProtocol.Request).command);
}
