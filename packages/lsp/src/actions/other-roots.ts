import { join } from "node:path";
import type { LanguageClient } from "../client/language-client.js";
import {
  defaultMentionLimits,
  mentionsElsewhere,
  type MentionsElsewhere,
} from "../rename/mentions-elsewhere.js";
import { canonicalPath } from "../files/canonical-path.js";
import { isInside } from "../servers/find-root.js";
import type { LspSupervisor } from "../supervisor/supervisor.js";

/**
 * Languages whose server leaves out a root nested in its own: a Go module inside another (without
 * a go.work, which would make them one root) is not part of the outer module. A tsconfig's or
 * pyright's include globs take nested folders in, so theirs are searched.
 */
const nestedRootsApart: ReadonlySet<string> = new Set(["go"]);

/**
 * After a search across files (references, implementation) by `client`: the lines naming `name`
 * in files of its language that another root's server serves and the answer did not list
 * (`listed`), as a note; "" when there are none. The answering server does not search them: they
 * may use the symbol too. Looked at: what lies outside the answering root (nothing when it is the
 * working directory), and — for languages whose servers leave nested roots out (Go) — the roots
 * nested in it that this run has started a server for. Others nested in it are not walked (see
 * `enter` below). Bounded as one look (see `mentionsElsewhere`).
 */
export async function otherRootsNote(
  supervisor: LspSupervisor,
  client: LanguageClient,
  options: { name: string; listed: ReadonlySet<string>; signal?: AbortSignal },
): Promise<string> {
  const nested = nestedRootsApart.has(client.spec.language)
    ? supervisor
        .startedRoots(client.spec)
        .filter((root) => root !== client.root && isInside(client.root, root))
        // Outermost first; one inside another is walked with it.
        .sort((a, b) => a.length - b.length)
        .filter((root, index, roots) => !roots.slice(0, index).some((outer) => isInside(outer, root)))
    : [];
  // A root that is the working directory has nothing outside it to look at (see `enter`).
  const starts = [
    ...(client.root === supervisor.workingDirectory ? [] : [supervisor.workingDirectory]),
    ...nested,
  ];
  if (starts.length === 0) return "";
  const deadline = performance.now() + defaultMentionLimits.ms;
  let found: MentionsElsewhere = { mentions: [], files: 0, lines: 0, truncated: false };
  for (const start of starts) {
    const left = deadline - performance.now();
    if (left <= 0 || options.signal?.aborted) {
      found = { ...found, truncated: true };
      break;
    }
    const more = await mentionsElsewhere(
      start,
      client.root,
      (folder) => supervisor.rootFor(client.spec, join(folder, "_")),
      {
        name: options.name,
        extensions: client.spec.extensions,
        exclude: options.listed,
        // The note is about uses: a name in a comment or string is none.
        language: client.spec.language,
        limits: { ms: left },
        // Not below the answering root, from outside it: walking a large root on every call (Go's
        // standard library with its nested modules: ~120 ms a call) would cost more than the
        // answer. Its siblings and what lies outside it are looked at, and the nested roots above,
        // walked from their own folders (one that a run works in has a server started). What
        // this leaves out: nested roots no server was started for.
        enter:
          start === supervisor.workingDirectory
            ? // The root's real folder too, when the root was reached through a symlink.
              (folder) =>
                !isInside(client.root, folder) && !isInside(canonicalPath(client.root), canonicalPath(folder))
            : () => true,
        ...(options.signal ? { signal: options.signal } : {}),
      },
    );
    found = {
      mentions: [...found.mentions, ...more.mentions].slice(0, defaultMentionLimits.lines),
      files: found.files + more.files,
      lines: found.lines + more.lines,
      truncated: found.truncated || more.truncated,
    };
  }
  return mentionsNote(found, {
    name: options.name,
    root: supervisor.display(client.root),
    display: (path) => supervisor.display(path),
  });
}

/** The note for what {@link otherRootsNote} found. */
function mentionsNote(
  found: MentionsElsewhere,
  about: { name: string; root: string; display: (path: string) => string },
): string {
  const server = `the server which answered (root ${about.root})`;
  if (found.files === 0) {
    return found.truncated
      ? `(files ${server} does not search were looked at for '${about.name}' only in part: the look's bound was reached)`
      : "";
  }
  const files = `${found.files} file${found.files === 1 ? "" : "s"}`;
  const lines = found.mentions.map(
    (mention) => `${about.display(mention.file)}:${mention.line + 1}  ${mention.text}`,
  );
  return [
    `not searched: '${about.name}' is also named in ${files} that ${server} does not search; if they use this symbol, ask from one of them:`,
    ...lines,
    ...(found.lines > lines.length ? [`… and ${found.lines - lines.length} more`] : []),
    ...(found.truncated ? ["(the look for them stopped at its bound: there may be more)"] : []),
  ].join("\n");
}
