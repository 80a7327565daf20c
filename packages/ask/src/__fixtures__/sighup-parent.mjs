// A host that takes SIGHUP itself, as a supervisor or a shell wrapper does: it runs the scenario of
// terminal-question.mjs as its child on the same terminal, its stderr to a file, and writes how the
// child ended as JSON to the file named by argv[2]. When the terminal goes away, the kernel sends
// SIGHUP to this process (the session's leader) alone: the child sees only its terminal fail (end
// of input, EIO). Used by terminal-port.integration.test.ts inside tmux.
import { spawn } from "node:child_process";
import { openSync, renameSync, writeFileSync } from "node:fs";

const [exitFile, stderrFile, ...childArgs] = process.argv.slice(2);
process.on("SIGHUP", () => {});
const child = spawn(process.execPath, childArgs, { stdio: ["inherit", "inherit", openSync(stderrFile, "w")] });
child.on("exit", (code, signal) => {
  writeFileSync(`${exitFile}.partial`, JSON.stringify({ code, signal }));
  renameSync(`${exitFile}.partial`, exitFile);
  process.exit(0);
});
