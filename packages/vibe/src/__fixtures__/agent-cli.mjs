// A stand-in agent CLI for the command backend's tests: reads the brief on stdin and behaves
// according to its first argument. A real script in a real process, nothing mocked.
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const [mode, tier, model] = process.argv.slice(2);
let brief = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) brief += chunk;

if (mode === "answer") {
  console.log("thinking about it...");
  console.log(`worker ${process.env.VIBE_WORKER_ID} (${tier}, ${model}) in ${process.cwd()}`);
  console.log(`final answer: ${brief.replace(/\n/g, " | ")}`);
} else if (mode === "fail") {
  console.log("starting");
  console.error("agent crashed: the brief made no sense");
  process.exit(3);
} else if (mode === "hang") {
  const grandchild = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
  console.log(`pids ${process.pid} ${grandchild.pid}`);
  setInterval(() => {}, 1000);
} else if (mode === "holdout") {
  // Leaves a background process outside its process group that keeps its stdout open, and exits.
  const holder = spawn("sleep", ["600"], { stdio: ["ignore", "inherit", "inherit"], detached: true });
  holder.unref();
  console.log(`final answer: left holder ${holder.pid} running`);
} else if (mode === "holdout-trap") {
  // As holdout, but the process left cleans up on SIGTERM (writes holder-cleaned in the working
  // directory, a moment later) and exits: what a tool that ends it must give it the time to do.
  const holder = spawn(
    "sh",
    ["-c", `trap 'sleep 0.2; echo cleaned > "${process.cwd()}/holder-cleaned"; exit 0' TERM; sleep 600 & wait`],
    { stdio: ["ignore", "inherit", "inherit"], detached: true },
  );
  holder.unref();
  console.log(`final answer: left holder ${holder.pid} running`);
} else if (mode === "daemon") {
  // Leaves a daemon by a double fork: in a session of its own, adopted by init, its output on
  // /dev/null. Nothing but the environment it inherited leads back to this script.
  const shell = spawnSync("sh", ["-c", "(setsid sleep 600 </dev/null >/dev/null 2>&1 & echo $!)"], {
    encoding: "utf8",
  });
  console.log(`final answer: left daemon ${shell.stdout.trim()} running`);
} else if (mode === "stubborn") {
  // Ignores SIGTERM: only SIGKILL, after the backend's grace, ends it.
  process.on("SIGTERM", () => {});
  console.log(`pids ${process.pid} ${process.pid}`);
  setInterval(() => {}, 1000);
} else if (mode === "colour") {
  // What a CLI run with FORCE_COLOR and a progress bar writes: colour codes and \r rewrites.
  process.stdout.write("\u001b[33mworking\u001b[0m 10%\rworking 50%\rworking 100%\n");
  console.log(`\u001b[1;32mfinal answer\u001b[0m: ${brief.trim()}`);
} else if (mode === "wide") {
  // One long line of emoji after two letters, then works on until it is stopped.
  console.log(`ab${"😀".repeat(150)}`);
  setInterval(() => {}, 1000);
} else if (mode === "wide-fail") {
  // One line of 30 001 characters on stdout (emoji, then a letter), nothing on stderr, then fails.
  console.log(`${"😀".repeat(15_000)}c`);
  process.exitCode = 1;
} else if (mode === "split-escape") {
  // A colour code cut in two between writes, as a CLI's output can reach its reader: the first
  // half, then (once the test has seen it, the file its second argument names exists) the rest.
  process.stdout.write("working \u001b[3");
  const deadline = Date.now() + 10_000;
  while (!existsSync(tier) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  process.stdout.write("2mhard\u001b[0m\n");
  console.log("final answer: done");
} else if (mode === "controls") {
  // Backspaces (a spinner drawn in place, a word typed and corrected, man-page bold), NUL, a bell,
  // a form feed and bidi controls: what a terminal would erase or not show, or show reordered.
  process.stdout.write("spinning |\b/\b-\b\\\bdone\n");
  process.stdout.write("teh\b\bhe cat\n");
  process.stdout.write("b\bbo\bol\bld\u0000 text\u0007\f\n");
  // A right-to-left override: "exe.tset" shown as "test.exe".
  process.stdout.write("run \u202Eexe.tset\u202C now\n");
  process.stdout.write("final answer:\tok\u0000\n");
} else if (mode === "long-colour") {
  // As "long", each line of work in colour: its escape codes are no characters the model reads.
  for (let i = 0; i < Number(tier); i++) console.log(`\u001b[32mstep ${i}\u001b[0m`);
  console.log(`final answer: ${brief.trim()}`);
} else if (mode === "long") {
  // Prints as many short lines of work (a log) as its second argument says, then its final answer.
  for (let i = 0; i < Number(tier); i++) console.log(`step ${i}`);
  console.log(`final answer: ${brief.trim()}`);
}
