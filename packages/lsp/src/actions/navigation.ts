import { boundList } from "@tools/registry";
import type {
  Hover,
  Location,
  LocationLink,
  MarkedString,
  MarkupContent,
} from "vscode-languageserver-protocol";
import { boundText, ToolsError } from "@tools/registry";
import {
  formatLocation,
  LineReader,
  presentLocations,
  sortedLocations,
  type PlainLocation,
} from "../format/locations.js";
import type { ActionContext, ActionInput } from "./action-context.js";
import { awaitAnalysed, reindexing } from "./analysed-documents.js";
import { endSearch, openForSearch, prepareSearch, reopenOutdated } from "./cross-file-search.js";
import { otherRootsNote } from "./other-roots.js";
import { requireCapability } from "./require-capability.js";
import { addressSymbol } from "./symbol-position.js";
import {
  resolvePosition,
  uniqueOneNameContext,
  type ResolvedPosition,
} from "../positions/resolve-position.js";
import { plainHoverText } from "../format/hover-text.js";

/** Actions that search across files. */
const acrossFiles = new Set(["references", "implementation"]);

/** Most references listed. */
export const referencesLimit = 50;

const methods = {
  definition: "textDocument/definition",
  type_definition: "textDocument/typeDefinition",
  implementation: "textDocument/implementation",
  references: "textDocument/references",
} as const;

const nouns = {
  definition: "definition",
  type_definition: "type definition",
  implementation: "implementation",
  references: "reference",
} as const;

