import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { tempTree } from "../test-support/fixtures.js";
import { findRoot } from "./find-root.js";
import { findProjectRoots } from "./project-folders.js";
import { RootCache } from "./root-cache.js";
import { defaultServers, type ServerSpec } from "./server-table.js";

const spec = (language: string): ServerSpec => defaultServers.find((s) => s.language === language)!;
const go = spec("go");
const rust = spec("rust");

const goModule = (name: string) => `module example.com/${name}\n\ngo 1.19\n`;
const crate = (name: string) => `[package]\nname = "${name}"\nversion = "0.1.0"\nedition = "2021"\n`;

describe("workspace markers in the root lookup", () => {
  const removers: (() => void)[] = [];
  afterEach(() => {
    vi.useRealTimers();
    for (const remove of removers.splice(0)) remove();
  });
  const tree = (files: Record<string, string>) => {
    const made = tempTree("workspace-root", files);
    removers.push(made.remove);
    return made.dir;
  };
  /** findRoot's and RootCache's answer (twice: the second from the cache), which must agree. */
  const rootOf = (dir: string, file: string, server: ServerSpec, workingDirectory = dir) => {
    const cache = new RootCache();
    const path = join(dir, file);
    const answers = [findRoot(path, server, workingDirectory), cache.find(path, server, workingDirectory)];
    answers.push(cache.find(path, server, workingDirectory));
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    const found = answers[0];
    return found && `${found.root.slice(dir.length + 1) || "."} ${found.marker}`;
  };

  it("takes a go.work above the module's go.mod, the nearest one when nested, never above the working directory", () => {
    const dir = tree({
      "go.work": "go 1.19\n\nuse (\n\t./a\n\t./b\n)\n",
      "a/go.mod": goModule("a"),
      "a/pkg/a.go": "package pkg\n",
      "b/go.mod": goModule("b"),
      "b/b.go": "package b\n",
      "inner/go.work": "go 1.19\n\nuse ./m\n",
      "inner/m/go.mod": goModule("m"),
      "inner/m/m.go": "package m\n",
    });
    expect(rootOf(dir, "a/pkg/a.go", go)).toBe(". go.work");
    expect(rootOf(dir, "b/b.go", go)).toBe(". go.work");
    expect(rootOf(dir, "inner/m/m.go", go)).toBe("inner go.work");
    // The go.work is outside this working directory: the module is the root.
    expect(rootOf(dir, "a/pkg/a.go", go, join(dir, "a"))).toBe("a go.mod");
  });

  it("takes the nearest go.mod when no go.work is above it", () => {
    const dir = tree({
      "go.mod": goModule("outer"),
      "tools/go.mod": goModule("tools"),
      "tools/cmd/main.go": "package main\n",
      "lib.go": "package outer\n",
    });
    expect(rootOf(dir, "tools/cmd/main.go", go)).toBe("tools go.mod");
    expect(rootOf(dir, "lib.go", go)).toBe(". go.mod");
  });

  it("takes a Cargo workspace's Cargo.toml over its member's, and the nearest Cargo.toml of a plain crate", () => {
    const dir = tree({
      "ws/Cargo.toml": '[workspace]\nmembers = ["crates/*"]\nresolver = "2"\n',
      "ws/crates/core/Cargo.toml": `${crate("core")}\n[dependencies]\n`,
      "ws/crates/core/src/lib.rs": "",
      // A package that is also its workspace's root, with only a [workspace.<key>] header.
      "both/Cargo.toml": `${crate("both")}\n[workspace.dependencies]\nserde = "1"\n`,
      "both/helper/Cargo.toml": crate("helper"),
      "both/helper/src/lib.rs": "",
      // Not workspace roots: a commented header, and a member naming its workspace.
      "plain/Cargo.toml": `${crate("plain")}\n# [workspace]\n`,
      "plain/sub/Cargo.toml": `${crate("sub")}workspace = ".."\n`,
      "plain/sub/src/main.rs": "",
    });
    expect(rootOf(dir, "ws/crates/core/src/lib.rs", rust)).toBe("ws Cargo.toml");
    expect(rootOf(dir, "both/helper/src/lib.rs", rust)).toBe("both Cargo.toml");
    expect(rootOf(dir, "plain/sub/src/main.rs", rust)).toBe("plain/sub Cargo.toml");
  });

  it("sees a Cargo.toml gain and lose its [workspace] table, though its folder is unchanged and cached", () => {
    const dir = tree({
      "Cargo.toml": crate("app"),
      "member/Cargo.toml": crate("member"),
      "member/src/lib.rs": "",
    });
    const roots = new RootCache();
    const file = join(dir, "member", "src", "lib.rs");
    // A clock far ahead makes every entry old enough to be trusted (no racily-clean re-probe):
    // only the file's own size and times can tell the cache that its text changed.
    vi.useFakeTimers({ now: Date.now() + 60_000, toFake: ["Date"] });
    expect(roots.find(file, rust, dir)?.root).toBe(join(dir, "member"));
    writeFileSync(join(dir, "Cargo.toml"), `${crate("app")}[workspace]\n`);
    expect(roots.find(file, rust, dir)).toEqual({ root: dir, marker: "Cargo.toml" });
    // The same size: the file's mtime and ctime still tell.
    writeFileSync(join(dir, "Cargo.toml"), `${crate("app")}[worksp4ce]\n`);
    expect(roots.find(file, rust, dir)?.root).toBe(join(dir, "member"));
  });

  it("lists every module and crate as a project folder, naming the workspace whose server serves it", () => {
    const dir = tree({
      "go.work": "go 1.19\n\nuse (\n\t./a\n\t./b\n)\n",
      "a/go.mod": goModule("a"),
      "b/go.mod": goModule("b"),
      "inner/go.work": "go 1.19\n\nuse ./m\n",
      "inner/m/go.mod": goModule("m"),
      "rs/Cargo.toml": '[workspace]\nmembers = ["x"]\n',
      "rs/x/Cargo.toml": crate("x"),
      "plain/Cargo.toml": crate("plain"),
      "plain/sub/Cargo.toml": crate("sub"),
    });
    const search = findProjectRoots(dir, [go, rust]);
    const shown = (path: string) => path.slice(dir.length + 1) || ".";
    expect(
      search.roots.map(
        (r) =>
          `${r.spec.language} ${shown(r.root)} ${r.marker}${r.workspace ? ` (served from ${shown(r.workspace)})` : ""}`,
      ),
    ).toEqual([
      "go . go.work",
      "go a go.mod (served from .)",
      "go b go.mod (served from .)",
      "go inner go.work", // the nearest go.work serves its own modules
      "rust plain Cargo.toml",
      "rust rs Cargo.toml",
      "go inner/m go.mod (served from inner)",
      "rust plain/sub Cargo.toml",
      "rust rs/x Cargo.toml (served from rs)",
    ]);
  });
});
