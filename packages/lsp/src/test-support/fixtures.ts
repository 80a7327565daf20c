import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

/** The package's own node_modules/.bin, where the npm servers are installed for tests. */
export const packageBin = join(here, "..", "..", "node_modules", ".bin");

/** True on CI, where a missing backend fails instead of skipping. */
export const ci = process.env.CI === "true";

/**
 * Blocks a little past the racy margin of `settledBefore` (100 ms): a file whose times a test set
 * back (`utimesSync`) is settled only once that change, its ctime (now), is older than the margin.
 */
export function pastRacyMargin(): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 120);
}

/** Copies `src/__fixtures__/<name>` into a fresh temp folder; returns its real path and a remover. */
export function copyFixture(name: string): { dir: string; remove: () => void } {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), `lsp-${name}-`)));
  cpSync(join(here, "..", "__fixtures__", name), dir, { recursive: true });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Writes `files` (relative path → content) into a fresh temp folder; returns its real path and a remover. */
export function tempTree(
  name: string,
  files: Readonly<Record<string, string>>,
): { dir: string; remove: () => void } {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), `lsp-${name}-`)));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * True when no live process is left in the process group `pid` (zombies waiting for a reaper
 * that this container may not run do not count). Linux: reads /proc. A SIGKILLed process may
 * take a moment to die: use {@link groupGoneWithin}.
 */
export function groupGone(pid: number): boolean {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue;
    }
    // pid (comm) state ppid pgrp ...; comm may hold spaces, so split after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[2]) === pid && fields[0] !== "Z") return false;
  }
  return true;
}

/** Whether process `pid` is running (a zombie not yet reaped counts as gone). Linux: reads /proc. */
export function running(pid: number): boolean {
  try {
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

/** Waits (bounded, default 5 s) until the process group `pid` has no live process left. */
export async function groupGoneWithin(pid: number, timeoutMs = 5_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!groupGone(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}
