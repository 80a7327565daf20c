/** Most created files remembered per server (see {@link CreatedFiles.list}). */
const createdKept = 5_000;

/**
 * Files of a server's languages created on disk since it started and not opened on it since
 * (see `spec.createdFiles` and `LanguageClient.createdFiles`), most recent last, bounded.
 */
export class CreatedFiles {
  private readonly created = new Set<string>();

  /** How many are remembered. */
  get size(): number {
    return this.created.size;
  }

  /** The files, most recent last (at most {@link createdKept}). */
  list(): string[] {
    return [...this.created];
  }

  /** Records a change on disk to `path`: kept (as the most recent) when `created`, else dropped. */
  note(path: string, created: boolean): void {
    this.created.delete(path);
    if (!created) return;
    this.created.add(path);
    if (this.created.size > createdKept) this.created.delete(this.created.values().next().value!);
  }

  /** Drops `path` (opened on the server: part of its project from then on). */
  forget(path: string): void {
    this.created.delete(path);
  }
}
