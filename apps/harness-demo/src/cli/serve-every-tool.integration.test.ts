import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ServeSession } from "../__fixtures__/cli-process.js";
import { copySampleWorkspace, type WorkspaceCopy } from "./tour/sample-workspace.js";
import {
  holdMarker,
  startScriptedModelServer,
  type ScriptedModelServer,
} from "./tour/scripted-model-server.js";

let workspace: WorkspaceCopy | undefined;
let model: ScriptedModelServer | undefined;
let session: ServeSession | undefined;

afterEach(async () => {
  if (session && session.child.exitCode === null && session.child.signalCode === null) await session.close();
  session = undefined;
  await model?.close();
  model = undefined;
  await workspace?.remove();
  workspace = undefined;
});

/** The text of a response's content parts. */
function text(response: Record<string, unknown>): string {
  return ((response["content"] ?? []) as { type: string; text?: string }[])
    .map((part) => part.text ?? "")
    .join("\n");
}

const patch = [
  "*** Begin Patch",
  "*** Add File: src/shout.ts",
  '+import { greet } from "./greet.js";',
  "+",
  "+export const shout = (name: string): string => greet(name).toUpperCase();",
  "*** End Patch",
].join("\n");

describe("harness-demo serve: one call of every tool through JSON lines", () => {
  it(
    "read, grep, write, edit, apply_patch, shell, lsp, lsp_rename, ast_grep, ast_edit, resolve, debug, eval, ask_user (--operator jsonl) and vibe_* (--vibe on a SCRIPTED model server from OPENAI_BASE_URL), a tier refusal and a bad line",
    { timeout: 90_000 },
    async () => {
      workspace = await copySampleWorkspace({ venv: false });
      model = await startScriptedModelServer();
      const root = workspace.path;
      session = new ServeSession(["--workdir", root, "--approval", "auto", "--operator", "jsonl", "--vibe"], {
        OPENAI_BASE_URL: model.baseUrl,
        OPENAI_API_KEY: "scripted-no-key",
        OPENAI_MODEL: "scripted",
      });
      const s = session;
      const ok = async (id: string, tool: string, args: Record<string, unknown>, timeoutMs = 20_000) => {
        const response = await s.call({ id, tool, args }, timeoutMs);
        expect(response, text(response)).toMatchObject({ id, ok: true, error: null });
        return text(response);
      };

      expect(await ok("read", "read", { path: "src/greet.ts", limit: 2 })).toContain(
        "2\texport function greet",
      );
      expect(await ok("grep", "grep", { pattern: "greetAll" })).toContain("src/index.ts:1:");
      expect(await ok("write", "write", { path: "NOTES.md", content: "# notes\n" })).toContain("NOTES.md");
      expect(await readFile(join(root, "NOTES.md"), "utf8")).toBe("# notes\n");
      expect(
        await ok("edit", "edit", { path: "NOTES.md", old_string: "# notes", new_string: "# Notes" }),
      ).toContain("1 replacement");
      expect(await ok("patch", "apply_patch", { patch })).toContain("A src/shout.ts");
      expect(await ok("shell", "shell", { command: "ls src | wc -l" })).toContain("4");

      // lsp: a language server from the app's own node_modules/.bin; diagnostics on lsp_rename.
      expect(
        await ok("lsp", "lsp", { action: "hover", file: "src/math.ts", line: 2, symbol: "sum" }, 45_000),
      ).toContain("The sum of the numbers.");
      const renamed = await ok(
        "rename",
        "lsp_rename",
        { file: "src/math.ts", line: 2, symbol: "sum", new_name: "sumOf" },
        30_000,
      );
      expect(renamed).toContain("renamed 'sum' to 'sumOf'");
      expect(renamed).toContain("LSP diagnostics after this write:");
      expect(await readFile(join(root, "src/index.ts"), "utf8")).toContain("sumOf");

      expect(await ok("ast_grep", "ast_grep", { pattern: "total($X)", language: "python" })).toContain(
        "report.py:8",
      );
      const staged = await ok("ast_edit", "ast_edit", {
        pattern: "average($X)",
        rewrite: "mean_of($X)",
        path: "python",
        language: "python",
      });
      const editId = /edit_id "([^"]+)"/.exec(staged)?.[1];
      expect(editId, staged).toBeDefined();
      await ok("resolve", "resolve", { edit_id: editId, action: "accept" });
      expect(await readFile(join(root, "python/report.py"), "utf8")).toContain("mean_of(sales)");

      expect(await ok("debug", "debug", { op: "adapters" })).toMatch(/dart/);
      expect(
        await ok(
          "eval",
          "eval",
          {
            code: "[1, 2, 3].map((x) => x * 2)",
            language: "javascript",
            description: "double a few numbers in javascript",
          },
          30_000,
        ),
      ).toContain("2, 4, 6");

      // ask_user: the card goes out as a line; the answer comes back as a line.
      s.sendLine(
        JSON.stringify({
          id: "ask",
          tool: "ask_user",
          args: { question: "Which file next?", options: [{ label: "greet.ts" }, { label: "math.ts" }] },
        }),
      );
      const card = await s.response((response) => response["event"] === "card");
      s.sendLine(JSON.stringify({ card_id: card["card_id"], answer: "1" }));
      const asked = await s.response((response) => response["id"] === "ask");
      expect(asked["ok"]).toBe(true);
      expect(text(asked)).toContain('Chosen option: "greet.ts"');

      // vibe: workers on the scripted model server (the environment's OPENAI_BASE_URL).
      expect(await ok("spawn1", "vibe_spawn", { brief: "read src/greet.ts", label: "reader" })).toContain(
        "w1",
      );
      expect(await ok("wait1", "vibe_wait", { worker_id: "w1" }, 30_000)).toContain(
        "[scripted model] I read it; its first line is: 1\t/** A greeting for one person. */",
      );
      expect(
        await ok("spawn2", "vibe_spawn", { brief: `read go/main.go ${holdMarker}`, label: "held" }),
      ).toContain("w2");
      expect(await ok("send2", "vibe_send", { worker_id: "w2", message: "also read go/go.mod" })).toContain(
        "w2",
      );
      expect(await ok("list", "vibe_list", {})).toMatch(/w1[\s\S]*w2/);
      expect(await ok("kill2", "vibe_kill", { worker_id: "w2" })).toMatch(/Killed w2/);

      // A tier refusal and a bad line.
      const refused = await s.call({ id: "tier", surface: "plan", tool: "lsp_rename", args: {} });
      expect(refused).toMatchObject({ ok: false });
      expect(refused["error"]).toContain("plan mode sees read tools only");
      s.sendLine("this is not a request");
      const bad = await s.response((response) => response["id"] === null && response["ok"] === false);
      expect(bad["error"]).toContain("malformed request line: not valid JSON");

      expect(await s.close(20_000)).toBe(0);
      expect(s.stray).toEqual([]);
    },
  );

  it(
    "--vibe-command runs workers on the command backend (the brief on the command's stdin)",
    { timeout: 30_000 },
    async () => {
      workspace = await copySampleWorkspace({ venv: false });
      session = new ServeSession([
        "--workdir",
        workspace.path,
        "--approval",
        "auto",
        "--vibe-command",
        "cat",
      ]);
      const spawned = await session.call({
        id: 1,
        tool: "vibe_spawn",
        args: { brief: "echo me back", label: "cat" },
      });
      expect(spawned["ok"]).toBe(true);
      const waited = await session.call({ id: 2, tool: "vibe_wait", args: { worker_id: "w1" } }, 20_000);
      expect(waited["ok"]).toBe(true);
      expect(text(waited)).toContain("echo me back");
      expect(await session.close()).toBe(0);
    },
  );
});
