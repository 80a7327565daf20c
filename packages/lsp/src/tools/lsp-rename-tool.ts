import { defineTool, resolveInside, textResult, warningNotes } from "@tools/registry";
import { existsSync } from "node:fs";
import { extname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Diagnostic, TextEdit, WorkspaceEdit } from "vscode-languageserver-protocol";
import { z } from "zod";
import { reindexing } from "../actions/analysed-documents.js";
import { endSearch, prepareSearch } from "../actions/cross-file-search.js";
import { addressSymbol } from "../actions/symbol-position.js";
import { uniqueOneNameContext } from "../positions/name-hint.js";
import type { ResolvedPosition } from "../positions/resolve-position.js";
import { focusOf } from "../positions/symbol-focus.js";
import { wholeColumns } from "../positions/whole-occurrences.js";
import { LspError } from "../errors/lsp-error.js";
import { planWorkspaceEdit, touchedUris, writePlannedEdit } from "../rename/apply-workspace-edit.js";
import { checkClashes, clashMessage, importsMissingName } from "../rename/clash-check.js";
import { declarationLeftOut, declarationLeftOutMessage } from "../rename/declaration-left-out.js";
import { implementationsLeftOut, implementationsLeftOutMessage } from "../rename/implementations-left-out.js";
import {
  overridesLeftOut,
  overridesLeftOutMessage,
  overridesLibraryNote,
  overridesUncheckedNote,
} from "../rename/overrides-left-out.js";
import { requestRenameEdit } from "../rename/request-rename.js";
import { preEditDiagnosticsKey, readPreEditDiagnostics } from "../rename/pre-edit-diagnostics.js";
import { settleDiskEvents } from "../files/disk-events.js";
import { requireExistingFile } from "../files/missing-file.js";
import { newNameProblem, reservedWordIsFine } from "../rename/new-name.js";
import { isMemberKind, renamedKind } from "../rename/renames-member.js";
import { languageIdFor } from "../servers/server-table.js";
import {
  defaultMentionLimits,
  mentionsElsewhere,
  mentionsInFiles,
  type MentionsElsewhere,
} from "../rename/mentions-elsewhere.js";
import { lspSupervisorKey } from "../supervisor/supervisor.js";

