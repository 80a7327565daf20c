import {
  SymbolKind,
  type DocumentSymbol,
  type Location,
  type LocationLink,
  type Position,
  type Range,
  type SymbolInformation,
} from "vscode-languageserver-protocol";
import type { LanguageClient } from "../client/language-client.js";
import { answerLocations } from "../positions/answer-locations.js";
import type { LspSupervisor } from "../supervisor/supervisor.js";
import { baseNamePositions } from "./python-class-bases.js";

/** A class as its server's document symbols tell it. */
export interface PythonClass {
  /** `path:line:character` of its name. */
  readonly key: string;
  readonly path: string;
  readonly uri: string;
  readonly name: string;
  /** Its name. */
  readonly selection: Range;
  /** What its body declares (methods, class variables), not what nested classes do. */
  readonly members: readonly DocumentSymbol[];
  /** A class of a file that is not the project's (a library's, a stub's). */
  readonly library: boolean;
}

/** What a {@link PythonClasses} asks of the server, and within what. */
export interface PythonClassesOptions {
  /** Epoch ms by which every request has been answered; none is sent after it. */
  readonly deadline: number;
  /** Most classes whose bases or subclasses are asked. */
  readonly maxClasses: number;
  /**
   * Whether a file is the project's: a class elsewhere (a library's) is a base this tells, but
   * its subclasses are not looked for.
   */
  readonly inside: (path: string) => boolean;
  readonly signal?: AbortSignal;
}

/** One class found with the symbol it came from. */
interface Found {
  readonly cls: PythonClass;
  readonly bases: readonly Position[];
}

/**
 * The inheritance between a Python project's classes, as a server without a type hierarchy
 * (pyright) tells it: the bases of a class from the definitions of the names in its header, its
 * subclasses from the references to it that sit in another class's header (following an
 * `import … as` alias or a name bound to it, `B = Base`, once). The bases of a project class
 * may be a library's classes; a library class's subclasses are not looked for. Asked lazily and remembered; bounded by the options, past which it
 * answers nothing more and says why in {@link stopped}. Asked of the texts as on disk.
 */
export class PythonClasses {
  /** Why the look stopped short (the time or the class bound), or undefined. */
  stopped: string | undefined;
  private readonly files = new Map<string, Promise<Found[]>>();
  private readonly visited = new Set<string>();
  private readonly baseCache = new Map<string, Promise<PythonClass[]>>();
  private readonly subclassCache = new Map<string, Promise<PythonClass[]>>();

  constructor(
    private readonly client: LanguageClient,
    private readonly supervisor: LspSupervisor,
    private readonly options: PythonClassesOptions,
  ) {}

  /** The class whose body directly declares the symbol named at `position` of `uri`, with it. */
  async memberAt(
    uri: string,
    position: Position,
  ): Promise<{ cls: PythonClass; member: DocumentSymbol } | undefined> {
    for (const { cls } of await this.classesIn(uri)) {
      if (cls.library) continue;
      const member = cls.members.find((symbol) => contains(symbol.selectionRange, position));
      if (member) return { cls, member };
    }
    return undefined;
  }

  /** The classes named in the header of `cls`, a library's too. */
  basesOf(cls: PythonClass): Promise<PythonClass[]> {
    let found = this.baseCache.get(cls.key);
    if (!found) {
      found = this.visit(cls) ? this.findBases(cls) : Promise.resolve([]);
      this.baseCache.set(cls.key, found);
    }
    return found;
  }

  /** The classes naming `cls` in their header, in any file of the project; none of a library class. */
  subclassesOf(cls: PythonClass): Promise<PythonClass[]> {
    if (cls.library) return Promise.resolve([]);
    let found = this.subclassCache.get(cls.key);
    if (!found) {
      found = this.visit(cls) ? this.findSubclasses(cls) : Promise.resolve([]);
      this.subclassCache.set(cls.key, found);
    }
    return found;
  }

  /** Every class of the project `cls` inherits from, and the library classes it names, nearest first. */
  async ancestors(cls: PythonClass): Promise<PythonClass[]> {
    return this.closure(cls, (each) => (each.library ? Promise.resolve([]) : this.basesOf(each)));
  }

  /**
   * The nearest library class `cls` inherits a member `name` from (`threading.Thread` for `run`),
   * climbing through library classes that do not declare it; undefined when none does.
   */
  async libraryDeclaring(cls: PythonClass, name: string): Promise<PythonClass | undefined> {
    const seen = new Set<string>([cls.key]);
    const queue = [cls];
    for (let each = queue.shift(); each; each = queue.shift()) {
      for (const base of await this.basesOf(each)) {
        if (seen.has(base.key)) continue;
        seen.add(base.key);
        if (base.library && base.members.some((member) => member.name === name)) return base;
        queue.push(base);
      }
    }
    return undefined;
  }

