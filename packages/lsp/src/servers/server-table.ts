import type { TextRule } from "../positions/text-view.js";

/** One language server the supervisor can start. */
export interface ServerSpec {
  /** Language id, also the `status` key: typescript, python, go, rust, c, dart. */
  readonly language: string;
  /** File extensions (with the dot) routed to this server. */
  readonly extensions: readonly string[];
  /** File names whose presence in a folder makes it a root: the nearest such folder is. */
  readonly markers: readonly string[];
  /**
   * Files that make a folder the root of a workspace spanning the projects below it (go.work,
   * a Cargo.toml with a `[workspace]` table, a tsconfig.json or jsconfig.json above packages
   * holding only a package.json), looked for before `markers`: the nearest folder
   * holding one (up to the working directory) is the root even when a `markers` folder is
   * nearer, so one server serves all the workspace's members. Each is normally also in
   * `markers`, which messages name.
   */
  readonly workspaceMarkers?: readonly WorkspaceMarker[];
  /** Executable name, looked up project-locally first, then on PATH. */
  readonly command: string;
  readonly args: readonly string[];
  /** LSP languageId per extension; default the language itself. */
  readonly languageIds?: Readonly<Record<string, string>>;
  /**
   * How a change gets a fresh diagnostics answer: `change` (default) sends didChange and waits
   * for a publish of that version (or the first after it); `reopen` closes and reopens the
   * document, for servers that publish nothing when a clean file stays clean.
   */
  readonly freshness?: "change" | "reopen";
  /**
   * `force-rebuild`: the server builds a document only for text unlike what it built last, and
   * publishes nothing otherwise (clangd); and a document closed while its open and a later
   * change are still queued can hang it (clangd 14: the close stops the document's preamble
   * thread before it takes the open's request, which must be built, and the change then waits
   * for it forever, holding one of the server's few build slots). So a document to be checked
   * again is never closed and reopened: it gets a didChange with clangd's `forceRebuild`
   * extension, as does any didChange of a text the server may have built last (one sent since
   * the publish of an earlier version). And a document is closed on the server only once it
   * published the document's last version (see `DocumentSync.close`).
   */
  readonly rebuild?: "force-rebuild";
  /**
   * `tsserver`: diagnostics are pulled from tsserver through typescript-language-server's
   * `typescript.tsserverRequest` command (its syntactic, semantic and suggestion diagnostics
   * requests, answered in order after the edit), when the server offers that command. The push
   * rule stays the fallback.
   */
  readonly pull?: "tsserver";
  /**
   * The `$/progress` work items in which the server computes diagnostics: all titles start with
   * `titlePrefix`; those matching `perEdit` come one per didOpen/didChange/didSave/didClose.
   * When set, diagnostics are fresh once all edits sent so far had their item end and none is
   * running (see `DocumentSync.awaitPublish`), or on a publish of the edit's version.
   */
  readonly diagnosticsWork?: {
    readonly titlePrefix: string;
    readonly perEdit: RegExp;
    /** The item of the first check of the whole workspace, after its load (see `publishesWorkspace`). */
    readonly workspaceLoad?: RegExp;
  };
  /**
   * After the first fresh publish, how long to wait for follow-up publishes of the same edit
   * (tsserver sends syntax, semantic and suggestion sets); default 150 (300 without versions).
   */
  readonly settleMs?: number;
  /**
   * `open-files`: the server's cross-file answers (references, implementation, rename) cover only
   * the documents open on it and what they include (clangd without a background index), so the
   * files mentioning the name are opened first (see `prepareSearch`).
   */
  readonly indexScope?: "open-files";
  /**
   * `open-for-search`: files created on disk after the server started are missed by its searches
   * until opened once (tsserver takes a new file into its project only a second after its
   * folder's last change; gopls loads a package found in a new folder only when one of its files
   * is opened), so before a search those that mention the name are opened (see `prepareSearch`).
   */
  readonly createdFiles?: "open-for-search";
  /**
   * `on-request`: the server computes a search (references, workspace symbols) from the text it
   * was sent when asked, so searches do not first wait for its analysis of the open documents
   * (tsserver builds its program for the request itself; its diagnostics are a separate, slower
   * pass). Unset: it searches only what it has analysed (pyright answers nothing for a file it
   * has not checked, clangd indexes an open file once its AST is built).
   */
  readonly searchReady?: "on-request";
  /**
   * Extensions of the files other files include (C and C++ headers). With `indexScope`
   * `open-files`, once one changed (sent, or on disk), each open document synced before is sent
   * again ahead of the next question: clangd answered references from the AST it had built
   * against the header's old text (a call renamed through the header was not found).
   */
  readonly includedExtensions?: readonly string[];
  /**
   * A checker the server runs after each didSave whose diagnostics come only by publish, while a
   * pull answers the server's own (rust-analyzer's flycheck: `cargo check`). Its runs are
   * followed through `$/progress` items whose token starts with `tokenPrefix`; a save after
   * which none begins within `startMs` was not checked. `name` is what answers call it.
   */
  readonly checkOnSave?: { readonly tokenPrefix: string; readonly startMs: number; readonly name: string };
  /**
   * The server checks the whole workspace and publishes the diagnostics of files not open too
   * (gopls, for every workspace package after its load and for those an edit affects, in the pass
   * the edit's `diagnosticsWork` item covers): those publishes are kept, and a write reports what
   * it broke in such files (see `diagnosticsOnWrite`).
   */
  readonly publishesWorkspace?: boolean;
  /**
   * Which files the server reads from disk on its own rather than when sent or told: those not
   * open on it (tsserver watches them), or the included ones, open or not (clangd 14 builds a
   * file with its headers as on disk; `--use-dirty-headers` came in clangd 15). After a write
   * to such a file, only its publishes from before the write tell what the other files had.
   */
  readonly readsFromDisk?: "files-not-open" | "included-files";
  /**
   * `tsserver`: before an answer the server takes from files not open on it as it last read them
   * (hover's signature and doc comment, workspace symbols), those the folder watch saw change
   * since are read again through tsserver's `reload` request (see `tsserverReload`), when the
   * server offers typescript-language-server's pass-through: tsserver's own watch can tell it of
   * a `git checkout` seconds after the question.
   */
  readonly reloadChanged?: "tsserver";
  /**
   * The names of the files that say which files the server's projects hold (tsserver: a
   * tsconfig.json or jsconfig.json, its `extends` too when so named): a change to one may change
   * that set. For tsserver, the configs its projects' file lists name count too, whatever their
   * names and wherever they are (a base `shared/base.json` outside the root; not one in a
   * node_modules folder, which is not watched): see `LanguageClient.noteProjectConfigs`.
   */
  readonly projectConfigs?: RegExp;
  /**
   * How the server sees a file's text (its line ends, a byte order mark): what is sent to it and
   * every position to and from it go through it (see `positions/text-view.ts`). Default: as the
   * user sees it (lines end at `\n` only, a byte order mark is a character).
   */
  readonly text?: TextRule;
  /** Milliseconds to wait for `initialize`; default 60 000. */
  readonly initializeTimeoutMs?: number;
}

