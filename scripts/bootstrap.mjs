#!/usr/bin/env node
// One entry for the README's commands on a fresh machine: pnpm 10, the workspace install, the
// Debian backends, then the job itself. Uses Node built-ins only, because nothing else is
// installed yet when it starts.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const ci = process.env.CI === "true" || process.env.CI === "1";
const job = process.argv[2] ?? "test";
const jobArgs = process.argv.slice(3);

const env = {
  ...process.env,
  TURBO_TELEMETRY_DISABLED: "1",
  DO_NOT_TRACK: "1",
  TURBO_NO_UPDATE_NOTIFIER: "1",
  npm_config_update_notifier: "false",
};

function say(message) {
  process.stderr.write(`[bootstrap] ${message}\n`);
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env, ...options });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function quiet(command, args) {
  const result = spawnSync(command, args, { cwd: root, encoding: "utf8", env });
  return result.error ? null : result;
}

function mustRun(command, args) {
  const status = run(command, args);
  if (status !== 0) {
    say(`failed: ${command} ${args.join(" ")} (exit ${status})`);
    process.exit(status);
  }
}

/** pnpm of the exact major named in packageManager: on PATH if it matches, else project-local. */
function ensurePnpm() {
  const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const wanted = String(manifest.packageManager).replace(/^pnpm@/, "");
  const major = wanted.split(".")[0];
  const onPath = quiet("pnpm", ["--version"]);
  if (onPath && onPath.status === 0 && onPath.stdout.trim().split(".")[0] === major) return "pnpm";
  const local = join(root, ".tools", "node_modules", ".bin", "pnpm");
  const localVersion = existsSync(local) ? quiet(local, ["--version"]) : null;
  if (localVersion && localVersion.status === 0 && localVersion.stdout.trim() === wanted) return local;
  say(`installing pnpm@${wanted} into .tools/ (project-local)`);
  mustRun("npm", [
    "install",
    "--prefix",
    join(root, ".tools"),
    "--no-save",
    "--no-audit",
    "--no-fund",
    `pnpm@${wanted}`,
  ]);
  return local;
}

function hasBinary(name) {
  const result = quiet("sh", ["-c", `command -v ${name}`]);
  return result !== null && result.status === 0;
}

function hasPythonModule(module) {
  // Debian's interpreter: the python3 on PATH may be a separate one without Debian's packages.
  const result = quiet("/usr/bin/python3", ["-c", `import ${module}`]);
  return result !== null && result.status === 0;
}

/** Installs the Debian backends listed in scripts/system-backends.json that are missing. */
function ensureBackends() {
  const { backends } = JSON.parse(readFileSync(join(root, "scripts", "system-backends.json"), "utf8"));
  const missing = backends.filter((backend) =>
    backend.python
      ? !hasPythonModule(backend.python)
      : backend.file
        ? !existsSync(backend.file)
        : !backend.bin.some(hasBinary),
  );
  if (missing.length === 0) return;
  const names = missing.map((backend) => backend.apt);
  const command = `apt-get update && apt-get install -y ${names.join(" ")}`;
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (isRoot && hasBinary("apt-get")) {
    say(`installing Debian backends: ${names.join(", ")}`);
    const aptEnv = { ...env, DEBIAN_FRONTEND: "noninteractive" };
    const update = run("apt-get", ["update"], { env: aptEnv });
    const install = update === 0 ? run("apt-get", ["install", "-y", ...names], { env: aptEnv }) : update;
    if (install === 0) return;
    say(`apt-get failed (exit ${install}).`);
  } else {
    say(`missing Debian backends: ${names.join(", ")}`);
  }
  say(`run this once, as root:\n\n    ${command}\n`);
  if (ci) {
    say("CI=true: a missing backend fails the run.");
    process.exit(1);
  }
  say("continuing: tests that need these backends will skip, loudly.");
}

const pnpm = ensurePnpm();
if (pnpm !== "pnpm") {
  // Children (the suite runner, the isolation check) call `pnpm` by name.
  env.PATH = `${dirname(pnpm)}${process.platform === "win32" ? ";" : ":"}${env.PATH ?? ""}`;
}
ensureBackends();
mustRun(pnpm, ["install", "--frozen-lockfile", "--prefer-offline"]);

switch (job) {
  case "test":
    process.exit(run(pnpm, ["run", "suite", ...jobArgs]));
    break;
  case "demo":
    mustRun(pnpm, [
      "exec",
      "turbo",
      "run",
      "build",
      "--filter=@tools/harness-demo...",
      "--output-logs=errors-only",
    ]);
    process.exit(
      run(process.execPath, [
        join(root, "apps", "harness-demo", "bin", "harness-demo.js"),
        ...(jobArgs.length ? jobArgs : ["tour"]),
      ]),
    );
    break;
  case "setup":
    break;
  case "turbo":
    process.exit(run(pnpm, ["exec", "turbo", ...jobArgs]));
    break;
  case "bench":
    mustRun(pnpm, ["exec", "turbo", "run", "build", "--output-logs=errors-only"]);
    process.exit(run(pnpm, ["exec", "turbo", "run", "bench", "--concurrency=1", ...jobArgs]));
    break;
  default:
    say(`unknown job '${job}': expected test, demo, bench, setup or turbo`);
    process.exit(2);
}
