import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import type { LanguageClient } from "../client/language-client.js";
import type { LspSupervisor } from "../supervisor/supervisor.js";
import { tempTree } from "../test-support/fixtures.js";
import type { ActionContext } from "./action-context.js";
import { reopenOutdated } from "./cross-file-search.js";

// A fake of typescript-language-server's pass-through: the real one answers a `reload` in well
// under a millisecond, so a cancel cannot be made to land between its requests and answers.
describe("reading changed files again on tsserver", () => {
  it("sends again on the next call the reloads a cancel cut short", async () => {
    const tree = tempTree("reload-cut-short", { "src/app.ts": "", "src/a.ts": "", "src/b.ts": "" });
    const [app, a, b] = ["src/app.ts", "src/a.ts", "src/b.ts"].map((path) => join(tree.dir, path)) as [
      string,
      string,
      string,
    ];
    try {
      const reloads: string[][] = [[], []];
      let round = 0;
      let sent: () => void = () => undefined;
      const allSent = new Promise<void>((resolve) => (sent = resolve));
      const request = (_method: string, params: unknown, _timeout: undefined, signal?: AbortSignal) => {
        const [command, args] = (params as { arguments: [string, { file: string }] }).arguments;
        if (command === "projectInfo")
          return Promise.resolve({ success: true, body: { fileNames: [app, a, b] } });
        reloads[round]!.push(args.file);
        if (round > 0) return Promise.resolve({ success: true });
        if (reloads[0]!.length === 2) sent();
        // The first call's reloads wait for its cancel.
        return new Promise((_resolve, reject) =>
          signal?.addEventListener("abort", () => reject(signal.reason), { once: true }),
        );
      };
      const client = {
        spec: {
          reloadChanged: "tsserver",
          command: "typescript-language-server",
          extensions: [".ts", ".js"],
        },
        capabilities: { executeCommandProvider: { commands: ["typescript.tsserverRequest"] } },
        diskChangeMark: () => 2,
        diskChangesSince: (mark: number) => (mark === 0 ? [a, b] : []),
        isOpen: (uri: string) => uri === pathToFileURL(app).href,
        openUris: () => [pathToFileURL(app).href],
        outsideChanges: () => Promise.resolve([]),
        watchOutside: () => undefined,
        noteProjectConfigs: () => undefined,
        outsideUnwatched: () => 0,
        projectConfigMark: () => 0,
        root: tree.dir,
        request,
      } as unknown as LanguageClient;
      const supervisor = {
        uriOf: (path: string) => pathToFileURL(path).href,
        pathOf: (uri: string) => fileURLToPath(uri),
        runningClientFor: () => client,
        display: (path: string) => path,
      } as unknown as LspSupervisor;
      const contextWith = (signal: AbortSignal) => ({ supervisor, signal }) as unknown as ActionContext;
      const cancel = new AbortController();
      const first = reopenOutdated(client, contextWith(cancel.signal));
      await allSent;
      cancel.abort(new Error("cancelled"));
      await first;
      round = 1;
      // Nothing changed on disk since: what the cancel left unread is sent, once.
      await reopenOutdated(client, contextWith(new AbortController().signal));
      await reopenOutdated(client, contextWith(new AbortController().signal));
      expect(reloads).toEqual([
        [a, b],
        [a, b],
      ]);
    } finally {
      tree.remove();
    }
  });
});

