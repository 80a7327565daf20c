import { describe, expect, it } from "vitest";
import type { SymbolInformation, WorkspaceSymbol } from "vscode-languageserver-protocol";
import { distinctSymbols, matchQuality, rankWorkspaceSymbols } from "./symbols.js";

const at = { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } };
const symbol = (name: string, uri: string): SymbolInformation => ({
  name,
  kind: 12,
  location: { uri, range: at },
});
const pathOf = (uri: string) => (uri.startsWith("file://") ? uri.slice("file://".length) : undefined);

describe("workspace symbol ranking", () => {
  it("grades names: exact, exact ignoring case, substring, substring ignoring case, fuzzy", () => {
    expect(matchQuality("greet", "greet")).toBe(0);
    expect(matchQuality("Circle.Area", "Area")).toBe(0);
    expect(matchQuality("std::vector::push_back", "push_back")).toBe(0);
    expect(matchQuality("Greet", "greet")).toBe(1);
    expect(matchQuality("greeter", "greet")).toBe(2);
    expect(matchQuality("SYS_GET_THREAD_AREA", "Area")).toBe(3);
    expect(matchQuality("PTRACE_GETREGSET", "greet")).toBe(4);
  });

  it("puts the project's symbols first, keeps outside ones that hold the query, counts the rest", () => {
    const found = [
      symbol("PTRACE_GETREGSET", "file:///usr/lib/go/src/syscall/z.go"),
      symbol("greeting", "file:///usr/lib/go/src/fmt/x.go"),
      symbol("greeter", "file:///w/a.go"),
      symbol("Greet", "file:///usr/lib/go/src/fmt/y.go"),
      symbol("grt", "file:///w/b.go"),
      symbol("greet", "file:///w/c.go"),
      symbol("greet", "untitled:scratch"),
    ];
    const ranked = rankWorkspaceSymbols(found, "greet", pathOf, "/w");
    expect(ranked.symbols.map(({ symbol, file }) => `${symbol.name} ${file ?? "-"}`)).toEqual([
      "greet /w/c.go",
      "greeter /w/a.go",
      "greet -", // not a file: not the project's, but the name is the query
      "Greet /usr/lib/go/src/fmt/y.go",
      "greeting /usr/lib/go/src/fmt/x.go",
      "grt /w/b.go", // a fuzzy match inside the project stays, after every name holding the query
    ]);
    expect(ranked.outside).toBe(3);
    expect(ranked.dropped).toBe(1);
  });

  it("does not take a sibling folder sharing the working directory's prefix for the project", () => {
    const ranked = rankWorkspaceSymbols([symbol("greet", "file:///work2/a.go")], "greet", pathOf, "/work");
    expect(ranked.outside).toBe(1);
  });
});

describe("distinctSymbols", () => {
  it("keeps one of each (file, range, name, kind), in the servers' order", () => {
    const other = { start: { line: 4, character: 0 }, end: { line: 4, character: 1 } };
    const found: SymbolInformation[] = [
      symbol("parseConfig", "file:///w/core/src/index.ts"),
      { ...symbol("parseConfig", "file:///w/core/src/index.ts"), containerName: "core" },
      // The same file by another spelling of its URI (its path is the same).
      symbol("parseConfig", "file:///w/core/src/./index.ts"),
      {
        ...symbol("parseConfig", "file:///w/core/src/index.ts"),
        location: { uri: "file:///w/core/src/index.ts", range: other },
      },
      { ...symbol("parseConfig", "file:///w/core/src/index.ts"), kind: 13 },
      symbol("parseConfigs", "file:///w/core/src/index.ts"),
      symbol("parseConfig", "file:///w/app/src/index.ts"),
      symbol("parseConfig", "untitled:scratch"),
      symbol("parseConfig", "untitled:scratch"),
    ];
    const normal = (uri: string) => pathOf(uri)?.replace("/./", "/");
    const kept = distinctSymbols(found, normal);
    expect(kept).toEqual([found[0], found[3], found[4], found[5], found[6], found[7]]);
    // WorkspaceSymbols with no range: nothing tells the same-named methods of two classes of one
    // file apart from one symbol found twice, so both are kept.
    const bare: WorkspaceSymbol = { name: "area", kind: 6, location: { uri: "file:///w/a.go" } };
    const square: WorkspaceSymbol = { ...bare, containerName: "Square" };
    expect(distinctSymbols([bare, square], pathOf)).toEqual([bare, square]);
  });
});
