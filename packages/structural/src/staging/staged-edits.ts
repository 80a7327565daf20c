import { stateKey } from "@tools/registry";

/** One file of a staged change: what it held when staged, and what it will hold. */
export interface StagedFile {
  /** Absolute path. */
  readonly path: string;
  readonly relativePath: string;
  /** sha256 of the bytes read at staging. */
  readonly originalHash: string;
  readonly newText: string;
  readonly replacements: number;
}

/** A change staged by `ast_edit`, waiting for `resolve`. */
export interface StagedEdit {
  /** `edit_N`, unique within the run. */
  readonly id: string;
  readonly pattern: string;
  readonly rewrite: string;
  readonly files: readonly StagedFile[];
}

/** The per-run ledger of staged changes. */
export interface StagedEdits {
  next: number;
  readonly pending: Map<string, StagedEdit>;
  /** Ids already resolved, with how (for a clear error on a second resolve). */
  readonly resolved: Map<string, string>;
}

/** Per-run state key of the staged structural edits. */
export const stagedEditsKey = stateKey<StagedEdits>("staged structural edits", () => ({
  next: 1,
  pending: new Map(),
  resolved: new Map(),
}));
