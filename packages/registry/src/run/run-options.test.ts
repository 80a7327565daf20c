import { describe, expect, it } from "vitest";
import { tempDir } from "../testing/fixture-tools.js";
import { resourceKey } from "./resource-key.js";
import { createRun } from "./run.js";

describe("createRun and wire", () => {
  it("says what createRun needs when it gets no working directory, instead of a TypeError", () => {
    expect(() => createRun(undefined as never)).toThrow(
      "createRun needs { workingDirectory }: the folder the run works in, as a path (got undefined)",
    );
    expect(() => createRun({ workingDirectory: "" })).toThrow("(got an empty string)");
  });

  it("refuses a resource wired under something that is not a key", async () => {
    const run = createRun({ workingDirectory: tempDir() });
    try {
      expect(() => run.wire("database" as never, {})).toThrow(
        'a resource is wired under string "database", not a key: make its key with resourceKey(name)',
      );
      expect(() =>
        createRun({ workingDirectory: tempDir(), resources: [[{ name: "db" } as never, {}]] }),
      ).toThrow("a resource is wired under an object that is not a key");
      const key = resourceKey<object>("database");
      expect(run.wire(key, {}).has(key)).toBe(true);
    } finally {
      await run.dispose();
    }
  });
});
