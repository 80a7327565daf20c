import { existsSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempTree } from "../test-support/fixtures.js";
import { mentionsElsewhere } from "./mentions-elsewhere.js";

/** The nearest folder holding a package.json, as the supervisor finds a TypeScript root. */
function rootOf(top: string) {
  return (folder: string): string | undefined => {
    for (let at = folder; at.startsWith(top); at = dirname(at)) {
      if (existsSync(join(at, "package.json"))) return at;
      if (at === top) break;
    }
    return undefined;
  };
}

describe("mentionsElsewhere", () => {
  it("looks below a folder only where enter allows", async () => {
    const tree = tempTree("mentions-enter", {
      "package.json": "{}\n",
      "packages/a/package.json": "{}\n",
      "packages/a/lib.ts": "export function answer() {}\n",
      "packages/a/inner/package.json": "{}\n",
      "packages/a/inner/use.ts": "answer();\n",
      "packages/b/package.json": "{}\n",
      "packages/b/use.ts": "answer();\n",
    });
    try {
      const a = join(tree.dir, "packages", "a");
      const look = (enter?: (folder: string) => boolean) =>
        mentionsElsewhere(tree.dir, a, rootOf(tree.dir), {
          name: "answer",
          extensions: [".ts"],
          exclude: new Set(),
          ...(enter ? { enter } : {}),
        });
      const files = async (enter?: (folder: string) => boolean) =>
        (await look(enter)).mentions.map(({ file }) => file.slice(tree.dir.length + 1)).sort();
      expect(await files()).toEqual(["packages/a/inner/use.ts", "packages/b/use.ts"]);
      expect(await files((folder) => folder !== a)).toEqual(["packages/b/use.ts"]);
    } finally {
      tree.remove();
    }
  });

  it("lists whole-name mentions in files other roots serve, or none, not in the renaming root", async () => {
    const tree = tempTree("mentions", {
      "package.json": "{}\n",
      "tools/script.ts": "import { answer } from '../packages/a/lib';\nconsole.log(answer());\n",
      "packages/a/package.json": "{}\n",
      "packages/a/lib.ts": "export function answer() {}\n",
      "packages/a/nested/use.ts": "answer();\n",
      "packages/b/package.json": "{}\n",
      "packages/b/use.ts": "import { answer } from 'a';\nconst answered = 1;\nanswer();\n",
      "packages/b/notes.md": "answer\n",
      "packages/b/node_modules/a/index.ts": "export function answer() {}\n",
      "packages/b/.cache/copy.ts": "answer();\n",
    });
    try {
      const found = await mentionsElsewhere(tree.dir, join(tree.dir, "packages", "a"), rootOf(tree.dir), {
        name: "answer",
        extensions: [".ts"],
        exclude: new Set(),
      });
      expect(
        found.mentions.map(({ file, line, text }) => [file.slice(tree.dir.length + 1), line, text]),
      ).toEqual([
        ["packages/b/use.ts", 0, "import { answer } from 'a';"],
        ["packages/b/use.ts", 2, "answer();"],
        ["tools/script.ts", 0, "import { answer } from '../packages/a/lib';"],
        ["tools/script.ts", 1, "console.log(answer());"],
      ]);
      expect(found).toMatchObject({ files: 2, lines: 4, truncated: false });

      const bounded = await mentionsElsewhere(tree.dir, join(tree.dir, "packages", "a"), rootOf(tree.dir), {
        name: "answer",
        extensions: [".ts"],
        exclude: new Set([join(tree.dir, "tools", "script.ts")]),
        limits: { folders: 100, filesRead: 100, lines: 1, bytes: 1_000_000 },
      });
      expect(bounded).toMatchObject({ files: 1, lines: 2, truncated: false });
      expect(bounded.mentions).toHaveLength(1);
      const stopped = await mentionsElsewhere(tree.dir, join(tree.dir, "packages", "a"), rootOf(tree.dir), {
        name: "answer",
        extensions: [".ts"],
        exclude: new Set(),
        limits: { folders: 100, filesRead: 1, lines: 10, bytes: 1_000_000 },
      });
      expect(stopped.truncated).toBe(true);
    } finally {
      tree.remove();
    }
  });

  it("stops at its time bound and when cancelled, yielding to the event loop as it reads", async () => {
    const files: Record<string, string> = {
      "package.json": "{}\n",
      "a/package.json": "{}\n",
      "b/package.json": "{}\n",
    };
    for (let index = 0; index < 120; index++)
      files[`b/f${String(index).padStart(3, "0")}.ts`] = "answer();\n";
    const tree = tempTree("mentions-bound", files);
    const look = (limits: { ms?: number }, signal?: AbortSignal) =>
      mentionsElsewhere(tree.dir, join(tree.dir, "a"), rootOf(tree.dir), {
        name: "answer",
        extensions: [".ts"],
        exclude: new Set(),
        limits,
        ...(signal ? { signal } : {}),
      });
    try {
      // An immediate queued before the look runs at its first yield, before it ends.
      let ticked = false;
      setImmediate(() => (ticked = true));
      const whole = await look({}).then((found) => ({ found, ticked }));
      expect(whole.found).toMatchObject({ files: 120, truncated: false });
      expect(whole.ticked, "the event loop ran while it looked").toBe(true);
      const timed = await look({ ms: 0 });
      expect(timed.truncated).toBe(true);
      expect(timed.files).toBeLessThan(120);
      const cancelled = await look({}, AbortSignal.abort());
      expect(cancelled).toMatchObject({ files: 0, truncated: true });
    } finally {
      tree.remove();
    }
  });

  it("given the language, skips names only in comments or strings and lists importers first", async () => {
    const files: Record<string, string> = {
      "package.json": "{}\n",
      "a/package.json": "{}\n",
      "b/package.json": "{}\n",
      "b/z-importer.ts": "import {\n  other,\n  shared,\n} from 'a';\nshared(other);\n",
      "b/y-user.ts": "const x = shared;\n",
    };
    for (let index = 0; index < 30; index++)
      files[`b/f${String(index).padStart(3, "0")}.ts`] = "// shared\nconst label = 'shared';\n";
    const tree = tempTree("mentions-code", files);
    try {
      const found = await mentionsElsewhere(tree.dir, join(tree.dir, "a"), rootOf(tree.dir), {
        name: "shared",
        extensions: [".ts"],
        exclude: new Set(),
        language: "typescript",
        limits: { lines: 3 },
      });
      expect(
        found.mentions.map(({ file, line, text }) => [file.slice(tree.dir.length + 1), line, text]),
      ).toEqual([
        ["b/z-importer.ts", 2, "shared,"],
        ["b/z-importer.ts", 4, "shared(other);"],
        ["b/y-user.ts", 0, "const x = shared;"],
      ]);
      expect(found).toMatchObject({ files: 2, lines: 3, truncated: false });
      // A file read before is read again once it changed; the others give what they gave.
      writeFileSync(join(tree.dir, "b/y-user.ts"), "const x = 1;\nconst y = shared + shared;\n");
      writeFileSync(join(tree.dir, "b/f000.ts"), "shared();\n");
      const again = await mentionsElsewhere(tree.dir, join(tree.dir, "a"), rootOf(tree.dir), {
        name: "shared",
        extensions: [".ts"],
        exclude: new Set(),
        language: "typescript",
        limits: { lines: 10 },
      });
      expect(
        again.mentions.map(({ file, line, text }) => [file.slice(tree.dir.length + 1), line, text]),
      ).toEqual([
        ["b/z-importer.ts", 2, "shared,"],
        ["b/z-importer.ts", 4, "shared(other);"],
        ["b/f000.ts", 0, "shared();"],
        ["b/y-user.ts", 1, "const y = shared + shared;"],
      ]);
    } finally {
      tree.remove();
    }
  });
});
