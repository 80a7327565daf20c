import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { BinaryLookup } from "../servers/find-binary.js";
import type { ServerSpec } from "../servers/server-table.js";
import type { ServerRecord } from "./server-record.js";

/** What detection says about one language for one file or root. */
export interface Detection {
  readonly spec: ServerSpec;
  readonly root: string | undefined;
  readonly marker: string | undefined;
  readonly binary: BinaryLookup;
}

/** What {@link statusReport} reads from the supervisor. */
export interface StatusView {
  readonly workingDirectory: string;
  readonly records: readonly ServerRecord[];
  readonly servers: readonly ServerSpec[];
  detect(spec: ServerSpec, file: string): Detection;
  display(path: string): string;
  specFor(file: string): ServerSpec | undefined;
  markerProbes(): string[];
}

/**
 * One line per language and root: marker, binary, state and reason — the started servers
 * first, then the roots found for `file` (or in the working directory and its direct
 * subfolders), then the languages with no root at all.
 */
export function statusReport(view: StatusView, file?: string): string {
  const lines: string[] = [];
  const seen = new Set<string>();
  for (const record of view.records) {
    seen.add(record.key);
    const client = record.client;
    const state = client?.state ?? (record.lastFailure ? "crashed" : "not started");
    const detection = view.detect(record.spec, join(record.root, "_"));
    const reason = client?.state === "crashed" ? client.failure : record.lastFailure;
    const tail = client?.state === "crashed" ? client.stderrTail() : "";
    lines.push(
      `${record.spec.language}: root ${view.display(record.root)} (marker ${detection.marker ?? "gone"}), binary ${describeBinary(
        detection.binary,
      )}, state ${state}${client?.pid && state === "running" ? ` (pid ${client.pid})` : ""}${
        reason && state !== "running"
          ? `, reason: ${reason}${tail ? `; stderr: ${tail.split("\n").slice(-5).join(" | ")}` : ""}`
          : ""
      }`,
    );
  }
  const probes = file ? [file] : view.markerProbes();
  for (const spec of view.servers) {
    if (file && view.specFor(file) !== spec) continue;
    let reported = view.records.some((record) => record.spec === spec);
    for (const probe of probes) {
      const detection = view.detect(spec, probe);
      if (!detection.root && !file) continue;
      const key = `${spec.language}\u0000${detection.root ?? ""}`;
      reported = true;
      if (seen.has(key)) continue;
      seen.add(key);
      const where = detection.root
        ? `root ${view.display(detection.root)} (marker ${detection.marker})`
        : `no root (none of ${spec.markers.join(", ")} between ${view.display(probe)} and the working directory)`;
      const startable = detection.root && detection.binary.found;
      lines.push(
        `${spec.language}: ${where}, binary ${describeBinary(detection.binary)}, state not started ${
          startable ? "(starts on first use)" : "(cannot start: needs a root marker AND the binary)"
        }`,
      );
    }
    if (!reported) {
      const binary = view.detect(spec, join(view.workingDirectory, "_")).binary;
      lines.push(
        `${spec.language}: no root marker (${spec.markers.join(", ")}) in the working directory or its direct subfolders, binary ${describeBinary(binary)}`,
      );
    }
  }
  return lines.join("\n");
}

/** Folders to probe for markers: the working directory and its direct subfolders. */
export function markerProbes(workingDirectory: string): string[] {
  const probes = [join(workingDirectory, "_")];
  try {
    for (const entry of readdirSync(workingDirectory, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name.startsWith(".") || entry.name === "node_modules") continue;
      probes.push(join(workingDirectory, entry.name, "_"));
    }
  } catch {
    // unreadable working directory: only the top probe
  }
  return probes;
}

function describeBinary(binary: BinaryLookup): string {
  return binary.found ? `found (${binary.path})` : `missing (${binary.reason})`;
}

/** Why a server cannot start for a file: the missing marker, binary or both. */
export function explainMissing(detection: Detection, display: string): string {
  const { spec } = detection;
  const parts: string[] = [];
  if (!detection.root) {
    parts.push(
      `no root marker for ${spec.language} (${spec.markers.join(", ")}) in any folder from ${display} up to the working directory`,
    );
  }
  if (!detection.binary.found)
    parts.push(`the ${spec.language} server is missing: ${detection.binary.reason}`);
  return `${spec.command} cannot start: ${parts.join("; and ")}. A server needs both a root marker and its binary; action "status" shows what is found.`;
}
