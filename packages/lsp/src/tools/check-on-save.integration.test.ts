import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRegistry, createRun, resultText } from "@tools/registry";
import { describe, expect, it } from "vitest";
import { diagnosticsOnWrite } from "../diagnostics/diagnostics-on-write.js";
import { defaultServers, type ServerSpec } from "../servers/server-table.js";
import { createLspSupervisor, type LspSupervisor } from "../supervisor/supervisor.js";
import { tempTree } from "../test-support/fixtures.js";
import { writeTool } from "../test-support/write-tool.js";
import { lspTool } from "./lsp-tool.js";

// rust-analyzer cannot run on this machine (no registry carries it): a fake server with its
// diagnostics contract stands in (see its header). Its own diagnostics come by pull; cargo
// check's only by publish, after each save, followed through `$/progress`.
const fakeServers = join(import.meta.dirname, "..", "__fixtures__", "fake-servers");
const rust = defaultServers.find((server) => server.language === "rust")!;

function spec(args: string[] = []): ServerSpec {
  return {
    language: "fakerust",
    extensions: [".fakers"],
    markers: ["Fake.toml"],
    command: "check-on-save-server",
    args,
    // rust-analyzer's own rule, with a shorter start bound for the test.
    checkOnSave: { ...rust.checkOnSave!, startMs: 600 },
  };
}

interface Session {
  readonly call: (tool: string, args: Record<string, unknown>) => Promise<string>;
  readonly diagnostics: (file?: string) => Promise<string>;
  readonly write: (text: string, file?: string) => void;
  readonly supervisor: LspSupervisor;
  readonly dir: string;
}

async function withServer(
  args: string[],
  use: (session: Session) => Promise<void>,
  options: { diagnosticsTimeoutMs?: number; files?: Record<string, string> } = {},
): Promise<void> {
  const tree = tempTree("check-on-save", {
    "Fake.toml": "",
    "main.fakers": "fn main() {}\n",
    ...options.files,
  });
  const run = createRun({ workingDirectory: tree.dir });
  const supervisor = createLspSupervisor(run, {
    servers: [spec(args)],
    binDirectories: [fakeServers],
    diagnosticsTimeoutMs: options.diagnosticsTimeoutMs ?? 5_000,
  });
  const registry = createRegistry({
    tools: [lspTool, writeTool],
    resultWrappers: [diagnosticsOnWrite({ boundMs: 3_000 })],
    approval: "auto",
  });
  const call = async (tool: string, toolArgs: Record<string, unknown>) =>
    resultText(await registry.invoke(run, { tool, args: toolArgs }));
  try {
    await use({
      call,
      diagnostics: (file = "main.fakers") => call("lsp", { action: "diagnostics", file }),
      write: (text, file = "main.fakers") => writeFileSync(join(tree.dir, file), text),
      supervisor,
      dir: tree.dir,
    });
  } finally {
    await run.dispose();
    tree.remove();
  }
}

const nativeError = "error [E0425] unresolved name `unresolved_thing` (rust-analyzer)";
const checkError = "error [E0499] cannot borrow `x` as mutable more than once at a time (rustc)";

describe("diagnostics from a checker the server runs on save (rust-analyzer's cargo check)", () => {
  it("adds the check's pushed diagnostics to the pulled ones, for the text just saved", async () => {
    await withServer([], async ({ diagnostics, write }) => {
      write("fn main() {\n  unresolved_thing();\n  borrow_twice();\n}\n");
      expect(await diagnostics()).toBe(
        `2 diagnostics in main.fakers:\nmain.fakers:2:3 ${nativeError}\nmain.fakers:3:3 ${checkError}`,
      );
      // Fixed: the run after this save publishes an empty set; the earlier run's error is gone.
      write("fn main() {\n  unresolved_thing();\n}\n");
      expect(await diagnostics()).toBe(`1 diagnostic in main.fakers:\nmain.fakers:2:3 ${nativeError}`);
      write("fn main() {\n\n  borrow_twice();\n}\n");
      expect(await diagnostics()).toBe(`1 diagnostic in main.fakers:\nmain.fakers:3:3 ${checkError}`);
    });
  });

  it("checks a file opened before without a save: its start-up results were published before it was open", async () => {
    await withServer(
      [],
      async ({ diagnostics, supervisor, dir }) => {
        await supervisor.open(join(dir, "main.fakers"));
        expect(await diagnostics()).toBe(`1 diagnostic in main.fakers:\nmain.fakers:2:3 ${checkError}`);
      },
      { files: { "main.fakers": "fn main() {\n  borrow_twice();\n}\n" } },
    );
  });

  it("answers two files saved at once, each after the run that covers its save", async () => {
    await withServer([], async ({ diagnostics, write }) => {
      write("fn main() {\n  borrow_twice();\n}\n");
      write("fn other() {\n  unresolved_thing();\n  borrow_twice();\n}\n", "other.fakers");
      const [main, other] = await Promise.all([diagnostics(), diagnostics("other.fakers")]);
      expect(main).toBe(`1 diagnostic in main.fakers:\nmain.fakers:2:3 ${checkError}`);
      expect(other).toBe(
        `2 diagnostics in other.fakers:\nother.fakers:2:3 ${nativeError}\nother.fakers:3:3 ${checkError}`,
      );
    });
  });

  it("says when the check did not start after the save, and leaves out an earlier run's results", async () => {
    await withServer(["--no-check"], async ({ diagnostics, write }) => {
      write("fn main() {\n  unresolved_thing();\n  borrow_twice();\n}\n");
      expect(await diagnostics()).toBe(
        [
          "(may be incomplete: cargo check did not start after the save (off, or the workspace still loading); its diagnostics are not included)",
          "1 diagnostic in main.fakers:",
          `main.fakers:2:3 ${nativeError}`,
        ].join("\n"),
      );
    });
  });

  it("does not pass the check's publishes off as the server's own answer when the pull fails", async () => {
    await withServer(["--fail-pull"], async ({ diagnostics, write }) => {
      write("fn main() {\n  unresolved_thing();\n  borrow_twice();\n}\n");
      expect(await diagnostics()).toBe(
        [
          "(may be incomplete: the pull of check-on-save-server's own diagnostics failed; only cargo check's may be listed)",
          "1 diagnostic in main.fakers:",
          `main.fakers:3:3 ${checkError}`,
        ].join("\n"),
      );
    });
  });

  it("says when the check had not finished within the bound, in lsp diagnostics and after a write", async () => {
    await withServer(
      ["--check-ms", "20000"],
      async ({ call, diagnostics, write }) => {
        write("fn main() {\n  borrow_twice();\n}\n");
        expect(await diagnostics()).toBe(
          "(may be incomplete: cargo check had not finished within 1500 ms; its diagnostics are not included)\nno diagnostics in main.fakers",
        );
        // The server's own diagnostics are still reported after a write; the file is not called clean.
        const written = await call("write", {
          file: "main.fakers",
          content: "fn main() {\n  unresolved_thing();\n  borrow_twice();\n}\n",
        });
        expect(written).toMatch(
          new RegExp(
            `^wrote main\\.fakers\\n\\nLSP diagnostics after this write:\\n1 new diagnostic in main\\.fakers:\\nmain\\.fakers:2:3 ${nativeError.replace(/[[\]()`]/g, "\\$&")}\\ndiagnostics for main\\.fakers incomplete: cargo check had not finished within \\d+ ms; its diagnostics are not included; lsp diagnostics lists them later$`,
          ),
        );
      },
      { diagnosticsTimeoutMs: 1_500 },
    );
  });
});
