import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { displayPath } from "../session/source-lines.js";
import { findAllOnPath, findOnPath, findVersioned } from "./find-binary.js";
import { canImport, knownProbe, probePython } from "./probe-python.js";
import { findMarker, findMarkerBelow } from "./root-markers.js";

/** The adapters the debug tool drives. */
export const adapterIds = ["dart", "debugpy", "lldb", "delve"] as const;

/** One of {@link adapterIds}. */
export type AdapterId = (typeof adapterIds)[number];

/** The spec's table: the command each adapter runs as and the root markers that select it. */
export const adapterTable: Readonly<Record<AdapterId, { command: string; markers: readonly string[] }>> = {
  dart: { command: "dart debug_adapter", markers: ["pubspec.yaml"] },
  debugpy: {
    command: "python3 -m debugpy.adapter",
    markers: ["pyproject.toml", "setup.py", "requirements.txt"],
  },
  lldb: { command: "lldb-dap", markers: ["Cargo.toml", "CMakeLists.txt"] },
  delve: { command: "dlv dap", markers: ["go.mod"] },
};

/** What detection found for one adapter: marker, binary, and whether it can start. */
export interface AdapterReport {
  readonly id: AdapterId;
  /**
   * The root marker found (absolute path), or undefined. Without a `start`, when the working
   * directory has none, the first in a folder below it: a program there launches with it.
   */
  readonly marker: string | undefined;
  /** The adapter's executable (for debugpy: the python that imports debugpy), or undefined. */
  readonly binary: string | undefined;
  /** What was searched when the binary is missing, or how it was chosen. */
  readonly binaryNote: string;
  /** Marker and binary both present. */
  readonly usable: boolean;
  /** Why not usable, when it is not. */
  readonly why: string | undefined;
  /** Problems that do not stop a launch but may make it fail (interpreter pairing). */
  readonly warnings: readonly string[];
  /** debugpy only: the interpreter that runs the program (the project's own when it has one). */
  readonly debuggeePython?: string;
}

/** Where detection looks. */
export interface DetectOptions {
  /** The run's working directory: markers are never looked for above it. */
  readonly root: string;
  /**
   * Where the marker search starts (the program's directory; it walks up to the root, as launch
   * does). Without it (op `adapters`, attach) the root, then the folders below it.
   */
  readonly start?: string;
  /** The PATH to search; default `process.env.PATH`. */
  readonly searchPath?: string;
}

/** Detects one adapter: the root marker AND the binary must be found for it to be usable. */
export async function detectAdapter(id: AdapterId, options: DetectOptions): Promise<AdapterReport> {
  const searchPath = options.searchPath ?? process.env.PATH ?? "";
  const { markers } = adapterTable[id];
  const marker =
    findMarker(markers, options.start ?? options.root, options.root) ??
    (options.start === undefined ? findMarkerBelow(markers, options.root) : undefined);
  const found = await findBinary(id, searchPath, marker ? dirname(marker) : options.root, options.root);
  const problems: string[] = [];
  if (!marker) {
    // Paths as the replies show them: relative to the working directory.
    const where =
      options.start === undefined
        ? "in the working directory nor in the folders up to 2 levels below it"
        : options.start === options.root
          ? "in the working directory"
          : `from ${displayPath(options.start, options.root)} up to the working directory`;
    problems.push(`no root marker (${markers.join(", ")}) ${where}`);
  }
  if (!found.binary) problems.push(found.note);
  return {
    id,
    marker,
    binary: found.binary,
    binaryNote: found.note,
    usable: problems.length === 0,
    why: problems.length === 0 ? undefined : problems.join("; "),
    warnings: found.warnings,
    debuggeePython: found.debuggeePython,
  };
}

/** Detects all four adapters. */
export function detectAdapters(options: DetectOptions): Promise<AdapterReport[]> {
  return Promise.all(adapterIds.map((id) => detectAdapter(id, options)));
}

interface BinaryFound {
  binary: string | undefined;
  note: string;
  warnings: string[];
  debuggeePython?: string;
}

