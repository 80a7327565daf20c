import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { FileChangeType } from "vscode-languageserver-protocol";
import { describe, expect, it } from "vitest";
import { tempTree } from "../test-support/fixtures.js";
import { heldWith, mergeFileEvents } from "./merge-file-events.js";

const { Created, Changed, Deleted } = FileChangeType;
const merged = (...types: FileChangeType[]) =>
  mergeFileEvents(types.map((type) => ({ path: "/w/a.go", type }))).map((event) => event.type);

describe("mergeFileEvents", () => {
  it("tells each path once, as the change its events amount to", () => {
    expect(merged(Changed, Changed)).toEqual([Changed]);
    expect(merged(Created, Changed)).toEqual([Created]);
    expect(merged(Created, Deleted)).toEqual([Deleted]);
    expect(merged(Created, Deleted, Created)).toEqual([Changed]);
    expect(merged(Changed, Deleted)).toEqual([Deleted]);
    expect(merged(Deleted, Created)).toEqual([Changed]);
    expect(merged(Deleted, Created, Deleted)).toEqual([Deleted]);
  });

  it("keeps the order in which paths first changed", () => {
    const events = mergeFileEvents([
      { path: "/w/b.go", type: Changed },
      { path: "/w/a.go", type: Created },
      { path: "/w/b.go", type: Changed },
    ]);
    expect(events).toEqual([
      { path: "/w/b.go", type: Changed },
      { path: "/w/a.go", type: Created },
    ]);
  });
});

describe("heldWith", () => {
  it("holds back a symlink's events with the file it points to", () => {
    const tree = tempTree("held-with", { "lib.ts": "export {};\n", "other.ts": "export {};\n" });
    try {
      const [lib, alias, other] = ["lib.ts", "alias.ts", "other.ts"].map((name) => join(tree.dir, name));
      symlinkSync(lib!, alias!);
      const held = heldWith(new Set([lib!]), new Set([alias!]));
      expect([lib, alias, other].map((path) => held(path!))).toEqual([true, true, false]);
      // Held back for the link: the file it points to is not.
      expect(heldWith(new Set([alias!]), new Set([alias!]))(lib!)).toBe(false);
    } finally {
      tree.remove();
    }
  });
});
