import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A Jupyter connection file's content for the ipc transport. */
export interface ConnectionInfo {
  readonly transport: "ipc";
  /** Absolute path prefix; the socket of a channel is `<ip>-<port>`. */
  readonly ip: string;
  readonly shell_port: number;
  readonly iopub_port: number;
  readonly stdin_port: number;
  readonly control_port: number;
  readonly hb_port: number;
  readonly key: string;
  readonly signature_scheme: "hmac-sha256";
  readonly kernel_name: string;
}

/** The channels of a kernel connection. */
export type Channel = "shell" | "iopub" | "stdin" | "control" | "hb";

/** A private 0700 directory holding the sockets and the connection file of one kernel. */
export interface ConnectionDirectory {
  readonly directory: string;
  readonly file: string;
  readonly info: ConnectionInfo;
  /** Removes the directory and everything in it; safe to call twice. */
  remove(): void;
}

/** The endpoint of a channel: `ipc://<prefix>-<port>`. */
export function endpoint(info: ConnectionInfo, channel: Channel): string {
  return `ipc://${info.ip}-${info[`${channel}_port`]}`;
}

/**
 * Makes the directory. It lives under /tmp (not $TMPDIR) when that is shorter, because a Unix
 * socket path is limited to ~107 bytes.
 */
export function createConnectionDirectory(kernelName: string): ConnectionDirectory {
  const base = tmpdir().length <= 20 ? tmpdir() : "/tmp";
  const directory = mkdtempSync(join(base, "tk-"));
  const info: ConnectionInfo = {
    transport: "ipc",
    ip: join(directory, "k"),
    shell_port: 1,
    iopub_port: 2,
    stdin_port: 3,
    control_port: 4,
    hb_port: 5,
    key: randomBytes(32).toString("hex"),
    signature_scheme: "hmac-sha256",
    kernel_name: kernelName,
  };
  const file = join(directory, "connection.json");
  writeFileSync(file, JSON.stringify(info), { mode: 0o600 });
  return {
    directory,
    file,
    info,
    remove: () => rmSync(directory, { recursive: true, force: true }),
  };
}
