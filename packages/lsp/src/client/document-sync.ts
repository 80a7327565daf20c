import { EventEmitter } from "node:events";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Diagnostic, PublishDiagnosticsParams } from "vscode-languageserver-protocol";
import { serverText } from "../positions/text-view.js";
import type { ServerSpec } from "../servers/server-table.js";
import { SaveChecks } from "./save-checks.js";

/** What document sync needs from the connection. */
export interface SyncChannel {
  notify(method: string, params: unknown): Promise<void>;
  request(method: string, params: unknown, timeoutMs: number): Promise<unknown>;
  /** False once the server crashed or was stopped: waits end early. */
  alive(): boolean;
}

/** Most documents not open whose latest publish is kept (see `DocumentSync.unopenedPublishes`). */
const unopenedKept = 20_000;

/**
 * Silence after which the diagnostics passes of earlier edits that never began count as lost
 * (gopls begins one within milliseconds of the edit; see `DocumentSync.reconcileWork`).
 */
export const lostBeginMs = 30_000;

/** Silence after which a work item that began and never ended counts as lost. */
export const lostEndMs = 600_000;

/**
 * Publishes received by any server of this process: a publish's mark, increasing across the
 * servers and their restarts, so a mark kept from a stopped server is older than any new one.
 */
let publishesReceived = 0;

/** One publish received for a document. */
interface Publish {
  readonly seq: number;
  readonly version: number | undefined;
  readonly diagnostics: Diagnostic[];
  /** performance.now() at arrival. */
  readonly at: number;
}

/** A text's length and hash: equal texts always have equal prints. */
export interface TextPrint {
  readonly length: number;
  readonly hash: number;
}

/** The print of `text` (FNV-1a over its UTF-16 code units). */
export function printOf(text: string): TextPrint {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return { length: text.length, hash: hash >>> 0 };
}

/** Whether two prints are alike (their texts equal, or a rare collision). */
export function samePrint(a: TextPrint, b: TextPrint): boolean {
  return a.length === b.length && a.hash === b.hash;
}

/** What the client holds for one open document. */
interface OpenDocument {
  readonly uri: string;
  readonly languageId: string;
  text: string;
  version: number;
  /** Publish sequence number at the moment this version was sent. */
  sentAtSeq: number;
  /** The last publish received for this document. */
  lastPublish?: Publish;
  /** Edit notifications sent to the server, counting this version's own. */
  editsSent: number;
  /** {@link DocumentSync.changes} when this document was last sent. */
  changesSeen: number;
  /** The index of this document's last didSave (see {@link SaveChecks}); 0 before any. */
  savedAs: number;
  /** {@link DocumentSync.includedChanges} when this document was last sent. */
  includedSeen: number;
  /**
   * With `spec.rebuild` `force-rebuild`: the prints of the texts sent from the version of the
   * last publish on (oldest first, at most {@link builtTextsKept}), one of which the server
   * built last. Prints, not texts: a document changed often while the server is busy would
   * hold as many copies of a large file.
   */
  sentTexts?: { version: number; print: TextPrint }[];
  /**
   * The latest version whose print a longer run of unanswered changes dropped: until a publish
   * of a later version, any text may be what the server built last, and every change is forced.
   */
  sentForgotten?: number;
}

/** Most text prints kept per document for `spec.rebuild` (see `OpenDocument.sentForgotten`). */
const builtTextsKept = 64;

/** Most changes of included files remembered by name (see `DocumentSync.includedChanged`). */
const includedKept = 1_000;

/**
 * A test of whether an open document's text (the document at `uri`) includes one of `changed`
 * (uris of files others include that changed), directly or through other files (see
 * `includeReach`).
 */
export type IncludeTest = (changed: readonly string[]) => Promise<(text: string, uri: string) => boolean>;

/** Whether `reaches` holds for the document at `uri` of `text`; true when it throws. */
function reachesSafely(reaches: (text: string, uri: string) => boolean, text: string, uri: string): boolean {
  try {
    return reaches(text, uri);
  } catch {
    return true;
  }
}

/** Where the checker run after a save stands for a document (see {@link DocumentSync.awaitCheck}). */
export interface CheckAnswer {
  /** The pushed diagnostics once `checked`; empty otherwise (an older run's would be stale). */
  readonly diagnostics: Diagnostic[];
  readonly state: "checked" | "pending" | "not-started" | "stopped";
}