const input = z.object({
  file: z.string().describe("File where the symbol is, relative to the working directory."),
  line: z.number().int().min(1).describe("1-based line of the symbol."),
  symbol: z
    .string()
    .min(1)
    .max(1000)
    .describe(
      "The symbol's whole name as written on that exact line (never a column); include text around it to pick one of several, e.g. '= count'.",
    ),
  new_name: z.string().min(1).max(1000).describe("The new name."),
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
    "Address the symbol by file, line (1-based) and symbol (its whole name as written on that exact line; never a column). When the name occurs twice on the line as different symbols, include text around the one meant ('= count' in 'this.count = count;').",
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
    requireExistingFile(ctx.resolvePath(args.file), (path) => supervisor.display(path));
    // Edits computed from a server's stale copy of a file a shell command changed would land at
    // the wrong offsets: every change event already queued is read before asking.
    await settleDiskEvents();
    const { client, uri, file, lines, position, code, resynced } = await addressSymbol(
      { ...args, action: "rename" },
      context,
    );
    // A rename must name exactly what it renames, where it was asked: a substring, a nearby
    // line's same name, or one name of several could rewrite a different symbol project-wide.
    // The name as the file writes it (a decomposed `café` asked precomposed).
    const symbol = position.spelled ?? args.symbol;
    const focus = focusOf(symbol);
    if (focus.names !== 1) {
      throw new LspError({
        code: "LSP_SYMBOL_NOT_FOUND",
        message:
          focus.names === 0
            ? `'${args.symbol}' holds no name; give the one identifier to rename, as written on line ${args.line}.`
            : `'${args.symbol}' holds ${focus.names} names; give the one identifier to rename (e.g. '${focus.name}'; a member alone: 'port', not 'config.port').`,
      });
    }
    if (position.identifier !== focus.name) {
      throw new LspError({
        code: "LSP_SYMBOL_NOT_FOUND",
        message: `no identifier is exactly '${focus.name}' on line ${position.line + 1} (nor within a few lines); the nearest match is '${position.identifier}'. Give the whole name of the symbol to rename.`,
      });
    }
    if (position.line !== args.line - 1) {
      throw new LspError({
        code: "LSP_SYMBOL_NOT_FOUND",
        message: `'${focus.name}' is not on line ${args.line}; it is on line ${position.line + 1}. A rename uses the exact line: call again with line ${position.line + 1} if that is the one meant.`,
      });
    }
    if (args.new_name === focus.name) {
      throw new LspError({
        code: "LSP_BAD_ARGUMENTS",
        message: `new_name '${args.new_name}' is the name it has already: nothing to rename; nothing was written.`,
      });
    }
    const use = { dialect: languageIdFor(client.spec, extname(file)) };
    // A reserved word may name a member (TypeScript's `store.delete()`): known once the server's edit is.
    const reservedIfMember = reservedWordIsFine(client.spec.language, args.new_name, use);
    const badName = newNameProblem(client.spec.language, args.new_name, { ...use, member: reservedIfMember });
    if (badName)
      throw new LspError({ code: "LSP_BAD_ARGUMENTS", message: `${badName}; nothing was written.` });
    const at = { line: position.line, character: position.character };
    // The server must see every file using the name, or its edit leaves some of them behind.
    const search = await prepareSearch(client, uri, focus.name, context, reindexing(client, resynced));
    try {
      const edit = await requestRenameEdit(
        client,
        uri,
        at,
        focus.name,
        args.new_name,
        lines[position.line]!,
        ctx.signal,
      );
      refuseAmbiguous(edit, file, lines[position.line]!, () => code(position.line), symbol, focus, position);
      // The versions the edit was computed against: a file opened below (to read its kind or its
      // diagnostics before the edit) gets a version the server's edit cannot name; gopls gives
      // 0 for a file not open, which no longer matches then.
      const openAtEdit = new Set(touchedUris(edit).filter((touched) => client.isOpen(touched)));
      if (reservedIfMember) {
        const kind = await renamedKind(
          client,
          edit,
          focus.name,
          async (editedUri) => {
            if (editedUri !== uri && editedUri.startsWith("file:") && !client.isOpen(editedUri))
              await supervisor.open(supervisor.pathOf(editedUri)).catch(() => undefined);
          },
          ctx.signal,
        );
        if (!isMemberKind(kind)) {
          throw new LspError({
            code: "LSP_BAD_ARGUMENTS",
            message: `${newNameProblem(client.spec.language, args.new_name, use)!}; nothing was written.`,
          });
        }
      }
      const inside = (path: string): boolean => {
        try {
          resolveInside(ctx.run.workingDirectory, path);
          return true;
        } catch {
          return false;
        }
      };
      const planned = planWorkspaceEdit(edit, {
        versionOf: (documentUri) => (openAtEdit.has(documentUri) ? client.versionOf(documentUri) : undefined),
        isOpen: (documentUri) => client.isOpen(documentUri),
        isSynced: (documentUri, text) => client.isSynced(documentUri, text),
        display: (path) => supervisor.display(path),
        oldName: focus.name,
        writable: inside,
      });
      // The state before the edit, for the clash check below and for the diagnostics-on-write
      // check, which compares with it but can no longer read it: the edit is sent to the
      // servers below, before that check runs.
      const beforeEdit = new Map<string, readonly Diagnostic[]>();
      await readPreEditDiagnostics(supervisor, edit, beforeEdit);
      const before = ctx.run.state(preEditDiagnosticsKey).get(ctx.callId);
      for (const [path, diagnostics] of beforeEdit) before?.set(path, diagnostics);
      // gopls renames a method alone, not those an interface ties it to (the interface method a
      // concrete one implements, or the methods implementing an interface method): the type then
      // no longer implements the interface, which breaks the code only where it is used as one,
      // maybe in a package the edit does not touch. Asked first, so that the check below reads
      // the errors of the files it does not touch too.
      const tied =
        client.spec.language === "go" && goMethodAt(lines[position.line]!, at.character, focus.name)
          ? await implementationsLeftOut(client, supervisor, edit, uri, at, focus.name, 5_000, ctx.signal)
          : undefined;
      ctx.signal.throwIfAborted();
      // typescript-language-server renames into a name already in scope without a word (the
      // outer `limit` a function used is now its renamed local): tried on the server first.
      const clash = await checkClashes({
        client,
        supervisor,
        edit,
        planned,
        uri,
        at,
        oldName: focus.name,
        newName: args.new_name,
        before: beforeEdit,
        elsewhere: tied !== undefined && tied.length > 0,
        signal: ctx.signal,
      });
      // Cancelled meanwhile (the probe's requests end early then): nothing is written.
      ctx.signal.throwIfAborted();
      if (clash.clashes.length > 0) {
        // The edit renames an import but not what it imports (a referenced project's file, which
        // this server does not rename): its module then exports no new name, whatever it is; the
        // place to rename is said. Only for that clash: a declaration the edit leaves out is also
        // what an import alias (`foo as bar`) is defined by, where a clash is a clash.
        const missingExport = clash.clashes.some((line) => importsMissingName(line, args.new_name));
        const declaration = missingExport
          ? await declarationLeftOut(client, supervisor, edit, uri, at, 5_000, ctx.signal)
          : undefined;
        ctx.signal.throwIfAborted();
        if (missingExport) {
          throw new LspError({
            code: "LSP_RENAME_FAILED",
            message: declarationLeftOutMessage(focus.name, args.new_name, declaration, {
              display: (path) => supervisor.display(path),
              command: client.spec.command,
              root: supervisor.display(client.root),
            }),
            data: { clashes: clash.clashes },
          });
        }
        // The edit renames an interface method but not the methods implementing it (gopls), or
        // the other way round: the types then no longer implement the interface, whatever the
        // new name; no clash, and "pick another name" would send the agent round in circles.
        const implementing = clash.clashes.filter((line) => /\bimplement/i.test(line));
        const leftOut =
          implementing.length > 0
            ? (tied ??
              (await implementationsLeftOut(
                client,
                supervisor,
                edit,
                uri,
                at,
                focus.name,
                5_000,
                ctx.signal,
              )))
            : [];
        ctx.signal.throwIfAborted();
        if (leftOut.length > 0) {
          throw new LspError({
            code: "LSP_RENAME_FAILED",
            message: implementationsLeftOutMessage(
              focus.name,
              args.new_name,
              leftOut,
              [...clash.clashes, ...clash.elsewhere],
              { display: (path) => supervisor.display(path), command: client.spec.command },
            ),
            data: { clashes: clash.clashes, elsewhere: clash.elsewhere },
          });
        }
        throw new LspError({
          code: "LSP_RENAME_CLASH",
          message: clashMessage(focus.name, args.new_name, clash.clashes),
          data: { clashes: clash.clashes },
        });
      }
      // The type no longer implements the interface where another package uses it as one.
      if (tied && tied.length > 0 && clash.elsewhere.length > 0) {
        throw new LspError({
          code: "LSP_RENAME_FAILED",
          message: implementationsLeftOutMessage(focus.name, args.new_name, tied, clash.elsewhere, {
            display: (path) => supervisor.display(path),
            command: client.spec.command,
          }),
          data: { elsewhere: clash.elsewhere },
        });
      }
      // pyright renames a method and the calls it resolves to it, not the methods overriding it
      // or the one it overrides: calls through the base would then run another method, and no
      // error says so.
      const overrides = await overridesLeftOut({
        client,
        supervisor,
        edit,
        uri,
        at,
        oldName: focus.name,
        // A library installed in the working directory (.venv) is no more the project's than
        // one outside it: its classes are not renamed with the project's.
        inside: (path) => inside(path) && !inLibraryFolder(path),
        signal: ctx.signal,
      });
      ctx.signal.throwIfAborted();
      if (overrides.left.length > 0) {
        throw new LspError({
          code: "LSP_RENAME_FAILED",
          message: overridesLeftOutMessage(focus.name, args.new_name, overrides, {
            display: (path) => supervisor.display(path),
            command: client.spec.command,
          }),
          data: {
            leftOut: overrides.left.map((item) => ({
              file: supervisor.display(item.path),
              line: item.position.line + 1,
              reason: item.reason,
            })),
          },
        });
      }
      const applied = await writePlannedEdit(planned, undefined, ctx.run.workingDirectory);
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
      const unchecked =
        clash.unchecked.length > 0
          ? `(not fully checked for a clash of '${args.new_name}' with names already there: ${clash.unchecked.join("; ")}; check the changed files' diagnostics)`
          : "";
      const header = [
        position.note,
        ...search.notes,
        unchecked,
        overridesUncheckedNote(focus.name, overrides),
        overridesLibraryNote(focus.name, args.new_name, overrides),
      ]
        .map((note) => (note ? `${note}\n` : ""))
        .join("");
      // Only where files of the language can lie outside the server's root: it is not the
      // working directory, or other roots of the language are below it.
      const otherRoots =
        client.root !== supervisor.workingDirectory ||
        supervisor
          .projectRoots()
          .roots.some(
            (found) =>
              found.spec.language === client.spec.language &&
              found.root !== client.root &&
              found.workspace !== client.root,
          );
      const elsewhere = otherRoots
        ? mentionsNote(
            await mentionsElsewhere(
              supervisor.workingDirectory,
              client.root,
              (folder) => supervisor.rootFor(client.spec, join(folder, "_")),
              {
                name: focus.name,
                extensions: client.spec.extensions,
                exclude: new Set(applied.changedFiles),
                signal: ctx.signal,
              },
            ),
            {
              name: focus.name,
              root: supervisor.display(client.root),
              display: (path) => supervisor.display(path),
            },
          )
        : "";
      const missed =
        client.spec.indexScope === "open-files"
          ? leftNamingNote(
              search.opened.map((opened) => supervisor.pathOf(opened)),
              new Set(applied.changedFiles),
              { name: focus.name, command: client.spec.command, display: (path) => supervisor.display(path) },
            )
          : "";
      return textResult(
        `${header}renamed '${focus.name}' to '${args.new_name}': ${edits(total)} in ${rows.length} file${rows.length === 1 ? "" : "s"}\n${rows.join("\n")}${missed}${elsewhere}${warningNotes(applied.warnings)}`,
        { changedFiles: applied.changedFiles },
      );
    } finally {
      await endSearch(client, search);
    }
  },
});

