import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRegistry, createRun, resultText } from "@tools/registry";
import { describe, expect, it } from "vitest";
import { defaultServers, type ServerSpec } from "../servers/server-table.js";
import { createLspSupervisor } from "../supervisor/supervisor.js";
import { tempTree } from "../test-support/fixtures.js";
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

async function withServer(
  args: string[],
  use: (diagnostics: () => Promise<string>, write: (text: string) => void) => Promise<void>,
  diagnosticsTimeoutMs = 5_000,
): Promise<void> {
  const tree = tempTree("check-on-save", { "Fake.toml": "", "main.fakers": "fn main() {}\n" });
  const run = createRun({ workingDirectory: tree.dir });
  createLspSupervisor(run, { servers: [spec(args)], binDirectories: [fakeServers], diagnosticsTimeoutMs });
  const registry = createRegistry({ tools: [lspTool] });
  try {
    await use(
      async () =>
        resultText(
          await registry.invoke(run, { tool: "lsp", args: { action: "diagnostics", file: "main.fakers" } }),
        ),
      (text) => writeFileSync(join(tree.dir, "main.fakers"), text),
    );
  } finally {
    await run.dispose();
    tree.remove();
  }
}

describe("diagnostics from a checker the server runs on save (rust-analyzer's cargo check)", () => {
  it("adds the check's pushed diagnostics to the pulled ones, for the text just saved", async () => {
    await withServer([], async (diagnostics, write) => {
      write("fn main() {\n  unresolved_thing();\n  borrow_twice();\n}\n");
      expect(await diagnostics()).toBe(
        [
          "2 diagnostics in main.fakers:",
          "main.fakers:2:3 error [E0425] unresolved name `unresolved_thing` (rust-analyzer)",
          "main.fakers:3:3 error [E0499] cannot borrow `x` as mutable more than once at a time (rustc)",
        ].join("\n"),
      );
      // Fixed: the run after this save publishes an empty set; the earlier run's error is gone.
      write("fn main() {\n  unresolved_thing();\n}\n");
      expect(await diagnostics()).toBe(
        "1 diagnostic in main.fakers:\nmain.fakers:2:3 error [E0425] unresolved name `unresolved_thing` (rust-analyzer)",
      );
      write("fn main() {\n\n  borrow_twice();\n}\n");
      expect(await diagnostics()).toBe(
        "1 diagnostic in main.fakers:\nmain.fakers:3:3 error [E0499] cannot borrow `x` as mutable more than once at a time (rustc)",
      );
    });
  });

  it("says when the check did not start after the save, and leaves out an earlier run's results", async () => {
    await withServer(["--no-check"], async (diagnostics, write) => {
      write("fn main() {\n  unresolved_thing();\n  borrow_twice();\n}\n");
      expect(await diagnostics()).toBe(
        [
          "(may be incomplete: cargo check did not start after the save; its diagnostics are not included)",
          "1 diagnostic in main.fakers:",
          "main.fakers:2:3 error [E0425] unresolved name `unresolved_thing` (rust-analyzer)",
        ].join("\n"),
      );
    });
  });

  it("says when the check had not finished within the bound", async () => {
    await withServer(
      ["--check-ms", "5000"],
      async (diagnostics, write) => {
        write("fn main() {\n  borrow_twice();\n}\n");
        expect(await diagnostics()).toBe(
          "(may be incomplete: cargo check had not finished within 1500 ms; its diagnostics are not included)\nno diagnostics in main.fakers",
        );
      },
      1_500,
    );
  });
});