// Each call after a change asked tsserver for its projects' whole file lists (`projectInfo`):
// ~15 ms for a project of 5 000 files, on every hover after an edit, for one reload of ~0.5 ms.
describe("the files tsserver's projects hold", () => {
  it("are asked for again only when a changed file is not among those listed last", async () => {
    const tree = tempTree("reload-known-kept", {
      "src/app.ts": "",
      "src/a.ts": "",
      "src/b.ts": "",
      "src/new.ts": "",
      "src/fresh.ts": "",
      "src/feature/lib.ts": "",
      "dist/a.js": "",
      "shared/held.ts": "",
      "shared/checkout/one.ts": "",
      "shared/checkout/two.ts": "",
    });
    const [sharedHeld, checkoutOne, checkoutTwo] = [
      "shared/held.ts",
      "shared/checkout/one.ts",
      "shared/checkout/two.ts",
    ].map((path) => join(tree.dir, path)) as [string, string, string];
    const inNewFolder = join(tree.dir, "src/feature/lib.ts");
    const [app, a, b, added, built, fresh] = [
      "src/app.ts",
      "src/a.ts",
      "src/b.ts",
      "src/new.ts",
      "dist/a.js",
      "src/fresh.ts",
    ].map((path) => join(tree.dir, path)) as [string, string, string, string, string, string];
    try {
      const sent: string[] = [];
      // tsserver lists the project's tsconfig.json too (its folder holds no source).
      const config = join(tree.dir, "tsconfig.json");
      let project = [app, a, b, config];
      let changes: string[][] = [];
      let configChanges = 0;
      let open = [app];
      let outside: string[] = [];
      const request = (_method: string, params: unknown) => {
        const [command, args] = (params as { arguments: [string, { file: string }] }).arguments;
        sent.push(`${command} ${args.file}`);
        return Promise.resolve(
          command === "projectInfo" ? { success: true, body: { fileNames: project } } : { success: true },
        );
      };
      const client = {
        spec: {
          reloadChanged: "tsserver",
          command: "typescript-language-server",
          extensions: [".ts", ".js"],
        },
        capabilities: { executeCommandProvider: { commands: ["typescript.tsserverRequest"] } },
        diskChangeMark: () => changes.length,
        diskChangesSince: (mark: number) => changes.slice(mark).flat(),
        isOpen: (uri: string) => open.some((file) => pathToFileURL(file).href === uri),
        openUris: () => open.map((file) => pathToFileURL(file).href),
        outsideChanges: () => Promise.resolve(outside.splice(0)),
        watchOutside: () => undefined,
        noteProjectConfigs: () => undefined,
        outsideUnwatched: () => 0,
        projectConfigMark: () => configChanges,
        root: tree.dir,
        request,
      } as unknown as LanguageClient;
      const supervisor = {
        uriOf: (path: string) => pathToFileURL(path).href,
        pathOf: (uri: string) => fileURLToPath(uri),
        runningClientFor: () => client,
        display: (path: string) => path,
      } as unknown as LspSupervisor;
      const context = () =>
        ({ supervisor, signal: new AbortController().signal }) as unknown as ActionContext;
      const change = async (...files: string[]) => {
        changes = [...changes, files];
        sent.length = 0;
        await reopenOutdated(client, context());
        return [...sent];
      };
      expect(await change(a)).toEqual([`projectInfo ${app}`, `reload ${a}`]);
      // Listed last time: no second list.
      expect(await change(a, b)).toEqual([`reload ${a}`, `reload ${b}`]);
      // One not listed (a file new to the project, a build's output): asked again.
      project = [app, a, b, added, config];
      expect(await change(added, b)).toEqual([`projectInfo ${app}`, `reload ${added}`, `reload ${b}`]);
      expect(await change(built)).toEqual([`projectInfo ${app}`]);
      expect(await change(added)).toEqual([`reload ${added}`]);
      // Found not held (a build's output, in a folder of no held file): not asked about again
      // while a build keeps writing it. Before, each call asked for the lists again.
      expect(await change(built)).toEqual([]);
      expect(await change(built, a)).toEqual([`reload ${a}`]);
      // Until the projects can have changed: a tsconfig changed, a document opened (or closed).
      configChanges += 1;
      expect(await change(built)).toEqual([`projectInfo ${app}`]);
      expect(await change(built)).toEqual([]);
      open = [app, a];
      expect(await change(built)).toEqual([`projectInfo ${app}`]);
      expect(await change(built)).toEqual([]);
      // A file not held in a folder of held files (a source file tsserver has yet to see) is
      // asked about each time, until it is held.
      expect(await change(fresh)).toEqual([`projectInfo ${app}`]);
      expect(await change(fresh)).toEqual([`projectInfo ${app}`]);
      project = [app, a, b, added, fresh, config];
      expect(await change(fresh)).toEqual([`projectInfo ${app}`, `reload ${fresh}`]);
      expect(await change(fresh)).toEqual([`reload ${fresh}`]);
      // So is one in a new folder under a folder of held files (src/feature/): before, it was
      // remembered as not held, and never read again once tsserver held it.
      expect(await change(inNewFolder)).toEqual([`projectInfo ${app}`]);
      project = [app, a, b, added, fresh, inNewFolder, config];
      expect(await change(inNewFolder)).toEqual([`projectInfo ${app}`, `reload ${inNewFolder}`]);
      expect(await change(inNewFolder)).toEqual([`reload ${inNewFolder}`]);
      // Outside the root alike (another package of a solution-style tsconfig): of a checkout
      // there, only what tsserver holds is read again. Before, every file of its new folders was
      // sent (3 000 files: 2.2 s on the next hover), where a reload of one not held does nothing.
      project = [app, a, b, added, fresh, inNewFolder, sharedHeld, config];
      outside = [sharedHeld, checkoutOne, checkoutTwo];
      expect(await change()).toEqual([`projectInfo ${app}`, `reload ${sharedHeld}`]);
      outside = [sharedHeld];
      expect(await change()).toEqual([`reload ${sharedHeld}`]);
    } finally {
      tree.remove();
    }
  });
});
