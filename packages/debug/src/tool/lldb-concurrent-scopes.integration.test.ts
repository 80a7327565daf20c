import { describe, expect, it } from "vitest";
import type { DebugSession } from "../session/debug-session.js";
import { ci } from "../__fixtures__/harness.js";
import { inLldbSquare } from "../__fixtures__/lldb-square.js";
import { lldb } from "../__fixtures__/backends.js";

/** The names of a reference's children. */
async function names(session: DebugSession, reference: number): Promise<string[]> {
  return (await session.variables(reference)).variables.map((variable) => variable.name);
}

/** The reference of a frame's Locals scope. */
async function locals(session: DebugSession, frame: number): Promise<number> {
  const scope = (await session.scopes(frame)).find((one) => one.name === "Locals");
  expect(scope, `frame ${frame} has a Locals scope`).toBeDefined();
  return scope!.variablesReference;
}

// lldb-dap 19 gives every frame's scopes the same references (Locals 1, Globals 2, Registers 3),
// bound to the frame of its latest `scopes`; the public DebugSession takes calls at once (the tool
// makes one at a time), so a `scopes` of one frame sent between another frame's `scopes` (or its
// binding again) and `variables` would answer the other frame's locals.
describe.skipIf(!lldb && !ci)("DebugSession on lldb-dap: scopes and variables of two frames at once", () => {
  it("answers each call with the frame it asked about, however the calls interleave", async () => {
    await inLldbSquare(async (session) => {
      const [square, main] = (await session.stack()).frames;
      expect([square?.name, main?.name]).toEqual(["square", "main"]);

      // Each frame's scopes then its locals, both frames at once.
      const both = async () => {
        const [inSquare, inMain] = await Promise.all([
          locals(session, square!.id).then((reference) => names(session, reference)),
          locals(session, main!.id).then((reference) => names(session, reference)),
        ]);
        return { inSquare, inMain };
      };
      const checkSquare = (listed: string[]) => {
        expect(listed).toContain("n");
        expect(listed).not.toContain("s");
      };
      const checkMain = (listed: string[]) => {
        expect(listed).toContain("s");
        expect(listed).not.toContain("n");
      };
      for (let round = 0; round < 3; round++) {
        const { inSquare, inMain } = await both();
        checkSquare(inSquare);
        checkMain(inMain);
      }

      // References known, then read at once with scopes asked meanwhile, in both orders.
      const squareLocals = await locals(session, square!.id);
      const mainLocals = await locals(session, main!.id);
      const [a, , b, , c, d] = await Promise.all([
        names(session, squareLocals),
        session.scopes(main!.id),
        names(session, mainLocals),
        session.scopes(square!.id),
        names(session, squareLocals),
        names(session, mainLocals),
      ]);
      checkSquare(a!);
      checkMain(b!);
      checkSquare(c!);
      checkMain(d!);
    });
  });
});