/** definition, type_definition, implementation and references: locations with their line's text. */
export async function navigate(
  input: ActionInput & { action: keyof typeof methods },
  context: ActionContext,
): Promise<string> {
  const { client, uri, file, lines, position, code, resynced } = await addressSymbol(input, context);
  requireCapability(client, input.action);
  const paramsAt = (line: number, character: number) => ({
    textDocument: { uri },
    position: { line, character },
    ...(input.action === "references" ? { context: { includeDeclaration: true } } : {}),
  });
  const notes = position.note ? [position.note] : [];
  // On clangd, a definition in a file sent again came from its old text until it was analysed.
  const reindexed = reindexing(client, resynced);
  // Searches across files need the server to have seen them (see prepareSearch).
  const search = acrossFiles.has(input.action)
    ? await prepareSearch(client, uri, position.identifier, context, reindexed)
    : undefined;
  if (!search && reindexed.length > 0) {
    const late = await awaitAnalysed(client, reindexed, context.supervisor);
    if (late) notes.push(late);
  }
  const pathOf = (target: string) => context.supervisor.pathOf(target);
  /** The position asked at: the resolved one, or a nearby line's (see `outsideText`). */
  let at = position;
  const inText = (line: number, character: number) => code(line)[character] === " ";
  /** Set when a references answer was only the string literal asked at (see below). */
  let onlyItself = false;
  const askAt = async (character: number) => {
    let answer: Location | Location[] | LocationLink[] | null;
    try {
      answer = await client.request<Location | Location[] | LocationLink[] | null>(
        methods[input.action],
        paramsAt(at.line, character),
        undefined,
        context.signal,
      );
    } catch (error) {
      // gopls answers a position in a comment with an error: nothing found there.
      if (nothingHere(error) && inText(at.line, character)) return [];
      throw error;
    }
    const found = sortedLocations(answer, pathOf);
    // typescript-language-server answers references of a string literal with the literals of
    // the same text: the asked one alone is no use of the name its words spell.
    if (
      input.action === "references" &&
      found.length === 1 &&
      isAt(found[0]!, file, at.line, character) &&
      inText(at.line, character)
    ) {
      onlyItself = true;
      return [];
    }
    return found;
  };
  const noun = nouns[input.action];
  const none = (locations: PlainLocation[]) => locations.length === 0;
  let found: PlainLocation[];
  let character: number;
  /**
   * Asks at `first`, then, while the server finds nothing, at the nearby candidates ranked after
   * it (`next`, a few at most); `at` is left at the one answered (`first` when none is).
   */
  const askAtCandidates = async (first: ResolvedPosition) => {
    let firstAnswer: { answer: PlainLocation[]; character: number; note?: string } | undefined;
    for (const candidate of [first, ...(first.next ?? [])]) {
      at = candidate;
      const asked = await askAtOccurrences(
        candidate,
        lines[candidate.line]!,
        () => code(candidate.line),
        askAt,
        none,
        `no ${noun}`,
      );
      if (!none(asked.answer)) return { asked, used: candidate };
      firstAnswer ??= asked;
    }
    at = first;
    return { asked: firstAnswer!, used: first };
  };
  /** The note saying which nearby line was used, when a later candidate answered. */
  const triedFirst = (used: ResolvedPosition, first: ResolvedPosition) =>
    used === first || used.note === undefined
      ? undefined
      : `${used.note} (line ${first.line + 1}, tried first, has no ${noun})`;
  try {
    const first = await askAtCandidates(position);
    let asked = first.asked;
    const later = triedFirst(first.used, position);
    if (later) notes.splice(notes.indexOf(position.note!), 1, later);
    // Every occurrence on the asked line in a comment or a string, where the server found
    // nothing: the nearby lines are tried as for a name not on the line, and the one used is said.
    const moved = none(asked.answer)
      ? outsideText(position, lines, code, input, context.supervisor.display(file))
      : undefined;
    if (moved) {
      const again = await askAtCandidates(moved.position);
      if (none(again.asked.answer)) {
        at = position;
      } else {
        asked = again.asked;
        if (position.note) notes.splice(notes.indexOf(position.note), 1);
        const used = triedFirst(again.used, moved.position) ?? moved.note;
        notes.unshift(
          used.replace(
            `'${input.symbol}' is not on line ${input.line}`,
            `'${input.symbol}' is on line ${input.line} only in a comment or string, where the server found no ${noun}`,
          ),
        );
      }
    }
    ({ answer: found, character } = asked);
    if (asked.note) notes.push(asked.note);
  } finally {
    if (search) await endSearch(client, search);
  }
  // clangd answers from the symbols a file had when it was closed here: one changed since is
  // opened, analysed, and the question asked again (searches opened such files beforehand).
  if (!search && client.spec.indexScope === "open-files") {
    const outdated = [...new Set(found.map((location) => location.file))].filter((target) =>
      client.changedSinceClosed(target),
    );
    if (outdated.length > 0) {
      const reopened = await openForSearch(client, outdated, context);
      try {
        const late = await awaitAnalysed(client, reopened.opened, context.supervisor);
        if (late) notes.push(late);
        found = await askAt(character);
      } finally {
        await endSearch(client, reopened);
      }
    }
  }
  // One read per file answers both whether it is still there and its lines.
  const reader = new LineReader(context.supervisor.texts).prime(file, lines);
  const { present: locations, gone } = presentLocations(found, (target) => reader.exists(target));
  if (gone > 0) {
    notes.push(
      `${gone === 1 ? `1 ${noun}` : `${gone} ${noun}s`} in files that no longer exist left out (${client.spec.command}'s index is older than the disk)`,
    );
  }
  const display = (path: string) => context.supervisor.display(path);
  const header = [...notes, ...(search?.notes ?? [])].map((note) => `${note}\n`).join("");
  // A server sees only its own root: the packages of a monorepo importing this one are not searched.
  const elsewhere = acrossFiles.has(input.action)
    ? await otherRootsNote(context.supervisor, client, {
        name: at.identifier,
        listed: new Set(locations.map((location) => location.file)),
        signal: context.signal,
      })
    : "";
  const tail = elsewhere ? `\n${elsewhere}` : "";
  if (locations.length === 0) {
    const itself = onlyItself
      ? `; the server listed only the string literal asked at, which is no use of it`
      : "";
    return `${header}no ${noun} found for '${input.symbol}' at ${display(file)}:${position.line + 1}:${position.character + 1}${itself}${tail}`;
  }
  const limit = input.action === "references" ? referencesLimit : 50;
  // gopls answers both ways: for a concrete type or method, with the interfaces it implements.
  const implemented =
    input.action === "implementation" && client.spec.language === "go"
      ? await implementedInterfaces(locations, reader, at.identifier, async () =>
          sortedLocations(
            await client.request<Location | Location[] | LocationLink[] | null>(
              methods.definition,
              paramsAt(at.line, character),
              undefined,
              context.signal,
            ),
            pathOf,
          ),
        ).catch(() => undefined)
      : undefined;
  const plural = (what: string) => (locations.length === 1 ? `1 ${what}` : `${locations.length} ${what}s`);
  const { items, note } = boundList(locations, limit, `${implemented ?? noun}s`);
  const rows = items.map((location) => formatLocation(location, display, reader));
  const title = implemented
    ? `${plural(implemented)} '${input.symbol}' implements`
    : `${plural(noun)} of '${input.symbol}'`;
  return `${header}${title}:\n${rows.join("\n")}${note ? `\n${note}` : ""}${tail}`;
}