/** Largest file read by {@link leftNamingNote}. */
const leftNamingBytes = 8 * 1024 * 1024;

/**
 * The lines still naming the old name in files opened for the rename because they name it (a
 * server that sees only its open files: clangd without an index) that its edit left unchanged,
 * or "": the same name as another symbol, or a use the server did not count as this symbol's
 * (clangd builds a header it has no compile command for with guessed flags, and its symbol is
 * then another one). Either way the agent is told, not left with a build the rename broke.
 */
function leftNamingNote(
  opened: readonly string[],
  changed: ReadonlySet<string>,
  about: { name: string; command: string; display: (path: string) => string },
): string {
  const found = mentionsInFiles(
    opened.filter((file) => !changed.has(file)),
    about.name,
    { lines: defaultMentionLimits.lines, bytes: leftNamingBytes },
  );
  if (found.files === 0) return "";
  return [
    "",
    `not changed: '${about.name}' is still named in ${found.files} file${found.files === 1 ? "" : "s"} ${about.command} was given for this rename, and it did not count ${found.files === 1 ? "that use" : "those uses"} as this symbol's (another symbol of the same name, or a file it builds with other flags: check the compile commands cover it); if they use this symbol, edit them:`,
    ...listedMentions(found, about.display),
  ].join("\n");
}

