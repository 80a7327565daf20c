import { relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { isInside } from "../servers/find-root.js";

/** A bounded memo: cleared whole when full (the names asked for in a run are few and repeat). */
class Memo {
  private readonly entries = new Map<string, string>();

  constructor(private readonly capacity: number) {}

  get(key: string, compute: (key: string) => string): string {
    let value = this.entries.get(key);
    if (value === undefined) {
      value = compute(key);
      if (this.entries.size >= this.capacity) this.entries.clear();
      this.entries.set(key, value);
    }
    return value;
  }
}

/**
 * The names of the run's files: `file://` URIs for the servers, paths back from their answers,
 * and paths as shown. Each is memoised: they are asked for on every call and per location.
 */
export class PathNames {
  private readonly uris = new Memo(1024);
  private readonly paths = new Memo(4096);
  private readonly displays = new Memo(4096);

  constructor(private readonly workingDirectory: string) {}

  /**
   * A path relative to the working directory for output, or absolute when outside it (a
   * standard library, an installed package): never a chain of `../`.
   */
  display(path: string): string {
    return this.displays.get(path, (p) =>
      isInside(this.workingDirectory, p) ? relative(this.workingDirectory, p) || "." : p,
    );
  }

  /** The `file://` URI of a path. */
  uriOf(file: string): string {
    return this.uris.get(file, (f) => pathToFileURL(f).href);
  }

  /** The path of a `file://` URI (throws as `fileURLToPath`). */
  pathOf(uri: string): string {
    return this.paths.get(uri, fileURLToPath);
  }
}
