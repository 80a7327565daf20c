import { createInterface } from "node:readline";
import { Writable } from "node:stream";
import { countNoun, errorMessage } from "@tools/registry";
import { parseReply, type CardReply } from "../card/reply.js";
import { AskError } from "../errors/ask-error.js";
import type { CardEvents, CardRequest, QuestionPort } from "../port/question-port.js";
import { bracketedPaste, readPastesAsText } from "./bracketed-paste.js";
import { rowsOf, wrapLines } from "./wrap-lines.js";

/** Options of {@link TerminalQuestionPort}. */
export interface TerminalQuestionPortOptions {
  /** Where replies are typed; default `process.stdin`. */
  input?: NodeJS.ReadableStream & { isTTY?: boolean };
  /**
   * Where cards are drawn; default `process.stdout`. A TTY's `columns` folds the card's lines at
   * spaces to its width, so the terminal never breaks a word.
   */
  output?: NodeJS.WritableStream & { isTTY?: boolean; columns?: number; rows?: number };
  /**
   * Is a human there? Default: both streams are TTYs and input has not ended. A harness that
   * knows better (an idle timer, a "away" toggle) passes its own.
   */
  attached?: () => boolean;
}

function describeReply(reply: CardReply, secret: boolean): string {
  if (reply.kind === "decline") return "declined";
  if (secret) return "answered (a secret, not shown)";
  const parts = [...reply.selected];
  if (reply.text) parts.push(JSON.stringify(reply.text));
  return `answered: ${parts.join(", ")}`;
}

/**
 * A question port on a terminal: draws the card (the same text as every port), then reads
 * lines at a `> ` prompt until one is a valid reply — "2", "1,3", "2: a note", typed text, "0"
 * to decline, or "0: reason" to decline saying why; an invalid line is explained and asked
 * again. Ctrl+C declines. Input typed before the card appeared is ignored, never taken as a
 * reply. A reply is one line: lines pasted after it go nowhere, and the port says how many. One
 * card at a time: a second question waits until the first is settled, and its time to answer
 * starts when it is drawn ({@link QuestionPort.reportsShown}). Not attached when stdin
 * is not a TTY, so a headless run fails its questions at once. A secret card (`Card.secret`)
 * is read without echo, as a password prompt is: nothing typed is drawn (not even a mask, which
 * would tell its length), Ctrl+C still declines, and the answer is never written back.
 */
export class TerminalQuestionPort implements QuestionPort {
  /** Cards queue here, so the port says when each is drawn. */
  readonly reportsShown = true;

  private readonly input: NodeJS.ReadableStream & { isTTY?: boolean };
  private readonly output: NodeJS.WritableStream & { isTTY?: boolean; columns?: number; rows?: number };
  private readonly isAttached: (() => boolean) | undefined;
  private ended = false;
  private queue: Promise<unknown> = Promise.resolve();
  /** Takes down the card being drawn, if any. */
  private takeDown: (() => void) | undefined;

  constructor(options: TerminalQuestionPortOptions = {}) {
    this.input = options.input ?? process.stdin;
    this.output = options.output ?? process.stdout;
    this.isAttached = options.attached;
    this.input.once("end", () => {
      this.ended = true;
    });
  }

  attached(): boolean {
    if (this.isAttached) return this.isAttached();
    return this.input.isTTY === true && this.output.isTTY === true && !this.ended;
  }

