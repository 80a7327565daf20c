import { join } from "node:path";
import { expect, it, vi } from "vitest";
import { LanguageClient } from "../client/language-client.js";
import { lineOf, replaceOnDisk } from "../test-support/replaced-on-disk.js";
import { describeTypescript, useTypescriptServer } from "../test-support/typescript-server.js";

/** Times the file is replaced and asked about at once: tsserver lagged in 2 to 4 of 12 before. */
const rounds = 12;

// A file not open here is read by tsserver when its own watch tells it of a change: right after
// a `git checkout` (the file removed, then written anew) its answer named where the definition was,
// shown with the line now on disk there.
describeTypescript("definitions in a file replaced on disk just before the question", () => {
  const server = useTypescriptServer("ts-project");

  it("names the line the definition is on now, the file removed and written again (git checkout) or written with an old mtime", async () => {
    const wrong: string[] = [];
    const ask = () => server.text({ action: "definition", file: "src/app.ts", line: 3, symbol: "add" });
    await replaceOnDisk(join(server.dir, "src/math.ts"), rounds, ask, async (text, i) => {
      const definition = await ask();
      const want = `src/math.ts:${lineOf(text, "export function add")}:17  export function add(`;
      if (!definition.includes(want)) wrong.push(`round ${i}: want ${want}, got ${definition}`);
      const type = await server.text({
        action: "type_definition",
        file: "src/app.ts",
        line: 5,
        symbol: "square",
      });
      const wantType = `src/math.ts:${lineOf(text, "export class Square")}:14  export class Square`;
      if (!type.includes(wantType)) wrong.push(`round ${i}: want ${wantType}, got ${type}`);
    });
    expect(wrong).toEqual([]);
  });
});

// The answer is checked only where asking again with the file opened can change it: a file of
// another server's root (a sibling package of a monorepo) or outside every root (TypeScript's
// lib files, a pnpm store) cannot be opened on the server asked. Opening it started a second
// server, and every such question was asked twice.
describeTypescript("definitions in files the server asked does not own", () => {
  const config = JSON.stringify({
    compilerOptions: {
      strict: true,
      noEmit: true,
      target: "ES2022",
      module: "NodeNext",
      moduleResolution: "NodeNext",
      types: [],
    },
    include: ["src"],
  });
  const server = useTypescriptServer("definition-other-root", {
    "a/package.json": `{ "name": "a", "private": true, "type": "module" }`,
    "a/tsconfig.json": config,
    "a/src/app.ts": [
      `import { Widget } from "../../b/src/lib.js";`,
      `export const widget = new Widget(3);`,
      `export const seen = new Map<string, number>();`,
      ``,
    ].join("\n"),
    "b/package.json": `{ "name": "b", "private": true, "type": "module" }`,
    "b/tsconfig.json": config,
    "b/src/lib.ts": `export class Widget {\n  constructor(readonly size: number) {}\n}\n`,
  });

  it("asks once, and starts no server for the other root", async () => {
    const request = vi.spyOn(LanguageClient.prototype, "request");
    const ask = async (line: number, symbol: string, action = "definition") => {
      request.mockClear();
      const text = await server.text({ action, file: "a/src/app.ts", line, symbol });
      const asked = request.mock.calls.filter(([method]) => method === `textDocument/${action}`).length;
      return { text, asked };
    };
    try {
      const widget = await ask(2, "Widget");
      expect(widget.text).toContain("b/src/lib.ts:1:14  export class Widget {");
      expect(widget.asked).toBe(1);
      const map = await ask(3, "Map");
      expect(map.text).toContain("interface Map<K, V>");
      expect(map.asked).toBe(1);
      // References too: those in the other root's file are not checked against it.
      const references = await ask(2, "Widget", "references");
      expect(references.text).toContain("b/src/lib.ts:1:14  export class Widget {");
      expect(references.asked).toBe(1);
      expect(server.supervisor.processes().map((p) => p.root)).toEqual([join(server.dir, "a")]);
    } finally {
      request.mockRestore();
    }
  });
});
