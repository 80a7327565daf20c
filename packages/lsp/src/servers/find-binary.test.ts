import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { findBinary, proxyProblemTtlMs } from "./find-binary.js";

describe("findBinary with a rustup proxy", () => {
  let dir: string;
  beforeEach(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), "lsp-bin-")));
  });
  afterEach(() => {
    vi.useRealTimers();
    rmSync(dir, { recursive: true, force: true });
  });

  it("counts a proxy without its component as missing, and sees the component once installed", () => {
    // A stand-in for rustup (the real one would need a toolchain download): it runs a component
    // only once `installed` exists, as rustup runs only installed components.
    const rustup = join(dir, "rustup");
    writeFileSync(
      rustup,
      `#!/bin/sh\nif [ -f "${dir}/installed" ]; then echo "tool 1.0"; exit 0; fi\necho "error: Unknown binary 'tool' in official toolchain" >&2\nexit 1\n`,
    );
    chmodSync(rustup, 0o755);
    symlinkSync(rustup, join(dir, "tool"));
    const missing = findBinary("tool", [], [dir], "");
    expect(missing).toEqual({
      found: false,
      reason: `${join(dir, "tool")} is a rustup proxy that cannot run (error: Unknown binary 'tool' in official toolchain); install the component with 'rustup component add tool'`,
    });
    writeFileSync(join(dir, "installed"), "");
    vi.useFakeTimers({ now: Date.now() + proxyProblemTtlMs + 1, toFake: ["Date"] });
    expect(findBinary("tool", [], [dir], "")).toEqual({ found: true, path: join(dir, "tool") });
  });
});

describe("findBinary in a project's Python environment", () => {
  let dir: string;
  beforeEach(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), "lsp-bin-venv-")));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("finds a tool in venv/bin as in .venv/bin, .venv first, both before PATH", () => {
    const tool = (folder: string): string => {
      mkdirSync(join(dir, folder, "bin"), { recursive: true });
      writeFileSync(join(dir, folder, "bin", "tool"), "#!/bin/sh\n", { mode: 0o755 });
      return join(dir, folder, "bin", "tool");
    };
    const onPath = join(dir, "path");
    mkdirSync(onPath);
    writeFileSync(join(onPath, "tool"), "#!/bin/sh\n", { mode: 0o755 });
    const plain = tool("venv");
    expect(findBinary("tool", [dir], [], onPath)).toEqual({ found: true, path: plain });
    const dotted = tool(".venv");
    expect(findBinary("tool", [dir], [], onPath)).toEqual({ found: true, path: dotted });
  });
});