/**
 * The documents open on one server: didOpen/didChange/didClose with versions, the publishes
 * received for each, and the push freshness rule ({@link DocumentSync.awaitPublish}).
 */
export class DocumentSync {
  private readonly spec: ServerSpec;
  private readonly channel: SyncChannel;
  private readonly documents = new Map<string, OpenDocument>();
  /** The last version of each document closed, so that its next open goes on from there. */
  private readonly closedVersions = new Map<string, number>();
  /** The print of the text each closed document had when closed (see {@link closedPrint}). */
  private readonly closedTexts = new Map<string, TextPrint>();
  /** The latest publish per document not open, for a server that publishes them (`spec.publishesWorkspace`). */
  private readonly unopened = new Map<string, Publish>();
  /** Set once a publish for a document not open was dropped past {@link unopenedKept}. */
  private unopenedDropped = false;
  /** How many times a file others include changed (see {@link refreshIncluders}). */
  private includedChanges = 0;
  /** The uri of each of the last {@link includedKept} such changes, the latest last. */
  private readonly includedChanged: string[] = [];
  /**
   * With `spec.rebuild` `force-rebuild`: documents closed here whose didClose waits for the
   * server's publish of this version, their last (see {@link close}).
   */
  private readonly closeAfterBuild = new Map<string, number>();
  /** Documents whose close is queued behind other work on them (see {@link inTurn}). */
  private readonly closing = new Map<string, number>();
  /** Emits "change" on every publish and state change. */
  readonly events = new EventEmitter();
  private publishSeq = 0;
  /** didOpen/didChange/didSave/didClose notifications sent. */
  private editsSent = 0;
  /** Text changes sent plus changes on disk the server was told of (or should re-read). */
  private changes = 0;
  /** The work queued per document (see {@link inTurn}). */
  private readonly turns = new Map<string, Promise<void>>();
  /** True once the server sent a publish with a version. */
  private versionedPublishes = false;
  /** Running diagnostics work items (`spec.diagnosticsWork`), token → counted per edit. */
  private readonly runningWork = new Map<string | number, boolean>();
  /** The token of the running first check of the whole workspace (`diagnosticsWork.workspaceLoad`). */
  private workspaceLoadToken: string | number | undefined;
  /** True once the first check of the whole workspace ended. */
  private workspaceChecked = false;
  /** Ended work items of the kind the server runs once per edit notification. */
  private editWorkEnded = 0;
  /** When (Date.now()) an edit was last sent or a diagnostics work item last began or ended. */
  private lastWorkAt = 0;
  /** The checker runs after saves, for a server that pushes their diagnostics (`spec.checkOnSave`). */
  private readonly checks: SaveChecks | undefined;

  constructor(spec: ServerSpec, channel: SyncChannel) {
    this.spec = spec;
    this.channel = channel;
    this.events.setMaxListeners(0);
    this.checks = spec.checkOnSave ? new SaveChecks(spec.checkOnSave) : undefined;
  }

  /**
   * The open document `uri` names, however the server encoded it: ours are Node file URLs, which
   * leave + ( ) , = ! ' & as they are, while clangd percent-encodes all but letters, digits and
   * -_.~/: (and gopls some of them) in what it sends back.
   */
  private find(uri: string): OpenDocument | undefined {
    return this.documents.get(uri) ?? this.documents.get(canonicalFileUri(uri));
  }

  /** The text the server has of each open document, as last sent, by uri. */
  syncedTexts(): Map<string, string> {
    return new Map([...this.documents].map(([uri, document]) => [uri, document.text]));
  }

  /** True when the document is open on this server. */
  isOpen(uri: string): boolean {
    return this.find(uri) !== undefined;
  }

  /**
   * The uris of the open documents that stay open, in the order they were opened: not those
   * whose close is on its way (a catch-up sending one its new text would open it again, held by
   * nothing and never closed; a write's check would look at it).
   */
  openUris(): string[] {
    const uris = [...this.documents.keys()];
    return this.closing.size === 0 ? uris : uris.filter((uri) => !this.closing.has(uri));
  }

  /** True when `uri` is open with exactly `text` (a sync without save would send nothing). */
  isSynced(uri: string, text: string): boolean {
    // A close already on its way is not synced: a sync now goes after it and opens it again.
    return !this.closing.has(uri) && this.find(uri)?.text === text;
  }

