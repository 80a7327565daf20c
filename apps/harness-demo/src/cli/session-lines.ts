import { clearScreenDown, createInterface, cursorTo, moveCursor, type Interface } from "node:readline";
import { PassThrough, Writable } from "node:stream";
import { HeldQueue } from "./held-queue.js";

/** The prompt of a tool call. */
export const toolPrompt = "tool> ";
/** The prompt while a card waits for its answer (the card port draws the same). */
const cardPrompt = "> ";

/**
 * The one reader of the terminal for a whole interactive session: one readline interface, and a
 * queue of the lines typed or pasted at it, so several lines that arrive in one chunk (a paste, a
 * pipe) are each run in turn. While a card is open ({@link duringCard}) the queue is paused: typed
 * lines go to {@link cardInput}, which the terminal question port reads, instead.
 */
export class SessionLines {
  /** Where a card's answers go while one is open; the terminal question port's input. */
  readonly cardInput = new PassThrough();
  /**
   * Where the terminal question port draws cards: the session's output, without `isTTY`, so the
   * port reads {@link cardInput} line by line and leaves the line editing to the session's
   * readline (which echoes what is typed).
   */
  readonly cardOutput: Writable;
  private readonly readline: Interface;
  private readonly queue: string[] = [];
  private wake: (() => void) | undefined;
  private openCards = 0;
  private ended = false;
  /** While a secret card is open: what readline draws (the typed characters) goes nowhere. */
  private hidden = false;
  /** While a card is open: the tool calls' history, put back when the last card ends. */
  private toolHistory: string[] = [];
  /**
   * True while the tool prompt is drawn and waits for its line. The readline's prompt is
   * {@link toolPrompt} only then: while a call runs, what is typed ahead shows without one, and
   * the readline draws it (and its notices are drawn over it) as it is on the screen.
   */
  private prompted = false;
  /** What was typed at the tool prompt (or ahead) when a card opened: put back when it ends. */
  private typedAside = "";
  /**
   * Notices that came while a card was open: shown when it ends, so none breaks into a card. One
   * with a key is the latest of its kind (a worker's progress): it takes the place of the one held.
   */
  private readonly heldNotices = new HeldQueue<string>();
  /** Told of Ctrl+D on a card's empty line. */
  private readonly cardEndListeners: (() => void)[] = [];

  constructor(
    input: NodeJS.ReadableStream,
    private readonly output: NodeJS.WritableStream & { isTTY?: boolean; columns?: number },
  ) {
    this.cardOutput = new Writable({
      // Written through at once (and acknowledged at once), so card text keeps its order with
      // what the session writes directly.
      write(chunk: Buffer | string, _encoding, callback) {
        output.write(chunk);
        callback();
      },
    });
    this.readline = createInterface({
      input,
      output: this.echo(),
      terminal: output.isTTY === true,
      prompt: "",
      crlfDelay: Infinity,
    });
    // A secret typed at a card must not come back with the up arrow at the next tool prompt
    // (Node lets a 'history' listener change the list; the newest line is first).
    this.readline.on("history", (history: string[]) => {
      if (this.hidden) history.shift();
    });
    this.readline.on("line", (line) => {
      // The Enter that ended a hidden line was not drawn either.
      if (this.hidden) this.output.write("\n");
      if (this.openCards > 0) {
        this.cardInput.write(`${line}\n`);
        return;
      }
      this.prompted = false;
      this.readline.setPrompt("");
      this.queue.push(line);
      this.wake?.();
    });
    if (this.readline.terminal) {
      // Ctrl+D on a card's empty line ends that card, declined, and the session goes on: Node's
      // readline closes on it, and the whole session went with it. This runs before readline's
      // own handler, which on a line that is not empty deletes right instead of closing.
      input.prependListener(
        "keypress",
        (_text: unknown, key?: { ctrl?: boolean; meta?: boolean; name?: string }) => {
          if (this.openCards === 0 || key?.ctrl !== true || key.meta === true || key.name !== "d") return;
          const editor = this.readline as unknown as { line: string; cursor: number };
          if (editor.line !== "") return;
          editor.line = " ";
          editor.cursor = 0;
          setImmediate(() => {
            if (this.openCards === 0 || this.ended) return;
            this.output.write("^D\n");
            for (const listener of this.cardEndListeners) listener();
          });
        },
      );
    }
    this.readline.on("close", () => {
      this.ended = true;
      this.cardInput.end();
      this.wake?.();
    });
  }

  /** True once the input ended or the session was closed (lines already queued are still served). */
  get closed(): boolean {
    return this.ended;
  }

  /** True while a card waits for its answer. */
  get cardOpen(): boolean {
    return this.openCards > 0;
  }

  /** Shows the prompt (after the previous call's output), keeping what was typed ahead. */
  prompt(): void {
    this.prompted = !this.ended;
    if (!this.ended) {
      this.readline.setPrompt(toolPrompt);
      this.readline.prompt(true);
    }
    // Input ended with lines still queued (a pipe): each still gets its prompt, as typed ones do.
    else if (this.queue.length > 0) this.output.write(toolPrompt);
  }

  /**
   * Shows a line of its own (a background worker's notice) whatever the session is doing: at the
   * tool prompt, above it, the prompt and what was typed at it drawn again below, the cursor where
   * it was; while a call runs, after its output so far (above what was typed ahead, drawn again
   * below it); while a card is open, once the card ends. A notice with a `key` held for a card
   * replaces the one with that key held before it (a worker's progress line: a card open for
   * minutes would else leave hundreds of stale ones to scroll past when it ends).
   */
  notice(text: string, key?: string): void {
    if (this.openCards > 0) {
      this.heldNotices.hold(text, key);
      return;
    }
    this.print(`${text}\n`);
  }

