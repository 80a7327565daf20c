// The shared set-up of the debugpy integration tests: one copy of the python fixture with its
// .venv per describe block.
import { afterAll, beforeAll, describe, expect } from "vitest";
import { ci, makeVenv, removeWorkspace, workspace } from "./harness.js";
import { python } from "./backends.js";

/** The workspace of a {@link describeDebugpy} block: set before its first test, removed after its last. */
export interface DebugpyProject {
  readonly dir: string;
}

/**
 * A describe block of debugpy tests sharing one copy of the python fixture with a `.venv` (made
 * as a project makes it, seeing the system's debugpy), `prepare` adding files to it. Skipped
 * (with a warning) without /usr/bin/python3, except under CI=true: there it runs, and fails
 * in its set-up, since the backend must be there.
 */
export function describeDebugpy(
  name: string,
  body: (project: DebugpyProject) => void,
  prepare?: (dir: string) => void,
): void {
  if (!python && !ci) console.warn(`SKIPPING "${name}": /usr/bin/python3 with debugpy (python3-debugpy) is missing`);
  describe.skipIf(!python && !ci)(name, () => {
    let dir: string | undefined;
    beforeAll(() => {
      expect(python, "python3-debugpy must be installed").toBe(true);
      dir = workspace("python");
      makeVenv(dir);
      prepare?.(dir);
    });
    afterAll(() => {
      if (dir) removeWorkspace(dir);
    });
    body({
      get dir(): string {
        if (dir === undefined) throw new Error("the debugpy workspace is made before the block's first test");
        return dir;
      },
    });
  });
}
