import type { CardEvents, CardReply, CardRequest, QuestionPort } from "@tools/ask";
import { HeldQueue } from "./held-queue.js";

/** A stream lines are written to (stdout, stderr). */
type LineStream = Pick<NodeJS.WritableStream, "write">;

/**
 * Lines written to the terminal while a card is open there wait until it is settled: written at
 * once they would land on the reply being typed at the card's prompt (`> blue is  worker w1 …`).
 * The background workers' notices and the model's next calls come and go while the operator
 * types. A line with a key replaces the held one with the same key (a worker's progress: its
 * latest only).
 */
export class HeldLines {
  private openCards = 0;
  private readonly held = new HeldQueue<{ stream: LineStream; text: string }>();

  /** Writes `text` (whole lines) to `stream`, or holds it while a card is open. */
  write(stream: LineStream, text: string, key?: string): void {
    if (this.openCards === 0) {
      stream.write(text);
      return;
    }
    this.held.hold({ stream, text }, key);
  }

  /** `port`, with the lines written while one of its cards is asked held until it is settled. */
  port(port: QuestionPort): QuestionPort {
    return {
      ...(port.reportsShown === undefined ? {} : { reportsShown: port.reportsShown }),
      attached: () => port.attached(),
      ask: (request: CardRequest, signal: AbortSignal, events?: CardEvents): Promise<CardReply> => {
        this.openCards += 1;
        const settled = () => {
          this.openCards -= 1;
          if (this.openCards === 0) this.flush();
        };
        const asked = port.ask(request, signal, events);
        asked.then(settled, settled);
        return asked;
      },
    };
  }

  /** Writes what was held, in order. */
  flush(): void {
    for (const { stream, text } of this.held.take()) stream.write(text);
  }
}