  /** Every class inheriting from `cls`, nearest first. */
  async descendants(cls: PythonClass): Promise<PythonClass[]> {
    return this.closure(cls, (each) => this.subclassesOf(each));
  }

  private async closure(
    cls: PythonClass,
    next: (cls: PythonClass) => Promise<PythonClass[]>,
  ): Promise<PythonClass[]> {
    const seen = new Map<string, PythonClass>([[cls.key, cls]]);
    const queue = [cls];
    for (let each = queue.shift(); each; each = queue.shift()) {
      for (const found of await next(each)) {
        if (seen.has(found.key)) continue;
        seen.set(found.key, found);
        queue.push(found);
      }
    }
    seen.delete(cls.key);
    return [...seen.values()];
  }

  /** Whether one more class may be asked about; says why not once it may not. */
  private visit(cls: PythonClass): boolean {
    if (this.visited.has(cls.key)) return true;
    if (this.visited.size >= this.options.maxClasses) {
      this.stopped ??= `the bound of ${this.options.maxClasses} classes was reached`;
      return false;
    }
    this.visited.add(cls.key);
    return true;
  }

  private async findBases(cls: PythonClass): Promise<PythonClass[]> {
    const found: PythonClass[] = [];
    const own = (await this.classesIn(cls.uri)).find((each) => each.cls.key === cls.key);
    for (const at of own?.bases ?? []) {
      const answer = await this.request<Location | Location[] | LocationLink[]>("textDocument/definition", {
        textDocument: { uri: cls.uri },
        position: at,
      });
      for (const target of answerLocations(answer)) {
        const base = await this.classAt(target.uri, target.range.start, 3);
        if (base && base.key !== cls.key) found.push(base);
      }
    }
    return found;
  }

  private async findSubclasses(cls: PythonClass): Promise<PythonClass[]> {
    const found = new Map<string, PythonClass>();
    const references = await this.references(cls.uri, cls.selection.start);
    const aliases: Location[] = [];
    for (const reference of references) {
      const subclass = await this.headerNaming(reference);
      if (subclass) found.set(subclass.key, subclass);
      else {
        const alias = this.aliasAt(reference) ?? this.boundNameAt(reference);
        if (alias) aliases.push(alias);
      }
    }
    // `from pkg.base import Base as B`, `B = Base`: the references to Base do not list the uses of B.
    for (const alias of aliases) {
      for (const reference of await this.references(alias.uri, alias.range.start)) {
        const subclass = await this.headerNaming(reference);
        if (subclass) found.set(subclass.key, subclass);
      }
    }
    found.delete(cls.key);
    return [...found.values()];
  }

  /** The class whose header names a base at `reference`, or undefined. */
  private async headerNaming(reference: Location): Promise<PythonClass | undefined> {
    const start = reference.range.start;
    for (const { cls, bases } of await this.classesIn(reference.uri)) {
      if (bases.some((at) => at.line === start.line && at.character === start.character)) return cls;
    }
    return undefined;
  }

