/**
 * What `LspSupervisor.reload` does: the servers of a file's root, or every started server,
 * stopped and started again, one line per server saying what was done.
 */
import type { LanguageClient } from "../client/language-client.js";
import { LspError } from "../errors/lsp-error.js";
import type { ServerSpec } from "../servers/server-table.js";
import { resetCrashes, type ServerRecord } from "./server-record.js";
import { explainMissing, type Detection } from "./status-report.js";

/** What {@link reloadServers} reloads through (an `LspSupervisor`). */
export interface ReloadHost {
  /** The started servers, by language and root. */
  readonly records: ReadonlyMap<string, ServerRecord>;
  specFor(file: string): ServerSpec | undefined;
  detect(spec: ServerSpec, file: string): Detection;
  display(path: string): string;
  /** The running client for `file`, started if needed. */
  clientFor(file: string): Promise<LanguageClient>;
  /** Stops the server of `record` and starts it again (see `LspSupervisor.restart`). */
  restart(record: ServerRecord): Promise<LanguageClient>;
}

/**
 * Restarts the servers of the root of `file` (starting one that never ran), or, without a
 * file, every server that is running, each on its own root. One line per server saying what
 * was done: restarted (old → new pid), could not be restarted (why), or — for a server that
 * was not running (crashed, or failed to start) — back-off cleared, starts on next use.
 */
export async function reloadServers(host: ReloadHost, file?: string): Promise<string[]> {
  if (file) {
    const spec = host.specFor(file);
    const detection = spec ? host.detect(spec, file) : undefined;
    if (!spec || !detection?.root) {
      throw new LspError({
        code: "LSP_NO_SERVER",
        message: spec
          ? explainMissing(detection!, host.display(file))
          : `no language server handles ${host.display(file)}`,
      });
    }
    const record = host.records.get(`${spec.language}\u0000${detection.root}`);
    const where = `${spec.language} for ${host.display(detection.root)}`;
    if (!record) {
      const client = await host.clientFor(file);
      return [`${where}: started (pid ${client.pid ?? "unknown"})`];
    }
    const before = record.client?.pid ?? record.lastPid;
    const client = await host.restart(record);
    return [`${where}: restarted (pid ${before ?? "none"} → ${client.pid ?? "unknown"})`];
  }
  const records = [...host.records.values()];
  return Promise.all(records.map((record) => reloadRecord(host, record)));
}

/** What {@link reloadServers} without a file does for one server, as one line. */
async function reloadRecord(host: ReloadHost, record: ServerRecord): Promise<string> {
  await record.starting?.catch(() => undefined);
  const where = `${record.spec.language} for ${host.display(record.root)}`;
  const client = record.client;
  if (client?.state !== "running") {
    const why = client?.failure ?? record.lastFailure;
    resetCrashes(record);
    return `${where}: was not running${why ? ` (${why})` : ""}; not restarted, crash back-off cleared: it starts on its next use`;
  }
  try {
    const restarted = await host.restart(record);
    return `${where}: restarted (pid ${client.pid ?? "unknown"} → ${restarted.pid ?? "unknown"})`;
  } catch (error) {
    const message = (error as Error).message.split("\n")[0] ?? "";
    return `${where}: stopped, but could not be restarted: ${message}`;
  }
}