  /**
   * The fingerprint of the text `uri` had when it was closed; undefined when it is open or was
   * never open here. A server that keeps a closed file's symbols (clangd) answers from that text.
   */
  closedPrint(uri: string): TextPrint | undefined {
    return this.documents.has(uri) ? undefined : this.closedTexts.get(uri);
  }

  /** The documents closed here whose text at the close is kept ({@link closedPrint}). */
  closedUris(): IterableIterator<string> {
    return this.closedTexts.keys();
  }

  /** The synced version of an open document. */
  versionOf(uri: string): number | undefined {
    return this.find(uri)?.version;
  }

  /** The text the server has of the open document, as last sent; undefined when not open. */
  syncedText(uri: string): string | undefined {
    return this.find(uri)?.text;
  }

  /** When (performance.now()) the latest publish for a document arrived. */
  lastPublishAt(uri: string): number | undefined {
    return this.documents.get(uri)?.lastPublish?.at;
  }

  /** The diagnostics of the open document's latest publish; undefined when none came since it opened. */
  lastDiagnostics(uri: string): Diagnostic[] | undefined {
    return this.find(uri)?.lastPublish?.diagnostics;
  }

  /**
   * The diagnostics of the open document's latest publish when it answers the version sent (its
   * version, or without versions one that came after it) and arrived before `before`
   * (performance.now()); undefined otherwise.
   */
  answeredBefore(uri: string, before: number): Diagnostic[] | undefined {
    const document = this.find(uri);
    const last = document?.lastPublish;
    if (!document || !last || last.at >= before) return undefined;
    return answersSent(document, last) ? last.diagnostics : undefined;
  }

  /**
   * How many publishes came so far, a mark for {@link unopenedPublishes}; undefined until the
   * server's first check of the whole workspace ended (its publishes are no change of a file).
   */
  publishMark(): number | undefined {
    return this.workspaceChecked ? this.publishSeq : undefined;
  }

  /**
   * The latest publish of each document not open (`spec.publishesWorkspace`), with its mark
   * (see {@link publishMark}); a document never published for is clean as far as the server said.
   */
  unopenedPublishes(): { uri: string; diagnostics: Diagnostic[]; mark: number }[] {
    return [...this.unopened].map(([uri, publish]) => ({
      uri,
      diagnostics: publish.diagnostics,
      mark: publish.seq,
    }));
  }

  /**
   * The latest publish of each document, open here (since its open) or not open
   * (`spec.publishesWorkspace`), with its mark (see {@link publishMark}).
   */
  latestPublishes(): { uri: string; diagnostics: Diagnostic[]; mark: number }[] {
    const open = [...this.documents].flatMap(([uri, document]) =>
      document.lastPublish
        ? [{ uri, diagnostics: document.lastPublish.diagnostics, mark: document.lastPublish.seq }]
        : [],
    );
    return [...open, ...this.unopenedPublishes()];
  }

  /**
   * False once a publish for a document not open was dropped (more than 20 000 such documents):
   * a document missing from {@link unopenedPublishes} may then have had diagnostics.
   */
  unopenedComplete(): boolean {
    return !this.unopenedDropped;
  }

  /**
   * Makes the server's copy of `uri` equal `text`: didOpen the first time, didChange (full text)
   * with the next version when it differs (or close + reopen for `freshness: "reopen"` servers);
   * didSave when `save` is set. With `save` (a check of the file's diagnostics), an unchanged
   * document is sent again under the next version when other documents were edited after it.
   * Returns whether anything was sent.
   */
  sync(uri: string, languageId: string, text: string, save: boolean): Promise<boolean> {
    return this.inTurn(uri, () => this.syncNow(uri, languageId, text, save));
  }

