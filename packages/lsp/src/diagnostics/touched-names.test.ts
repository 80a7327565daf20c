import type { Diagnostic } from "vscode-languageserver-protocol";
import { describe, expect, it } from "vitest";
import { namesTouched, touchedNames } from "./touched-names.js";

function withMessage(message: string): Diagnostic {
  return { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, message };
}

describe("touchedNames", () => {
  it("changes no name for a comment-only edit or code moved around", () => {
    const before = "class Loop:  # the loop\n    pass\n\ndef run():\n    return Loop()\n";
    expect(touchedNames(before, before.replace("# the loop", "# the event loop, see run"), "python")).toEqual(
      new Set(),
    );
    const moved = "def run():\n    return Loop()\n\nclass Loop:  # the loop\n    pass\n";
    expect(touchedNames(before, moved, "python")).toEqual(new Set());
    expect(touchedNames("f(a); // a\n", "f(a); // a and b\n", "typescript")).toEqual(new Set());
  });

  it("names what a rename, a removal or an added parameter changed, comment marks in strings kept", () => {
    const before = "class BaseLoop:\n    pass\n\nx = BaseLoop()\n";
    expect(touchedNames(before, before.replaceAll("BaseLoop", "EventLoop"), "python")).toEqual(
      new Set(["BaseLoop", "EventLoop"]),
    );
    expect(touchedNames("def f(a):\n    return a\n", "def f(a, seed):\n    return a\n", "python")).toEqual(
      new Set(["seed"]),
    );
    expect(touchedNames('s = "#" + tag\n', 's = "#" + label\n', "python")).toEqual(new Set(["tag", "label"]));
  });
});

describe("namesTouched", () => {
  const names = new Set(["BaseLoop", "seed"]);
  it("is true for a message quoting a changed name, as pyright, tsc or gopls quote one", () => {
    expect(namesTouched(withMessage('"BaseLoop" is unknown import symbol'), names)).toBe(true);
    expect(namesTouched(withMessage("Module './a' has no exported member 'BaseLoop'."), names)).toBe(true);
    expect(namesTouched(withMessage('Argument missing for parameter "seed"'), names)).toBe(true);
  });

  it("is false for a name only inside a longer quoted one, or not quoted", () => {
    expect(namesTouched(withMessage('"BaseLoopPolicy" is not defined'), names)).toBe(false);
    expect(namesTouched(withMessage("seed is not used"), names)).toBe(false);
    expect(namesTouched(withMessage('"x" is not defined'), new Set())).toBe(false);
  });
});
