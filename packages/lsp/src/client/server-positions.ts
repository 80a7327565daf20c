import { fileURLToPath } from "node:url";
import { FileTexts, type FileText } from "../files/file-texts.js";
import { convertPositions, type PositionConverter } from "../positions/convert-positions.js";
import { textView, type TextPosition, type TextView } from "../positions/text-view.js";
import type { ServerSpec } from "../servers/server-table.js";
import { OpenViews } from "./open-views.js";

/**
 * How a server's positions map to the user's, per document (see `TextRule`, `spec.text`): the
 * views of the texts it has of them, the synced text of an open document or the file on disk,
 * each computed once per text.
 */
export class ServerPositions {
  /**
   * Texts of the files not open here whose positions the server answers with (a definition in a
   * library's declarations), for {@link viewOf}: read again only when the file changed.
   */
  private readonly viewTexts = new FileTexts({ capacity: 512, totalKept: 64 * 1024 * 1024 });
  /** Per text read from disk: how the server's positions in it map to the user's (see {@link viewOf}). */
  private readonly diskViews = new WeakMap<FileText, TextView | null>();
  /** The view of each open document's synced text, computed on first use, dropped at its close. */
  private readonly openViews = new OpenViews<TextView | undefined>();
  private readonly spec: ServerSpec;
  /** The text the server has of an open document, as last sent; undefined when not open. */
  private readonly syncedText: (uri: string) => string | undefined;

  constructor(spec: ServerSpec, syncedText: (uri: string) => string | undefined) {
    this.spec = spec;
    this.syncedText = syncedText;
  }

  /**
   * How the server's positions in the document `uri` map to the user's (see `TextRule`), for
   * the text the server has of it: the text last sent when open here, else the file on disk.
   * Undefined when they are the same (the common case: one quick scan per text) or unreadable.
   */
  viewOf(uri: string): TextView | undefined {
    const rule = this.spec.text;
    if (rule === undefined) return undefined;
    const synced = this.syncedText(uri);
    if (synced !== undefined) return this.openViews.get(uri, synced, (text) => textView(text, rule));
    this.openViews.forget(uri);
    let path: string;
    try {
      path = fileURLToPath(uri);
    } catch {
      return undefined;
    }
    const entry = this.viewTexts.tryRead(path);
    if (entry === undefined) return undefined;
    let view = this.diskViews.get(entry);
    if (view === undefined) {
      view = textView(entry.text, rule) ?? null;
      this.diskViews.set(entry, view);
    }
    return view ?? undefined;
  }

  /** `value`, holding positions of the server's in the document `uri`, with the user's. */
  fromServer<T>(uri: string, value: T): T {
    return convertPositions(value, uri, this.converter("toUser"));
  }

  /** Converts positions one way, each document's view looked up once (one `stat` per file). */
  converter(direction: "toServer" | "toUser"): PositionConverter {
    const views = new Map<string, TextView | undefined>();
    return (uri: string, position: TextPosition): TextPosition => {
      let view = views.get(uri);
      if (view === undefined && !views.has(uri)) {
        view = this.viewOf(uri);
        views.set(uri, view);
      }
      return view ? view[direction](position) : position;
    };
  }

  /** Drops the view of `uri`'s synced text (the document was closed). */
  forget(uri: string): void {
    this.openViews.forget(uri);
  }
}