  private async syncNow(uri: string, languageId: string, text: string, save: boolean): Promise<boolean> {
    const existing = this.documents.get(uri);
    let sent = false;
    if (!existing) {
      // Versions go on across a close: an answer (a late publish, an analysis seen) to the
      // closed document's version 1 is no answer to this open's text.
      const version = (this.closedVersions.get(uri) ?? 0) + 1;
      this.closedTexts.delete(uri);
      // Open, its publishes go to the document; the one kept from before would go stale.
      this.unopened.delete(uri);
      // Closed here, but its didClose still waits for the server's build (see close): the
      // server has it open, and gets its text as a change it must build (the text may be what
      // it built last: an open of it would be answered never).
      const stillOpen = this.closeAfterBuild.delete(uri);
      const document: OpenDocument = {
        uri,
        languageId,
        text,
        version: stillOpen ? version - 1 : version,
        sentAtSeq: this.publishSeq,
        editsSent: 0,
        changesSeen: 0,
        savedAs: 0,
        includedSeen: this.includedChanges,
      };
      this.documents.set(uri, document);
      if (stillOpen) {
        await this.change(document, true);
      } else {
        this.noteSent(document);
        await this.edit("textDocument/didOpen", {
          textDocument: { uri, languageId, version, text: this.sendable(text) },
        });
      }
      sent = true;
    } else if (existing.text !== text) {
      const unsafe = this.spec.text?.changeUnsafe;
      const changeCuts = unsafe !== undefined && (unsafe.test(existing.text) || unsafe.test(text));
      existing.text = text;
      // A change the other documents' diagnostics may depend on (an open, a save or a reopen
      // with the same text is none).
      this.changes += 1;
      if (this.isIncluded(uri)) this.noteIncluded(uri);
      if (this.spec.freshness === "reopen" || changeCuts) {
        // This server publishes no version and stays silent when a clean file stays clean, so a
        // change could go unanswered: close and reopen, which always yields a publish. Or its
        // handling of a full-text change counts this text's lines unlike the server itself
        // (`TextRule.changeUnsafe`), and would leave the server a corrupt copy.
        await this.reopen(existing);
      } else {
        // A text the server may have built last gets no build (nor publish) without the flag.
        await this.change(existing, this.mayBeBuilt(existing, text));
      }
      sent = true;
    } else if (save && this.changes > existing.changesSeen) {
      // Unchanged, but other documents were edited since this one was last synced, or files
      // changed on disk (a header, the package's other file): its last publish was computed
      // against their old text, and a server that answers per version (clangd) or per edit
      // (gopls) would hand it back as fresh. A didChange with the same text is no answer either:
      // clangd skips the rebuild of unchanged input and publishes nothing. Closing and reopening
      // (clangd: a forced change, see ServerSpec.rebuild) makes every server check it again,
      // against the others' text as it is now.
      await this.reopen(existing);
      sent = true;
    }
    const saving = this.documents.get(uri);
    // A checker run after saves (cargo check) covers a file only once it was saved through us.
    const neverSaved = save && this.checks !== undefined && saving?.savedAs === 0;
    if ((sent || neverSaved) && save) {
      // Counted before it is sent: a checker run the save starts begins after it.
      if (saving && this.checks) saving.savedAs = this.checks.saved();
      await this.edit("textDocument/didSave", { textDocument: { uri }, text });
      sent = true;
    }
    const document = this.documents.get(uri);
    if (sent && document) this.markSent(document);
    return sent;
  }

  /** Records that `document` was just sent, against the edits and changes made so far. */
  private markSent(document: OpenDocument): void {
    document.editsSent = this.editsSent;
    document.changesSeen = this.changes;
    document.includedSeen = this.includedChanges;
  }

  /**
   * Sends again (close and reopen, or a forced change, as {@link sync} does for diagnostics) each
   * open document last sent before a file others include changed (`spec.includedExtensions`), so
   * that the server builds it anew against that file's text now. With `includes`, only those
   * whose text includes a file changed since (directly or through others; see {@link IncludeTest}):
   * the others are counted as up to date, not sent. Returns the uris of those sent.
   */
  async refreshIncluders(includes?: IncludeTest): Promise<string[]> {
    const upTo = this.includedChanges;
    const stale = [...this.documents.values()].filter((document) => document.includedSeen < upTo);
    if (stale.length === 0) return [];
    const since = Math.min(...stale.map((document) => document.includedSeen));
    const changed = this.includedSince(since);
    // Which changed is known only for the last ones: the documents sent before them all go.
    // A test that fails (a file it reads, a bug) tells nothing: every document is sent again.
    const reaches = includes && changed ? await includes(changed).catch(() => undefined) : undefined;
    const sent: string[] = [];
    await Promise.all(
      stale.map(({ uri }) =>
        this.inTurn(uri, async () => {
          const document = this.documents.get(uri);
          if (!document || document.includedSeen >= this.includedChanges) return;
          // Another file changed since the test was made: sent, as without one.
          if (reaches && this.includedChanges === upTo && !reachesSafely(reaches, document.text, uri)) {
            document.includedSeen = upTo;
            return;
          }
          await this.reopen(document);
          this.markSent(document);
          sent.push(uri);
        }),
      ),
    );
    return sent.filter((uri) => this.documents.has(uri));
  }

