import { readdirSync } from "node:fs";
import { dirname, extname, join } from "node:path";
import { errorMessage } from "@tools/registry";
import type { LanguageClient } from "../client/language-client.js";
import { skippedFolders } from "../servers/project-folders.js";
import type { ServerSpec } from "../servers/server-table.js";
import type { ActionContext } from "./action-context.js";

/** Most servers one workspace-symbol query without `file` starts. */
export const searchStartLimit = 4;
/** Most folders of a root looked through for a file of its language. */
const fileSearchFolders = 200;

/** What {@link startServersForSearch} started, and why some roots were passed by. */
export interface SearchServers {
  readonly clients: LanguageClient[];
  /** One line per root whose server could not be started (no binary, a failed start). */
  readonly failures: string[];
}

/**
 * For a workspace-symbol query before any server runs: the servers of the working directory's
 * project roots (those `status` lists, shallowest first, at most {@link searchStartLimit}), each
 * started by opening one source file of its root. A server searches only the projects it has
 * loaded, and typescript-language-server and pyright load theirs when a file is opened, not at
 * start. Roots without a source file of their language are passed by; the others left over are
 * named by the search's scope note.
 */
export async function startServersForSearch(context: ActionContext): Promise<SearchServers> {
  const { supervisor } = context;
  const picked: { spec: ServerSpec; root: string; file: string }[] = [];
  const seen = new Set<string>();
  for (const { spec, root, workspace } of supervisor.projectRoots().roots) {
    if (picked.length >= searchStartLimit) break;
    const serverRoot = workspace ?? root;
    const key = `${spec.language}\u0000${serverRoot}`;
    if (seen.has(key)) continue;
    seen.add(key);
    // A file's root and binary depend on its folder only: one detection per folder, not per file
    // (a folder of a nested root's files would repeat the binary lookup for each).
    const byFolder = new Map<string, boolean>();
    const file = sourceFileOf(spec, serverRoot, (candidate) => {
      const folder = dirname(candidate);
      let accepted = byFolder.get(folder);
      if (accepted === undefined) {
        const detection = supervisor.detect(spec, candidate);
        accepted = detection.root === serverRoot && detection.binary.found;
        byFolder.set(folder, accepted);
      }
      return accepted;
    });
    if (file !== undefined) picked.push({ spec, root: serverRoot, file });
  }
  if (picked.length > 0) {
    context.progress(
      `starting ${picked.map(({ spec, root }) => `${spec.language} (${supervisor.display(root)})`).join(", ")} to search the workspace`,
    );
  }
  const opened = await Promise.allSettled(
    picked.map(({ file }) => supervisor.open(file, false, context.progress)),
  );
  const clients: LanguageClient[] = [];
  const failures: string[] = [];
  opened.forEach((result, index) => {
    const { spec, root } = picked[index]!;
    if (result.status === "fulfilled") {
      if (!clients.includes(result.value.client)) clients.push(result.value.client);
    } else {
      failures.push(`${spec.language} (${supervisor.display(root)}): ${errorMessage(result.reason)}`);
    }
  });
  return { clients, failures };
}

/**
 * A file of `spec`'s language in `root` for which `accepts` holds, breadth first (hidden,
 * dependency and build-output folders skipped, at most {@link fileSearchFolders} folders), files
 * in name order: first one that is not a declaration or configuration file (`*.d.ts`,
 * `vite.config.ts`), which a TypeScript server may keep outside the project, else any.
 */
function sourceFileOf(
  spec: ServerSpec,
  root: string,
  accepts: (file: string) => boolean,
): string | undefined {
  let fallback: string | undefined;
  let level = [root];
  let folders = 0;
  while (level.length > 0 && folders < fileSearchFolders) {
    const next: string[] = [];
    for (const folder of level) {
      if (folders >= fileSearchFolders) break;
      folders += 1;
      let entries;
      try {
        entries = readdirSync(folder, { withFileTypes: true });
      } catch {
        continue;
      }
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const entry of entries) {
        const path = join(folder, entry.name);
        if (entry.isDirectory()) {
          if (!entry.name.startsWith(".") && !skippedFolders.has(entry.name)) next.push(path);
          continue;
        }
        if (!entry.isFile() || !spec.extensions.includes(extname(entry.name))) continue;
        const secondary = /\.d\.[cm]?ts$|\.config\.[^.]+$/.test(entry.name);
        if (secondary && fallback !== undefined) continue;
        if (!accepts(path)) continue;
        if (!secondary) return path;
        fallback = path;
      }
    }
    level = next;
  }
  return fallback;
}
