import { FileChangeType } from "vscode-languageserver-protocol";
import { describe, expect, it } from "vitest";
import { mergeFileEvents } from "./merge-file-events.js";

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