  /** The uris of the included files changed after the count `since`; undefined when no longer known. */
  private includedSince(since: number): string[] | undefined {
    const known = this.includedChanged.length;
    if (this.includedChanges - since > known) return undefined;
    return [...new Set(this.includedChanged.slice(known - (this.includedChanges - since)))];
  }

  /** Counts a change of the included file `uri` (see {@link refreshIncluders}). */
  private noteIncluded(uri: string): void {
    this.includedChanges += 1;
    this.includedChanged.push(uri);
    if (this.includedChanged.length > includedKept) this.includedChanged.shift();
  }

  /** Whether other files include the file at `uri` (see `spec.includedExtensions`). */
  isIncluded(uri: string): boolean {
    const extensions = this.spec.includedExtensions;
    if (!extensions) return false;
    const dot = uri.lastIndexOf(".");
    return dot > uri.lastIndexOf("/") && extensions.includes(uri.slice(dot).toLowerCase());
  }

  /**
   * Counts the changes sent to the server that other documents' diagnostics may depend on (a
   * document's new text, files changed on disk told to it): a look at a document's diagnostics
   * taken at an equal count is still what the server would say.
   */
  changesMark(): number {
    return this.changes;
  }

  /**
   * Records that files changed on disk (told to the server, or read by it on its next build):
   * a document whose text did not change is checked again by its next diagnostics sync, and
   * one that includes a file of `included` (headers among them, as uris) sent again by
   * {@link refreshIncluders}.
   */
  noteChanges(included: readonly string[] = []): void {
    this.changes += 1;
    for (const uri of included) this.noteIncluded(uri);
  }

  /** Closes a document (after a rename moved or deleted it). */
  close(uri: string): Promise<void> {
    // Counted: with two closes queued, the first leaves the second still on its way.
    this.closing.set(uri, (this.closing.get(uri) ?? 0) + 1);
    return this.inTurn(uri, async () => {
      const left = (this.closing.get(uri) ?? 1) - 1;
      if (left > 0) this.closing.set(uri, left);
      else this.closing.delete(uri);
      const document = this.documents.get(uri);
      if (!document) return;
      this.documents.delete(uri);
      this.closedVersions.set(uri, document.version);
      this.closedTexts.set(uri, printOf(document.text));
      this.events.emit("change");
      // Not while its last change may still be queued on the server (see ServerSpec.rebuild):
      // its publish says it was taken (every version sent is published, or followed by one that
      // is). Until then the server keeps it open; the call closing it does not wait (the build
      // can take long under load, and a didClose sent at a bound could hang clangd for good).
      if (this.spec.rebuild === "force-rebuild" && (document.lastPublish?.version ?? -1) < document.version) {
        this.closeAfterBuild.set(uri, document.version);
        return;
      }
      await this.edit("textDocument/didClose", { textDocument: { uri } });
    });
  }

  /** Sends the didClose that waited for the publish of `version` (see {@link close}), unless opened again. */
  private closeBuilt(uri: string, version: number): void {
    void this.inTurn(uri, async () => {
      if (this.closeAfterBuild.get(uri) !== version) return;
      this.closeAfterBuild.delete(uri);
      await this.edit("textDocument/didClose", { textDocument: { uri } }).catch(() => undefined);
    });
  }

  /**
   * Runs `work` on `uri` after the work already queued on it: two calls syncing the same
   * document at once would otherwise both decide it needs a reopen, or interleave a close with
   * an open, and the server's copy and ours would part.
   */
  private inTurn<T>(uri: string, work: () => Promise<T>): Promise<T> {
    const before = this.turns.get(uri) ?? Promise.resolve();
    const turn = before.then(work, work);
    const settled = turn.then(
      () => undefined,
      () => undefined,
    );
    this.turns.set(uri, settled);
    void settled.then(() => {
      if (this.turns.get(uri) === settled) this.turns.delete(uri);
    });
    return turn;
  }

