import { mkdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { replaceOnDisk } from "../test-support/replaced-on-disk.js";
import {
  describeTypescript,
  recordRequests,
  useTypescriptServer,
} from "../test-support/typescript-server.js";

/** Times the declaring file is rewritten and its use hovered at once. */
const rounds = 12;

// A file not open here is read by tsserver when its own watch tells it of a change, which can
// come after the question: right after a `git checkout` (or any write not through our tools) a
// hover of a use named the signature and doc comment the file had before.
describeTypescript("hover and workspace symbols of a file rewritten on disk just before", () => {
  const server = useTypescriptServer("ts-project");

  it("shows the signature and doc comment on disk now, the file removed and written again (git checkout) or written with an old mtime", async () => {
    const path = join(server.dir, "src/math.ts");
    const hover = () => server.text({ action: "hover", file: "src/app.ts", line: 3, symbol: "add" });
    const wrong: string[] = [];
    // Nothing changed on disk yet; the asked file alone is open.
    await hover();
    const client = server.supervisor.runningClientFor(join(server.dir, "src/app.ts"));
    expect(client?.openUris().map((uri) => server.supervisor.pathOf(uri))).toEqual([
      join(server.dir, "src/app.ts"),
    ]);
    await replaceOnDisk(
      path,
      rounds,
      hover,
      async (_text, i) => {
        const answer = await hover();
        if (!answer.includes(`c${i}?: number`) || !answer.includes(`Adds two numbers, round ${i}.`))
          wrong.push(`round ${i}: got ${answer}`);
      },
      (text, i) =>
        text
          .replace("/** Adds two numbers. */", `/** Adds two numbers, round ${i}. */`)
          .replace("add(a: number, b: number)", `add(a: number, b: number, c${i}?: number)`),
    );
    expect(wrong).toEqual([]);
    // Read again by the server, not opened here.
    expect(client?.openUris().map((uri) => server.supervisor.pathOf(uri))).toEqual([
      join(server.dir, "src/app.ts"),
    ]);
  });

  it("finds a workspace symbol the file has on disk now, right after a checkout", async () => {
    const path = join(server.dir, "src/math.ts");
    const original = readFileSync(path, "utf8");
    const search = (query: string) => server.text({ action: "symbols", query, file: "src/app.ts" });
    const wrong: string[] = [];
    try {
      for (let i = 0; i < 6; i++) {
        await search("add");
        unlinkSync(path);
        writeFileSync(path, `${original}export function checkedOut${i}(): number {\n  return ${i};\n}\n`);
        const answer = await search(`checkedOut${i}`);
        if (!answer.includes(`checkedOut${i}`) || answer.startsWith("no "))
          wrong.push(`round ${i}: got ${answer}`);
      }
    } finally {
      writeFileSync(path, original);
    }
    expect(wrong).toEqual([]);
  });

  // Every file of the root changed on disk was sent a `reload`, those tsserver does not know too:
  // a build writing 500 files in dist/ (outside the tsconfig's include) added a quarter of a
  // second to the next hover. Counted, not timed: the reloads sent.
  it("reads again only the changed files tsserver's project holds, not a build's output beside them", async () => {
    const path = join(server.dir, "src/math.ts");
    const original = readFileSync(path, "utf8");
    const dist = join(server.dir, "dist");
    const hover = () => server.text({ action: "hover", file: "src/app.ts", line: 3, symbol: "add" });
    await hover();
    const client = server.supervisor.runningClientFor(join(server.dir, "src/app.ts"))!;
    const log = recordRequests(client);
    try {
      mkdirSync(dist, { recursive: true });
      for (let i = 0; i < 50; i++) writeFileSync(join(dist, `f${i}.js`), `export const f${i} = ${i};\n`);
      unlinkSync(path);
      writeFileSync(path, original.replace("/** Adds two numbers. */", "/** Adds two numbers, built. */"));
      expect(await hover()).toContain("Adds two numbers, built.");
      expect(log.reloaded()).toEqual([path]);
    } finally {
      log.stop();
      rmSync(dist, { recursive: true, force: true });
      writeFileSync(path, original);
      await hover();
    }
  });

  // While a build keeps writing files tsserver does not hold (dist/, outside the tsconfig's
  // include), each hover asked for the projects' file lists again (one `projectInfo` per call):
  // which changed files are not held is now kept until the projects can have changed (a
  // tsconfig changed, a file opened or closed). Counted, not timed: the requests sent.
  it("asks for the projects' files once while a build keeps writing dist/, again after a tsconfig change", async () => {
    const dist = join(server.dir, "dist");
    const config = join(server.dir, "tsconfig.json");
    const configText = readFileSync(config, "utf8");
    const hover = () => server.text({ action: "hover", file: "src/app.ts", line: 3, symbol: "add" });
    await hover();
    const client = server.supervisor.runningClientFor(join(server.dir, "src/app.ts"))!;
    const log = recordRequests(client);
    const build = (round: number) => {
      for (let i = 0; i < 20; i++)
        writeFileSync(join(dist, `built${i}.js`), `export const b${i} = ${round};\n`);
    };
    try {
      mkdirSync(dist, { recursive: true });
      const perHover: number[] = [];
      for (let round = 0; round < 5; round++) {
        log.clear();
        build(round);
        expect(await hover()).toContain("Adds two numbers.");
        perHover.push(log.count("projectInfo"));
      }
      // The first look lists the files (and finds dist/ not held); the build's next writes ask nothing.
      expect(perHover).toEqual([1, 0, 0, 0, 0]);
      expect(log.count("reload")).toBe(0);
      // A tsconfig changed: the projects may hold other files; listed again, once.
      writeFileSync(config, `${configText}\n`);
      const afterConfig: number[] = [];
      for (let round = 5; round < 7; round++) {
        log.clear();
        build(round);
        await hover();
        afterConfig.push(log.count("projectInfo"));
      }
      expect(afterConfig).toEqual([1, 0]);
    } finally {
      log.stop();
      rmSync(dist, { recursive: true, force: true });
      writeFileSync(config, configText);
      await hover();
    }
  });

  // A source file created in a new folder under the include, before tsserver's own watch added it
  // to the project, was found not held and, having no held file beside it, remembered so until a
  // tsconfig changed or a document opened: once an open file imported it, each rewrite of it (a
  // checkout) was sent no `reload`, and a hover of its use named its old text.
  it("reads again a source file created in a new folder, once the project holds it", async () => {
    const app = join(server.dir, "src/app.ts");
    const appText = readFileSync(app, "utf8");
    const feature = join(server.dir, "src/feature");
    const lib = join(feature, "lib.ts");
    const libText = (i: number) =>
      `/** Scales, round ${i}. */\nexport function scale(a: number, k${i}?: number): number {\n  return a;\n}\n`;
    const hover = () => server.text({ action: "hover", file: "src/app.ts", line: 3, symbol: "scale" });
    await server.text({ action: "hover", file: "src/app.ts", line: 3, symbol: "add" });
    const client = server.supervisor.runningClientFor(app)!;
    const log = recordRequests(client);
    const wrong: string[] = [];
    try {
      mkdirSync(feature, { recursive: true });
      writeFileSync(lib, libText(0));
      // Looked at before tsserver's own watch adds the new file to the project.
      await server.text({ action: "hover", file: "src/app.ts", line: 3, symbol: "add" });
      writeFileSync(app, `import { scale } from "./feature/lib.js";\n\nexport const s = scale(2);\n`);
      expect(await hover()).toContain("Scales, round 0.");
      for (let i = 1; i < 4; i++) {
        log.clear();
        unlinkSync(lib);
        writeFileSync(lib, libText(i));
        const answer = await hover();
        if (!log.reloaded().includes(lib)) wrong.push(`round ${i}: not read again`);
        if (!answer.includes(`Scales, round ${i}.`) || !answer.includes(`k${i}?: number`))
          wrong.push(`round ${i}: got ${answer}`);
      }
    } finally {
      log.stop();
      writeFileSync(app, appText);
      rmSync(feature, { recursive: true, force: true });
      await server.text({ action: "hover", file: "src/app.ts", line: 3, symbol: "add" });
    }
    expect(wrong).toEqual([]);
  });

  // With no document open on it, tsserver still holds the project of the files it closed (until
  // another opens): there is no open file to ask its project's files by, and the changed files
  // are all sent. Before, none was, and a symbol a checkout added was not found until tsserver's
  // own watch told it (seen: "no workspace symbols match"). Counted, not timed: the reloads sent.
  it("reads a changed file again with no file open on the server", async () => {
    const path = join(server.dir, "src/math.ts");
    const original = readFileSync(path, "utf8");
    await server.text({ action: "hover", file: "src/app.ts", line: 3, symbol: "add" });
    const client = server.supervisor.runningClientFor(join(server.dir, "src/app.ts"))!;
    const log = recordRequests(client);
    try {
      for (const uri of client.openUris()) await client.close(uri);
      unlinkSync(path);
      writeFileSync(path, `${original}export function closedAll(): number {\n  return 1;\n}\n`);
      expect(await server.text({ action: "symbols", query: "closedAll" })).toContain(
        "function closedAll  src/math.ts:",
      );
      expect(log.reloaded()).toEqual([path]);
    } finally {
      log.stop();
      writeFileSync(path, original);
    }
  });

  // Past the bound of the changes remembered (a checkout of another branch), which files changed
  // is not known and nothing is read again: the answer may come from the old text, and says so,
  // as clangd's does past the files it opens again.
  it("says the answer may come from the old text when more files changed than are remembered", async () => {
    const path = join(server.dir, "src/math.ts");
    const original = readFileSync(path, "utf8");
    const out = join(server.dir, "out");
    const hover = () => server.text({ action: "hover", file: "src/app.ts", line: 3, symbol: "add" });
    await hover();
    try {
      mkdirSync(out, { recursive: true });
      for (let i = 0; i < 1_100; i++) writeFileSync(join(out, `f${i}.ts`), `export const f${i} = ${i};\n`);
      unlinkSync(path);
      writeFileSync(
        path,
        original.replace("/** Adds two numbers. */", "/** Adds two numbers, checked out. */"),
      );
      const answer = await hover();
      if (!answer.includes("checked out."))
        expect(answer).toMatch(/changes on disk since the last look[^\n]*may come from their old text/);
      expect(answer).toMatch(/^\d+ changes on disk since the last look, more than are remembered/);
      // The next look knows again: nothing more to say.
      expect(await hover()).not.toMatch(/changes on disk since the last look/);
    } finally {
      rmSync(out, { recursive: true, force: true });
      writeFileSync(path, original);
      await hover();
    }
  });
});
