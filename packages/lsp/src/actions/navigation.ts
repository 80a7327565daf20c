import { boundList } from "@tools/registry";
import type { Hover, Location, LocationLink } from "vscode-languageserver-protocol";
import {
  distinctPlaces,
  formatLocation,
  LineReader,
  presentLocations,
  sortedLocations,
  type PlainLocation,
} from "../format/locations.js";
import type { ActionContext, ActionInput } from "./action-context.js";
import { awaitAnalysed, reindexing } from "./analysed-documents.js";
import {
  endSearch,
  openForSearch,
  prepareSearch,
  reopenOutdated,
  searchOpenLimit,
} from "./cross-file-search.js";
import { otherRootsNote } from "./other-roots.js";
import { requireCapability } from "./require-capability.js";
import { addressSymbol } from "./symbol-position.js";
import { answeredName, type ResolvedPosition } from "../positions/resolve-position.js";
import { languageIdFor } from "../servers/server-table.js";
import { askNearby, nothingHere } from "./ask-nearby.js";
import { linkOf, throughLink } from "../files/canonical-path.js";
import { extname } from "node:path";
import { noNameAt, noNameAnswer } from "./no-name.js";
import { membersMayBeReserved } from "../rename/new-name.js";
import type { LanguageClient } from "../client/language-client.js";

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
  const notes: string[] = [];
  // tsserver is first made to read again the files changed on disk it reads (see
  // reopenOutdated): those of another package of a solution-style tsconfig cannot be opened on it
  // to ask again (below), and a definition named where it was before a `git checkout` there.
  if (client.spec.reloadChanged === "tsserver") notes.push(...(await reopenOutdated(client, context)).notes);
  // On clangd, a definition in a file sent again came from its old text until it was analysed.
  const reindexed = reindexing(client, resynced);
  // Searches across files need the server to have seen them (see prepareSearch).
  const search = acrossFiles.has(input.action)
    ? await prepareSearch(client, uri, position.identifier, context, reindexed)
    : undefined;
  if (!search && reindexed.length > 0) {
    const late = await awaitAnalysed(client, reindexed, context.supervisor, context.bound);
    if (late) notes.push(late);
  }
  // The file asked through a symlinked folder: a server answering with real paths (clangd)
  // is shown through the link too, as the file was asked.
  const link = linkOf(file);
  const pathOf = link
    ? (target: string) => throughLink(context.supervisor.pathOf(target), [link])
    : (target: string) => context.supervisor.pathOf(target);
  const inText = (line: number, character: number) => code(line)[character] === " ";
  const dialect = languageIdFor(client.spec, extname(file));
  /** A keyword or an operator at the position: no name (see `noNameAt`). */
  const noNameOf = (line: number, character: number) =>
    noNameAt(lines[line]!, code(line), character, client.spec.language, dialect);
  /** Set when a references answer was only the string literal asked at (see below). */
  let onlyItself = false;
  const askAt = async (line: number, character: number) => {
    let answer: Location | Location[] | LocationLink[] | null;
    context.bound?.waiting(`for ${client.spec.command} to answer ${methods[input.action]}`);
    try {
      answer = await client.request<Location | Location[] | LocationLink[] | null>(
        methods[input.action],
        paramsAt(line, character),
        undefined,
        context.signal,
      );
    } catch (error) {
      // gopls answers a position in a comment, or a keyword, with an error: nothing found there.
      if (nothingHere(error) && (inText(line, character) || noNameOf(line, character))) return [];
      throw error;
    }
    const found = sortedLocations(answer, pathOf);
    // typescript-language-server answers references of a string literal with the literals of
    // the same text: the asked one alone is no use of the name its words spell.
    if (
      input.action === "references" &&
      found.length === 1 &&
      isAt(found[0]!, file, line, character) &&
      inText(line, character)
    ) {
      onlyItself = true;
      return [];
    }
    return found;
  };
  const noun = nouns[input.action];
  let found: PlainLocation[];
  /** The position asked at: the resolved one, or a nearby line's. */
  let at: ResolvedPosition;
  let character: number;
  try {
    const asked = await askNearby({
      position,
      lines,
      code,
      input,
      display: context.supervisor.display(file),
      askAt,
      isEmpty: (locations) => locations.length === 0,
      noun,
    });
    ({ answer: found, at, character } = asked);
    if (asked.lead) notes.unshift(asked.lead);
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
        const late = await awaitAnalysed(client, reopened.opened, context.supervisor, context.bound);
        if (late) notes.push(late);
        found = await askAt(at.line, character);
      } finally {
        await endSearch(client, reopened);
      }
    }
  }
  // One read per file answers both whether it is still there and its lines.
  const reader = new LineReader(context.supervisor.texts).prime(file, lines);
  // tsserver reads a file not open here from disk when its own watch tells it of a change, which
  // can come after the question (right after a `git checkout`): its answer then names where the
  // definition (the uses) were. One whose range, read in the text on disk now, is not the name it
  // should be is asked again with its files opened (their text now), once. Only files this server
  // owns can be opened on it: one of another root (a sibling package) or of none (TypeScript's lib
  // files, a pnpm store) would start another server, or fail, and the question be asked twice for
  // nothing.
  if (client.spec.readsFromDisk === "files-not-open") {
    const exact = input.action === "definition" || input.action === "references";
    const suspect = (locations: readonly PlainLocation[]) =>
      locations.filter(
        (location) =>
          !client.isOpen(context.supervisor.uriOf(location.file)) &&
          reader.exists(location.file) &&
          !namesAt(reader, location, at.identifier, exact) &&
          context.supervisor.runningClientFor(location.file) === client,
      );
    const outdated = [...new Set(suspect(found).map((location) => location.file))];
    const reopened =
      outdated.length > 0
        ? await openForSearch(client, outdated.slice(0, searchOpenLimit), context)
        : undefined;
    if (reopened && reopened.opened.length > 0) {
      try {
        found = await askAt(at.line, character);
      } finally {
        await endSearch(client, reopened);
      }
      const past = found.filter((location) => reader.exists(location.file) && !withinText(reader, location));
      if (past.length > 0) {
        notes.push(
          `${client.spec.command} answered with ${past.length === 1 ? "a place" : `${past.length} places`} past the text on disk now (${past.map((location) => `${context.supervisor.display(location.file)}:${location.range.start.line + 1}`).join(", ")}): the file changed while it was asked; ask again`,
        );
      }
    }
  }
  const { present, gone } = presentLocations(found, (target) => reader.exists(target));
  // Each place once (a specifier `add as plus` is one place, not two), before the count and the bound.
  const locations = distinctPlaces(present, reader, client.spec.language);
  if (gone > 0) {
    notes.push(
      `${gone === 1 ? `1 ${noun}` : `${gone} ${noun}s`} in files that no longer exist left out (${client.spec.command}'s index is older than the disk)`,
    );
  }
  const display = (path: string) => context.supervisor.display(path);
  // A keyword or an operator asked about: where the server found nothing, that is the answer
  // (its mentions in other roots are no uses of a symbol); where it answered for the name the
  // keyword introduces (tsserver: `export function greet` gives greet's), that name is said.
  let noName = noNameOf(at.line, character);
  // A member named by a reserved word (`delete(key: string): void` in an interface, `default = 1`
  // in a class): a name, whatever the server found (none of a property's type definition, no
  // implementation of an interface's method), and searched for in other roots as any name.
  if (
    noName?.kind === "keyword" &&
    membersMayBeReserved(client.spec.language) &&
    (locations.length === 0 || answeredNameOf(locations, reader) === noName.word) &&
    (await namesMember(client, uri, at.line, character, noName.word, context.signal))
  )
    noName = undefined;
  if (noName && locations.length === 0) {
    const where = `${display(file)}:${at.line + 1}:${character + 1}`;
    return `${[...notes, ...(search?.notes ?? [])].map((note) => `${note}\n`).join("")}${noNameAnswer(noName, where)}`;
  }
  const answered = noName ? answeredNameOf(locations, reader) : undefined;
  const named = answered !== undefined && answered !== noName?.word ? answered : undefined;
  if (noName && named) {
    notes.push(
      `'${noName.word}' is ${noName.kind === "keyword" ? `a keyword of ${noName.language}` : "an operator"}, not a name; ${client.spec.command} answered for '${named}'`,
    );
  }
  const header = [...notes, ...(search?.notes ?? [])].map((note) => `${note}\n`).join("");
  // The name searched for elsewhere: none for a keyword's own occurrences.
  const searched = noName ? named : at.identifier;
  // A server sees only its own root: the packages of a monorepo importing this one are not searched.
  if (acrossFiles.has(input.action) && searched !== undefined)
    context.bound?.waiting(`for the look for '${searched}' in other roots`);
  const elsewhere =
    acrossFiles.has(input.action) && searched !== undefined
      ? await otherRootsNote(context.supervisor, client, {
          name: searched,
          listed: new Set(locations.map((location) => location.file)),
          signal: context.signal,
        })
      : "";
  const tail = elsewhere ? `\n${elsewhere}` : "";
  if (locations.length === 0) {
    const itself = onlyItself
      ? `; the server listed only the string literal asked at, which is no use of it`
      : "";
    return `${header}no ${noun} found for '${answeredName(input.symbol!, at)}' at ${display(file)}:${position.line + 1}:${position.character + 1}${itself}${tail}`;
  }
  const limit = input.action === "references" ? referencesLimit : 50;
  // gopls answers both ways: for a concrete type or method, with the interfaces it implements.
  const implemented =
    input.action === "implementation" && client.spec.language === "go"
      ? await implementedInterfaces(locations, reader, at.identifier, async () => {
          context.bound?.waiting(`for ${client.spec.command} to answer ${methods.definition}`);
          return sortedLocations(
            await client.request<Location | Location[] | LocationLink[] | null>(
              methods.definition,
              paramsAt(at.line, character),
              undefined,
              context.signal,
            ),
            pathOf,
          );
        }).catch(() => undefined)
      : undefined;
  const plural = (what: string) => (locations.length === 1 ? `1 ${what}` : `${locations.length} ${what}s`);
  const { items, note } = boundList(locations, limit, `${implemented ?? noun}s`);
  const rows = items.map((location) => formatLocation(location, display, reader));
  const name = named ?? answeredName(input.symbol!, at);
  const title = implemented ? `${plural(implemented)} '${name}' implements` : `${plural(noun)} of '${name}'`;
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
 * The one name every location's range reads in the text `reader` has of its file (the name a
 * server answered for), or undefined when they read different names, something else than a
 * name, or a range over several lines.
 */