  /** Records a `textDocument/publishDiagnostics`. */
  onPublish(published: PublishDiagnosticsParams): void {
    // Stopping: a server clears its diagnostics as it shuts down, which is no answer.
    if (!this.channel.alive()) return;
    const versioned = published.version !== undefined && published.version !== null;
    this.versionedPublishes ||= versioned;
    const document = this.find(published.uri);
    // A server that versions its publishes sends one without a version for an open document
    // only to clear it after a close (clangd): arriving after the document was opened again, it
    // would pass for the answer to the new version. (gopls sends none for files not open.)
    if (!versioned && this.versionedPublishes && document) return;
    this.publishSeq = ++publishesReceived;
    const publish: Publish = {
      seq: this.publishSeq,
      version: published.version ?? undefined,
      diagnostics: published.diagnostics,
      at: performance.now(),
    };
    if (document) {
      document.lastPublish = publish;
      // The server builds in order: what it built last is this version's text or a later one.
      if (document.sentTexts && publish.version !== undefined) {
        const version = publish.version;
        document.sentTexts = document.sentTexts.filter((sent) => sent.version >= version);
        if (document.sentForgotten !== undefined && document.sentForgotten < version)
          document.sentForgotten = undefined;
      }
    } else if (
      this.closeAfterBuild.size > 0 &&
      published.version !== undefined &&
      published.version !== null
    ) {
      const closed = this.closeAfterBuild.has(published.uri)
        ? published.uri
        : canonicalFileUri(published.uri);
      const version = this.closeAfterBuild.get(closed);
      if (version !== undefined && published.version >= version) this.closeBuilt(closed, version);
    }
    if (!document && this.spec.publishesWorkspace) {
      // Most recent last, so that the oldest go first past the bound.
      this.unopened.delete(published.uri);
      this.unopened.set(published.uri, publish);
      if (this.unopened.size > unopenedKept) {
        this.unopened.delete(this.unopened.keys().next().value!);
        this.unopenedDropped = true;
      }
    }
    this.events.emit("change");
  }

  /** Records a `$/progress` notification: begin and end of the server's diagnostics work. */
  onProgress(token: string | number, value: { kind?: string; title?: string } | undefined): void {
    if (this.checks?.onProgress(token, value?.kind)) {
      this.events.emit("change");
      return;
    }
    const work = this.spec.diagnosticsWork;
    if (work === undefined) return;
    const title = value?.title ?? "";
    if (value?.kind === "begin" && title.startsWith(work.titlePrefix)) {
      this.lastWorkAt = Date.now();
      this.runningWork.set(token, work.perEdit.test(title));
      if (work.workspaceLoad?.test(title)) this.workspaceLoadToken = token;
    } else if (value?.kind === "end" && this.runningWork.has(token)) {
      this.lastWorkAt = Date.now();
      // Never more than the edits sent: an extra end would make a later edit's wait end before
      // its own pass.
      if (this.runningWork.get(token)) this.editWorkEnded = Math.min(this.editWorkEnded + 1, this.editsSent);
      if (token === this.workspaceLoadToken) this.workspaceChecked = true;
      this.runningWork.delete(token);
      this.events.emit("change");
    } else if (value?.kind === "end" && token === this.workspaceLoadToken && !this.workspaceChecked) {
      // The workspace's first check, counted as lost (see reconcileWork), ended after all.
      this.lastWorkAt = Date.now();
      this.workspaceChecked = true;
      this.events.emit("change");
    }
  }

  /**
   * Waits for the push answer to the document's current version: a publish of that version, or
   * — for servers that send none — the first publish after our edit, then a short settle for
   * follow-up publishes. Servers that report their diagnostics work as progress, one item per
   * edit notification (`spec.diagnosticsWork`: gopls), are done once as many such items have
   * ended as edits were sent up to ours and no diagnostics work is running — the way gopls's
   * own regression tests await diagnostics. Their last publish is then the answer, even when
   * they published nothing for our version because its diagnostics equal the last ones sent.
   * An empty publish is an answer. When `deadline` (Date.now()) passes first, `fresh` is false.
   * When `interrupt` turns true first (checked on every event: the client emits one when the
   * server registers a capability), the wait ends with `interrupted` set and `fresh` false.
   */
  async awaitPublish(
    uri: string,
    deadline: number,
    interrupt?: () => boolean,
  ): Promise<{ diagnostics: Diagnostic[]; fresh: boolean; interrupted?: true }> {
    const document = this.documents.get(uri);
    if (!document) throw new Error(`document ${uri} is not open`);
    const tracked = this.spec.diagnosticsWork !== undefined;
    const workDone = (): boolean => this.editWorkEnded >= document.editsSent && this.runningWork.size === 0;
    const isFresh = (): boolean => {
      const last = document.lastPublish;
      if (last?.version !== undefined && last.version === document.version) return true;
      if (tracked) return workDone();
      return last !== undefined && answersSent(document, last);
    };
    // Closed meanwhile (a search let go of it): no answer will come for it.
    const closed = (): boolean => this.documents.get(uri) !== document;
    const arrived = await this.waitFor(() => isFresh() || closed() || (interrupt?.() ?? false), deadline);
    if (closed()) return { diagnostics: document.lastPublish?.diagnostics ?? [], fresh: false };
    if (arrived && !isFresh())
      return { diagnostics: document.lastPublish?.diagnostics ?? [], fresh: false, interrupted: true };
    if (!arrived) return { diagnostics: document.lastPublish?.diagnostics ?? [], fresh: false };
    // Servers publish in phases (tsserver: syntax, semantics, suggestions).
    const settleMs = this.spec.settleMs ?? (document.lastPublish?.version === undefined ? 300 : 150);
    while (settleMs > 0) {
      const seq = document.lastPublish?.seq ?? 0;
      const more = await this.waitFor(
        () => (document.lastPublish?.seq ?? 0) > seq,
        Math.min(deadline, Date.now() + settleMs),
      );
      if (!more) break;
    }
    return { diagnostics: document.lastPublish?.diagnostics ?? [], fresh: true };
  }