  /**
   * Writes `text` (whole lines: a call's result, its progress) above the tool prompt and what was
   * typed at it, or above what is typed ahead while a call runs, drawing that again below it: it
   * was written onto the typed text (`read path=helok`). While a card is open, as it comes.
   */
  print(text: string): void {
    if (
      this.openCards > 0 ||
      this.ended ||
      !this.readline.terminal ||
      (!this.prompted && this.readline.line === "")
    ) {
      this.output.write(text);
      return;
    }
    // Back to where the prompt (or what was typed ahead) starts, typing may have wrapped it over
    // rows; cleared from there.
    moveCursor(this.output, 0, -this.readline.getCursorPos().rows);
    cursorTo(this.output, 0);
    clearScreenDown(this.output);
    this.output.write(text);
    // Node's readline moves up by the rows it drew last before it draws the line again: none now.
    (this.readline as unknown as { prevRows: number }).prevRows = 0;
    this.readline.prompt(true);
  }

  /** The next line typed at the prompt, in order; undefined once input ended and none is left. */
  async next(): Promise<string | undefined> {
    for (;;) {
      const line = this.queue.shift();
      if (line !== undefined) return line;
      if (this.ended) return undefined;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
      this.wake = undefined;
    }
  }

  /**
   * Hides what is typed, as a password prompt does, until the returned function is called: the
   * session's readline still edits the line (backspace, Ctrl+U, Ctrl+C), but draws nothing of it,
   * and the line is kept out of its history. For a secret card, from when it is drawn. When the
   * card ends without the line being entered (a timeout, the run ending), what was typed of the
   * secret is dropped, unseen, before typing shows again: else the next prompt would draw it, and
   * Enter would run it as a tool call.
   */
  hideTyping(): () => void {
    this.hidden = true;
    return () => {
      if (this.readline.terminal && this.readline.line !== "") this.clearLine();
      this.hidden = false;
    };
  }

  /** Drops what was typed on the line so far (Ctrl+E, Ctrl+U), as a shell does at Ctrl+C. */
  private clearLine(): void {
    this.readline.write(null, { ctrl: true, name: "e" });
    this.readline.write(null, { ctrl: true, name: "u" });
  }

  /**
   * The stream the session's readline draws on: the terminal, except while typing is hidden. It
   * has the terminal's width (and its resize events), so line editing wraps as before.
   */
  private echo(): Writable {
    const output = this.output;
    const echo = new Writable({
      write: (chunk: Buffer | string, _encoding, callback) => {
        if (!this.hidden) output.write(chunk);
        callback();
      },
    });
    Object.defineProperty(echo, "columns", { get: () => output.columns });
    output.on("resize", () => echo.emit("resize"));
    return echo;
  }

  /**
   * Runs `work` (a card being asked) with typed lines going to {@link cardInput}. What was typed
   * for the card and not entered when it ends (taken down: a timeout, a cancel, the run ending) is
   * dropped: else the next prompt would show it and Enter would run it as a tool call.
   */
  async duringCard<T>(work: () => Promise<T>): Promise<T> {
    if (this.openCards++ === 0) {
      // What was typed at the tool prompt (a background worker's card opens at it), or ahead
      // while a call runs, is no answer to the card: kept aside, off the line, until it ends.
      this.typedAside = this.readline.terminal ? this.readline.line : "";
      if (this.typedAside !== "") this.clearLine();
      this.readline.setPrompt(cardPrompt);
      // The up arrow at a card must not bring back a tool call (Enter would send it as the
      // answer), nor a card's answer come back at the tool prompt: a card has a history of its own.
      this.toolHistory = this.history.splice(0);
      this.historyState.historyIndex = -1;
    }
    try {
      return await work();
    } finally {
      if (this.readline.terminal && this.readline.line !== "") this.clearLine();
      if (--this.openCards === 0) {
        this.readline.setPrompt(this.prompted ? toolPrompt : "");
        this.history.splice(0, this.history.length, ...this.toolHistory);
        this.historyState.historyIndex = -1;
        this.toolHistory = [];
        const aside = this.typedAside;
        this.typedAside = "";
        if (!this.ended && this.readline.terminal) {
          // A card that opened at the tool prompt: the prompt again below it, what was typed on it.
          if (this.prompted) {
            (this.readline as unknown as { prevRows: number }).prevRows = 0;
            this.readline.prompt(true);
          }
          if (aside !== "") this.readline.write(aside);
        }
        for (const text of this.heldNotices.take()) this.notice(text);
      }
    }
  }

  /** The readline's history list, newest first. */
  private get history(): string[] {
    return this.historyState.history;
  }

  /** Where Node keeps the history and the up arrow's place in it: on the interface, not in its types. */
  private get historyState(): { history: string[]; historyIndex: number } {
    return this.readline as unknown as { history: string[]; historyIndex: number };
  }

  /**
   * Listens for Ctrl+C typed at the terminal (the readline's `SIGINT`): what was typed on the line
   * so far is dropped, as a shell does, then `listener` runs, told whether anything was dropped.
   */
  onInterrupt(listener: (dropped: boolean) => void): void {
    this.readline.on("SIGINT", () => {
      const dropped = this.readline.line !== "";
      if (this.readline.terminal) this.clearLine();
      this.output.write("^C\n");
      listener(dropped);
    });
  }

  /**
   * Listens for Ctrl+D typed on a card's empty line (at the tool prompt it ends the input, and the
   * session, as before).
   */
  onEndAtCard(listener: () => void): void {
    this.cardEndListeners.push(listener);
  }

  /** Stops reading the terminal; lines still queued are still served by {@link next}. */
  close(): void {
    this.readline.close();
  }
}
