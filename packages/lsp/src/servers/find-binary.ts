import { spawnSync } from "node:child_process";
import { accessSync, constants, realpathSync } from "node:fs";
import { basename, delimiter, join } from "node:path";
import { environmentFolderNames } from "./python-environment.js";

/** Where a server binary was found, or why not. */
export type BinaryLookup =
  | { readonly found: true; readonly path: string }
  | { readonly found: false; readonly reason: string };

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Finds `command`: first in each project-local folder (`node_modules/.bin`, `.venv/bin`,
 * `venv/bin` of each of `localRoots`: the root and its parents up to the working directory, as
 * Node resolves packages and as the Python environment is found), then in `extraDirectories`,
 * then on PATH. A rustup proxy whose component is not installed counts as missing: it exists
 * but cannot run.
 */
export function findBinary(
  command: string,
  localRoots: readonly string[],
  extraDirectories: readonly string[],
  pathVariable: string | undefined = process.env.PATH,
): BinaryLookup {
  const local = localRoots.flatMap((root) => [
    join(root, "node_modules", ".bin"),
    ...environmentFolderNames.map((name) => join(root, name, "bin")),
  ]);
  const fromPath = (pathVariable ?? "").split(delimiter).filter((entry) => entry !== "");
  const searched = [...local, ...extraDirectories, ...fromPath];
  for (const directory of searched) {
    const candidate = join(directory, command);
    if (!executable(candidate)) continue;
    const proxyProblem = rustupProxyProblem(candidate, localRoots[0]);
    if (proxyProblem !== undefined) return { found: false, reason: `${candidate} ${proxyProblem}` };
    return { found: true, path: candidate };
  }
  return {
    found: false,
    reason: `'${command}' is not in node_modules/.bin, .venv/bin or venv/bin of the project, nor on PATH`,
  };
}

/**
 * How long a failed proxy probe is believed: the component may be installed meanwhile. The probe
 * runs synchronously (detection is synchronous), so it is not repeated on every check.
 */
export const proxyProblemTtlMs = 30_000;

/** Per path and folder: a proxy that runs (kept), or the problem found and when (re-probed after the TTL). */
const proxyProbes = new Map<string, { readonly problem: string | undefined; readonly at: number }>();

function rustupProxyProblem(candidate: string, cwd: string | undefined): string | undefined {
  const key = `${candidate}\u0000${cwd ?? ""}`;
  const known = proxyProbes.get(key);
  if (known && (known.problem === undefined || Date.now() - known.at < proxyProblemTtlMs))
    return known.problem;
  const problem = probeRustupProxy(candidate, cwd);
  proxyProbes.set(key, { problem, at: Date.now() });
  return problem;
}

/**
 * A rustup proxy runs only when its component is installed for the toolchain the project picks
 * (`rust-toolchain.toml` in `cwd`, the root): ask it there, bounded to 3 s (it blocks the thread).
 */
function probeRustupProxy(candidate: string, cwd: string | undefined): string | undefined {
  let real: string;
  try {
    real = realpathSync(candidate);
  } catch {
    return undefined;
  }
  if (basename(real) !== "rustup") return undefined;
  const probe = spawnSync(candidate, ["--version"], {
    timeout: 3_000,
    encoding: "utf8",
    ...(cwd !== undefined ? { cwd } : {}),
  });
  if (probe.status === 0) return undefined;
  // Slow, not broken (a cold start on a loaded machine): taken as runnable; a start that then
  // fails says why itself.
  if ((probe.error as NodeJS.ErrnoException | undefined)?.code === "ETIMEDOUT") return undefined;
  const firstLine = `${probe.stderr ?? ""}`.trim().split("\n")[0] ?? "";
  return `is a rustup proxy that cannot run (${firstLine || (probe.error ? probe.error.message : "no output")}); install the component with 'rustup component add ${basename(candidate)}'`;
}
