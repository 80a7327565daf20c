import { describe, expect, it } from "vitest";
import { trackedRuns } from "../testing/tracked-runs.js";
import { z } from "zod";
import { createRegistry } from "../registry.js";
import { resultText } from "../result/tool-result.js";
import { defineTool } from "../tool/define-tool.js";
import { defineSurface, surfaces } from "./surface.js";

const newRun = trackedRuns();

const named = (name: string) =>
  defineTool({
    name,
    tier: "read",
    parallelSafe: true,
    description: `${name}. Example: {}`,
    input: z.object({}),
    execute: () => `${name} ran`,
  });

describe("the built-in worker surface", () => {
  it("does not offer the vibe_* tools (no nested fan-out) nor ask_user, and refuses them when called", async () => {
    const tools = ["vibe_spawn", "vibe_send", "vibe_wait", "vibe_kill", "vibe_list", "ask_user", "echo"].map(
      named,
    );
    const registry = createRegistry({ tools });
    const run = newRun();
    expect(registry.toolsFor(run, surfaces.worker).map((tool) => tool.name)).toEqual(["echo"]);
    expect(registry.toolsFor(run, "main")).toHaveLength(7);
    for (const tool of ["vibe_spawn", "ask_user"]) {
      const refused = await registry.invoke(run, { tool, args: {}, surface: "worker" });
      expect(refused.error?.code).toBe("NOT_ON_SURFACE");
      expect(resultText(refused)).not.toContain(`${tool} ran`);
    }
  });
});

describe("defineSurface", () => {
  it("refuses hides given as one string (it would hide letters), and a gated or label of the wrong type", () => {
    expect(() => defineSurface({ name: "helper", cap: "read", hides: "ask_user" })).toThrow(
      `surface 'helper': hides must be a list of tool names (["ask_user"]), not one string`,
    );
    expect(() => defineSurface({ name: "helper", cap: "read", hides: [1] as never })).toThrow(
      "hides must be a list of tool names",
    );
    expect(() => defineSurface({ name: "helper", cap: "exec", gated: "yes" as never })).toThrow(
      "surface 'helper': gated must be true or false",
    );
    expect(() => defineSurface({ name: "helper", cap: "read", label: "" })).toThrow(
      `surface 'helper': label must be non-empty text ("the editor")`,
    );
    expect(defineSurface({ name: "helper", cap: "read", hides: new Set(["ask_user"]) }).hides).toEqual(
      new Set(["ask_user"]),
    );
  });
});
