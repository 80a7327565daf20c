/** The signals that end a CLI session. */
type EndSignal = "SIGINT" | "SIGTERM";

/**
 * Takes SIGINT and SIGTERM for a session: the first one calls `onFirst`; a later one, while the
 * session is still ending its run, only says so on stderr, once. Node's default for a signal
 * is to die at once, and a second Ctrl+C in the middle of the run's shutdown would kill the CLI
 * before the SIGKILL that follows a process's grace, leaving one that ignores SIGTERM running.
 * The shutdown is bounded (the run's dispose), so holding the signals never holds the CLI for
 * long; SIGKILL still ends it. Returns the function that lets the signals go, once the run ended.
 */
export function holdSignals(who: string, onFirst: (signal: EndSignal) => void): () => void {
  let first: EndSignal | undefined;
  let told = false;
  const take = (signal: EndSignal) => {
    if (first === undefined) {
      first = signal;
      onFirst(signal);
      return;
    }
    if (told) return;
    told = true;
    process.stderr.write(
      `${who}: ${signal} again: still ending the run (its processes get SIGKILL after a short grace); SIGKILL ends this one at once\n`,
    );
  };
  const onInt = () => take("SIGINT");
  const onTerm = () => take("SIGTERM");
  process.on("SIGINT", onInt);
  process.on("SIGTERM", onTerm);
  return () => {
    process.off("SIGINT", onInt);
    process.off("SIGTERM", onTerm);
  };
}
