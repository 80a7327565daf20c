import type {
  Location,
  LocationLink,
  Position,
  TextEdit,
  WorkspaceEdit,
} from "vscode-languageserver-protocol";
import type { LanguageClient } from "../client/language-client.js";
import { answerLocations } from "../positions/answer-locations.js";
import type { LspSupervisor } from "../supervisor/supervisor.js";
import { textEditsByUri } from "./edited-text.js";

/** Where a renamed symbol is declared, as a refusal names it. */
export interface LeftOutDeclaration {
  readonly path: string;
  /** 0-based. */
  readonly position: Position;
  readonly lineText: string;
}

/**
 * The declaration of the symbol renamed at `at` of `uri` when the server's edit does not touch
 * it (it renames only an import of it: a package a TypeScript project references, whose files
 * this server's rename leaves alone); undefined when the edit renames the declaration, or when
 * the server names none. Asked of the texts as on disk (the clash check has set them back).
 * Bounded by `timeoutMs`; a failure is undefined.
 */
export async function declarationLeftOut(
  client: LanguageClient,
  supervisor: LspSupervisor,
  edit: WorkspaceEdit,
  uri: string,
  at: Position,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<LeftOutDeclaration | undefined> {
  const answer = await client
    .request<Location | Location[] | LocationLink[] | null>(
      "textDocument/definition",
      { textDocument: { uri }, position: at },
      timeoutMs,
      signal,
    )
    .catch(() => undefined);
  const first = answerLocations(answer)[0];
  if (!first) return undefined;
  const target = { uri: first.uri, start: first.range.start };
  if (!target.uri.startsWith("file:")) return undefined;
  const path = supervisor.pathOf(target.uri);
  const edits = [...(textEditsByUri(edit) ?? new Map<string, TextEdit[]>())].filter(
    ([edited]) => edited.startsWith("file:") && supervisor.pathOf(edited) === path,
  );
  const covers = (range: { start: Position; end: Position }): boolean =>
    before(range.start, target.start) && before(target.start, range.end);
  if (edits.some(([, list]) => list.some((change) => covers(change.range)))) return undefined;
  const lineText = supervisor.texts.tryRead(path)?.lines()[target.start.line] ?? "";
  return { path, position: target.start, lineText };
}

/** `a` is at or before `b`. */
function before(a: Position, b: Position): boolean {
  return a.line < b.line || (a.line === b.line && a.character <= b.character);
}

/**
 * The refusal's text when the edit leaves the declaration out: no new name can pass (the import
 * of a name its module does not export), so it says where to rename instead.
 */
export function declarationLeftOutMessage(
  oldName: string,
  newName: string,
  declaration: LeftOutDeclaration | undefined,
  about: { display: (path: string) => string; command: string; root: string },
): string {
  const where = declaration
    ? `its declaration at ${about.display(declaration.path)}:${declaration.position.line + 1}:${declaration.position.character + 1} (${declaration.lineText.trim()})`
    : "its declaration";
  const then = declaration
    ? `call lsp_rename with file '${about.display(declaration.path)}', line ${declaration.position.line + 1}, symbol '${oldName}'`
    : `call lsp_rename on the line that declares '${oldName}'`;
  return `renaming '${oldName}' from here would rename only its import and uses in this package, not ${where}, which ${about.command} (root ${about.root}) does not rename from here (another project, such as a package this one references); its module would then export no '${newName}', whatever the new name. Rename it where it is declared: ${then}; nothing was written.`;
}
