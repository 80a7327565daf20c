import { defineTool, resolveInside, textResult } from "@tools/registry";
import { existsSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { z } from "zod";
import { addressSymbol } from "../actions/symbol-position.js";
import { LspError } from "../errors/lsp-error.js";
import { applyWorkspaceEdit } from "../rename/apply-workspace-edit.js";
import { requestRenameEdit } from "../rename/request-rename.js";
import { lspSupervisorKey } from "../supervisor/supervisor.js";

const input = z.object({
  file: z.string().describe("File where the symbol is, relative to the working directory."),
  line: z.number().int().min(1).describe("1-based line of the symbol."),
  symbol: z.string().min(1).describe("The symbol's whole name as written on that line (never a column)."),
  new_name: z.string().min(1).describe("The new name."),
});

/**
 * `lsp_rename` (write tier): a project-wide rename by the language server, applied all or
 * nothing; the result lists the files and edit counts and reports them as `changedFiles`.
 */
export const lspRenameTool = defineTool({
  name: "lsp_rename",
  tier: "write",
  parallelSafe: false,
  description: [
    "Rename a symbol everywhere it is used, through the project's language server; all files are written or none.",
    "Address the symbol by file, line (1-based) and symbol (its whole name as written on that line; never a column).",
    'Example: {"file":"src/math.ts","line":2,"symbol":"add","new_name":"sum"}',
  ].join(" "),
  input,
  requires: [lspSupervisorKey],
  paths: (args) => [args.file],
  summarize: (args) =>
    `rename '${args.symbol}' (${args.file}:${args.line}) to '${args.new_name}' across the project`,
  async execute(args, ctx) {
    const supervisor = ctx.run.require(lspSupervisorKey);
    const context = {
      supervisor,
      resolvePath: (path: string) => ctx.resolvePath(path),
      progress: (message: string) => ctx.progress(message),
      signal: ctx.signal,
    };
    const { client, uri, position } = await addressSymbol({ ...args, action: "rename" }, context);
    if (position.identifier !== args.symbol) {
      // A rename must name exactly what it renames: a substring could rewrite a different symbol.
      throw new LspError({
        code: "LSP_SYMBOL_NOT_FOUND",
        message: `no identifier is exactly '${args.symbol}' on line ${position.line + 1} (nor within a few lines); the nearest match is '${position.identifier}'. Give the whole name of the symbol to rename.`,
      });
    }
    const at = { line: position.line, character: position.character };
    const edit = await requestRenameEdit(client, uri, at, args.symbol, args.new_name, ctx.signal);
    const applied = await applyWorkspaceEdit(edit, {
      versionOf: (documentUri) => client.versionOf(documentUri),
      isOpen: (documentUri) => client.isOpen(documentUri),
      isSynced: (documentUri, text) => client.isSynced(documentUri, text),
      display: (path) => supervisor.display(path),
      writable: (path) => {
        try {
          resolveInside(ctx.run.workingDirectory, path);
          return true;
        } catch {
          return false;
        }
      },
    });
    // Re-sync what changed so the server's next answers describe the new text, not the old.
    for (const file of applied.changedFiles) {
      if (existsSync(file)) await supervisor.open(file, true).catch(() => undefined);
      else await client.close(pathToFileURL(file).href);
    }
    const total = [...applied.editCounts.values()].reduce((sum, count) => sum + count, 0);
    const movedFrom = new Map([...applied.moves].map(([from, to]) => [to, from]));
    const edits = (count: number): string => `${count} edit${count === 1 ? "" : "s"}`;
    // One row per file, by path (a server's edit order can vary from call to call): a moved file
    // once, old → new, with the edits made before or after the move.
    const byPath = [...applied.changedFiles].sort((a, b) =>
      supervisor.display(a).localeCompare(supervisor.display(b)),
    );
    const rows = byPath.flatMap((file) => {
      const moved = applied.moves.get(file);
      const count = applied.editCounts.get(file) ?? 0;
      if (moved) {
        const both = count + (applied.editCounts.get(moved) ?? 0);
        return [
          `${supervisor.display(file)} → ${supervisor.display(moved)}${both > 0 ? `: ${edits(both)}` : ""}`,
        ];
      }
      if (movedFrom.has(file)) return [];
      if (!applied.editCounts.has(file))
        return [`${supervisor.display(file)}: ${existsSync(file) ? "created" : "deleted"}`];
      return [`${supervisor.display(file)}: ${edits(count)}`];
    });
    const header = position.note ? `${position.note}\n` : "";
    return textResult(
      `${header}renamed '${args.symbol}' to '${args.new_name}': ${edits(total)} in ${rows.length} file${rows.length === 1 ? "" : "s"}\n${rows.join("\n")}`,
      { changedFiles: applied.changedFiles },
    );
  },
});
