// Removes the package's dist/ before a build, so that files whose source was deleted or renamed
// are not shipped (tsc only ever adds and overwrites). Run from a package folder.
import { rmSync } from "node:fs";

rmSync("dist", { recursive: true, force: true });