  /**
   * For a server that reports its diagnostics work (`spec.diagnosticsWork`): waits until every
   * edit sent so far had its work item end and none is running, so that its publishes for other
   * files (a package importing the edited one) have come too; a publish of the edited document's
   * version can come before them. True at once for other servers; false at `deadline`.
   */
  awaitWorkDone(deadline: number): Promise<boolean> {
    if (this.spec.diagnosticsWork === undefined) return Promise.resolve(true);
    return this.waitFor(() => this.editWorkEnded >= this.editsSent && this.runningWork.size === 0, deadline);
  }

  /**
   * Waits until the checker run after the document's last save has ended (see
   * {@link SaveChecks}); its diagnostics are then the document's last publish (the run's
   * publishes come at its end, within the quiet time the check waits out). Ends early as
   * `not-started` when no run began after the save, as `stopped` when the server stopped or the
   * document was closed, and as `pending` at `deadline` (Date.now()).
   */
  async awaitCheck(uri: string, deadline: number): Promise<CheckAnswer> {
    const document = this.documents.get(uri);
    const checks = this.checks;
    if (!document || !checks) return { diagnostics: [], state: "not-started" };
    const index = document.savedAs;
    const gone = (): boolean => this.documents.get(uri) !== document || !this.channel.alive();
    const settled = (): boolean => gone() || checks.state(index) !== "pending";
    // Progress wakes the wait; the quiet and start bounds pass without an event.
    while (!settled() && Date.now() < deadline) {
      await this.waitFor(settled, Math.min(deadline, Date.now() + Math.max(checks.waitLeft(), 20)));
    }
    if (gone()) return { diagnostics: [], state: "stopped" };
    const state = checks.state(index);
    return { diagnostics: state === "checked" ? (document.lastPublish?.diagnostics ?? []) : [], state };
  }

  /**
   * didClose then didOpen with the next version. The fence (a request answered in order, after
   * didClose) keeps the publish the close may cause from counting as the reopen's answer. On a
   * server with `spec.rebuild` `force-rebuild`, a didChange of the same text that it must build
   * anew instead, with the next version (no close: see ServerSpec.rebuild).
   */
  private async reopen(document: OpenDocument): Promise<void> {
    const { uri, languageId, text } = document;
    if (this.spec.rebuild === "force-rebuild") {
      // Built anew in place: no close (see ServerSpec.rebuild).
      await this.change(document, true);
      return;
    }
    await this.edit("textDocument/didClose", { textDocument: { uri } });
    await this.channel.request("$/tools/fence", null, 5_000).catch(() => undefined);
    document.version += 1;
    document.sentAtSeq = this.publishSeq;
    document.lastPublish = undefined;
    await this.edit("textDocument/didOpen", {
      textDocument: { uri, languageId, version: document.version, text: this.sendable(text) },
    });
  }

  /**
   * didChange of the document's whole text under the next version; `rebuild` adds clangd's
   * extensions: built anew, and never skipped for a change that follows (a didSave re-adds the
   * document, which would drop the flag).
   */
  private async change(document: OpenDocument, rebuild: boolean): Promise<void> {
    document.version += 1;
    document.sentAtSeq = this.publishSeq;
    this.noteSent(document);
    await this.edit("textDocument/didChange", {
      textDocument: { uri: document.uri, version: document.version },
      contentChanges: [{ text: this.sendable(document.text) }],
      ...(rebuild ? { forceRebuild: true, wantDiagnostics: true } : {}),
    });
  }