/** A file that makes its folder a workspace root (see `ServerSpec.workspaceMarkers`). */
export interface WorkspaceMarker {
  /** File name in the folder. */
  readonly file: string;
  /**
   * When set, the file counts only when its text matches (read again whenever the file's size
   * or times change); without it, its presence is enough.
   */
  readonly contains?: RegExp;
}

/** The built-in servers. Override or extend through `LspSupervisorOptions.servers`. */
export const defaultServers: readonly ServerSpec[] = [
  {
    language: "typescript",
    extensions: [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"],
    markers: ["tsconfig.json", "jsconfig.json", "package.json"],
    // The nearest tsconfig.json or jsconfig.json owns the file for tsserver, also above a nearer
    // package.json (a monorepo whose one tsconfig includes "packages/*/src"): the server is
    // started there. tsserver looks for the config only up to the root it is given, so rooted at
    // the package it would put the file in a project of its own and search that package alone.
    // A package.json is the root only where no config is above it.
    workspaceMarkers: [{ file: "tsconfig.json" }, { file: "jsconfig.json" }],
    command: "typescript-language-server",
    args: ["--stdio"],
    // It offers no pull and publishes without a version, after a 300 ms delay, in phases, and
    // nothing when a clean file stays clean; tsserver's own synchronous diagnostics requests,
    // passed through, answer for exactly the text sent before them.
    pull: "tsserver",
    settleMs: 300,
    // tsserver's scanner ends lines at \r, \n, U+2028 and U+2029 and drops a byte order mark
    // read from disk (but keeps one sent in didOpen); typescript-language-server applies a
    // full-text didChange with LSP's line ends (no U+2028/U+2029), cutting tsserver's copy.
    text: { lineBreaks: ["\r", "\u2028", "\u2029"], bom: "stripped", changeUnsafe: /[\u2028\u2029]/ },
    readsFromDisk: "files-not-open",
    reloadChanged: "tsserver",
    projectConfigs: /^[jt]sconfig.*\.json$/i,
    createdFiles: "open-for-search",
    searchReady: "on-request",
    languageIds: {
      ".ts": "typescript",
      ".mts": "typescript",
      ".cts": "typescript",
      ".tsx": "typescriptreact",
      ".js": "javascript",
      ".mjs": "javascript",
      ".cjs": "javascript",
      ".jsx": "javascriptreact",
    },
  },
  {
    language: "python",
    extensions: [".py", ".pyi"],
    markers: ["pyproject.toml", "setup.py", "setup.cfg", "requirements.txt", "Pipfile", "pyrightconfig.json"],
    command: "pyright-langserver",
    args: ["--stdio"],
    // Its tokenizer ends a line at a lone \r too; a byte order mark is a character, open or not.
    text: { lineBreaks: ["\r"], bom: "counted" },
  },
  {
    language: "go",
    extensions: [".go"],
    markers: ["go.work", "go.mod"],
    // gopls runs once per go.work workspace. The nearest go.work wins, as for the go command; a
    // go.work nested in another is rare. Presence alone counts, so no text is read.
    workspaceMarkers: [{ file: "go.work" }],
    command: "gopls",
    args: [],
    createdFiles: "open-for-search",
    // gopls publishes nothing for a version whose diagnostics equal the last ones sent, and
    // around its workspace load answers without a version. With verboseWorkDoneProgress it
    // reports every diagnostics pass as progress, one "diagnosing <cause>" per edit notification
    // and per didChangeWatchedFiles (its regression tests count these to await diagnostics), and with
    // diagnosticsDelay 0 an edit gets one pass (parse, type check and analyses such as printf)
    // instead of two; see server-setup.ts.
    diagnosticsWork: {
      titlePrefix: "diagnosing",
      perEdit: /^diagnosing (opened files|changed files|saved files|close files|files changed on disk)$/,
      workspaceLoad: /^diagnosing initial workspace load$/,
    },
    settleMs: 0,
    publishesWorkspace: true,
  },
  {
    language: "rust",
    extensions: [".rs"],
    markers: ["Cargo.toml"],
    // rust-analyzer runs once per Cargo workspace: the nearest Cargo.toml with a `[workspace]`
    // (or `[workspace.<key>]`) table header. A crate is not matched against the `members` list,
    // and `workspace = "..."` (a member naming its root) is not a header.
    workspaceMarkers: [{ file: "Cargo.toml", contains: /^[ \t]*\[workspace(\.[\w-]+)*\][ \t]*(#.*)?$/m }],
    command: "rust-analyzer",
    args: [],
    // cargo check runs on every save (checkOnSave, on by default; 50 ms debounce) and its
    // diagnostics arrive only by publish, each the file's whole set; the pull answers
    // rust-analyzer's own diagnostics only.
    checkOnSave: { tokenPrefix: "rust-analyzer/flycheck/", startMs: 2_000, name: "cargo check" },
  },
  {
    language: "c",
    extensions: [".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh"],
    // clangd also looks for the compilation database in each ancestor's build/ (CMake's usual
    // `cmake -B build -DCMAKE_EXPORT_COMPILE_COMMANDS=ON`), as the C checker does.
    markers: ["compile_commands.json", "compile_flags.txt", ".clangd", "build/compile_commands.json"],
    command: "clangd",
    // No background index: it would write .cache/clangd into the project, and build every
    // translation unit at start. Cross-file questions open the files that mention the name.
    // `--log=error`: at its default (info) it writes two stderr lines per request; errors and a
    // crash's stack dump are what `status` shows as the reason.
    args: ["--background-index=false", "--log=error"],
    indexScope: "open-files",
    rebuild: "force-rebuild",
    includedExtensions: [".h", ".hh", ".hpp", ".hxx", ".inc"],
    readsFromDisk: "included-files",
    // clangd publishes once per version, so the matching version is the whole answer.
    settleMs: 0,
    // It reads the positions it is sent with "\n" line ends only, but answers (locations,
    // symbols, diagnostics) from clang's line table, where a lone "\r" ends a line too.
    text: { lineBreaks: ["\r"], sentLineBreaks: [], bom: "counted" },
    languageIds: { ".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".hpp": "cpp", ".hh": "cpp" },
  },
  {
    language: "dart",
    extensions: [".dart"],
    markers: ["pubspec.yaml"],
    command: "dart",
    args: ["language-server", "--protocol=lsp"],
    // The analyzer's LineInfo ends a line at a lone \r too.
    text: { lineBreaks: ["\r"], bom: "counted" },
  },
];

/** The spec serving a file's extension, if any. */
export function serverForExtension(
  servers: readonly ServerSpec[],
  extension: string,
): ServerSpec | undefined {
  const lower = extension.toLowerCase();
  return servers.find((spec) => spec.extensions.includes(lower));
}

/** The LSP languageId of a file for its server. */
export function languageIdFor(spec: ServerSpec, extension: string): string {
  return spec.languageIds?.[extension.toLowerCase()] ?? spec.language;
}
