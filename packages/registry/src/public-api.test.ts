import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import * as api from "./index.js";

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), "..");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

describe("public API", () => {
  it("exports exactly the documented names", () => {
    expect(Object.keys(api).sort()).toEqual([
      "Registry",
      "Run",
      "SerialLane",
      "ToolsError",
      "appendText",
      "boundList",
      "boundText",
      "closestName",
      "countNoun",
      "createProcessMark",
      "createRegistry",
      "createRun",
      "defineSurface",
      "defineTool",
      "descendantsOf",
      "errorMessage",
      "errorResult",
      "exportTools",
      "fileNameMaxBytes",
      "headOf",
      "idInUse",
      "imagePart",
      "isTier",
      "markedProcesses",
      "maxCallIdLength",
      "nodeFileOperations",
      "openRegularFile",
      "outputTargets",
      "partsResult",
      "processMarkVariable",
      "processStat",
      "readRegularFile",
      "readRegularFileSync",
      "rejectOnAbort",
      "resolveInside",
      "resourceKey",
      "resultText",
      "settledMarkedProcesses",
      "signalGroup",
      "signalProcesses",
      "stateKey",
      "surfaces",
      "tailOf",
      "terminateProcess",
      "textResult",
      "tierWithin",
      "tiers",
      "toStrictSchema",
      "toToolResult",
      "toolAvailability",
      "toolInRun",
      "toolJsonSchema",
      "toolSignature",
      "warningNotes",
      "workspaceContainment",
      "writeFiles",
      "writersOf",
    ]);
  });

  it("has no 'export *' in its entry point", () => {
    expect(readFileSync(join(packageRoot, "src", "index.ts"), "utf8")).not.toMatch(/export \*/);
  });

  it("built entry point spawns nothing: only the process reaper imports child_process (run `build` first)", () => {
    const dist = join(packageRoot, "dist");
    const built = files(dist).filter((file) => file.endsWith(".js"));
    expect(built.length).toBeGreaterThan(10);
    // The one process the registry starts: the host's reaper, at the first process mark.
    const reaper = join(dist, "run", "process-mark.js");
    expect(readFileSync(reaper, "utf8")).toMatch(/["']node:child_process["']/);
    for (const file of built.filter((path) => path !== reaper)) {
      expect(readFileSync(file, "utf8"), file).not.toMatch(/["'](node:)?child_process["']/);
    }
    // And importing the entry point starts nothing: no child of a fresh process that imports it.
    const children = execFileSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `await import(${JSON.stringify(pathToFileURL(join(dist, "index.js")).href)});
         const { readdirSync, readFileSync } = await import("node:fs");
         const mine = readdirSync("/proc").filter((entry) => /^\\d+$/.test(entry)).filter((entry) => {
           try { const stat = readFileSync("/proc/" + entry + "/stat", "utf8"); return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1] === String(process.pid); } catch { return false; }
         });
         console.log(mine.length);`,
      ],
      { encoding: "utf8" },
    );
    expect(children.trim()).toBe("0");
  });
});