async function findBinary(
  id: AdapterId,
  searchPath: string,
  projectDir: string,
  root: string,
): Promise<BinaryFound> {
  switch (id) {
    case "dart": {
      const binary = findOnPath("dart", searchPath);
      return {
        binary,
        note: binary ? `dart at ${binary}` : "no 'dart' on PATH (install the Dart or Flutter SDK)",
        warnings: [],
      };
    }
    case "delve": {
      const binary = findOnPath("dlv", searchPath);
      return {
        binary,
        note: binary
          ? `dlv at ${binary}`
          : "no 'dlv' on PATH (go install github.com/go-delve/delve/cmd/dlv@latest)",
        warnings: [],
      };
    }
    case "lldb": {
      const binary = findVersioned("lldb-dap", searchPath) ?? findVersioned("lldb-vscode", searchPath);
      return {
        binary,
        note: binary
          ? `lldb-dap at ${binary}`
          : "no lldb-dap, lldb-dap-NN or lldb-vscode on PATH (install lldb, e.g. apt install lldb-19)",
        warnings: [],
      };
    }
    case "debugpy":
      return findDebugpy(searchPath, projectDir, root);
  }
}

function projectPython(dirs: readonly string[]): string | undefined {
  for (const dir of dirs) {
    for (const venv of [".venv", "venv"]) {
      const candidate = join(dir, venv, "bin", "python");
      if (existsSync(candidate)) return candidate;
    }
  }
  return undefined;
}

/** The pythons that may run debugpy's adapter, in the order they are tried. */
function debugpyCandidates(searchPath: string, projectDir: string, root: string): string[] {
  const dirs = projectDir === root ? [root] : [projectDir, root];
  const candidates: string[] = [];
  for (const dir of dirs) {
    for (const venv of [".venv", "venv"]) {
      const candidate = join(dir, venv, "bin", "python");
      if (existsSync(candidate)) candidates.push(candidate);
    }
  }
  candidates.push(...findAllOnPath("python3", searchPath));
  return [...new Set(candidates)];
}

/**
 * The python detection will most likely pick to run debugpy's adapter, found without running
 * anything: the first candidate not already known to lack debugpy. A launch starts the adapter
 * with it while detection probes (the probe is a python start-up, ~30–60 ms).
 */
export function likelyDebugpyPython(options: DetectOptions): string | undefined {
  const searchPath = options.searchPath ?? process.env.PATH ?? "";
  const marker = findMarker(adapterTable.debugpy.markers, options.start ?? options.root, options.root);
  const projectDir = marker ? dirname(marker) : options.root;
  return debugpyCandidates(searchPath, projectDir, options.root).find(
    (python) => knownProbe(python)?.ok !== false,
  );
}

async function findDebugpy(searchPath: string, projectDir: string, root: string): Promise<BinaryFound> {
  const dirs = projectDir === root ? [root] : [projectDir, root];
  const candidates = debugpyCandidates(searchPath, projectDir, root);
  const tried: string[] = [];
  const own = projectPython(dirs);
  // A project's own python (.venv/bin/python) is named relative to the working directory.
  const show = (python: string): string => displayPath(python, root);
  for (const python of candidates) {
    const probe = await probePython(python);
    if (!probe.ok) {
      tried.push(`${show(python)} (${probe.reason})`);
      continue;
    }
    const debuggeePython = own ?? python;
    const warnings: string[] = [];
    if (debuggeePython !== python && !probe.vendored) {
      const debuggee = await probePython(debuggeePython);
      if (!debuggee.ok && !(await canImport(debuggeePython, "bytecode"))) {
        warnings.push(
          `the adapter's debugpy ${probe.version} (${probe.debugpyDir}) is a distro build without pydevd's bundled ` +
            `dependencies and ` +
            `cannot debug ${show(debuggeePython)}; install debugpy there: ${show(debuggeePython)} -m pip install debugpy`,
        );
      }
    }
    return {
      binary: python,
      note: `python ${show(python)} with debugpy ${probe.version}`,
      warnings,
      debuggeePython,
    };
  }
  const searched = tried.length > 0 ? tried.join(", ") : "no python in .venv/bin, venv/bin or on PATH";
  return {
    binary: undefined,
    note: `no python that can import debugpy (tried ${searched}); install it: python3 -m pip install debugpy`,
    warnings: [],
  };
}
