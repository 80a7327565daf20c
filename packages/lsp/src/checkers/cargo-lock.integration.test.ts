import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempTree } from "../test-support/fixtures.js";
import { projectCheckers } from "./project-checkers.js";

/**
 * diagnostics("*") on a crate without a Cargo.lock, against another cargo writing the lock at
 * chosen moments. A real concurrent cargo cannot be made to write at a chosen moment of the
 * check, so a stand-in cargo plays both: the check's own (locate-project, generate-lockfile,
 * check) and, when told by its environment, the other one (writing Cargo.lock as cargo does:
 * in place). Each call is logged, so the test sees what the check ran.
 */
const stub = `#!/bin/sh
echo "$*" >> "$(dirname "$0")/calls.txt"
case "$1" in
  locate-project)
    # Another cargo makes the lock just after the check looked for one.
    if [ -n "$LOCK_BEFORE_CLAIM" ]; then printf '%s' "$THEIRS" > Cargo.lock; fi
    echo "$PWD/Cargo.toml" ;;
  generate-lockfile)
    if [ -n "$GENERATE_FAILS" ]; then echo "error: no matching package named \\\`nope\\\` found" >&2; exit 101; fi
    printf '# ours\\nversion = 4\\n' > Cargo.lock ;;
  check)
    # Another cargo rewrites the lock while the check runs.
    if [ -n "$LOCK_DURING_CHECK" ]; then printf '%s' "$THEIRS" > Cargo.lock; fi ;;
esac
`;

const theirs = '# (another cargo)\nversion = 4\n\n[[package]]\nname = "demo"\nversion = "0.1.0"\n';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

async function check(env: Record<string, string>) {
  const tree = tempTree("cargo-lock-race", {
    "crate/Cargo.toml": '[package]\nname = "demo"\nversion = "0.1.0"\nedition = "2021"\n',
    "crate/src/main.rs": "fn main() {}\n",
  });
  cleanups.push(tree.remove);
  const cargo = join(tree.dir, "cargo");
  writeFileSync(cargo, stub);
  chmodSync(cargo, 0o755);
  const root = join(tree.dir, "crate");
  const outcome = await projectCheckers.rust!.check({
    root,
    display: (path) => path,
    findTool: (command) =>
      command === "cargo" ? { found: true, path: cargo } : { found: false, reason: `${command} not found` },
    signal: new AbortController().signal,
    progress: () => {},
    env: { ...process.env, THEIRS: theirs, ...env },
    own: () => () => {},
    deadline: Date.now() + 60_000,
  });
  const lock = join(root, "Cargo.lock");
  return {
    outcome,
    lock: existsSync(lock) ? readFileSync(lock, "utf8") : undefined,
    calls: readFileSync(join(tree.dir, "calls.txt"), "utf8").trim().split("\n"),
  };
}

describe("diagnostics * for Rust without a Cargo.lock, another cargo writing one", () => {
  it("removes the lock the check made when nothing else wrote it", async () => {
    const { outcome, lock, calls } = await check({});
    expect(calls).toEqual([
      "locate-project --workspace --message-format plain",
      "generate-lockfile --quiet",
      "check --message-format=json --quiet --locked",
    ]);
    expect(outcome).toMatchObject({ ran: true, findings: [], notes: [] });
    expect(lock).toBeUndefined();
  });

  it("leaves the lock another cargo wrote while the check ran, saying so", async () => {
    const { outcome, lock } = await check({ LOCK_DURING_CHECK: "1" });
    expect(lock).toBe(theirs);
    expect(outcome).toMatchObject({
      ran: true,
      notes: ["another process wrote the Cargo.lock made for the check while it ran: left in place"],
    });
  });

  it("checks --locked against the lock another cargo made just after the check looked, and leaves it", async () => {
    const { outcome, lock, calls } = await check({ LOCK_BEFORE_CLAIM: "1" });
    expect(calls).toEqual([
      "locate-project --workspace --message-format plain",
      "check --message-format=json --quiet --locked",
    ]);
    expect(outcome).toMatchObject({ ran: true, notes: [] });
    expect(lock).toBe(theirs);
  });

  it("says why it could not make the lock, and leaves none behind", async () => {
    const { outcome, lock, calls } = await check({ GENERATE_FAILS: "1" });
    expect(calls).toEqual(["locate-project --workspace --message-format plain", "generate-lockfile --quiet"]);
    expect(outcome).toEqual({
      ran: false,
      text: "not checked: cargo generate-lockfile, run to make the Cargo.lock the check needs (removed after), exited with code 101: error: no matching package named `nope` found",
    });
    expect(lock).toBeUndefined();
  });
});
