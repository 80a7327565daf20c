import { mkdirSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { lineOf } from "../test-support/replaced-on-disk.js";
import {
  describeTypescript,
  recordRequests,
  useTypescriptServer,
} from "../test-support/typescript-server.js";

const compilerOptions = {
  strict: true,
  composite: true,
  target: "ES2022",
  module: "NodeNext",
  moduleResolution: "NodeNext",
  types: [],
  rootDir: "src",
  outDir: "dist",
};
/** Times packages/b's file is checked out anew and asked about at once. */
const rounds = 6;

const libText = [
  `/** Adds two numbers. */`,
  `export function add(a: number, b: number): number {`,
  `  return a + b;`,
  `}`,
  ``,
].join("\n");

describeTypescript("a solution-style tsconfig, a referenced package changed on disk", () => {
  const server = useTypescriptServer("solution", {
    "package.json": `{ "name": "root", "private": true, "type": "module" }`,
    "tsconfig.json": JSON.stringify({
      files: [],
      references: [{ path: "packages/a" }, { path: "packages/b" }],
    }),
    "packages/a/package.json": `{ "name": "a", "private": true, "type": "module" }`,
    "packages/a/tsconfig.json": JSON.stringify({
      compilerOptions,
      include: ["src"],
      references: [{ path: "../b" }],
    }),
    "packages/a/src/app.ts": `import { add } from "../../b/src/lib.js";\n\nexport const sum = add(1, 2);\n`,
    "packages/b/package.json": `{ "name": "b", "private": true, "type": "module" }`,
    "packages/b/tsconfig.json": JSON.stringify({ compilerOptions, include: ["src"] }),
    "packages/b/src/lib.ts": libText,
    "packages/b/src/use.ts": `import { add } from "./lib.js";\n\nexport const three = add(1, 2);\n`,
  });
  const text = server.text;

  // tsserver reads the sources of the referenced package (packages/b) for packages/a's project,
  // outside the server's root (packages/a, the nearest tsconfig): the root's folder watch did not
  // see a `git checkout` there, nothing was read again, and the answers named what b had before
  // until tsserver's own watch told it (stale in most rounds).
  it("hover, definition, references and workspace symbols see packages/b as checked out", async () => {
    const lib = join(server.dir, "packages/b/src/lib.ts");
    const app = { file: "packages/a/src/app.ts", line: 3, symbol: "add" };
    const wrong: string[] = [];
    try {
      for (let i = 0; i < rounds; i++) {
        await text({ action: "hover", ...app });
        const now = `${"\n".repeat(3 + i)}${libText
          .replace("Adds two numbers.", `Adds two numbers, round ${i}.`)
          .replace(
            "b: number)",
            `b: number, c${i}?: number)`,
          )}export function checkedOut${i}(): number {\n  return add(${i}, 1);\n}\n`;
        unlinkSync(lib);
        writeFileSync(lib, now);
        const hover = await text({ action: "hover", ...app });
        if (!hover.includes(`round ${i}.`) || !hover.includes(`c${i}?: number`))
          wrong.push(`hover ${i}: ${hover}`);
        const definition = await text({ action: "definition", ...app });
        const want = `packages/b/src/lib.ts:${lineOf(now, "export function add")}:17`;
        if (!definition.includes(want)) wrong.push(`definition ${i}: want ${want}, got ${definition}`);
        const references = await text({ action: "references", ...app });
        const use = `packages/b/src/lib.ts:${lineOf(now, `return add(${i}, 1)`)}:10`;
        if (!references.includes(use)) wrong.push(`references ${i}: want ${use}, got ${references}`);
        const symbols = await text({
          action: "symbols",
          query: `checkedOut${i}`,
          file: "packages/a/src/app.ts",
        });
        if (!symbols.includes(`function checkedOut${i}  packages/b/src/lib.ts:`))
          wrong.push(`symbols ${i}: ${symbols}`);
      }
    } finally {
      writeFileSync(lib, libText);
    }
    expect(wrong).toEqual([]);
    // Read again by the server, not opened on it (b's file is another root's).
    const client = server.supervisor.runningClientFor(join(server.dir, "packages/a/src/app.ts"));
    expect(client?.openUris().map((uri) => server.supervisor.pathOf(uri))).toEqual([
      join(server.dir, "packages/a/src/app.ts"),
    ]);
  });

  // A checkout that removes a folder and writes it again (a branch without it, then back) ended
  // the folder's watch for good: the watch of a removed folder is gone, yet it was kept as
  // watched, so a later listing did not watch it again, and every later rewrite there went unseen.
  it("sees packages/b rewritten after its folder was removed and written again", async () => {
    const src = join(server.dir, "packages/b/src");
    const lib = join(src, "lib.ts");
    const use = join(src, "use.ts");
    const app = { file: "packages/a/src/app.ts", line: 3, symbol: "add" };
    await text({ action: "hover", ...app });
    const client = server.supervisor.runningClientFor(join(server.dir, "packages/a/src/app.ts"))!;
    const log = recordRequests(client);
    const wrong: string[] = [];
    try {
      rmSync(src, { recursive: true });
      await new Promise((resolve) => setTimeout(resolve, 50));
      mkdirSync(src);
      writeFileSync(lib, libText.replace("Adds two numbers.", "Adds two numbers, back."));
      writeFileSync(use, `import { add } from "./lib.js";\n\nexport const three = add(1, 2);\n`);
      const back = await text({ action: "hover", ...app });
      if (!back.includes("Adds two numbers, back.")) wrong.push(`back: ${back}`);
      for (let i = 0; i < 3; i++) {
        log.clear();
        unlinkSync(lib);
        writeFileSync(lib, libText.replace("Adds two numbers.", `Adds two numbers, again ${i}.`));
        const hover = await text({ action: "hover", ...app });
        if (!log.reloaded().includes(lib)) wrong.push(`round ${i}: not read again`);
        if (!hover.includes(`again ${i}.`)) wrong.push(`round ${i}: ${hover}`);
      }
    } finally {
      log.stop();
      writeFileSync(lib, libText);
    }
    expect(wrong).toEqual([]);
  });
});