  /** With `spec.rebuild`, records the document's text as sent under its current version. */
  private noteSent(document: OpenDocument): void {
    if (this.spec.rebuild !== "force-rebuild") return;
    const sent = document.sentTexts ?? [];
    sent.push({ version: document.version, print: printOf(document.text) });
    if (sent.length > builtTextsKept) document.sentForgotten = sent.shift()!.version;
    document.sentTexts = sent;
  }

  /**
   * With `spec.rebuild`: whether `text` may be what the server built last of `document` (a text
   * sent since its last publish, or one forgotten since); a rare equal print of another text
   * costs a build, never an answer.
   */
  private mayBeBuilt(document: OpenDocument, text: string): boolean {
    if (!document.sentTexts) return false;
    if (document.sentForgotten !== undefined) return true;
    const print = printOf(text);
    return document.sentTexts.some((sent) => samePrint(sent.print, print));
  }

  /** The text the server is sent for the file text `text` (see `TextRule`): as it reads it from disk. */
  private sendable(text: string): string {
    return this.spec.text ? serverText(text, this.spec.text) : text;
  }

  /** Sends an edit notification (didOpen, didChange, didSave, didClose), counting it. */
  private async edit(method: string, params: unknown): Promise<void> {
    this.reconcileWork();
    this.editsSent += 1;
    this.lastWorkAt = Date.now();
    await this.channel.notify(method, params);
  }

  /**
   * Counts as lost the work items that a long silence says will never come or end: the server
   * runs one per edit and ends each it began, but one lost (never seen) would hold every later
   * wait to its bound. After {@link lostBeginMs} with no edit and no item beginning or ending,
   * and none running (passes may wait behind the workspace's first check), the passes of earlier
   * edits that never began count as done; after {@link lostEndMs}, the items that began and
   * never ended are let go of too (the workspace's first check still counts when it ends late).
   * Checked as the next edit is sent.
   */
  private reconcileWork(): void {
    if (this.spec.diagnosticsWork === undefined) return;
    const quietMs = Date.now() - this.lastWorkAt;
    if (quietMs < lostBeginMs) return;
    if (quietMs >= lostEndMs) this.runningWork.clear();
    if (this.runningWork.size > 0) return;
    this.editWorkEnded = this.editsSent;
  }

  /**
   * Sends `workspace/didChangeWatchedFiles`: counted as an edit by a server that reports a
   * diagnostics pass for it too (gopls: "diagnosing files changed on disk"), so that
   * {@link awaitWorkDone} waits for the pass the changes cause.
   */
  async changedOnDisk(params: unknown): Promise<void> {
    if (
      this.spec.diagnosticsWork?.perEdit.test(
        `${this.spec.diagnosticsWork.titlePrefix} files changed on disk`,
      )
    ) {
      return this.edit("workspace/didChangeWatchedFiles", params);
    }
    await this.channel.notify("workspace/didChangeWatchedFiles", params);
  }

  private waitFor(condition: () => boolean, deadline: number): Promise<boolean> {
    if (condition()) return Promise.resolve(true);
    // Crashed or stopped before the wait began (a pull failed on it): nothing will come.
    if (!this.channel.alive()) return Promise.resolve(false);
    return new Promise((resolve) => {
      const check = (): void => {
        if (condition()) finish(true);
        else if (!this.channel.alive()) finish(false);
      };
      const finish = (value: boolean): void => {
        clearTimeout(timer);
        this.events.off("change", check);
        resolve(value);
      };
      const timer = setTimeout(() => finish(condition()), Math.max(0, deadline - Date.now()));
      this.events.on("change", check);
    });
  }
}

/**
 * True when `publish` answers the version of `document` last sent: a publish of that version, or,
 * from a server that sends no versions, the first one after it was sent.
 */
function answersSent(document: OpenDocument, publish: Publish): boolean {
  return publish.version === undefined
    ? publish.seq > document.sentAtSeq
    : publish.version === document.version;
}

/** A file uri as Node writes it for the same path (the form our documents are keyed by). */
function canonicalFileUri(uri: string): string {
  if (!uri.startsWith("file:")) return uri;
  try {
    return pathToFileURL(fileURLToPath(uri)).href;
  } catch {
    return uri;
  }
}