/**
 * For gopls's implementation answer: "interface" when the asked name is declared as a concrete
 * (non-interface) type and every location is an interface's declaration, "interface method" when
 * it is a concrete method and none is a method with a body; undefined otherwise (the answer is
 * the implementations). `definition` asks where the name is declared.
 */
async function implementedInterfaces(
  locations: readonly PlainLocation[],
  reader: LineReader,
  identifier: string,
  definition: () => Promise<PlainLocation[]>,
): Promise<"interface" | "interface method" | undefined> {
  if (locations.length === 0) return undefined;
  const texts = locations.map((location) => reader.line(location.file, location.range.start.line));
  const allInterfaces = texts.every((text) =>
    /^(?:type\s+)?[\p{L}_][\p{L}\p{N}_]*(?:\[[^\]]*\])?\s+interface\b/u.test(text),
  );
  const noBodies = texts.every((text) => !/^func\b/.test(text));
  if (!allInterfaces && !noBodies) return undefined;
  const declared = (await definition())[0];
  if (!declared) return undefined;
  const text = reader.line(declared.file, declared.range.start.line);
  const name = identifier.replace(/[$]/g, "\\$&");
  if (
    allInterfaces &&
    new RegExp(`^(?:type\\s+)?${name}(?:\\[[^\\]]*\\])?\\s+(?!interface\\b)[\\p{L}*\\[]`, "u").test(text)
  ) {
    return "interface";
  }
  if (noBodies && new RegExp(`^func\\s*\\([^)]*\\)\\s*${name}\\b`, "u").test(text)) return "interface method";
  return undefined;
}

/**
 * Whether a request failed with a server's "nothing at this position" (gopls: "no identifier
 * found", "no object found for …", "no expression found"), which on a comment or a string means
 * only that nothing is there.
 */
function nothingHere(error: unknown): boolean {
  if (!ToolsError.isInstance(error) || error.code !== "LSP_REQUEST_FAILED") return false;
  // The server's own message (ours wraps it: "gopls answered … with an error: …").
  const cause = error.cause;
  return cause instanceof Error && /^no (?:identifier|object|expression) found\b/.test(cause.message);
}

/** Whether `location` is in `file` on `line` and covers `character`. */
function isAt(location: PlainLocation, file: string, line: number, character: number): boolean {
  const { start, end } = location.range;
  return (
    location.file === file &&
    start.line === line &&
    start.character <= character &&
    (end.line > line || end.character >= character)
  );
}

/**
 * When the asked line was used and every occurrence of the name on it lies in a comment or a
 * string (`codeOf`, see `codeOnlyLines`): the position on the nearby lines, found as for a name not on the line
 * (`resolvePosition` given the line's code only), with its note; undefined when there is none.
 */
function outsideText(
  position: ResolvedPosition,
  lines: readonly string[],
  codeOf: (index: number) => string,
  input: ActionInput,
  display: string,
): { position: ResolvedPosition; note: string } | undefined {
  const asked = input.line! - 1;
  if (position.line !== asked) return undefined;
  const code = codeOf(asked);
  const columns = [position.character, ...(position.alternatives ?? [])];
  if (columns.some((column) => code[column] !== " ")) return undefined;
  try {
    const nearby = resolvePosition(
      lines.map((line, index) => (index === asked ? code : line)),
      input.line!,
      input.symbol!,
      display,
      { codeOf: (_line, index) => codeOf(index) },
    );
    if (nearby.line === asked || nearby.note === undefined) return undefined;
    return { position: nearby, note: nearby.note };
  } catch {
    return undefined;
  }
}

