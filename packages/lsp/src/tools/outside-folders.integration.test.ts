import { mkdirSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { outsideFoldersLimit } from "../client/outside-folders.js";
import {
  describeTypescript,
  recordRequests,
  useTypescriptServer,
} from "../test-support/typescript-server.js";

const compilerOptions = {
  strict: true,
  target: "ES2022",
  module: "NodeNext",
  moduleResolution: "NodeNext",
  types: [],
  noEmit: true,
};

/** A base config naming `include`. */
const base = (include: string[]) => JSON.stringify({ compilerOptions, include }, null, 2);

describeTypescript("a tsconfig extending a base outside the server's root", () => {
  const server = useTypescriptServer("extends-outside", {
    // Named as a workspace package's shared config often is: not tsconfig*.json.
    "shared/base.json": base(["../packages/a/src", "../lib"]),
    "lib/util.ts": `export const util = 1;\n`,
    "packages/a/package.json": `{ "name": "a", "private": true, "type": "module" }`,
    "packages/a/tsconfig.json": JSON.stringify({ extends: "../../shared/base.json" }),
    "packages/a/src/app.ts": `export const one = 1;\n`,
    "packages/a/tools/gen.ts": `export function generated0(): number {\n  return 0;\n}\n`,
  });
  const text = server.text;
  /** Whether a workspace `symbols` search for `query` names `want`, asked until it does (bounded). */
  const symbolsSoon = async (query: string, want: string): Promise<boolean> => {
    for (let turn = 0; turn < 50; turn++) {
      const answer = await text({ action: "symbols", query, file: "packages/a/src/app.ts" });
      if (answer.includes(want)) return true;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return false;
  };

  // tools/gen.ts, outside the base's include, is found not held when it changes and remembered so
  // until the projects can change: a change to the base (outside the root, and not named
  // tsconfig*.json) did not count as one, the file stayed remembered after the base took it in,
  // and its rewrites were never read again (its symbols named its old text until tsserver's watch).
  it("a change to the base clears what is remembered as not held", async () => {
    const gen = join(server.dir, "packages/a/tools/gen.ts");
    const baseFile = join(server.dir, "shared/base.json");
    const app = { file: "packages/a/src/app.ts", line: 1, symbol: "one" };
    await text({ action: "hover", ...app });
    const client = server.supervisor.runningClientFor(join(server.dir, "packages/a/src/app.ts"))!;
    expect(client.root).toBe(join(server.dir, "packages/a"));
    const log = recordRequests(client);
    try {
      writeFileSync(gen, `export function generated1(): number {\n  return 1;\n}\n`);
      await text({ action: "hover", ...app });
      // Listed, found not held.
      expect(log.count("projectInfo")).toBe(1);
      writeFileSync(baseFile, base(["../packages/a/src", "../lib", "../packages/a/tools"]));
      // tsserver's own watch of the base (bounded): its project then holds tools/gen.ts.
      expect(await symbolsSoon("generated1", "generated1  packages/a/tools/gen.ts:")).toBe(true);
      const wrong: string[] = [];
      for (let i = 2; i < 5; i++) {
        log.clear();
        unlinkSync(gen);
        writeFileSync(gen, `export function generated${i}(): number {\n  return ${i};\n}\n`);
        const answer = await text({ action: "symbols", query: `generated${i}`, file: app.file });
        if (!log.reloaded().includes(gen))
          wrong.push(`round ${i}: not read again (${JSON.stringify(log.sent)})`);
        if (!answer.includes(`generated${i}  packages/a/tools/gen.ts:`)) wrong.push(`round ${i}: ${answer}`);
      }
      expect(wrong).toEqual([]);
    } finally {
      log.stop();
      writeFileSync(baseFile, base(["../packages/a/src", "../lib"]));
    }
  });

  // lib/ (outside the root, in the base's include) is watched, not its subfolders: a folder a
  // checkout added there (lib/feature/) was not watched until the projects were listed again,
  // which only a change in the root or a document opened brings, and every rewrite of its files
  // was left to tsserver's own watch (symbols named their old text).
  it("reads again the files of a folder created in a watched folder outside the root", async () => {
    const feature = join(server.dir, "lib/feature");
    const file = join(feature, "x.ts");
    const app = { file: "packages/a/src/app.ts", line: 1, symbol: "one" };
    await text({ action: "hover", ...app });
    const client = server.supervisor.runningClientFor(join(server.dir, "packages/a/src/app.ts"))!;
    const log = recordRequests(client);
    const wrong: string[] = [];
    try {
      mkdirSync(feature);
      writeFileSync(file, `export function feature0(): number {\n  return 0;\n}\n`);
      // tsserver's own watch adds it to the project (bounded).
      expect(await symbolsSoon("feature0", "feature0  lib/feature/x.ts:")).toBe(true);
      for (let i = 1; i < 4; i++) {
        log.clear();
        unlinkSync(file);
        writeFileSync(file, `export function feature${i}(): number {\n  return ${i};\n}\n`);
        const answer = await text({ action: "symbols", query: `feature${i}`, file: app.file });
        if (!log.reloaded().includes(file))
          wrong.push(`round ${i}: not read again (${JSON.stringify(log.sent)})`);
        if (!answer.includes(`feature${i}  lib/feature/x.ts:`)) wrong.push(`round ${i}: ${answer}`);
      }
    } finally {
      log.stop();
      rmSync(feature, { recursive: true, force: true });
    }
    expect(wrong).toEqual([]);
  });
});

/** Folders of one file each outside the root, past the bound of those watched. */
const overBound = outsideFoldersLimit + 7;

describeTypescript("more folders outside the root than are watched", () => {
  const files: Record<string, string> = {
    "packages/a/package.json": `{ "name": "a", "private": true, "type": "module" }`,
    "packages/a/tsconfig.json": JSON.stringify({ compilerOptions, include: ["src", "../../shared"] }),
    "packages/a/src/app.ts": `export const one = 1;\n`,
  };
  for (let i = 0; i < overBound; i++) files[`shared/d${i}/m.ts`] = `export const v${i} = ${i};\n`;
  const server = useTypescriptServer("outside-over-bound", files);
  const text = server.text;

  // Past the bound, folders were left unwatched and nothing said so: a checkout there was left
  // to tsserver's own watch, and an answer right after could name the old text, unexplained.
  it("says how many are not watched, once in an answer and in status", async () => {
    const app = { file: "packages/a/src/app.ts", line: 1, symbol: "one" };
    const said =
      /(\d+) folders outside packages\/a that typescript-language-server's projects read are not watched \(past the bound of 500\): a change there \(a checkout\) is left to typescript-language-server's own watch/;
    const first = await text({ action: "hover", ...app });
    expect(first).toMatch(said);
    expect(Number(said.exec(first)?.[1])).toBe(overBound - outsideFoldersLimit);
    expect(await text({ action: "hover", ...app })).not.toMatch(said);
    const status = await text({ action: "status" });
    expect(status).toMatch(new RegExp(`^typescript: root packages/a .*state running.*; ${said.source}`, "m"));
  });

  // A folder the projects read, removed (a checkout of a branch without it), was counted as not
  // watched for good, and kept its place under the bound: `status` said folders were not watched
  // while every one there was.
  it("says none is not watched once folders are removed, and how many once they are back", async () => {
    const app = { file: "packages/a/src/app.ts", line: 1, symbol: "one" };
    const said =
      / folders? outside packages\/a that typescript-language-server's projects read (?:is|are) not watched/;
    const count = (answer: string) =>
      Number(/(\d+) folders? outside packages\/a that/.exec(answer)?.[1] ?? 0);
    const removed = Array.from({ length: 20 }, (_, i) => join(server.dir, `shared/d${i}`));
    await text({ action: "hover", ...app });
    expect(count(await text({ action: "status" }))).toBe(overBound - outsideFoldersLimit);
    try {
      for (const folder of removed) rmSync(folder, { recursive: true });
      expect(await text({ action: "status" })).not.toMatch(said);
      expect(await text({ action: "hover", ...app })).not.toMatch(said);
    } finally {
      for (const [i, folder] of removed.entries()) {
        mkdirSync(folder);
        writeFileSync(join(folder, "m.ts"), `export const v${i} = ${i};\n`);
      }
    }
    // Back: past the bound again, said again.
    expect(count(await text({ action: "hover", ...app }))).toBe(overBound - outsideFoldersLimit);
    expect(count(await text({ action: "status" }))).toBe(overBound - outsideFoldersLimit);
  });
});
