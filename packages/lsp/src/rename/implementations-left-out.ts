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

/** Most declarations a refusal names. */
const shownAtMost = 10;

/**
 * A declaration tied to the renamed one (through an interface, or by overriding) that the
 * server's edit leaves alone.
 */
export interface LeftOutImplementation {
  readonly path: string;
  /** 0-based. */
  readonly position: Position;
  readonly lineText: string;
  /** Why it must be renamed with it, said after it in a refusal (`overrides Base.describe`). */
  readonly reason?: string;
}

/**
 * The declarations `textDocument/implementation` ties to the symbol renamed at `at` of `uri`
 * (the methods implementing an interface method; with gopls, asked at a concrete method, the
 * interface methods it implements) that read the old name and that the server's edit does not
 * rename: gopls renames an interface method and its uses, not the methods of the types
 * implementing it, which then no longer implement it, whatever the new name. Asked of the texts
 * as on disk (the clash check has set them back). Empty when the server offers no implementation,
 * or on any failure within `timeoutMs`.
 */
export async function implementationsLeftOut(
  client: LanguageClient,
  supervisor: LspSupervisor,
  edit: WorkspaceEdit,
  uri: string,
  at: Position,
  oldName: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<LeftOutImplementation[]> {
  if (!client.capabilities.implementationProvider) return [];
  const deadline = Date.now() + timeoutMs;
  const ask = async (askedUri: string, position: Position) => {
    const answer = await client
      .request<Location | Location[] | LocationLink[] | null>(
        "textDocument/implementation",
        { textDocument: { uri: askedUri }, position },
        Math.max(1, deadline - Date.now()),
        signal,
      )
      .catch(() => null);
    return answerLocations(answer).map(({ uri: found, range }) => ({ uri: found, start: range.start }));
  };
  const renames = editRenames(edit, supervisor);
  const left: LeftOutImplementation[] = [];
  const seen = new Set<string>();
  const take = (
    locations: ReadonlyArray<{ uri: string; start: Position }>,
  ): Array<LeftOutImplementation & { uri: string }> => {
    const taken: Array<LeftOutImplementation & { uri: string }> = [];
    for (const location of locations) {
      if (!location.uri.startsWith("file:")) continue;
      const path = supervisor.pathOf(location.uri);
      const key = `${path}:${location.start.line}:${location.start.character}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const lines = supervisor.texts.tryRead(path)?.lines() ?? [];
      const lineText = lines[location.start.line] ?? "";
      // Only a declaration of the old name (not a type the server lists, such as gopls's answer
      // at an interface type) that no edit renames.
      if (!lineText.startsWith(oldName, location.start.character)) continue;
      if (renames(path, location.start)) continue;
      // An interface's method is said with its interface: the one the type would stop implementing.
      const owner = enclosingInterface(lines, location.start.line);
      taken.push({
        uri: location.uri,
        path,
        position: location.start,
        lineText,
        ...(owner ? { reason: `method of interface ${owner}` } : {}),
      });
    }
    return taken;
  };
  const first = take(await ask(uri, at));
  left.push(...first.map(({ uri: _, ...item }) => item));
  // A method left out may implement another interface's method too (Circle.Area implements
  // Shape.Area and Sizer.Area): renamed with this one only, it would no longer match that one.
  for (const item of first) {
    if (Date.now() >= deadline || signal?.aborted) break;
    left.push(...take(await ask(item.uri, item.position)).map(({ uri: _, ...each }) => each));
  }
  left.sort((a, b) => a.path.localeCompare(b.path) || a.position.line - b.position.line);
  return left;
}

/**
 * The name of the Go interface type whose body holds line `line` of `lines` (`type Shape
 * interface {`, or `Shape interface {` in a `type (…)` group), read upwards to the brace that
 * opens the block the line is in; undefined when that block is no interface's (a method with a
 * body). Braces in strings and comments are not told apart: only a label of the refusal.
 */
export function enclosingInterface(lines: readonly string[], line: number): string | undefined {
  let depth = 0;
  for (let index = line - 1; index >= 0 && index >= line - 500; index--) {
    const text = lines[index]!;
    for (let at = text.length - 1; at >= 0; at--) {
      if (text[at] === "}") depth++;
      else if (text[at] === "{" && depth-- === 0) {
        return /^\s*(?:type\s+)?([\p{L}_][\p{L}\p{N}_]*)(?:\[[^\]]*\])?\s+interface\s*$/u.exec(
          text.slice(0, at),
        )?.[1];
      }
    }
  }
  return undefined;
}

/**
 * Whether the edit rewrites the text at `position` of `path` (a name starting there is renamed
 * by it); edits of non-file documents are not counted.
 */
export function editRenames(
  edit: WorkspaceEdit,
  supervisor: Pick<LspSupervisor, "pathOf">,
): (path: string, position: Position) => boolean {
  const byPath = new Map<string, TextEdit[]>();
  for (const [uri, list] of textEditsByUri(edit) ?? new Map<string, TextEdit[]>()) {
    if (!uri.startsWith("file:")) continue;
    const path = supervisor.pathOf(uri);
    byPath.set(path, [...(byPath.get(path) ?? []), ...list]);
  }
  return (path, position) =>
    (byPath.get(path) ?? []).some(
      (change) => before(change.range.start, position) && before(position, change.range.end),
    );
}

/** `a` is at or before `b`. */
function before(a: Position, b: Position): boolean {
  return a.line < b.line || (a.line === b.line && a.character <= b.character);
}

/**
 * Whether an error line says the new name clashes with one already there (Go's type checker:
 * `[AmbiguousSelector]`, a duplicate declaration, method or field): an error another name could
 * avoid, unlike those of declarations left out (a type no longer implementing an interface).
 */
export function namesClash(error: string): boolean {
  // Only the error's own words: not its file's path before them, nor the line of code shown
  // after them (` — the line: …`), whose comments and strings are the user's.
  const said = error.replace(/^.*?:\d+:\d+ /, "").replace(/ — the line(?: would read)?: .*$/, "");
  return (
    /\[(?:AmbiguousSelector|DuplicateDecl|DuplicateMethod|DuplicateFieldAndMethod)\]/.test(said) ||
    /\bambiguous selector\b|\bredeclared\b|\balready declared\b|\bduplicate (?:method|field)\b|\bfield and method with the same name\b/i.test(
      said,
    )
  );
}

/**
 * The refusal's text when the edit leaves out declarations tied to the renamed one through an
 * interface and the probe found the errors that follow: another name would fail the same way,
 * so it names the declarations to rename with it by hand. When some errors are the new name's
 * own clashes (see {@link namesClash}), it says so and lists them apart: another name could
 * avoid those, not the others.
 */
export function implementationsLeftOutMessage(
  oldName: string,
  newName: string,
  left: readonly LeftOutImplementation[],
  errors: readonly string[],
  about: { display: (path: string) => string; command: string },
): string {
  const listed = leftOutLines(left, about.display);
  const shown = (list: readonly string[]): string[] => {
    const lines = list.slice(0, 3).map((error) => `- ${error}`);
    if (list.length > 3) lines.push(`- … and ${list.length - 3} more`);
    return lines;
  };
  const count = left.length === 1 ? "1 declaration" : `${left.length} declarations`;
  const tied = `${about.command}'s edit renames '${oldName}' here and its uses, but not the ${count} tied to it through an interface (implementations of it, or the interface method it implements), which would then no longer match`;
  const clashing = errors.filter(namesClash);
  if (clashing.length === 0) {
    return [
      `renaming '${oldName}' to '${newName}' would break the code whatever the new name (this is no name clash): ${tied} (checked on the server in memory; nothing was written):`,
      ...listed,
      `The errors the edit would bring:`,
      ...shown(errors),
      renameTogether(oldName, newName),
    ].join("\n");
  }
  const rest = errors.filter((error) => !namesClash(error));
  const clashes = clashing.length === 1 ? "1 error" : `${clashing.length} errors`;
  return [
    `renaming '${oldName}' to '${newName}' would break the code: ${tied}, whatever the new name; and '${newName}' also clashes with a name already there (${clashes}, which another name could avoid) (checked on the server in memory; nothing was written):`,
    ...listed,
    ...(rest.length > 0
      ? [`The errors the declarations left out would bring, whatever the new name:`, ...shown(rest)]
      : []),
    `The errors of '${newName}' clashing with a name already there:`,
    ...shown(clashing),
    `Pick another name, one not declared in or visible from those places, and rename '${oldName}' to it at each of these declarations and at this one together with edit (or apply_patch); lsp references on each lists its uses.`,
  ].join("\n");
}

/**
 * A refusal's list of declarations left out, one a line (`- path:line:column (text)`, then
 * `: reason` when it has one), at most {@link shownAtMost} and how many more.
 */
export function leftOutLines(
  left: readonly LeftOutImplementation[],
  display: (path: string) => string,
): string[] {
  const where = (item: LeftOutImplementation): string =>
    `- ${display(item.path)}:${item.position.line + 1}:${item.position.character + 1} (${item.lineText.trim()})${item.reason ? `: ${item.reason}` : ""}`;
  const listed = left.slice(0, shownAtMost).map(where);
  if (left.length > shownAtMost) listed.push(`- … and ${left.length - shownAtMost} more`);
  return listed;
}

/** A refusal's last line: what to do when the server's rename cannot rename them all. */
export function renameTogether(oldName: string, newName: string): string {
  return `Rename '${oldName}' to '${newName}' at each of these declarations and at this one together with edit (or apply_patch); lsp references on each lists its uses.`;
}