/**
 * Asks at the resolved position. When the name occurs again on its line and the first finds
 * nothing (a word in a string, a property of the same name), asks at each other occurrence in
 * turn. `note` says which occurrence the answer is for whenever there were several in code
 * (`codeOfLine`: the line with comments and strings blanked, read only then); `character` is
 * the column answered for.
 */
async function askAtOccurrences<T>(
  position: ResolvedPosition,
  lineText: string,
  codeOfLine: () => string,
  askAt: (character: number) => Promise<T>,
  isEmpty: (answer: T) => boolean,
  nothing: string,
): Promise<{ answer: T; character: number; note?: string }> {
  const first = await askAt(position.character);
  const others = position.alternatives ?? [];
  if (others.length === 0) return { answer: first, character: position.character };
  if (!isEmpty(first)) {
    // A word in a string or a comment is no other symbol to pick.
    const code = codeOfLine();
    const inCode = others.filter((column) => code[column] !== " ");
    if (inCode.length === 0) return { answer: first, character: position.character };
    const hint = uniqueOneNameContext(lineText, inCode[0]!, position.length);
    const example = hint === undefined ? "" : ` (e.g. '${hint}' for the one at column ${inCode[0]! + 1})`;
    return {
      answer: first,
      character: position.character,
      note: `'${position.identifier}' occurs ${inCode.length + 1} times on line ${position.line + 1}; answered for the one at column ${position.character + 1}; for another, give text around it as symbol${example}`,
    };
  }
  for (const column of others) {
    const answer = await askAt(column);
    if (!isEmpty(answer)) {
      return {
        answer,
        character: column,
        note: `the '${position.identifier}' at column ${position.character + 1} of line ${position.line + 1} has ${nothing}; answered for the one at column ${column + 1}`,
      };
    }
  }
  return { answer: first, character: position.character };
}

function markedText(content: MarkupContent | MarkedString | MarkedString[]): string {
  if (Array.isArray(content)) return content.map(markedText).join("\n\n");
  if (typeof content === "string") return content;
  if ("kind" in content) return content.value;
  return "```" + content.language + "\n" + content.value + "\n```";
}

function hoverText(answer: Hover | null, display: (path: string) => string): string {
  return answer ? plainHoverText(markedText(answer.contents), display).trim() : "";
}

/** hover: the server's signature and doc comment, bounded. */
export async function hover(input: ActionInput, context: ActionContext): Promise<string> {
  const { client, uri, file, lines, position, code, resynced } = await addressSymbol(input, context);
  requireCapability(client, "hover");
  const display = (path: string) => context.supervisor.display(path);
  // clangd takes a doc comment from its index: from the files sent again once analysed, and from
  // a closed file's text at its close unless opened again.
  const refreshed = await reopenOutdated(client, context);
  const notes = position.note ? [position.note, ...refreshed.notes] : [...refreshed.notes];
  let answer: Hover | null;
  try {
    const analysed = [...refreshed.opened, ...reindexing(client, resynced)];
    const late = analysed.length > 0 ? await awaitAnalysed(client, analysed, context.supervisor) : undefined;
    if (late) notes.push(late);
    const asked = await askAtOccurrences(
      position,
      lines[position.line]!,
      () => code(position.line),
      (character) =>
        client.request<Hover | null>(
          "textDocument/hover",
          { textDocument: { uri }, position: { line: position.line, character } },
          undefined,
          context.signal,
        ),
      (hover) => hoverText(hover, display) === "",
      "no hover information",
    );
    answer = asked.answer;
    if (asked.note) notes.push(asked.note);
  } finally {
    await endSearch(client, refreshed);
  }
  const header = notes.map((note) => `${note}\n`).join("");
  const text = hoverText(answer, display);
  if (text === "") {
    return `${header}no hover information for '${input.symbol}' at ${context.supervisor.display(file)}:${position.line + 1}`;
  }
  return header + boundText(text, { maxLines: 80, maxChars: 6000 }).text;
}
