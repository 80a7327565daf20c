import { FileTexts, type FileText } from "../files/file-texts.js";
import { printOf, samePrint, type TextPrint } from "./document-sync.js";
import { directivesIn, type Directives } from "./include-reach.js";

/** Files past this size (bytes) are not scanned by name. */
const largestScanned = 1_000_000;

/**
 * Texts of the files under a client's root for scans by name (see `LanguageClient.rootText`),
 * and per text read, whether it differs from the one its file was closed with (see
 * `LanguageClient.changedSinceClosed`).
 */
export class RootTexts {
  /** Per text read from disk: whether it differs from its file's text at its last close. */
  private readonly closedChecks = new WeakMap<FileText, { print: TextPrint; changed: boolean }>();
  /**
   * Per text read from disk: what its `#include` directives name. Kept as long as the text is
   * (while its file is unchanged on disk, within the bounds below): a walk of what the open files
   * include, at each flush, scans only the files that changed since the last.
   */
  private readonly included = new WeakMap<FileText, Directives>();
  /**
   * Texts of the root's files for scans by name: a repeated scan reads only the files whose
   * identity changed (one `stat` each: the folder watch can lose events when the kernel's queue
   * overflows, so it is not trusted for this). Small files only, 64 M characters in all.
   */
  private readonly texts = new FileTexts({
    capacity: 20_000,
    largestKept: 256 * 1024,
    totalKept: 64 * 1024 * 1024,
  });

  /** The text of `path`, read again only when the file changed; undefined when unreadable or over 1 MB. */
  read(path: string): string | undefined {
    return this.texts.tryRead(path, largestScanned)?.text;
  }

  /**
   * The text of `path` (as {@link read}) and what its `#include` directives name (see
   * `directivesIn`), scanned again only when the file changed; undefined when unreadable or over 1 MB.
   */
  directives(path: string): { text: string; directives: Directives } | undefined {
    const entry = this.texts.tryRead(path, largestScanned);
    if (!entry) return undefined;
    let directives = this.included.get(entry);
    if (!directives) this.included.set(entry, (directives = directivesIn(entry.text)));
    return { text: entry.text, directives };
  }

  /**
   * True when the text of `path` on disk is not the one of `print` (its file's at its close);
   * false when unreadable or over 1 MB. Hashes each text read once.
   */
  changedFrom(path: string, print: TextPrint): boolean {
    const entry = this.texts.tryRead(path, largestScanned);
    if (!entry) return false;
    const known = this.closedChecks.get(entry);
    if (known?.print === print) return known.changed;
    const now = printOf(entry.text);
    const changed = !samePrint(now, print);
    this.closedChecks.set(entry, { print, changed });
    return changed;
  }
}
