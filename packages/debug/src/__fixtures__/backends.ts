// The real backends the integration tests run on, as found on this machine. A test whose backend
// is missing is skipped, except under CI=true: there it runs, and fails.
import { existsSync } from "node:fs";
import { findOnPath, findVersioned } from "../adapters/find-binary.js";

const searchPath = process.env.PATH ?? "";

/** /usr/bin/python3, with Debian's python3-debugpy (the tests' `.venv` sees the system's packages). */
export const python = existsSync("/usr/bin/python3");

/** delve, and the go toolchain it builds the program with. */
export const dlv = Boolean(findOnPath("dlv", searchPath) && findOnPath("go", searchPath));

/** lldb-dap (lldb-dap-NN on Debian), and a C compiler for the fixtures. */
export const lldb = Boolean(findVersioned("lldb-dap", searchPath) && findOnPath("cc", searchPath));
