import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

/** What a python interpreter says about its debugpy. */
export type PythonProbe =
  | {
      readonly ok: true;
      readonly python: string;
      readonly debugpyDir: string;
      readonly version: string;
      readonly vendored: boolean;
    }
  | { readonly ok: false; readonly python: string; readonly reason: string };

const script = "import debugpy, os; print(debugpy.__version__); print(os.path.dirname(debugpy.__file__))";

/**
 * Asks `python` whether it can import debugpy (bounded at 10 s). `vendored` is false for distro
 * builds that strip pydevd's bundled dependencies and rely on system packages (Debian's): such
 * an adapter can only debug an interpreter that can import `bytecode` itself.
 */
export function probePython(python: string): Promise<PythonProbe> {
  const cached = cache.get(python);
  if (cached && Date.now() - cached.at < cacheMs) return cached.probe;
  const entry: CacheEntry = { at: Date.now(), probe: runProbe(python), settled: undefined };
  void entry.probe.then((answer) => (entry.settled = answer));
  cache.set(python, entry);
  return entry.probe;
}

/** The answer of a finished, still fresh probe of `python`, without running anything. */
export function knownProbe(python: string): PythonProbe | undefined {
  const cached = cache.get(python);
  return cached && Date.now() - cached.at < cacheMs ? cached.settled : undefined;
}

// Probing costs a python start-up (~50–300 ms, more behind pyenv shims); answers are kept briefly.
const cacheMs = 60_000;
interface CacheEntry {
  readonly at: number;
  readonly probe: Promise<PythonProbe>;
  settled: PythonProbe | undefined;
}
const cache = new Map<string, CacheEntry>();

function runProbe(python: string): Promise<PythonProbe> {
  return new Promise((resolve) => {
    execFile(
      python,
      ["-c", script],
      { timeout: 10_000, env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" } },
      (error, stdout, stderr) => {
        if (error) {
          const last = stderr.trim().split("\n").pop() ?? error.message;
          resolve({ ok: false, python, reason: last });
          return;
        }
        const [version = "?", debugpyDir = ""] = stdout.trim().split("\n");
        // PyPI wheels bundle pydevd's `bytecode` dependency; Debian's build strips it.
        const vendored = existsSync(
          join(debugpyDir, "_vendored", "pydevd", "_pydevd_frame_eval", "vendored", "bytecode"),
        );
        resolve({ ok: true, python, debugpyDir, version, vendored });
      },
    );
  });
}

/** True when `python` can import `module` (bounded at 10 s). */
export function canImport(python: string, module: string): Promise<boolean> {
  return new Promise((resolve) => {
    execFile(python, ["-c", `import ${module}`], { timeout: 10_000 }, (error) => resolve(!error));
  });
}
