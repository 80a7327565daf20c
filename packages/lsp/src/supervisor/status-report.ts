import { isFolder } from "../files/is-folder.js";
import { processStat } from "@tools/registry";
import { dirname, extname, join } from "node:path";
import { relativeDirectoriesOf } from "../checkers/compile-commands.js";
import { outsideUnwatchedText } from "../client/outside-folders.js";
import type { BinaryLookup } from "../servers/find-binary.js";
import { describeRootSearch, type RootSearch } from "../servers/project-folders.js";
import type { ServerSpec } from "../servers/server-table.js";
import type { ServerRecord } from "./server-record.js";
import { pythonPathOf } from "./server-setup.js";

/** What detection says about one language for one file or root. */
export interface Detection {
  readonly spec: ServerSpec;
  readonly root: string | undefined;
  readonly marker: string | undefined;
  readonly binary: BinaryLookup;
  /**
   * Without a root: the nearest marker in a folder above the working directory, where no root
   * is looked for (see `markerAbove` of find-root).
   */
  readonly markerAbove?: string;
}

/** What {@link statusReport} reads from the supervisor. */
export interface StatusView {
  readonly workingDirectory: string;
  readonly records: readonly ServerRecord[];
  readonly servers: readonly ServerSpec[];
  detect(spec: ServerSpec, file: string): Detection;
  display(path: string): string;
  specFor(file: string): ServerSpec | undefined;
  /** The roots below the working directory (bounded search). */
  rootSearch(): RootSearch;
  /** Why the server cannot work in `root` although marker and binary are there (see serverSetup). */
  setupProblem(spec: ServerSpec, root: string, binary: string): string | undefined;
}

/**
 * One line per language and root: marker, binary, state and reason (with the last stderr lines
 * of a server that failed, even one that never finished starting) — the started servers first,
 * then the roots found for `file` (or by the bounded search below the working directory), then
 * the languages with no root at all.
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
    const tail = client?.state === "crashed" ? client.stderrTail() : (record.lastStderr ?? "");
    const problem =
      state !== "running" && detection.root && detection.binary.found
        ? view.setupProblem(record.spec, record.root, detection.binary.path)
        : undefined;
    lines.push(
      `${record.spec.language}: root ${view.display(record.root)} (marker ${detection.marker ?? "gone"}), binary ${describeBinary(
        detection.binary,
      )}, state ${state}${client?.pid && state === "running" ? ` (pid ${client.pid}${describeStopped(client.pid)})` : ""}${
        state === "running" ? describeInterpreter(client, view) : ""
      }${
        reason && state !== "running"
          ? `, reason: ${reason}${tail ? `; stderr: ${tail.split("\n").slice(-5).join(" | ")}` : ""}`
          : ""
      }${problem ? `; cannot start now: ${problem}` : ""}${state === "running" ? describeWatching(client, view) : ""}${
        record.spec.language === "c" ? describeCompileDatabase(record.root, view) : ""
      }`,
    );
  }
  const notStarted = (spec: ServerSpec, detection: Detection, probe: string): void => {
    const key = `${spec.language}\u0000${detection.root ?? ""}`;
    if (seen.has(key)) return;
    seen.add(key);
    const where = detection.root
      ? `root ${view.display(detection.root)} (marker ${detection.marker})`
      : `no root (none of ${spec.markers.join(", ")} between ${view.display(probe)} and the working directory)`;
    // Only what is missing: the marker (with how to make one), the binary, or both.
    const how = detection.root ? undefined : markerHint(detection);
    let state = `(cannot start without ${missingParts(detection.root === undefined, detection)}${how ? `; ${how}` : ""})`;
    if (detection.root && detection.binary.found) {
      const problem = view.setupProblem(spec, detection.root, detection.binary.path);
      state = problem ? `(cannot start: ${problem})` : "(starts on first use)";
    }
    lines.push(
      `${spec.language}: ${where}, binary ${describeBinary(detection.binary)}, state not started ${state}`,
    );
  };
  if (file) {
    const spec = view.specFor(file);
    if (spec) {
      notStarted(spec, view.detect(spec, file), file);
    } else if (isFolder(file)) {
      // A folder: the servers whose roots cover it (those started are listed above).
      const probe = join(file, "_");
      const covering = view.servers
        .map((each) => view.detect(each, probe))
        .filter((detection) => detection.root !== undefined);
      for (const detection of covering) notStarted(detection.spec, detection, probe);
      if (covering.length === 0 && lines.length === 0) {
        lines.push(
          `no language server root covers ${view.display(file)}: none of the root markers (${[
            ...new Set(view.servers.flatMap((each) => each.markers)),
          ].join(", ")}) is in it or a folder above it inside the working directory`,
        );
      }
    } else {
      const extensions = [...new Set(view.servers.flatMap((each) => each.extensions))].join(", ");
      lines.push(
        `no language server handles ${view.display(file)} (${extname(file) || "no extension"}); files handled: ${extensions}`,
      );
    }
    return lines.join("\n");
  }
  const search = view.rootSearch();
  for (const spec of view.servers) {
    let reported = view.records.some((record) => record.spec === spec);
    for (const found of search.roots) {
      if (found.spec !== spec) continue;
      reported = true;
      const probe = join(found.root, "_");
      notStarted(spec, view.detect(spec, probe), probe);
    }
    if (!reported) {
      const detection = view.detect(spec, join(view.workingDirectory, "_"));
      const how = detection.root ? undefined : markerHint(detection);
      lines.push(
        `${spec.language}: no root marker (${spec.markers.join(", ")}) ${describeRootSearch(search)}, binary ${describeBinary(detection.binary)}, state not started (cannot start without ${missingParts(true, detection)}${how ? `; ${how}` : ""})`,
      );
    }
  }
  return lines.join("\n");
}

/** What a server that cannot start lacks: "a root marker", "the binary", or both. */
function missingParts(noMarker: boolean, detection: Detection): string {
  return [noMarker ? "a root marker" : undefined, detection.binary.found ? undefined : "the binary"]
    .filter((each) => each !== undefined)
    .join(" and ");
}

