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

/** What was drawn without readline's cursor moves and erases (`ESC [ 1 G`, `ESC [ 0 J`). */
function withoutMoves(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\x1b\[[0-9;]*[A-Za-z]/g, "");
}

describe("SessionLines: a card, a notice and what is typed", () => {
  it("a card that opens while a call is typed at the prompt gets only its own answer; the typed call comes back when it ends", async () => {
    const { input, output, type, drawn } = terminal();
    const lines = new SessionLines(input, output);
    try {
      lines.prompt();
      await type("read path=hel");
      // A background worker's card opens at the tool prompt.
      const answer = await lines.duringCard(async () => {
        const read = once(lines.cardInput, "data");
        await type("1\r");
        const [chunk] = (await read) as [Buffer];
        return chunk.toString();
      });
      expect(answer).toBe("1\n");
      // The tool prompt is drawn again below the card, with what was typed on it.
      expect(withoutMoves(drawn()).endsWith("\ntool> read path=hel")).toBe(true);
      await type("lo.txt\r");
      expect(await lines.next()).toBe("read path=hello.txt");
    } finally {
      lines.close();
    }
  });

  it("a notice while a call runs goes above what was typed ahead, which is drawn again below it", async () => {
    const { input, output, type, drawn } = terminal();
    const lines = new SessionLines(input, output);
    try {
      lines.prompt();
      await type("vibe_wait worker_id=w1\r");
      expect(await lines.next()).toBe("vibe_wait worker_id=w1");
      // The call runs; the operator types the next one ahead.
      await type("read path=hel");
      const before = drawn().length;
      lines.notice('  worker w1 "t" (fast) … line 5');
      const after = drawn().slice(before);
      // Erased from the start of its row, the notice on a row of its own, the typing again below.
      expect(after.startsWith("\x1b[1G\x1b[0J  worker w1")).toBe(true);
      expect(withoutMoves(after)).toBe('  worker w1 "t" (fast) … line 5\nread path=hel');
      await type("lo.txt\r");
      expect(await lines.next()).toBe("read path=hello.txt");
    } finally {
      lines.close();
    }
  });
});

describe("SessionLines.notice while a card is open", () => {
  it("holds the notices until the card ends, of those with one key only the latest, in the order they came", async () => {
    const { input, output, drawn } = terminal();
    const lines = new SessionLines(input, output);
    try {
      let shownDuringCard = "";
      await lines.duringCard(async () => {
        const before = drawn().length;
        lines.notice("w1 started");
        for (let i = 1; i <= 300; i++) lines.notice(`w1 … tick ${i}`, "w1 attempt 1");
        lines.notice("w2 … first", "w2 attempt 1");
        lines.notice("w1 is done");
        lines.notice("w1 started again");
        lines.notice("w1 … again", "w1 attempt 2");
        shownDuringCard = drawn().slice(before);
      });
      expect(shownDuringCard).toBe("");
      expect(drawn()).toBe(
        "w1 started\nw1 … tick 300\nw2 … first\nw1 is done\nw1 started again\nw1 … again\n",
      );
    } finally {
      lines.close();
    }
  });
});