  ask(request: CardRequest, signal: AbortSignal, events?: CardEvents): Promise<CardReply> {
    const turn = this.queue.then(() => this.show(request, signal, events));
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  /** Takes down the card being shown, if any (the run is ending). */
  dispose(): void {
    this.takeDown?.();
    this.takeDown = undefined;
  }

  /**
   * Sets up a card drawn on a terminal, and undoes it (once, by the returned function) however the
   * card ends:
   * - a resize redraws the card by `redraw.resized` once the terminal has been quiet for
   *   {@link resizeQuietMs} (the old drawing, folded for the old width, would be wrapped and
   *   garbled by the terminal; dragging a window's edge sends many resizes, drawn once);
   * - pastes are read as text in bracketed paste mode ({@link readPastesAsText});
   * - the process exiting, or a SIGTERM, SIGHUP or SIGINT (from outside: Ctrl+C at the card is a
   *   key, which declines) turns paste mode off, so the shell never gets a terminal that wraps each
   *   paste in markers. A signal nobody else listens for then kills the process by that signal, as
   *   it would have without the card (raw mode off first, and the card's end written by
   *   `redraw.killed`, so the shell's next line starts on a row of its own); when the host listens
   *   for it, the host decides what happens next. Nothing is listened for while no card is up;
   * - Ctrl+Z, or a SIGTSTP from outside that nobody else listens for, turns paste mode and raw mode
   *   off before stopping the process, and `fg` turns them on again and draws the card anew by
   *   `redraw.continued`, the line being typed kept. Ctrl+Z with a host that listens for SIGTSTP
   *   raises it to the host the same way, and sets the terminal up and draws the card again once
   *   the process is resumed, or once {@link hostStopWaitMs} have passed after the host's listener
   *   with the process not stopped (then paste mode only at the card's next read: the host may
   *   stop the process later still).
   */
  private drawnOnTerminal(
    readline: ReturnType<typeof createInterface>,
    redraw: {
      resized: () => void;
      stopped: () => void;
      continued: () => void;
      killed: (signal: NodeJS.Signals) => void;
    },
  ): () => void {
    const stopPastes = readPastesAsText(this.input, readline);
    const input = this.input as { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
    const setRawMode = (mode: boolean) => {
      if (input.isTTY !== true || typeof input.setRawMode !== "function") return;
      try {
        input.setRawMode(mode);
      } catch {
        // A terminal that went away: there is no mode left to set. (A tty stream emits its error
        // instead, which the card handles as the terminal closing.)
      }
    };
    let resizing: ReturnType<typeof setTimeout> | undefined;
    const onResize = () => {
      clearTimeout(resizing);
      resizing = setTimeout(() => {
        resizing = undefined;
        redraw.resized();
      }, resizeQuietMs);
    };
    const onExit = () => {
      this.output.write(bracketedPaste.off);
    };
    const onSignal = (signal: NodeJS.Signals) => {
      release();
      // The host's own handler runs next and decides: Node would not have ended the process.
      if (process.listenerCount(signal) > 0) return;
      setRawMode(false);
      redraw.killed(signal);
      process.kill(process.pid, signal);
    };
    // Paste mode turned on again by the next read of the input, not yet (see `afterHost`); then,
    // when that read was a paste sent unmarked, the rest of it still to come.
    let pasteOnRead: { first: (chunk: unknown) => void; after: () => void; end: () => void } | undefined;
    const stopWaitingForRead = () => {
      if (!pasteOnRead) return;
      const { first, after, end } = pasteOnRead;
      this.input.removeListener("data", first);
      this.input.removeListener("data", after);
      pasteOnRead = undefined;
      end();
    };
    // The keys that reach the card before paste mode is on again: typed, they come one a read (an
    // arrow's escape sequence is one key); several in one read with a line break among them are a
    // paste the terminal sent unmarked, read as a paste all the same, so its line breaks never
    // submit the reply. A paste longer than one read (a terminal's input buffer holds 4 KiB) goes
    // on in the reads that follow it within {@link unmarkedPasteGapMs}: sent before paste mode
    // was on, they are unmarked too.
    const waitForRead = () => {
      stopWaitingForRead();
      let read = false;
      let pasting = false;
      let quiet: ReturnType<typeof setTimeout> | undefined;
      const first = (chunk: unknown) => {
        if (read) {
          // A later read within the unmarked paste: its keys are the paste's, but for a control
          // key alone (Ctrl+C, Ctrl+D, Ctrl+Z), which is typed, never pasted: the paste has ended.
          if (pasting && controlKeyAlone.test(String(chunk))) stopWaitingForRead();
          return;
        }
        read = true;
        this.output.write(bracketedPaste.on);
        const text = String(chunk);
        pasting = text.length > 1 && /[\r\n]/.test(text);
        // Before readline's decoder (listening on 'data' since it was made) reads the chunk's keys.
        if (pasting) this.input.emit("keypress", undefined, { name: "paste-start", sequence: "\u001b[200~" });
      };
      const after = () => {
        if (!pasting) {
          stopWaitingForRead();
          return;
        }
        clearTimeout(quiet);
        quiet = setTimeout(stopWaitingForRead, unmarkedPasteGapMs);
      };
      const end = () => {
        clearTimeout(quiet);
        if (!pasting) return;
        pasting = false;
        this.input.emit("keypress", undefined, { name: "paste-end", sequence: "\u001b[201~" });
      };
      pasteOnRead = { first, after, end };
      this.input.prependListener("data", first);
      this.input.on("data", after);
    };
    // `pasteNow` false: paste mode waits for the next read of the input (see `afterHost`).
    const setUp = (pasteNow: boolean) => {
      if (released) return;
      clearTimeout(hostWait);
      hostWait = undefined;
      stopWaitingForRead();
      process.removeListener("SIGCONT", onContinue);
      process.removeListener("SIGTSTP", afterHost);
      process.removeListener("SIGTSTP", onOutsideStop);
      process.on("SIGTSTP", onOutsideStop);
      // Off first: stopped by a host after the card was set up again (see `afterHost`), the process
      // finds the terminal as the shell left it, and Node does not set raw mode it thinks is on.
      setRawMode(false);
      setRawMode(true);
      if (pasteNow) this.output.write(bracketedPaste.on);
      else waitForRead();
      redraw.continued();
    };
    const onContinue = () => setUp(true);
    // Readline calls this on Ctrl+Z instead of stopping the process itself.
    const onStop = () => {
      redraw.stopped();
      stopWaitingForRead();
      this.output.write(`${bracketedPaste.off}\n`);
      setRawMode(false);
      // Not listened for by the card while stopping, so the signal stops the process, as by default.
      process.removeListener("SIGTSTP", onOutsideStop);
      process.removeListener("SIGCONT", onContinue);
      process.once("SIGCONT", onContinue);
      const byDefault = process.listenerCount("SIGTSTP") === 0;
      if (!byDefault) {
        // The host listens for SIGTSTP and decides: called after its listener, once.
        process.removeListener("SIGTSTP", afterHost);
        process.once("SIGTSTP", afterHost);
      }
      process.kill(process.pid, "SIGTSTP");
      if (!byDefault) return;
      // The kernel drops a stop signal to an orphaned process group (a program run by tmux, ssh -t,
      // docker run -it or a terminal directly, with no shell to resume it): not stopped, the card
      // carries on as on fg, so the terminal is not left echoing and editing nothing. Stopped, the
      // process sees its SIGCONT in the next poll phase, before the second immediate.
      setImmediate(() =>
        setImmediate(() => {
          if (process.listeners("SIGCONT").includes(onContinue)) onContinue();
        }),
      );
    };
    // Ctrl+Z raised to a host that listens for SIGTSTP: its listener has run. Stopped and resumed
    // in it, or within {@link hostStopWaitMs} after it (a host that flushes its logs first), the
    // process sees a SIGCONT, and the card carries on as on fg, the terminal given to the shell as
    // it needs it. Not stopped by then, raw mode is set again and the card drawn anew: left cooked,
    // the terminal would echo keys and send Ctrl+C as a SIGINT that kills the process rather than
    // declining. Paste mode waits for the card's next read (a key, or a paste read as one
    // unmarked): the host may still stop the process later, and a shell sets its terminal's modes
    // back for a stopped job (bash, zsh and fish do) but not paste mode, which would wrap its
    // pastes in markers until fg. fg sets the card up and draws it again.
    let hostWait: ReturnType<typeof setTimeout> | undefined;
    const afterHost = () => {
      clearTimeout(hostWait);
      hostWait = setTimeout(() => {
        hostWait = undefined;
        if (!process.listeners("SIGCONT").includes(onContinue)) return;
        setUp(false);
        process.once("SIGCONT", onContinue);
      }, hostStopWaitMs);
    };
    // A SIGTSTP from outside (`kill -TSTP`): stopped as by Ctrl+Z, the terminal given back first.
    // A host that listens for it itself decides what it means.
    const onOutsideStop = () => {
      if (process.listenerCount("SIGTSTP") > 1) return;
      onStop();
    };
    this.output.write(bracketedPaste.on);
    process.once("exit", onExit);
    for (const signal of endingSignals) process.on(signal, onSignal);
    readline.on("SIGTSTP", onStop);
    process.on("SIGTSTP", onOutsideStop);
    this.output.on("resize", onResize);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      clearTimeout(resizing);
      clearTimeout(hostWait);
      stopWaitingForRead();
      this.output.removeListener("resize", onResize);
      readline.removeListener("SIGTSTP", onStop);
      process.removeListener("SIGTSTP", onOutsideStop);
      process.removeListener("SIGTSTP", afterHost);
      stopPastes();
      process.removeListener("exit", onExit);
      for (const signal of endingSignals) process.removeListener(signal, onSignal);
      process.removeListener("SIGCONT", onContinue);
      this.output.write(bracketedPaste.off);
    };
    return release;
  }

  /**
   * Counts what arrives in the same read as a reply's line — the rest of a multi-line paste, which
   * the reply (one line) does not take — and says so once the read is over, so the human knows it
   * went nowhere. A terminal reads key by key, so its keys are counted; a line-by-line input
   * reports its lines through the returned count. Nothing of a secret card's paste is quoted.
   * `then` runs after the note, if any, is written.
   */
  private countPastedAfter(terminal: boolean, secret: boolean, then: () => void): PastedAfter {
    const counted: PastedAfter = { lines: 0 };
    let typedInPart = false;
    // The reply's line ended with a return: a "\n" right after it is the rest of that CRLF.
    let afterReturn = true;
    const onKey = (_text: string | undefined, key: { name?: string } | undefined) => {
      const name = key?.name;
      if (name === "return" || (name === "enter" && !afterReturn)) {
        counted.lines++;
        typedInPart = false;
      } else if (name !== "enter" && !name?.startsWith("paste-")) typedInPart = true;
      afterReturn = name === "return";
    };
    if (terminal) this.input.on("keypress", onKey);
    setImmediate(() => {
      this.input.removeListener("keypress", onKey);
      const ignored = counted.lines + (typedInPart ? 1 : 0);
      if (ignored > 0) {
        const what = `${ignored} more ${countNoun(ignored, "lines")}`;
        this.output.write(
          this.folded(
            `  (${what} pasted after the ${secret ? "secret" : "reply"} went nowhere: a reply is one line)\n`,
          ),
        );
      }
      then();
    });
    return counted;
  }

  /**
   * `text` folded at spaces to the terminal's width, as the card is: what the card writes stays in
   * the scrollback after it ends (how it ended, a note), and the terminal would break its words.
   */
  private folded(text: string): string {
    const columns = this.output.isTTY === true ? this.output.columns : undefined;
    return columns === undefined ? text : wrapLines(text, columns);
  }

  private show(
    request: CardRequest,
    signal: AbortSignal,
    events: CardEvents | undefined,
  ): Promise<CardReply> {
    if (signal.aborted) return Promise.reject(takenDown(signal));
    // The terminal closed while this card was queued behind another: nobody will see it.
    if (this.ended)
      return Promise.reject(
        new AskError({ code: "ASK_NO_HUMAN", message: "the terminal closed before the card was shown" }),
      );
    const secret = request.card.secret === true;
    // A secret typed at a terminal: readline still edits the line (backspace, Ctrl+U, Ctrl+C), but
    // what it draws goes nowhere, so no character of the secret reaches the screen. A terminal as
    // input alone (output redirected) is read the same way: its raw mode stops the terminal's own
    // echo, which a line-by-line read would leave on.
    const hidden = secret && (this.output.isTTY === true || this.input.isTTY === true);
    const terminal = this.output.isTTY === true || hidden;
    return new Promise<CardReply>((resolve, reject) => {
      // The terminal gone (its tmux server or ssh session killed): setting raw mode and writing fail
      // with EIO, emitted as 'error' on the streams — by readline's own close too, which passes the
      // input's error on to the readline. Unhandled, such an error would crash the host. While the
      // card is up they are the card's: it ends as the terminal closing. After it, the host's
      // streams are as the host left them: the listeners go once the card's last write has failed
      // or not (its error comes in a later tick, before the next immediate).
      let closeCard: (() => void) | undefined;
      // An error before the card is up: the terminal was gone already (see below).
      let goneBefore = false;
      const onStreamError = () => {
        if (closeCard) closeCard();
        else goneBefore = true;
      };
      this.input.on("error", onStreamError);
      this.output.on("error", onStreamError);
      const unguard = () =>
        setImmediate(() => {
          this.input.removeListener("error", onStreamError);
          this.output.removeListener("error", onStreamError);
        });
      const before = new Map(readlineEvents.map((event) => [event, this.input.listeners(event)]));
      // The input as the host has it before the card: a host that reads its terminal itself (a TUI,
      // a chat prompt) keeps its raw mode and its reading after the card. Readline, as it closes,
      // sets raw mode off and pauses the input.
      const host = this.input as { isRaw?: boolean; readableFlowing?: boolean | null };
      const hostRaw = host.isRaw === true;
      const hostReading = host.readableFlowing === true;
      const closeReadline = () => {
        readline.close();
        if (hostRaw) {
          try {
            (this.input as { setRawMode?: (mode: boolean) => unknown }).setRawMode?.(true);
          } catch {
            // The terminal is gone: there is no mode left to set.
          }
        }
        if (hostReading) this.input.resume();
      };
      let readline: ReturnType<typeof createInterface>;
      try {
        readline = createInterface({
          input: this.input,
          output: hidden ? discard() : this.output,
          terminal,
          prompt: "> ",
        });
      } catch (error) {
        // Readline sets raw mode as it is made, passing the input's error on as its own, with
        // nobody listening yet: it throws. What the half-made readline left on the input goes, or
        // it would throw each later error of the input at the host, which may handle them itself.
        for (const [event, listeners] of before)
          for (const listener of this.input.listeners(event))
            if (!listeners.includes(listener)) this.input.removeListener(event, listener as () => void);
        unguard();
        // A terminal gone before the card opened (its tmux server or ssh session killed): setting
        // raw mode failed (EIO), and nothing was drawn.
        reject(
          goneBefore
            ? new AskError({ code: "ASK_NO_HUMAN", message: "the terminal closed before the card was shown" })
            : error,
        );
        return;
      }
      // The card's own: what readline passes on never reaches the host, during or after the card.
      readline.on("error", onStreamError);
      const prompt = () => {
        readline.prompt();
        if (hidden) this.output.write("> ");
      };
      // What is drawn below the card: notes, and each refused line with why. A redraw draws them again,
      // a note folded for the terminal's width then (a line readline echoed, as the terminal wraps it).
      const below: { text: string; folded: boolean }[] = [];
      const drawnBelow = () => below.map(({ text, folded }) => (folded ? this.folded(text) : text)).join("");
      // What is on the screen from the card's first row to the prompt: the card and the notes as last
      // drawn (a card taller than the terminal, from its end), then what was written under them since.
      let shown = "";
      const addBelow = (text: string) => {
        below.push({ text, folded: false });
        shown += text;
      };
      const note = (text: string) => {
        below.push({ text, folded: true });
        const drawn = this.folded(text);
        shown += drawn;
        this.output.write(drawn);
      };
      let done = false;
      // Lines typed before the card was drawn sit in the terminal's buffer and arrive on the first
      // read after resume; they answer nothing (a stray "1" must never approve a call). One event
      // loop turn has a poll phase between the two hops, so the buffer is drained before arming.
      let armed = false;
      let warned = false;
      // The prompt appears only once armed: "> " means typing now counts.
      setImmediate(() =>
        setImmediate(() => {
          if (done) return;
          armed = true;
          prompt();
        }),
      );
      // Undoes what drawing the card set up on the terminal, on every way the card ends.
      let release = () => {};
      // A card ended by no Enter (a timeout, a cancel, Ctrl+C): past the line being typed, so what is
      // written next starts a line of its own, never on the prompt's or over what was typed.
      const leavePrompt = () => {
        const echoed = terminal && !hidden;
        if (!armed && !(echoed && readline.line !== "")) return;
        if (echoed) readline.write("", { name: "end" });
        this.output.write("\n");
      };
      // `answered`: the note on a paste may still be written, and unguards the streams after it.
      const finish = (line: string, answered = false) => {
        done = true;
        release();
        signal.removeEventListener("abort", onAbort);
        this.output.write(this.folded(`  ${line}\n`));
        closeReadline();
        if (this.takeDown === onDispose) this.takeDown = undefined;
        if (!answered) unguard();
      };
      // The run is ending: the card is taken down, which is not the terminal closing.
      const onDispose = () => {
        if (done) return;
        const reason = "the card was taken down (the run is ending)";
        leavePrompt();
        finish(`(no answer recorded: ${reason})`);
        reject(new AskError({ code: "ASK_NO_HUMAN", message: reason }));
      };
      this.takeDown = onDispose;
      const onAbort = () => {
        leavePrompt();
        finish(`(no answer recorded: ${errorMessage(signal.reason)})`);
        reject(takenDown(signal));
      };
      // Lines that came in the same paste as the reply: counted, to tell the human they went nowhere.
      let pastedAfter: PastedAfter | undefined;
      readline.on("line", (line) => {
        if (pastedAfter) pastedAfter.lines++;
        if (done) return;
        // The Enter that ended a hidden line was not drawn either.
        if (hidden) this.output.write("\n");
        if (!armed) {
          // Readline showed the line under the card (a hidden one, only its line break): a redraw
          // moves up over it too.
          addBelow(`${hidden ? "" : line}\n`);
          if (!warned) note("  (ignored what was typed before the card appeared)\n");
          warned = true;
          return;
        }
        try {
          const reply = parseReply(request.card, line);
          finish(`-> ${describeReply(reply, secret)}`, true);
          // Settled once the read is over, so the note on a paste comes before what follows.
          pastedAfter = this.countPastedAfter(terminal, secret, () => {
            unguard();
            resolve(reply);
          });
        } catch (error) {
          // The refused line stays on the screen, as typed (a secret's is not drawn).
          addBelow(`> ${hidden ? "" : line}\n`);
          note(`  ! ${errorMessage(error)}\n`);
          prompt();
        }
      });
      readline.on("SIGINT", () => {
        if (done) return;
        leavePrompt();
        finish("-> declined (Ctrl+C)");
        resolve({ kind: "decline", reason: "dismissed with Ctrl+C" });
      });
      // Ctrl+D, the end of input, or the terminal gone (an error on its streams).
      // `pressed`: readline closed itself on Ctrl+D at an empty line, the terminal still there.
      const closed = (pressed = false) => {
        if (done) return;
        done = true;
        release();
        signal.removeEventListener("abort", onAbort);
        const reason = pressed
          ? "the input was ended with Ctrl+D at the card"
          : "the terminal closed before an answer";
        // The card says it ended, as a timeout's does, so what is written next does not run on from
        // its prompt. (Written nowhere, when the terminal is gone.)
        this.output.write(this.folded(`\n  (no answer recorded: ${reason})\n`));
        // After this turn: an error raised by readline's own close is followed by its 'close'.
        process.nextTick(closeReadline);
        if (this.takeDown === onDispose) this.takeDown = undefined;
        unguard();
        reject(new AskError({ code: "ASK_NO_HUMAN", message: reason }));
      };
      // Readline closes on the end of input (the port saw it end first) and on Ctrl+D; an error on the
      // streams closes the card through `closeCard`.
      readline.on("close", () => closed(terminal && !this.ended));
      closeCard = () => closed();
      signal.addEventListener("abort", onAbort, { once: true });
      // Folded at spaces to the terminal's width (a narrow one would break words, and the rule).
      const tty = this.output.isTTY === true;
      const draw = () => this.folded(request.text);
      // Draws the card and the notes under it again after `start`, then the prompt with the line being
      // typed, on the screen as it is: what is taller than the terminal is drawn from its end, what is
      // cut said on its first row. Drawn whole, its top would go to the scrollback again on every
      // redraw (a resize, an fg), a copy each time.
      const drawAgain = (start: string, lineRows: number) => {
        shown = `${draw()}${drawnBelow()}`;
        const { columns, rows } = this.output;
        // A terminal that does not know its height (0 rows) gets the whole card.
        if (columns !== undefined && rows !== undefined && columns > 0 && rows > 0) {
          const typing = hidden ? "> " : `> ${readline.line}`;
          // The prompt's rows, and one spare: a line that fills its last row puts the cursor below.
          const promptRows = rowsOf(`${typing}\n`, columns) + 1;
          shown = lastRows(shown, columns, rows - promptRows);
        }
        // Each row is cleared as it is drawn over (what was below is cleared by readline's redraw of
        // the prompt): a terminal may keep a whole screen cleared at once in its scrollback (tmux
        // does), a copy of the card each time.
        this.output.write(`${start}${shown.replaceAll("\n", "\n\u001b[K")}`);
        if (!armed) return;
        if (hidden) {
          this.output.write("> ");
          return;
        }
        // Where readline left its cursor, so it redraws the line being typed in place.
        this.output.write("\n".repeat(lineRows));
        readline.prompt(true);
      };
      try {
        shown = draw();
        this.output.write(`\n${shown}`);
        if (tty)
          release = this.drawnOnTerminal(readline, {
            resized: () => {
              // Readline has redrawn its line for the new width already: clear each row up to the
              // card's first (its rows counted at the new width, as the terminal now wraps them;
              // a terminal stops at its top row) and draw it again.
              const columns = this.output.columns;
              if (done || columns === undefined || columns < 1) return;
              const { rows: lineRows } = hidden ? { rows: 0 } : readline.getCursorPos();
              const up = rowsOf(shown, columns) + lineRows;
              // The rows of the typed line below the cursor (moved back into a line over several
              // rows): cleared too, or a redrawn row the terminal wraps would keep their text.
              const lineEnd = hidden ? 0 : rowsOf(`> ${readline.line}\n`, columns) - 1;
              const down = Math.max(0, lineEnd - lineRows);
              const clearBelow = down > 0 ? `${saveCursor}${clearRowBelow.repeat(down)}${restoreCursor}` : "";
              drawAgain(`${clearBelow}${clearRowAndUp.repeat(up)}${clearRow}\r`, lineRows);
            },
            // Ctrl+Z: the shell gets the terminal, and the card's time waits until it is back.
            stopped: () => events?.stopped?.(),
            // Back from Ctrl+Z: the shell wrote below the card; it is drawn again under that, from its
            // end when taller than the terminal, as on a resize.
            continued: () => {
              if (done) return;
              events?.continued?.();
              drawAgain("\n", hidden ? 0 : readline.getCursorPos().rows);
            },
            // The process is ending by a signal from outside: the line being typed is left whole,
            // and the card says on a line of its own that it was cut off, so the shell's next line
            // starts on a row of its own, never in what was typed nor after a stray empty line.
            killed: (ending) => {
              if (done) return;
              leavePrompt();
              this.output.write(
                this.folded(`  (no answer recorded: the process was ended by ${ending} before an answer)\n`),
              );
            },
          });
        events?.shown();
      } catch (error) {
        // Drawing the card failed: it is taken down as on any end, so nothing it set up stays (the
        // terminal in paste mode, its listeners, a readline taking the next card's keys).
        done = true;
        release();
        signal.removeEventListener("abort", onAbort);
        closeReadline();
        if (this.takeDown === onDispose) this.takeDown = undefined;
        unguard();
        reject(error);
      }
    });
  }
}

/** The input's events a readline listens to while it is open (its keys come through 'keypress'). */
const readlineEvents = ["error", "keypress", "end"] as const;

/** Clears the cursor's row, then moves the cursor one row up (at the top row, it stays). */
const clearRowAndUp = "\u001b[2K\u001b[A";
const clearRow = "\u001b[2K";
/** Moves the cursor one row down (at the bottom row, it stays), then clears that row. */
const clearRowBelow = "\u001b[B\u001b[2K";
const saveCursor = "\u001b7";
const restoreCursor = "\u001b8";

/** How long (ms) the terminal stays the same size before a resized card is drawn again. */
export const resizeQuietMs = 50;

/**
 * How long (ms) after its SIGTSTP listener has run a host that listens for SIGTSTP has to stop the
 * process, on Ctrl+Z, before the card is set up on the terminal again as not stopped (raw mode,
 * and paste mode once the card reads its next key).
 */
export const hostStopWaitMs = 200;

/**
 * After Ctrl+Z under a host that did not stop (see {@link hostStopWaitMs}), a paste the terminal
 * sent unmarked, before paste mode was on again, is read as one paste over the reads that follow
 * each other within this many ms (a paste longer than the terminal's input buffer comes in
 * several); a key typed after such a gap is typing again.
 */
export const unmarkedPasteGapMs = 50;

/** A read of one control key that a human types and a paste never is: Ctrl+C, Ctrl+D, Ctrl+Z. */
// eslint-disable-next-line no-control-regex -- the control keys themselves
const controlKeyAlone = /^[\u0003\u0004\u001a]$/;

/**
 * Signals that end the process by default, which send no 'exit' event: while a card is up they
 * turn bracketed paste mode off first.
 */
const endingSignals = ["SIGTERM", "SIGHUP", "SIGINT"] as const;

/**
 * `text` (lines ended by "\n", folded to `columns`) as it fits in `rows` rows of a terminal that
 * wide: whole when it fits, else its last lines under a first row saying how many lines above are
 * not drawn again — in short when the whole saying does not fit, and with no line of the text at
 * all when not even that fits (a terminal one or two rows high), so nothing drawn overflows it.
 */
function lastRows(text: string, columns: number, rows: number): string {
  if (rowsOf(text, columns) <= rows) return text;
  const lines = text.split("\n");
  // What follows the last "\n" (nothing, for a card) stays at the end.
  const tail = lines.pop() ?? "";
  const markers = [
    (cut: number) =>
      `… (${cut} ${countNoun(cut, "lines")} above not shown: make the window taller to see the whole card)\n`,
    (cut: number) => `… (${cut} ${countNoun(cut, "lines")} above not shown)\n`,
  ].map((marker) => (cut: number) => wrapLines(marker(cut), columns));
  // The first saying that fits, its rows counted for the most lines it could say.
  const marker = markers.find((saying) => rowsOf(saying(lines.length), columns) <= rows);
  if (marker === undefined) return tail;
  let kept = 0;
  let used = rowsOf(marker(lines.length), columns);
  while (kept < lines.length) {
    const next = rowsOf(`${lines[lines.length - 1 - kept]}\n`, columns);
    if (used + next > rows) break;
    used += next;
    kept++;
  }
  const shownLines = lines.slice(lines.length - kept);
  return `${marker(lines.length - kept)}${shownLines.map((line) => `${line}\n`).join("")}${tail}`;
}

/** Lines a reply is followed by in the same paste, with a line typed in part counting as one. */
interface PastedAfter {
  lines: number;
}

/** A stream that takes what is written and shows it nowhere: the echo of a secret being typed. */
function discard(): Writable {
  return new Writable({
    write(_chunk, _encoding, callback) {
      callback();
    },
  });
}

function takenDown(signal: AbortSignal): AskError {
  return new AskError({
    code: "ASK_CANCELLED",
    message: `the card was taken down (${errorMessage(signal.reason)})`,
  });
}