/**
 * A running server's folder watch, when it does not cover the whole root; and the folders outside
 * the root its projects read that are not watched (past the bound), when there are.
 */
function describeWatching(client: ServerRecord["client"], view: StatusView): string {
  if (client === undefined) return "";
  const watching = client.watching();
  const root = watching.complete
    ? ""
    : `; changes on disk watched in ${watching.folders} folder${watching.folders === 1 ? "" : "s"} only (the folder bound, or a symlinked folder not followed): a file changed elsewhere by a shell command is seen once opened, or after "reload"`;
  const unwatched = client.outsideUnwatched(true);
  return unwatched === 0
    ? root
    : `${root}; ${outsideUnwatchedText(unwatched, client.spec.command, view.display(client.root))}`;
}

/** For pyright: the interpreter it resolves imports with (the one given, or none). */
function describeInterpreter(client: ServerRecord["client"], view: StatusView): string {
  if (client?.spec.language !== "python") return "";
  const python = pythonPathOf(client.currentSettings());
  return python !== undefined
    ? `, interpreter ${view.display(python)}`
    : ", interpreter: none found (no .venv or venv in the root or above it, no VIRTUAL_ENV), so pyright uses the python on its PATH";
}

function describeBinary(binary: BinaryLookup): string {
  return binary.found ? `found (${binary.path})` : `missing (${binary.reason})`;
}

/**
 * How to make a root marker, per language, where the marker's name does not say what goes in it
 * (C/C++) or a command makes it (Go).
 */
const markerHints: Readonly<Record<string, string>> = {
  c: "a compile_flags.txt in the project's top folder holding its compiler flags, one per line, such as -Iinclude; or a compile_commands.json from cmake -B build -DCMAKE_EXPORT_COMPILE_COMMANDS=ON, or bear -- make",
  go: "go mod init <module path> in the module's top folder",
};

/** Why a server cannot start for a file: the missing marker (and how to make one), binary or both. */
export function explainMissing(detection: Detection, display: string): string {
  const { spec } = detection;
  const parts: string[] = [];
  if (!detection.root) parts.push(missingMarker(detection, display));
  if (!detection.binary.found)
    parts.push(`the ${spec.language} server is missing: ${detection.binary.reason}`);
  return `${spec.command} cannot start: ${parts.join("; and ")}. A server needs both a root marker and its binary; action "status" shows what is found.`;
}

/**
 * That a file (`display`) has no root marker of its language in any folder up to the working
 * directory, and how to make one (or, where there is one above the working directory, where to
 * start the run instead; see {@link markerHint}). Every answer about a missing marker says it so.
 */
export function missingMarker(detection: Detection, display: string): string {
  const { spec } = detection;
  const how = markerHint(detection);
  return `no root marker for ${spec.language} (${spec.markers.join(", ")}) in any folder from ${display} up to the working directory${how ? ` (${how})` : ""}`;
}

/**
 * What to do about a missing root marker, said by every answer about one (the calls on a file,
 * `status` with a file and without): where there is one above the working directory, to start
 * the run there (making another, `go mod init` in the module's top folder, would fail, or nest a
 * second module below the first); else how to make one where the marker's name does not say
 * what goes in it (see {@link markerHints}); else undefined.
 */
function markerHint(detection: Detection): string | undefined {
  const { spec } = detection;
  const above = detection.markerAbove;
  if (above)
    return `there is one above it, ${above}: a server is rooted only inside the working directory, so start the run in ${dirname(above)} or below it`;
  return Object.hasOwn(markerHints, spec.language) ? `to make one: ${markerHints[spec.language]}` : undefined;
}

/**
 * A note on a C/C++ root's compile_commands.json that clangd cannot use in full (entries with a
 * relative directory), or "": its files are then built with guessed flags, and a header's
 * symbols are not those of the sources (a rename, or references, miss them).
 */
function describeCompileDatabase(root: string, view: StatusView): string {
  const database = relativeDirectoriesOf(root);
  if (!database || database.count === 0) return "";
  const count = database.count;
  return `; ${view.display(database.path)}: ${count} entr${count === 1 ? "y has" : "ies have"} a relative "directory", which clangd does not use (it builds those files with guessed flags): make ${count === 1 ? "it" : "them"} absolute`;
}

/**
 * ", stopped: …" when the server's process is stopped (SIGSTOP, a debugger, Ctrl+Z): it is
 * running as far as the protocol knows, but answers nothing until continued.
 */
function describeStopped(pid: number): string {
  const state = processStat(pid)?.state;
  return state === "T" || state === "t"
    ? ", stopped (SIGSTOP or a debugger): it answers nothing until continued; reload replaces it"
    : "";
}
