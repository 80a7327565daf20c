import {
  SymbolKind,
  type DocumentSymbol,
  type Location,
  type LocationLink,
  type Position,
  type WorkspaceEdit,
} from "vscode-languageserver-protocol";
import type { LanguageClient } from "../client/language-client.js";
import { answerLocations } from "../positions/answer-locations.js";
import type { LspSupervisor } from "../supervisor/supervisor.js";
import {
  editRenames,
  leftOutLines,
  renameTogether,
  type LeftOutImplementation,
} from "./implementations-left-out.js";
import { PythonClasses, type PythonClass } from "./python-classes.js";

/** Longest the look for overrides takes as a whole, in ms. */
export const overridesLookMs = 10_000;

/** Most classes whose bases or subclasses the look asks about. */
export const overridesLookClasses = 40;

/** Symbol kinds of a member that is called (the rest are read: class variables, properties). */
const callable: ReadonlySet<SymbolKind> = new Set<SymbolKind>([
  SymbolKind.Method,
  SymbolKind.Function,
  SymbolKind.Constructor,
]);

/** What the rename is and where it was asked (the texts as on disk). */
export interface OverridesQuestion {
  readonly client: LanguageClient;
  readonly supervisor: LspSupervisor;
  readonly edit: WorkspaceEdit;
  readonly uri: string;
  readonly at: Position;
  readonly oldName: string;
  /** Whether a file is the project's: a class elsewhere (a library) is not looked at. */
  readonly inside: (path: string) => boolean;
  readonly timeoutMs?: number;
  readonly maxClasses?: number;
  readonly signal?: AbortSignal;
}

/** What {@link overridesLeftOut} found, and what it could not look at. */
export interface OverridesLeftOut {
  /** The renamed member's class, `Base.describe`, when it is a class member. */
  readonly renamed?: string;
  /** Whether the renamed member is a method (called) or another attribute (read), when known. */
  readonly memberKind?: "method" | "attribute";
  readonly left: readonly LeftOutImplementation[];
  /** Why the look stopped short, when it did. */
  readonly unchecked?: string;
  /**
   * The nearest library class (outside the project) the renamed member's class inherits a member
   * of the old name from, which the rename stops it overriding, and the module it is in.
   */
  readonly library?: { readonly cls: string; readonly module: string };
}

/** One member of the old name found in a class tied to the renamed one's. */
interface Linked {
  readonly cls: PythonClass;
  readonly member: DocumentSymbol;
  readonly reason?: string;
}

/**
 * The members of the old name, in the classes a renamed Python class member is inherited with,
 * that the server's edit leaves alone: pyright renames a method and the uses it resolves to it,
 * not the methods overriding it or the one it overrides, and offers no type hierarchy to find
 * them. Renamed alone, an override no longer overrides: calls through the base run the base's
 * method, silently. Two members are tied when their classes have a common subclass (one is
 * the other's ancestor, or a class inherits both), and ties are followed on.
 *
 * Only for pyright's language, a member of a class of the project, and not a private `__name`
 * (mangled per class, never overridden). Bounded by `timeoutMs` and `maxClasses` in all; where
 * the look stopped short, `unchecked` says so.
 */
export async function overridesLeftOut(question: OverridesQuestion): Promise<OverridesLeftOut> {
  const { client, supervisor, oldName } = question;
  if (client.spec.language !== "python") return { left: [] };
  if (oldName.startsWith("__") && !oldName.endsWith("__")) return { left: [] };
  const deadline = Date.now() + (question.timeoutMs ?? overridesLookMs);
  const classes = new PythonClasses(client, supervisor, {
    deadline,
    maxClasses: question.maxClasses ?? overridesLookClasses,
    inside: question.inside,
    signal: question.signal,
  });
  const renames = editRenames(question.edit, supervisor);
  // The declaration renamed: asked at a use (`item.describe()`), the one that use resolves to.
  const declaration = (await definitionsAt(question, question.uri, question.at, deadline)).find(
    (each) => each.uri.startsWith("file:") && renames(supervisor.pathOf(each.uri), each.range.start),
  );
  if (!declaration) return { left: [] };
  const start = await classes.memberAt(declaration.uri, declaration.range.start);
  if (!start || start.member.name !== oldName) return { left: [] };
  const linked = new Map<string, Linked>([[start.cls.key, { cls: start.cls, member: start.member }]]);
  const queue: PythonClass[] = [start.cls];
  const tie = (cls: PythonClass, reason: string): void => {
    if (linked.has(cls.key)) return;
    if (cls.library) return;
    const member = cls.members.find((symbol) => symbol.name === oldName);
    if (!member) return;
    linked.set(cls.key, { cls, member, reason });
    queue.push(cls);
  };
  for (let cls = queue.shift(); cls; cls = queue.shift()) {
    const label = `${cls.name}.${oldName}`;
    const descendants = await classes.descendants(cls);
    for (const below of descendants) tie(below, `overrides ${label}`);
    for (const above of await classes.ancestors(cls)) tie(above, `is overridden by ${label}`);
    // A class inheriting from this one and from another with the name (a diamond, a mixin)
    // runs one of the two: renaming one changes which.
    for (const below of descendants)
      for (const above of await classes.ancestors(below))
        tie(above, `is inherited together with ${label} by ${below.name}`);
  }
  const left: LeftOutImplementation[] = [];
  for (const { cls, member, reason } of linked.values()) {
    if (cls.key === start.cls.key || renames(cls.path, member.selectionRange.start)) continue;
    const lines = supervisor.texts.tryRead(cls.path)?.lines();
    for (const position of await declarationsOf(question, cls, member, deadline)) {
      if (renames(cls.path, position)) continue;
      const lineText = lines?.[position.line] ?? "";
      left.push({ path: cls.path, position, lineText, reason: `${cls.name}.${oldName} ${reason}` });
    }
  }
  // By file and line: the server's references come in no set order.
  left.sort((a, b) => a.path.localeCompare(b.path) || a.position.line - b.position.line);
  // A library's method it overrides (`Thread.run`): the library's own calls stop reaching it.
  const library = left.length === 0 ? await classes.libraryDeclaring(start.cls, oldName) : undefined;
  return {
    renamed: `${start.cls.name}.${oldName}`,
    memberKind: callable.has(start.member.kind) ? "method" : "attribute",
    left,
    ...(classes.stopped ? { unchecked: classes.stopped } : {}),
    ...(library ? { library: { cls: library.name, module: moduleOf(library.path) } } : {}),
  };
}