  /** Where `import … Name as Alias` names the alias, when the reference is such a Name. */
  private aliasAt(reference: Location): Location | undefined {
    if (!reference.uri.startsWith("file:")) return undefined;
    const path = this.supervisor.pathOf(reference.uri);
    const line = this.supervisor.texts.tryRead(path)?.lines()[reference.range.start.line] ?? "";
    // An import's line, or one line of a parenthesised `from … import (` list.
    if (
      !/^\s*(?:from|import)\s/u.test(line) &&
      !/^\s*[\p{ID_Continue}.]+\s+as\s+[\p{ID_Continue}]+\s*,?\s*(?:#.*)?$/u.test(line)
    )
      return undefined;
    const after = line.slice(reference.range.end.character);
    const alias = /^\s+as\s+([\p{ID_Start}_][\p{ID_Continue}]*)/u.exec(after);
    if (!alias) return undefined;
    const character = reference.range.end.character + alias[0].length - alias[1]!.length;
    const position = { line: reference.range.start.line, character };
    return { uri: reference.uri, range: { start: position, end: position } };
  }

  /** Where `B = Base` (or `B: TypeAlias = mod.Base`) names B, when the reference is such a Base. */
  private boundNameAt(reference: Location): Location | undefined {
    const line = this.lineAt(reference.uri, reference.range.start.line);
    const bound = boundName.exec(line.slice(0, reference.range.start.character));
    if (!bound || !/^\s*(?:#.*)?$/u.test(line.slice(reference.range.end.character))) return undefined;
    const position = { line: reference.range.start.line, character: bound[1]!.length };
    return { uri: reference.uri, range: { start: position, end: position } };
  }

  private lineAt(uri: string, line: number): string {
    if (!uri.startsWith("file:")) return "";
    return this.supervisor.texts.tryRead(this.supervisor.pathOf(uri))?.lines()[line] ?? "";
  }

  private async references(uri: string, position: Position): Promise<Location[]> {
    return answerLocations(
      await this.request<Location[]>("textDocument/references", {
        textDocument: { uri },
        position,
        context: { includeDeclaration: false },
      }),
    );
  }

  /**
   * The class named at `position` of `uri` (a definition's target); at a name bound to a class
   * (`B = Base`), the class it is bound to, following at most `hops` such names.
   */
  private async classAt(uri: string, position: Position, hops = 0): Promise<PythonClass | undefined> {
    const cls = (await this.classesIn(uri)).find((each) => contains(each.cls.selection, position))?.cls;
    if (cls || hops <= 0) return cls;
    const line = this.lineAt(uri, position.line);
    const bound = boundValue.exec(line);
    if (!bound || bound[1]!.length !== position.character) return undefined;
    const at = { line: position.line, character: bound[0].length - bound[2]!.length };
    const answer = await this.request<Location | Location[] | LocationLink[]>("textDocument/definition", {
      textDocument: { uri },
      position: at,
    });
    for (const target of answerLocations(answer)) {
      const found = await this.classAt(target.uri, target.range.start, hops - 1);
      if (found) return found;
    }
    return undefined;
  }

  /** The classes a file declares, nested ones too (a library's marked so). */
  private classesIn(uri: string): Promise<Found[]> {
    let found = this.files.get(uri);
    if (!found) {
      found = this.readClasses(uri);
      this.files.set(uri, found);
    }
    return found;
  }

  private async readClasses(uri: string): Promise<Found[]> {
    if (!uri.startsWith("file:")) return [];
    const path = this.supervisor.pathOf(uri);
    const library = !this.options.inside(path);
    const lines = this.supervisor.texts.tryRead(path)?.lines();
    if (!lines) return [];
    const symbols = await this.request<DocumentSymbol[] | SymbolInformation[]>(
      "textDocument/documentSymbol",
      {
        textDocument: { uri },
      },
    );
    const found: Found[] = [];
    const walk = (list: readonly (DocumentSymbol | SymbolInformation)[]): void => {
      for (const symbol of list) {
        if ("location" in symbol) continue;
        if (symbol.kind === SymbolKind.Class) {
          const at = symbol.selectionRange.start;
          found.push({
            cls: {
              key: `${path}:${at.line}:${at.character}`,
              path,
              uri,
              name: symbol.name,
              selection: symbol.selectionRange,
              members: symbol.children ?? [],
              library,
            },
            bases: baseNamePositions(lines, symbol.selectionRange.end),
          });
        }
        walk(symbol.children ?? []);
      }
    };
    walk(Array.isArray(symbols) ? symbols : []);
    return found;
  }

  /** A request within the deadline; null once it has passed, or on a failure. */
  private async request<R>(method: string, params: unknown): Promise<R | null> {
    const left = this.options.deadline - Date.now();
    if (left <= 0 || this.options.signal?.aborted) {
      this.stopped ??= "the time bound was reached";
      return null;
    }
    return this.client.request<R | null>(method, params, left, this.options.signal).catch(() => {
      if (Date.now() >= this.options.deadline) this.stopped ??= "the time bound was reached";
      return null;
    });
  }
}

const identifier = String.raw`[\p{ID_Start}_][\p{ID_Continue}]*`;
/** The start of a line binding a name to a (dotted) name: `B = `, `B: TypeAlias = mod.`. */
const boundName = new RegExp(
  String.raw`^(\s*)${identifier}\s*(?::[^=]*)?=\s*(?:${identifier}\s*\.\s*)*$`,
  "u",
);
/** A line binding a name to a (dotted) name, the last name captured: `B = mod.Base`. */
const boundValue = new RegExp(
  String.raw`^(\s*)${identifier}\s*(?::[^=]*)?=\s*(?:${identifier}\s*\.\s*)*(${identifier})(?=\s*(?:#.*)?$)`,
  "u",
);

/** Whether `position` lies in `range` (its end included). */
function contains(range: Range, position: Position): boolean {
  const after = (a: Position, b: Position): boolean =>
    a.line > b.line || (a.line === b.line && a.character >= b.character);
  return after(position, range.start) && after(range.end, position);
}