/** `path:line  text` per mention listed, then how many more lines were found. */
function listedMentions(found: MentionsElsewhere, display: (path: string) => string): string[] {
  const lines = found.mentions.map(
    (mention) => `${display(mention.file)}:${mention.line + 1}  ${mention.text}`,
  );
  return [...lines, ...(found.lines > lines.length ? [`… and ${found.lines - lines.length} more`] : [])];
}

/**
 * The lines naming the old name in files the renaming server does not search (other roots), or ""
 * when there are none: those files may use the symbol, and were not changed.
 */
function mentionsNote(
  found: MentionsElsewhere,
  about: { name: string; root: string; display: (path: string) => string },
): string {
  if (found.files === 0) {
    return found.truncated
      ? `\n(files the server which renamed it (root ${about.root}) does not search were looked at for '${about.name}' only in part: the look's bound was reached)`
      : "";
  }
  const files = `${found.files} file${found.files === 1 ? "" : "s"}`;
  return [
    "",
    `not changed: '${about.name}' is still named in ${files} that the server which renamed it (root ${about.root}) does not search; if they use this symbol, rename it there too (lsp_rename from one of them) or edit them:`,
    ...listedMentions(found, about.display),
    ...(found.truncated ? ["(the look for them stopped at its bound: there may be more)"] : []),
  ].join("\n");
}

