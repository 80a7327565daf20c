import { createHash } from "node:crypto";
import { closeSync, constants, fstatSync, openSync, readFileSync, unlinkSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import { outputTail, runCommand, type CommandOutput, type RunOptions } from "./run-command.js";

/**
 * What tells one version of a file from another: its inode, size, mtime and ctime (ns), and a
 * hash of its content (a rewrite within one tick of the coarse file clock keeps the times).
 */
interface Identity {
  readonly dev: bigint;
  readonly ino: bigint;
  readonly size: bigint;
  readonly mtimeNs: bigint;
  readonly ctimeNs: bigint;
  readonly hash: string;
}

/** Not following a symlink, not waiting on a FIFO (neither is the file made here). */
const readFlags = constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOFOLLOW ?? 0);

/** The identity of the file at `path`; undefined when there is none (or it cannot be read). */
function identityOf(path: string): Identity | undefined {
  let fd: number;
  try {
    fd = openSync(path, readFlags);
  } catch {
    return undefined;
  }
  try {
    const content = readFileSync(fd);
    // After the read: a write while it read changed the ctime (or the content hashed).
    const { dev, ino, size, mtimeNs, ctimeNs } = fstatSync(fd, { bigint: true });
    return { dev, ino, size, mtimeNs, ctimeNs, hash: createHash("sha256").update(content).digest("hex") };
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

function sameIdentity(a: Identity, b: Identity): boolean {
  return (
    a.dev === b.dev &&
    a.ino === b.ino &&
    a.size === b.size &&
    a.mtimeNs === b.mtimeNs &&
    a.ctimeNs === b.ctimeNs &&
    a.hash === b.hash
  );
}

/**
 * Where cargo keeps the lock of the workspace `root` belongs to: beside the workspace root's
 * Cargo.toml, as `cargo locate-project --workspace` says (a member's lock is its workspace's; a
 * crate with a `[workspace]` of its own has its own). Undefined when cargo cannot say (a broken
 * manifest: the check itself then says what is wrong). Rejects as `runCommand` does.
 */
export async function cargoLockPath(
  cargo: string,
  root: string,
  options: RunOptions,
): Promise<string | undefined> {
  const output = await runCommand(
    cargo,
    ["locate-project", "--workspace", "--message-format", "plain"],
    options,
  );
  const manifest = output.stdout.trim();
  if (output.exitCode !== 0 || !isAbsolute(manifest)) return undefined;
  return join(dirname(manifest), "Cargo.lock");
}

/** A Cargo.lock made for one check where there was none (see {@link makeCargoLock}). */
export interface MadeCargoLock {
  /**
   * Removes the lock while it is still the one made; false when another process wrote it since
   * (left in place: it is that process's now).
   */
  remove(): boolean;
}

/**
 * Makes the Cargo.lock that `cargo check` needs at `path` where there is none, so that the check
 * runs `--locked` (never writing the lock) and the lock can be removed afterwards without taking
 * another process's (a user's `cargo build` in a shell, making or rewriting it meanwhile):
 *
 * 1. The path is claimed: created empty, exclusively. Undefined when that fails because a lock
 *    is there (another cargo made one since the caller looked): the check uses it, `--locked`.
 * 2. `cargo generate-lockfile` writes it: the resolution a check without a lock does, in place
 *    (cargo truncates and writes the file it opens), so the claimed inode stays.
 * 3. The identity of what it left (inode, size, times, content hash) is recorded: `remove` takes
 *    away only that. Another cargo that rewrote the lock after that (other dependencies, another
 *    format) changed it: its lock stays.
 *
 * Another cargo that reads the claimed file while still empty resolves as without a lock (cargo
 * 1.95 checked). Stable cargo has no way to put the lock elsewhere (`-Z lockfile-path` is nightly
 * only), and checking a copy of the workspace would break relative path dependencies and build
 * everything again in another target folder. What this cannot
 * see: another cargo that only read the lock made here (it resolved the same and wrote nothing;
 * its next run writes it again), one that wrote between `generate-lockfile`'s write and its end
 * (its lock is taken for the one made), and one that wrote between `remove`'s check and its
 * unlink (microseconds); cargo guards the file with flock, which Node cannot take.
 *
 * Rejects, leaving no lock made here, when the path cannot be claimed (not writable) or
 * `generate-lockfile` fails (its output says why) or is stopped (`runCommand`).
 */
export async function makeCargoLock(
  cargo: string,
  path: string,
  options: () => RunOptions,
): Promise<MadeCargoLock | undefined> {
  try {
    closeSync(openSync(path, "wx"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return undefined;
    throw new Error(`cannot make the Cargo.lock the check needs: ${(error as Error).message}`, {
      cause: error,
    });
  }
  let made: Identity | undefined;
  const lock: MadeCargoLock = {
    remove() {
      const now = identityOf(path);
      if (now === undefined) return true;
      if (made === undefined || !sameIdentity(now, made)) return false;
      try {
        unlinkSync(path);
      } catch {
        // Gone meanwhile.
      }
      return true;
    },
  };
  let output: CommandOutput;
  try {
    output = await runCommand(cargo, ["generate-lockfile", "--quiet"], options());
  } catch (error) {
    made = identityOf(path);
    lock.remove();
    throw error;
  }
  // What cargo left, whether it wrote the lock or not: the file claimed here.
  made = identityOf(path);
  if (output.exitCode !== 0) {
    lock.remove();
    throw new Error(
      `cargo generate-lockfile, run to make the Cargo.lock the check needs (removed after), exited with code ${output.exitCode}: ${outputTail(output)}`,
    );
  }
  return lock;
}
