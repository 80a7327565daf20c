import { describe, expect, it } from "vitest";
import { allowOnly, choice, parseArgs } from "./parse-args.js";

describe("parseArgs", () => {
  it("reads the command, --name value, --name=value and --help", () => {
    const args = parseArgs(["serve", "--workdir", "/tmp", "--approval=auto", "--help"]);
    expect(args.command).toBe("serve");
    expect(Object.fromEntries(args.options)).toEqual({ workdir: "/tmp", approval: "auto" });
    expect(args.flags.has("help")).toBe(true);
  });

  it("refuses a missing value, a stray argument, a bad choice and an unknown option", () => {
    expect(() => parseArgs(["serve", "--workdir"])).toThrow("--workdir needs a value");
    expect(() => parseArgs(["serve", "extra"])).toThrow("unexpected argument 'extra'");
    expect(() => choice(parseArgs(["--approval", "yes"]), "approval", ["auto", "ask"], "ask")).toThrow(
      "--approval must be one of auto, ask, got 'yes'",
    );
    expect(() => allowOnly(parseArgs(["tools", "--workdri", "x"]), ["workdir"])).toThrow(
      "unknown option --workdri for 'tools'; it takes --workdir",
    );
  });
});