/**
 * Refuses a rename whose symbol occurs more than once on its line in code when the server's
 * edit leaves one of those occurrences: they are different symbols (`this.count = count;`), and
 * the first was taken. Occurrences the edit changes too are the same symbol, and fine; those in
 * a comment or a string (blanked in `codeOfLine`, read only when there are others) are no symbol.
 */
function refuseAmbiguous(
  edit: WorkspaceEdit,
  file: string,
  lineText: string,
  codeOfLine: () => string,
  symbol: string,
  focus: ReturnType<typeof focusOf>,
  position: ResolvedPosition,
): void {
  const whole = wholeColumns(lineText, symbol)
    .map((column) => column + focus.offset)
    .filter((column) => column !== position.character);
  if (whole.length === 0) return;
  const code = codeOfLine();
  const others = whole.filter((column) => code[column] !== " ");
  if (others.length === 0) return;
  const starts = new Set<number>();
  const collect = (uri: string, edits: readonly TextEdit[]): void => {
    if (!uri.startsWith("file:") || fileURLToPath(uri) !== file) return;
    for (const change of edits)
      if (change.range.start.line === position.line) starts.add(change.range.start.character);
  };
  for (const change of edit.documentChanges ?? []) {
    if ("textDocument" in change)
      collect(
        change.textDocument.uri,
        change.edits.filter((e) => "newText" in e),
      );
  }
  for (const [uri, edits] of Object.entries(edit.changes ?? {})) collect(uri, edits);
  const left = others.filter((column) => !starts.has(column));
  if (left.length === 0) return;
  const hints = [
    [left[0]!, "the one at column " + (left[0]! + 1)],
    [position.character, "the one at column " + (position.character + 1)],
  ] as const;
  const examples = hints.flatMap(([column, which]) => {
    const hint = uniqueOneNameContext(lineText, column, focus.name.length);
    return hint === undefined ? [] : [`'${hint}' for ${which}`];
  });
  const example = examples.length === 0 ? "" : ` (e.g. symbol ${examples.join(", or ")})`;
  throw new LspError({
    code: "LSP_SYMBOL_NOT_FOUND",
    message: `'${symbol}' occurs ${others.length + 1} times on line ${position.line + 1}, and they are different symbols: renaming the one at column ${position.character + 1} would leave the one at column ${left[0]! + 1}. Give text around the one meant${example}; nothing was written.`,
  });
}

/** Whether a path lies in a folder packages are installed in (site-packages, dist-packages). */
function inLibraryFolder(path: string): boolean {
  return path.split(/[\\/]/u).some((part) => part === "site-packages" || part === "dist-packages");
}

/**
 * Whether the Go name at `character` of `line` can be a method: declared with a receiver
 * (`func (c Circle) Area(`), in an interface (`Area() float64`), or selected (`c.Area`); not a
 * function declared (`func area(`).
 */
function goMethodAt(line: string, character: number, name: string): boolean {
  if (line.charAt(character - 1) === ".") return true;
  return /^\s*\(/.test(line.slice(character + name.length)) && !/^\s*func\s+$/.test(line.slice(0, character));
}