function answeredNameOf(locations: readonly PlainLocation[], reader: LineReader): string | undefined {
  const names = new Set<string>();
  for (const location of locations) {
    const { start, end } = location.range;
    const text = reader.text(location.file, start.line);
    if (text === undefined || end.line !== start.line) return undefined;
    const named = text.slice(start.character, end.character).replace(/^#/, "");
    if (!wholeName.test(named)) return undefined;
    names.add(named);
  }
  return names.size === 1 ? [...names][0] : undefined;
}

/** How tsserver's hover starts for a member: `(method) Store.delete(`, `(property) default:`. */
const memberHover =
  /^\((?:method|property|enum member|getter|setter|accessor)\) (?:[^\s(:]*\.)?(#?[\p{ID_Continue}$\u200C\u200D]+)[?!]?[(:<=]/u;

/**
 * Whether `client`'s hover at `line`/`character` tells of a member named `word` (tsserver:
 * `(property) Store.default: number`): a reserved word there names a property or a method.
 * False when the server tells of something else or of nothing, or fails.
 */
async function namesMember(
  client: LanguageClient,
  uri: string,
  line: number,
  character: number,
  word: string,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  let answer: Hover | null;
  try {
    answer = await client.request<Hover | null>(
      "textDocument/hover",
      { textDocument: { uri }, position: { line, character } },
      undefined,
      signal,
    );
  } catch {
    return false;
  }
  const contents = answer?.contents;
  const text =
    contents === undefined
      ? ""
      : typeof contents === "string"
        ? contents
        : Array.isArray(contents)
          ? contents.map((part) => (typeof part === "string" ? part : part.value)).join("\n")
          : contents.value;
  const first = text
    .split("\n")
    .map((row) => row.trim())
    .find((row) => row !== "" && !row.startsWith("```"));
  return memberHover.exec(first ?? "")?.[1] === word;
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

/** A name: the range text a definition's location should cover. */
const wholeName = /^[\p{L}\p{Nl}_$][\p{L}\p{N}\p{Mn}\p{Mc}\p{Pc}_$]*$/u;

/**
 * Whether `location`'s range, read in the text `reader` has of its file, is `identifier`
 * (`exact`: a definition, a reference; a private name's `#` on either side aside), or else any
 * whole name (a type definition's, an implementation's). A range over several lines only has to
 * start inside the text.
 */
function namesAt(reader: LineReader, location: PlainLocation, identifier: string, exact: boolean): boolean {
  const { start, end } = location.range;
  const text = reader.text(location.file, start.line);
  if (text === undefined) return false;
  if (end.line !== start.line) return start.character <= text.length;
  const named = text.slice(start.character, end.character);
  if (named === identifier || named === `#${identifier}` || `#${named}` === identifier) return true;
  return (
    !exact &&
    wholeName.test(named) &&
    !wholeName.test(named + text.charAt(end.character)) &&
    !wholeName.test(text.charAt(start.character - 1) + named)
  );
}

/** Whether `location`'s start is inside the text `reader` has of its file. */
function withinText(reader: LineReader, location: PlainLocation): boolean {
  const text = reader.text(location.file, location.range.start.line);
  return text !== undefined && location.range.start.character <= text.length;
}