/**
 * The server's definitions of what is at `position` in `uri` (links as their targets' names), none
 * when it answers nothing or fails by `deadline`.
 */
async function definitionsAt(
  question: OverridesQuestion,
  uri: string,
  position: Position,
  deadline: number,
): Promise<Location[]> {
  const answer = await question.client
    .request<Location | Location[] | LocationLink[] | null>(
      "textDocument/definition",
      { textDocument: { uri }, position },
      Math.max(1, deadline - Date.now()),
      question.signal,
    )
    .catch(() => null);
  return answerLocations(answer);
}

/**
 * Where a class declares its member: every declaration of it (a property's getter and setter: the
 * document symbols list only the last), as the server's definition of the member tells them; the
 * symbol's own place when it tells none.
 */
async function declarationsOf(
  question: OverridesQuestion,
  cls: PythonClass,
  member: DocumentSymbol,
  deadline: number,
): Promise<Position[]> {
  const own = member.selectionRange.start;
  const found = (await definitionsAt(question, cls.uri, own, deadline))
    .filter((each) => each.uri === cls.uri)
    .map((each) => each.range.start);
  if (!found.some((each) => each.line === own.line && each.character === own.character)) found.push(own);
  return found.sort((a, b) => a.line - b.line || a.character - b.character);
}

/**
 * The refusal's text when the edit leaves out members it overrides or that override it: any
 * new name changes which method runs (no error says so), so it names them to rename together.
 */
export function overridesLeftOutMessage(
  oldName: string,
  newName: string,
  found: OverridesLeftOut,
  about: { display: (path: string) => string; command: string },
): string {
  const count = found.left.length === 1 ? "1 declaration" : `${found.left.length} declarations`;
  const effect =
    found.memberKind === "attribute"
      ? "reads would find another class's value"
      : "calls would run another class's method";
  return [
    `renaming '${oldName}' to '${newName}' would change what the code does whatever the new name (this is no name clash): ${about.command}'s edit renames ${found.renamed ?? `'${oldName}'`} and its uses, but not the ${count} of '${oldName}' in classes inherited with it, which would then no longer override it or be overridden by it: ${effect}, and no error would say so (nothing was written):`,
    ...leftOutLines(found.left, about.display),
    renameTogether(oldName, newName),
    ...(found.unchecked
      ? [
          `The look for them stopped short (${found.unchecked}): more of them may be left out; lsp references on a class lists its subclasses.`,
        ]
      : []),
  ].join("\n");
}

/** The note of a rename written when the look for overrides stopped short, or "". */
export function overridesUncheckedNote(oldName: string, found: OverridesLeftOut): string {
  if (!found.unchecked || !found.renamed) return "";
  return `(not fully checked for members '${oldName}' overriding ${found.renamed} or overridden by it in classes inherited with it: ${found.unchecked}; lsp references on the class lists its subclasses)`;
}

/**
 * The note of a rename written when the renamed member overrode a library class's (the library
 * calls it no more), or "".
 */
export function overridesLibraryNote(oldName: string, newName: string, found: OverridesLeftOut): string {
  if (!found.library || !found.renamed) return "";
  const { cls, module } = found.library;
  const renamedClass = found.renamed.slice(0, found.renamed.length - oldName.length - 1);
  return `(${found.renamed} overrides ${cls}.${oldName} of ${module}, outside the project: renamed, it no longer does, and what calls ${oldName} there (${module}'s own code too) runs ${cls}.${oldName}, not ${renamedClass}.${newName})`;
}

/**
 * The module a library file is (`threading` for typeshed's stdlib/threading.pyi, `pkg.sub` for
 * site-packages/pkg/sub/__init__.py), or its file name when it is in no known library folder.
 */
export function moduleOf(path: string): string {
  const parts = path.split(/[\\/]/u).filter((part) => part !== "");
  let from = -1;
  for (let index = parts.length - 2; index >= 0 && from < 0; index--) {
    const part = parts[index]!;
    if (part === "site-packages" || part === "dist-packages" || part === "stdlib") from = index + 1;
    // typeshed's third-party stubs: stubs/<distribution>/<package>/….
    else if (part === "stubs" && index + 2 < parts.length - 1) from = index + 2;
  }
  const module = parts.slice(from < 0 ? parts.length - 1 : from);
  module[module.length - 1] = module.at(-1)!.replace(/\.pyi?$/u, "");
  if (module.length > 1 && module.at(-1) === "__init__") module.pop();
  return module.join(".");
}
