import { once } from "node:events";
import { PassThrough, Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { SessionLines } from "./session-lines.js";

/** A terminal: keys go in at `input`, what is drawn collects in `drawn()`. */
function terminal() {
  const input = new PassThrough();
  let drawn = "";
  const output = Object.assign(
    new Writable({
      write(chunk: Buffer | string, _encoding, callback) {
        drawn += chunk.toString();
        callback();
      },
    }),
    { isTTY: true, columns: 80 },
  );
  /** Types `keys` and returns once the session's readline has taken them. */
  const type = async (keys: string) => {
    const taken = once(input, "data");
    input.write(keys);
    await taken;
  };
  return { input, output, type, drawn: () => drawn };
}

describe("SessionLines.hideTyping", () => {
  it("drops a secret typed in part when its card ends without Enter: the next prompt does not draw it, Enter does not run it", async () => {
    const { input, output, type, drawn } = terminal();
    const lines = new SessionLines(input, output);
    try {
      const reveal = lines.hideTyping();
      await type("hunter2");
      reveal(); // the card timed out, or the run ended
      lines.prompt();
      await type("\r");
      expect(await lines.next()).toBe("");
      expect(drawn()).not.toContain("hunter2");
      expect(drawn()).toContain("tool> ");
    } finally {
      lines.close();
    }
  });

  it("leaves an entered secret to its card, and the next line to the prompt", async () => {
    const { input, output, type, drawn } = terminal();
    const lines = new SessionLines(input, output);
    try {
      const answer = await lines.duringCard(async () => {
        const reveal = lines.hideTyping();
        const read = once(lines.cardInput, "data");
        await type("s3cret\r");
        const [chunk] = (await read) as [Buffer];
        reveal();
        return chunk.toString();
      });
      expect(answer).toBe("s3cret\n");
      lines.prompt();
      await type("read path=a.ts\r");
      expect(await lines.next()).toBe("read path=a.ts");
      expect(drawn()).not.toContain("s3cret");
      expect(drawn()).toContain("read path=a.ts");
    } finally {
      lines.close();
    }
  });

  it("drops an answer typed in part to a card that ends without Enter, so Enter at the next prompt does not run it", async () => {
    const { input, output, type } = terminal();
    const lines = new SessionLines(input, output);
    try {
      await lines
        .duringCard(async () => {
          await type("2: keep the old");
          throw new Error("taken down: timed out");
        })
        .catch(() => undefined);
      lines.prompt();
      await type("\r");
      expect(await lines.next()).toBe("");
    } finally {
      lines.close();
    }
  });
});
