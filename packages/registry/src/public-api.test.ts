import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
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
      "imagePart",
      "isTier",
      "markedProcesses",
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
      "signalProcesses",
      "stateKey",
      "surfaces",
      "terminateProcess",
      "textResult",
      "tierWithin",
      "tiers",
      "toStrictSchema",
      "toToolResult",
      "toolAvailability",
      "toolJsonSchema",
      "toolSignature",
      "workspaceContainment",
      "writeFiles",
      "writersOf",
    ]);
  });

  it("has no 'export *' in its entry point", () => {
    expect(readFileSync(join(packageRoot, "src", "index.ts"), "utf8")).not.toMatch(/export \*/);
  });

  it("built entry point spawns nothing: no runtime import of child_process (run `build` first)", () => {
    const dist = join(packageRoot, "dist");
    const built = files(dist).filter((file) => file.endsWith(".js"));
    expect(built.length).toBeGreaterThan(10);
    for (const file of built) {
      expect(readFileSync(file, "utf8"), file).not.toMatch(/["'](node:)?child_process["']/);
    }
  });
});
