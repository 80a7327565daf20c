import { defaultOutputLimits, type OutputLimits } from "../eval/output-limits.js";
import { longLineChars, tracebackShare } from "../eval/traceback-text.js";
import { pythonFdOutputCode } from "./python-fd-output.js";

/** The prompt prefix that marks an input_request as a bridged tool call, not a user's input(). */
export const bridgeMarker = "\u0001tools-bridge\u0001";

/**
 * The time limit `!cmd` and `%%bash` give the shell tool (its `timeout_seconds`), in seconds: the
 * longest the demo harness's shell tool allows. IPython's own `!` has no limit, so a cell asks for
 * the most there is; `null` passes none (a shell tool without that argument).
 */
export const shellTimeoutSeconds = 600;

/**
 * The KeyboardInterrupt's message when an interrupt landed while ipykernel was preparing the cell,
 * before its first statement: none of the cell ran.
 */
export const interruptedBeforeStart = "the interrupt came before the cell's code started, so none of it ran";

/** The KeyboardInterrupt's message when an interrupt landed between two of the cell's statements. */
export const interruptedBetweenStatements =
  "the interrupt came between two of the cell's statements: those before it ran, the rest did not";

/**
 * Python run silently in every new kernel: the `tool()` bridge (a lock serialises threads, since
 * the stdin channel carries one request at a time), `input()` and `getpass()` over the same
 * channel (the harness asks the operator, or refuses), the helpers
 * the rewritten idioms call (`__tools__.sh/pip/cd/timeit`), a parent-pid watchdog, no colours, and
 * the reading of fd 1 and 2 (see pythonFdOutputCode).
 * Tracebacks leave out the helpers' frames (`__tracebackhide__`), also the one that raised and
 * one between two of Python's own (the wrappers around `subprocess`), with no "skipping hidden" line.
 */
export function pythonSetupCode(options: {
  parentPid: number;
  shellTool: string;
  shellTimeoutSeconds?: number | null;
  /** The result's output limits: how much of an ExceptionGroup the kernel formats; default the defaults. */
  outputLimits?: Partial<OutputLimits>;
}): string {
  const timeout =
    options.shellTimeoutSeconds === undefined ? shellTimeoutSeconds : options.shellTimeoutSeconds;
  const maxChars = options.outputLimits?.maxChars ?? defaultOutputLimits.maxChars;
  // A sub-exception's line (its message) is cut where the harness cuts a long line of a traceback,
  // less room for the note saying what was left out, so the harness never cuts it again; the
  // group's sub-exceptions stop after five times the cell's characters (100 000 by default).
  const subLineChars = Math.max(100, longLineChars(tracebackShare(maxChars)) - 100);
  const groupChars = 5 * maxChars;
  return String.raw`
def __tools_install(parent_pid, marker, shell_tool, shell_timeout, sub_line_chars, group_chars):
    import asyncio, builtins, contextlib, functools, io, json, os, re, sys, threading, time, types
    from IPython import get_ipython
    from IPython.core.error import StdinNotImplementedError

    ip = get_ipython()
    kernel = ip.kernel
    lock = threading.Lock()
    # Our frames say so in __tracebackhide__. IPython would skip them with a "[... skipping hidden
    # 1 frame]" line, except the one that raised: the wrapper below drops them from the traceback,
    # wherever they are (a wrapper around subprocess's own calls is in the middle), before IPython
    # formats it.
    ours = "__tools__"

    def without_our_frames(tb):
        entries = []
        while tb is not None:
            entries.append(tb)
            tb = tb.tb_next
        # A frame twice in a row just before raise_lost_interrupt (the exception that trace
        # function of ours raised in it: see arm_lost) is shown once. Only there: a frame that
        # raises again an exception it caught (raise last) is twice in a row too, both lines shown.
        entries = [entry for index, entry in enumerate(entries)
                   if not (index + 2 < len(entries) and entries[index + 1].tb_frame is entry.tb_frame
                           and entries[index + 2].tb_frame.f_code is raise_lost_interrupt.__code__)]
        kept = [entry for entry in entries if entry.tb_frame.f_locals.get("__tracebackhide__") != ours]
        if not kept:
            kept = entries[:1]
        if len(kept) == len(entries) and all(has_line(entry) for entry in kept):
            return entries[0] if entries else None
        trimmed = None
        for entry in reversed(kept):
            trimmed = types.TracebackType(trimmed, entry.tb_frame, entry.tb_lasti, line_of(entry))
        return trimmed

    # Python 3.11 gives some instructions it adds itself no line (the jump back of a loop whose
    # body ends in a with or an async with, which checks for signals: an interrupt lands there),
    # and IPython fails to format a traceback through one ("Unexpected exception formatting
    # exception", with our frames). Such an entry gets the line of the last instruction before it
    # that has one.
    def has_line(entry):
        return isinstance(entry.tb_lineno, int) and entry.tb_lineno > 0

    def line_of(entry):
        if has_line(entry):
            return entry.tb_lineno
        code = entry.tb_frame.f_code
        line = code.co_firstlineno
        try:
            for start, _end, number in code.co_lines():
                if start > entry.tb_lasti:
                    break
                if number is not None and number > 0:
                    line = number
        except Exception:
            pass
        return line

    formatter = ip.InteractiveTB
    structured_traceback = formatter.structured_traceback

    def traceback_without_our_frames(etype=None, value=None, tb=None, *args, **kwargs):
        return formatted_traceback(etype, value, tb, 0, [group_total, group_chars], *args, **kwargs)

    def formatted_traceback(etype, value, tb, depth, budget, *args, shown=None, **kwargs):
        try:
            tb = without_our_frames(tb)
        except Exception:
            pass
        lines = None
        if shown is not None and shown is not value:
            try:
                lines = structured_traceback(etype, shown, tb, *args, **kwargs)
            except Exception:
                lines = None
        if lines is None:
            lines = structured_traceback(etype, value, tb, *args, **kwargs)
        try:
            lines = with_causes_expanded(lines, value, depth, budget)
        except Exception:
            pass
        try:
            return with_sub_exceptions(lines, value, depth, budget)
        except Exception:
            return lines

    def with_causes_expanded(lines, value, depth, budget):
        # A group that is the cause (or the context) of the exception raised is one of the earlier
        # links of IPython's chain: its line is the element before a separator. Its sub-exceptions
        # follow its line as the last exception's do.
        chain, seen, link = [value], set(), formatter.get_parts_of_chained_exception(value)
        while link is not None:
            chain.append(link[1])
            link = formatter.get_parts_of_chained_exception(link[1])
            if link is not None and id(link[1]) in seen:
                break
            if link is not None:
                seen.add(id(link[1]))
        if not any(isinstance(earlier, BaseExceptionGroup) for earlier in chain[1:]):
            return lines
        separators = [index for index, line in enumerate(lines)
                      if index > 0 and index < len(lines) - 1 and line.strip() in chain_separators]
        if len(separators) != len(chain) - 1:
            return lines
        lines = list(lines)
        # Earliest first in the lines, latest first in the chain.
        for index, earlier in zip(separators, reversed(chain[1:])):
            lines[index - 1] = with_sub_exceptions([lines[index - 1]], earlier, depth, budget)[0]
        return lines

    chain_separators = (
        "The above exception was the direct cause of the following exception:",
        "During handling of the above exception, another exception occurred:",
    )

    # A sub-exception's line longer than sub_line_chars (a long source line) keeps its start and
    # says how much was left out, as the harness cuts a long line of a traceback; sub_line_chars is
    # where the harness cuts one, less room for that note, so it is never cut twice. A line already
    # cut (its start and the note, under 100 characters) is not cut again.
    def short_lines(text):
        return "\n".join(
            line if len(line) <= sub_line_chars + 100
            else f"{line[:sub_line_chars]} … ({len(line) - sub_line_chars:,} more characters of this line omitted)"
            for line in text.split("\n"))

    class Shown(Exception):
        """What IPython formats in a long message's place: its start and what was left out."""
        def __init__(self, text):
            super().__init__(text)
            self.text = text

        def __str__(self):
            return self.text

    named_kinds = {}

    def named(etype):
        # A stand-in's class, named as the exception it stands in for: IPython names an exception
        # of the chain (a cause, a context) by its class.
        kind = named_kinds.get(etype)
        if kind is None:
            kind = type(etype.__name__, (Shown,), {"__qualname__": etype.__qualname__, "__module__": etype.__module__})
            named_kinds[etype] = kind
        return kind

    def cut_message(message, room):
        return f"{message[:room]} … ({len(message) - room:,} more characters of the message omitted)"

    def own_stand_in(etype, value, whole=False):
        # The exception with its message cut (None when it is short enough), or with it whole.
        room = max(0, sub_line_chars - len(getattr(etype, "__name__", "")) - 2)
        if isinstance(value, SyntaxError):
            # Formatted from its fields (message, source line, caret), so the stand-in is a
            # SyntaxError of the same class with the long ones cut.
            message, text, offset = value.msg, value.text, value.offset
            long_message = isinstance(message, str) and len(message) > room + 100
            long_text = isinstance(text, str) and len(text) > room + 100
            if not (whole or long_message or long_text):
                return None
            if long_message:
                message = cut_message(message, room)
            if long_text:
                text = f"{text[:room]} …"
                if isinstance(offset, int) and offset > room:
                    offset = None
            details = (value.filename, value.lineno, offset, text, value.end_lineno, value.end_offset)
            try:
                return type(value)(message, details)
            except Exception:
                return SyntaxError(message, details)
        message = str(value)
        if not whole and len(message) <= room + 100:
            return None
        return named(etype)(message if whole else cut_message(message, room))

    def bounded(etype, value, made=None):
        # A message longer than a line is shown (1 MB) is not formatted in full to be cut: IPython
        # gets a stand-in with its start, named as the exception, with its traceback and notes,
        # and its chain (cause, context) bounded the same way; the exception itself when nothing
        # in its chain is long. The exception and its chain are not changed.
        made = {} if made is None else made
        if id(value) in made:
            return made[id(value)]
        # While its chain is looked at: a chain that loops back keeps the exception itself.
        made[id(value)] = value
        try:
            shown = own_stand_in(etype, value)
        except Exception:
            return value
        links = {}
        for name in ("__cause__", "__context__"):
            link = getattr(value, name, None)
            links[name] = bounded(type(link), link, made) if isinstance(link, BaseException) else link
        if shown is None:
            if all(links[name] is getattr(value, name, None) for name in links):
                return value
            try:
                shown = own_stand_in(etype, value, whole=True)
            except Exception:
                return value
        shown.__cause__ = links["__cause__"]
        shown.__context__ = links["__context__"]
        shown.__suppress_context__ = value.__suppress_context__
        shown.__traceback__ = value.__traceback__
        notes = getattr(value, "__notes__", None)
        if notes is not None:
            shown.__notes__ = notes
        made[id(value)] = shown
        return shown

    # IPython 8.5 shows an ExceptionGroup as its line alone ("unhandled errors in a TaskGroup (1
    # sub-exception)"): what failed was nowhere. Each sub-exception follows the group's line, with
    # its own traceback, at most 15 per group and 10 groups deep, as Python's own traceback does;
    # at most 100 sub-exceptions and about group_chars characters in all (15 groups of 15, 5 deep,
    # would be 760 000 tracebacks: minutes of formatting, to be cut to the output limits).
    group_width, group_depth, group_total = 15, 10, 100

    def with_sub_exceptions(lines, value, depth, budget):
        subs = getattr(value, "exceptions", None) if isinstance(value, BaseExceptionGroup) else None
        if not subs or not lines:
            return lines
        parts = [short_lines(lines[-1].rstrip("\n"))]
        if depth >= group_depth:
            parts.append(f"… its {len(subs)} sub-exception{'' if len(subs) == 1 else 's'} not shown (groups nested over {group_depth} deep)")
            return [*lines[:-1], "\n".join(parts)]
        shown = 0
        for index, sub in enumerate(subs[:group_width], 1):
            if budget[0] <= 0 or budget[1] <= 0:
                break
            budget[0] -= 1
            parts.append(f"\n+---------------- sub-exception {index} of {len(subs)} ----------------")
            stand_in = bounded(type(sub), sub)
            if sub.__traceback__ is None:
                # Made, never raised (ExceptionGroup("…", [ValueError("a")])): its line alone (and
                # its notes), named by its own type, not the stand-in's.
                import traceback
                only = traceback.TracebackException(type(sub), stand_in, None, compact=True).format_exception_only()
                text = "\n".join(line.rstrip("\n") for line in only)
                text = "\n".join(with_sub_exceptions([text], sub, depth + 1, budget))
            else:
                # Its traceback starts at its own frame: none to skip (the cell's runner is not in it).
                sub_lines = formatted_traceback(type(sub), sub, sub.__traceback__, depth + 1, budget, tb_offset=0, shown=stand_in)
                text = "\n".join(sub_lines).rstrip("\n")
            text = short_lines(text)
            budget[1] -= len(text)
            parts.append(text)
            shown += 1
        if len(subs) > shown:
            more = len(subs) - shown
            parts.append(f"\n… and {more} more sub-exception{'' if more == 1 else 's'}")
        return [*lines[:-1], "\n".join(parts)]

    formatter.structured_traceback = traceback_without_our_frames

    class ToolError(Exception):
        """A tool called through tool() failed; str(error) says why."""
        def __init__(self, message, code=None):
            super().__init__(message)
            self.code = code

    def on_main_thread():
        # An interrupt (SIGINT) reaches the main thread only: the harness answers another thread's
        # call in flight at once, with an error, instead of dropping its reply (bridge "main").
        return threading.current_thread() is threading.main_thread()

    def ask_operator(prompt="", password=False, via=None, reads=None):
        # input() and getpass(): the harness turns the request into an ask_user card for the
        # operator, when there is one, and the answer comes back as the line typed. sys.stdin's
        # reads too ("via" names the call, "reads" says "line" or "all"): a declined card is then
        # the end of the input (None), not an error.
        __tracebackhide__ = ours
        prompt = str(prompt)
        request = {"input": prompt, "password": bool(password), "main": on_main_thread()}
        if via is not None:
            request.update(via=via, reads=reads)
        payload = marker + json.dumps(request)
        with lock:
            reply = kernel._input_request(
                payload, kernel._parent_ident["shell"], kernel.get_parent("shell"), password=False)
        data = json.loads(reply) if reply else {"ok": False, "error": "the bridge gave no reply"}
        if data.get("ok"):
            answer = data.get("text", "")
            # As a terminal shows it; a password is not echoed.
            if via is None:
                print(prompt if password else prompt + answer, flush=True)
            return answer
        named = via or "input()"
        if data.get("code") == "NO_OPERATOR":
            raise StdinNotImplementedError(data.get("error", f"{named} is not available in eval"))
        if via is not None and data.get("code") == "DECLINED":
            return None
        raise EOFError(data.get("error", f"no answer to {named}"))

    class Pending:
        # What was read ahead and not yet returned (text, or bytes for sys.stdin.buffer), taken from
        # a position: reading a large pasted answer line by line does not copy the rest of it at
        # each line (50 000 lines took seconds).

        def __init__(self, empty):
            self._empty = empty
            self._newline = "\n" if isinstance(empty, str) else b"\n"
            self._data = empty
            self._at = 0

        def clear(self):
            self._data, self._at = self._empty, 0

        def add(self, data):
            self._data, self._at = self._data[self._at:] + data, 0

        def __len__(self):
            return len(self._data) - self._at

        def has_line(self):
            return self._data.find(self._newline, self._at) >= 0

        def take_line(self, size):
            end = self._data.find(self._newline, self._at) + 1 or len(self._data)
            return self._take_to(end if size < 0 else min(end, self._at + size))

        def take(self, size):
            return self._take_to(len(self._data) if size < 0 else min(len(self._data), self._at + size))

        def _take_to(self, end):
            chunk = self._data[self._at:end]
            self._at = end
            if self._at == len(self._data):
                self.clear()
            return chunk

    def size_of(size):
        return -1 if size is None else size.__index__()

    class OperatorStdin(io.TextIOBase):
        # sys.stdin of the kernel: its fd 0 is /dev/null, so readline() returned "" and a cell
        # reading its input went on with nothing, while input() asked. Each line read is asked as
        # input() asks (an ask_user card; with nobody to ask, StdinNotImplementedError saying so),
        # read() asks once for the whole text, and a declined card is the end of the input. What
        # the operator typed is echoed, as a terminal shows it. Each cell's input starts again.
        # Each card and error names the read as the cell called it (read(10), not readline()).

        mode = "r"
        line_buffering = False

        def __init__(self, original):
            super().__init__()
            self._original = original
            self._pending = Pending("")
            self._ended = False
            self._encoding, self._errors = "utf-8", "strict"
            self.buffer = OperatorStdinBytes(self)

        def restart(self):
            self._pending.clear()
            self._ended = False
            self.buffer.restart()

        # Closed (with sys.stdin:, close()) as a file is, its reads raising ValueError, for the rest
        # of the cell only: the next cell's input starts again, open (restart). As a text file's,
        # its state is its buffer's.
        @property
        def closed(self):
            return self.buffer.closed

        def close(self):
            self.buffer.close()

        @property
        def name(self):
            return "<stdin>"

        @property
        def encoding(self):
            return self._encoding

        @property
        def errors(self):
            return self._errors

        @property
        def newlines(self):
            return None

        def reconfigure(self, *, encoding=None, errors=None, newline=None, line_buffering=None, write_through=None):
            # As a script does before reading (reconfigure(encoding="utf-8")): what the operator
            # types is text already, so the encoding is only that of sys.stdin.buffer's bytes.
            if encoding is not None:
                import codecs
                codecs.lookup(encoding)
                self._encoding, self._errors = encoding, "strict"
            if errors is not None:
                import codecs
                codecs.lookup_error(errors)
                self._errors = errors

        def fileno(self):
            # The kernel's own fd 0 (/dev/null), for code that only asks for it (os.isatty).
            return self._original.fileno()

        def isatty(self):
            return False

        def readable(self):
            return True

        def _ask(self, reads, via):
            # One card: a line (readline, iteration, read(n)) or the whole text (read, readlines).
            # False at the end of the input.
            __tracebackhide__ = ours
            if self._ended:
                return False
            answer = ask_operator("", via=via, reads=reads)
            if answer is None:
                self._ended = True
                return False
            text = answer if answer.endswith("\n") else answer + "\n"
            print(text, end="", flush=True)
            self._pending.add(text)
            if reads == "all":
                self._ended = True
            return True

        def _readline(self, size, via):
            __tracebackhide__ = ours
            self._checkClosed()
            while not self._pending.has_line() and (size < 0 or len(self._pending) < size) and self._ask("line", via):
                pass
            return self._pending.take_line(size)

        def _read(self, size, via):
            __tracebackhide__ = ours
            self._checkClosed()
            if size < 0:
                self._ask("all", via)
            else:
                while len(self._pending) < size and self._ask("line", via):
                    pass
            return self._pending.take(size)

        def readline(self, size=-1):
            __tracebackhide__ = ours
            size = size_of(size)
            return self._readline(size, "sys.stdin.readline()" if size < 0 else f"sys.stdin.readline({size})")

        def read(self, size=-1):
            __tracebackhide__ = ours
            size = size_of(size)
            return self._read(size, "sys.stdin.read()" if size < 0 else f"sys.stdin.read({size})")

        def readlines(self, hint=-1):
            __tracebackhide__ = ours
            if hint is None or hint <= 0:
                return self._read(-1, "sys.stdin.readlines()").splitlines(keepends=True)
            return super().readlines(hint)

    class OperatorStdinBytes(io.BufferedIOBase):
        # sys.stdin.buffer: the same cards, the text encoded as sys.stdin's encoding says (UTF-8).

        mode = "rb"

        def __init__(self, text):
            super().__init__()
            self._stdin = text
            self._pending = Pending(b"")
            self._closed = False

        def restart(self):
            self._pending.clear()
            self._closed = False

        @property
        def closed(self):
            return self._closed

        def close(self):
            self._closed = True

        @property
        def name(self):
            return "<stdin>"

        def fileno(self):
            return self._stdin.fileno()

        def isatty(self):
            return False

        def readable(self):
            return True

        def _more(self, via, whole=False):
            __tracebackhide__ = ours
            text = self._stdin._read(-1, via) if whole else self._stdin._readline(-1, via)
            self._pending.add(text.encode(self._stdin.encoding, self._stdin.errors))
            return text != ""

        def readline(self, size=-1):
            __tracebackhide__ = ours
            size = size_of(size)
            self._checkClosed()
            via = "sys.stdin.buffer.readline()" if size < 0 else f"sys.stdin.buffer.readline({size})"
            while not self._pending.has_line() and (size < 0 or len(self._pending) < size) and self._more(via):
                pass
            return self._pending.take_line(size)

        def read(self, size=-1):
            __tracebackhide__ = ours
            size = size_of(size)
            self._checkClosed()
            if size < 0:
                self._more("sys.stdin.buffer.read()", whole=True)
            else:
                while len(self._pending) < size and self._more(f"sys.stdin.buffer.read({size})"):
                    pass
            return self._pending.take(size)

        def read1(self, size=-1):
            __tracebackhide__ = ours
            size = size_of(size)
            self._checkClosed()
            if len(self._pending) == 0 and size != 0:
                self._more("sys.stdin.buffer.read1()")
            return self._pending.take(size)

    stdin = OperatorStdin(sys.stdin)
    sys.stdin = stdin

    def stdin_starts():
        if sys.stdin is stdin:
            stdin.restart()

    ip.events.register("pre_execute", stdin_starts)

    def raw_input(prompt=""):
        __tracebackhide__ = ours
        return ask_operator(prompt)

    def getpass(prompt="Password: ", stream=None):
        __tracebackhide__ = ours
        return ask_operator(prompt, password=True)

    kernel.raw_input = raw_input
    kernel.getpass = getpass

    # Between cells ipykernel puts back the input() and getpass() it found before each cell, which
    # read the kernel's own stdin: a thread the cell started calling the global input() after the
    # cell got Python's bare "EOF when reading a line". The ones it puts back say why instead.
    def after_cell(name):
        def refuse(prompt="", stream=None):
            __tracebackhide__ = ours
            raise EOFError(
                f"{name}() was called after its cell had finished (from a thread or a timer the cell "
                "started), so nobody was asked: ask from the cell, or wait for the thread in it (thread.join())")
        return refuse

    if hasattr(kernel, "_sys_raw_input"):
        kernel._sys_raw_input = after_cell("input")
    if hasattr(kernel, "_save_getpass"):
        kernel._save_getpass = after_cell("getpass")

    def tool(name, args=None):
        """Calls a harness tool: tool("read", {"path": "README.md"}) returns its text; raises ToolError."""
        __tracebackhide__ = ours
        payload = marker + json.dumps(
            {"tool": name, "args": {} if args is None else args, "main": on_main_thread()}, default=str)
        with lock:
            reply = kernel._input_request(
                payload, kernel._parent_ident["shell"], kernel.get_parent("shell"), password=False)
        data = json.loads(reply) if reply else {"ok": False, "error": "the bridge gave no reply"}
        if not data.get("ok"):
            raise ToolError(data.get("error", "the tool call failed"), data.get("code"))
        return data.get("text", "")

    start_dir = os.getcwd()
    # The shell tool runs in the harness's environment, not the kernel's: what a cell changed in
    # os.environ since the kernel started (%env, os.environ[...] = ..., del) applies to the
    # command, as IPython's own ! would see it. The values go in a private file (0600) that the
    # command sources and deletes, never in the command's text, which the approval card shows
    # and logs keep (a password read with getpass() into PGPASSWORD).
    start_env = dict(os.environ)
    env_name = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")

    def environment_file():
        """The path of a file of export/unset lines for what changed, or None when nothing did."""
        import shlex, tempfile
        lines = [f"export {name}={shlex.quote(value)}\n" for name, value in os.environ.items()
                 if start_env.get(name) != value and env_name.match(name)]
        lines += [f"unset {name}\n" for name in start_env if name not in os.environ and env_name.match(name)]
        if not lines:
            return None
        handle, path = tempfile.mkstemp(prefix="tools-env-", suffix=".sh")
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write("".join(lines))
        return path

    # The shell tool's own advice on a timeout (raise timeout_seconds) cannot be followed from a
    # !cmd line, which already asks for the most there is.
    timeout_advice = re.compile(r"raise timeout_seconds \(at most \d+\) or run it in smaller steps")

    # A shell tool that refuses timeout_seconds does so before it runs anything (and before any
    # approval card): with a smaller maximum its refusal names ("at most 300", "<=300"), that one
    # is sent, here and from then on; taking none at all, the command is sent without it.
    timeout_sent = [shell_timeout]
    largest = re.compile(r"(?:at most|<=|less than or equal to)\s*(\d+)")

    def shell(command):
        __tracebackhide__ = ours
        try:
            while timeout_sent[0] is not None:
                try:
                    return tool(shell_tool, {"command": command, "timeout_seconds": timeout_sent[0]})
                except ToolError as error:
                    if error.code != "INVALID_ARGUMENTS" or "timeout_seconds" not in str(error):
                        raise
                    found = largest.search(str(error))
                    smaller = int(found.group(1)) if found else None
                    timeout_sent[0] = smaller if smaller is not None and 0 < smaller < timeout_sent[0] else None
            return tool(shell_tool, {"command": command})
        except ToolError as error:
            if error.code == "UNKNOWN_TOOL":
                # The cell never named the shell tool: say which tool !cmd needs, and what works without it.
                raise ToolError(f"!cmd and %%bash run the command through the harness's shell tool {shell_tool!r}, "
                                f"which this run does not have ({error}). Run it from the cell instead: "
                                "subprocess.run(command, shell=True, capture_output=True, text=True)", error.code) from None
            if error.code != "TIMEOUT":
                raise
            limit = f"{timeout_sent[0]} s, " if timeout_sent[0] is not None else ""
            advice = (f"!cmd and %%bash already run with the shell tool's longest time limit ({limit}"
                      "no way to raise it from a cell): split the work into shorter commands, "
                      "one !line or cell each")
            message, found = timeout_advice.subn(advice, str(error), count=1)
            raise ToolError(message if found else f"{message}\n({advice})", error.code) from None

    def sh(command, capture=False):
        __tracebackhide__ = ours
        import shlex
        command = ip.var_expand(command, depth=1)
        # The shell tool runs in the run's folder: after %cd, the command runs where the cell is.
        # Relative inside the run's folder: the approval card shows the command, not a long path.
        here = os.getcwd()
        if here != start_dir:
            inside = os.path.commonpath([here, start_dir]) == start_dir
            where = os.path.relpath(here, start_dir) if inside else here
            command = f"cd {shlex.quote(where)} && {command}"
        env_path = environment_file()
        try:
            prefix = ""
            if env_path is not None:
                quoted = shlex.quote(env_path)
                prefix = f". {quoted}; rm -f {quoted}; "
            if capture:
                return captured(command, prefix)
            try:
                text = shell(prefix + command)
            except ToolError as error:
                print(str(error), file=sys.stderr, flush=True)
                return None
            if text:
                print(text, end="" if text.endswith("\n") else "\n")
        finally:
            # The command deletes it once read; not when it was refused, failed or never ran.
            if env_path is not None:
                try:
                    os.unlink(env_path)
                except FileNotFoundError:
                    pass

    def captured(command, prefix=""):
        # x = !cmd is the command's own output, line by line (IPython's getoutput), not the shell
        # tool's text, whose form (an exit code first, long output cut) is the harness's: the
        # command still goes through the shell tool, with its output sent to a file of ours. The
        # command is one quoted word that a subshell evals, so nothing in it (a brace or a quote
        # left open, a comment, exit) can end the redirection early, and the shell's own syntax
        # errors land in the file too, as getoutput shows them.
        __tracebackhide__ = ours
        import shlex, tempfile
        from IPython.utils.text import SList
        if not command.strip():
            return SList()
        handle, path = tempfile.mkstemp(prefix="tools-sh-", suffix=".txt")
        os.close(handle)
        try:
            # A backslash at the very end continues the line onto an empty one, as at a prompt.
            body = command + "\n" if command.endswith("\\") else command
            try:
                # The environment's file is sourced outside, where the card shows it as a path.
                wrapped = f"{prefix}( eval {shlex.quote(body)} ) > {shlex.quote(path)} 2>&1"
                shell(wrapped)
            except ToolError as error:
                # Refused, or failed: what the command wrote, if it ran, is still its output.
                print(str(error), file=sys.stderr, flush=True)
            with open(path, encoding="utf-8", errors="replace") as output:
                return SList(output.read().splitlines())
        except FileNotFoundError:
            # The command removed it (rm /tmp/tools-sh-*): its output went with it.
            return SList()
        finally:
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass

    def pip(arguments):
        __tracebackhide__ = ours
        import importlib, importlib.metadata as md, shlex, subprocess

        def versions():
            found = {}
            for dist in md.distributions():
                name = dist.metadata["Name"]
                if name:
                    found[name.lower()] = dist.version
            return found

        before = versions()
        process = subprocess.Popen(
            [sys.executable, "-m", "pip", *shlex.split(arguments)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        for line in process.stdout:
            print(line, end="")
        process.wait()
        importlib.invalidate_caches()
        after = versions()
        changed = [name for name, version in after.items() if before.get(name) != version]
        modules = set()
        for name in changed:
            modules.add(name.replace("-", "_"))
            try:
                dist = md.distribution(name)
            except md.PackageNotFoundError:
                continue
            top = dist.read_text("top_level.txt")
            if top:
                modules.update(top.split())
            for file in dist.files or []:
                head = file.parts[0] if file.parts else ""
                head = head[:-3] if head.endswith(".py") else head
                if head.isidentifier():
                    modules.add(head)
        evicted = sorted(m for m in list(sys.modules) if m.split(".")[0] in modules)
        for m in evicted:
            del sys.modules[m]
        importlib.invalidate_caches()
        if process.returncode != 0:
            print(f"pip exited with code {process.returncode}", file=sys.stderr)
        elif changed:
            print(f"(installed into {sys.executable}; the next import sees: {', '.join(sorted(changed))})")

    class CdError(OSError):
        """%cd could not go there; shown as its one line, not as a traceback of the rewritten line."""
        def _render_traceback_(self):
            return [f"CdError: {self}"]

    previous_dir = [None]

    def cd(arguments):
        # As IPython's %cd: -q (quiet), - (the folder before the last %cd), $name and {expr}
        # expanded, nothing at all for the home folder.
        __tracebackhide__ = ours
        line = f"%cd {arguments.strip()}".strip()
        text = ip.var_expand(arguments, depth=1).strip()
        quiet = False
        while re.match(r"-q(\s|$)", text):
            quiet = True
            text = text[2:].strip()
        if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
            text = text[1:-1]
        here = os.getcwd()
        if text == "-":
            if previous_dir[0] is None:
                raise CdError(f"{line}: there is no previous folder yet (no %cd before this one)")
            target = previous_dir[0]
        else:
            target = os.path.expanduser(text or "~")
        try:
            os.chdir(target)
        except FileNotFoundError:
            raise CdError(f"{line}: no such folder: {target!r} (the cell is in {here})") from None
        except NotADirectoryError:
            raise CdError(f"{line}: {target!r} is a file, not a folder (the cell is in {here})") from None
        except PermissionError:
            raise CdError(f"{line}: no permission to enter {target!r} (the cell is in {here})") from None
        previous_dir[0] = here
        if not quiet:
            print(os.getcwd())

    def timeit(statement, setup="pass", number=0, repeat=0):
        __tracebackhide__ = ours
        import timeit as timing
        try:
            timer = timing.Timer(statement, setup, globals=ip.user_ns)
            if number <= 0:
                number, total = timer.autorange()
                repeat = repeat or (1 if total > 2 else 5)
            runs = timer.repeat(repeat=repeat or 5, number=number)
        except BaseException as error:
            # The timeit module's frames (Timer.repeat, Timer.timeit, its generated inner()) are
            # this helper's workings: the traceback goes from the cell's line to the code timed.
            timing_files = {timing.__file__, "<timeit-src>"}
            entries = []
            tb = error.__traceback__
            while tb is not None:
                if tb.tb_frame.f_code.co_filename not in timing_files:
                    entries.append(tb)
                tb = tb.tb_next
            trimmed = None
            for entry in reversed(entries):
                trimmed = types.TracebackType(trimmed, entry.tb_frame, entry.tb_lasti, entry.tb_lineno)
            raise error.with_traceback(trimmed)
        best = min(runs) / number
        for unit, scale in (("s", 1), ("ms", 1e3), ("µs", 1e6), ("ns", 1e9)):
            if best * scale >= 1 or unit == "ns":
                break
        print(f"{best * scale:.3g} {unit} per loop (best of {len(runs)} runs, {number} loops each)")

    # exit(), quit() and sys.exit() cannot end the kernel from a cell: say so in one line, with
    # the code, instead of IPython's "To exit: use 'exit', 'quit', or Ctrl-D." warning.
    import warnings
    warnings.filterwarnings("ignore", message="To exit: use 'exit', 'quit', or Ctrl-D")

    def still_running(code):
        shown = "" if code is None else f"({code!r})"
        return (f"SystemExit{shown}: the cell stopped here, but the interpreter keeps running, with its "
                "variables and imports; to start a fresh one, call eval with reset: true")

    show_traceback = ip.showtraceback
    try:
        from IPython.core.interactiveshell import InteractiveShell
        run_code = InteractiveShell.run_code.__code__
    except Exception:
        run_code = None

    def close_abandoned(tb):
        # Coroutines that the frames an interrupt unwound had made and not started (the argument
        # of asyncio.wait_for interrupted before it wraps it in a task): the traceback holds them
        # until the next error drops it, and each was then collected with "coroutine ... was never
        # awaited" in a later cell's output (or, collected inside a namedtuple's __new__, whose
        # builtins have no __import__, "Exception ignored in: <coroutine ...> KeyError:
        # '__import__'" twice). Closed here, they say nothing. Only those nothing but these frames
        # holds: one the cell keeps (in its namespace, a closure, a default argument) is left for
        # it to await later.
        import gc, inspect
        try:
            frames, held, found = [], [], []
            while tb is not None:
                frame = tb.tb_frame
                frames.append(frame)
                if frame.f_code.co_flags & inspect.CO_NEWLOCALS:
                    held.append(frame.f_locals)
                    found.extend(value for value in held[-1].values() if inspect.iscoroutine(value)
                                 and inspect.getcoroutinestate(value) == inspect.CORO_CREATED)
                tb = tb.tb_next
            if not found:
                return
            # The frames, their locals, and the coroutines and generators they are the frames of.
            known = {id(frame) for frame in frames}
            known.update(id(owner) for owner in gc.get_referrers(*frames) if inspect.iscoroutine(owner)
                         or inspect.isgenerator(owner) or inspect.isasyncgen(owner))
            known.update(id(local) for local in held)
            known.add(id(found))
            for index in range(len(found)):
                if all(id(referrer) in known for referrer in gc.get_referrers(found[index])):
                    found[index].close()
        except Exception:
            pass

    def showtraceback(exc_tuple=None, *args, **kwargs):
        etype, value = (sys.exc_info() if exc_tuple is None else exc_tuple)[:2]
        if isinstance(value, KeyboardInterrupt) or (
                isinstance(value, asyncio.CancelledError) and interrupts.cancelled is not None):
            close_abandoned(getattr(value, "__traceback__", None))
        if kwargs.get("exception_only") and isinstance(value, SystemExit):
            if value.code is None or value.code == 0:
                # A clean exit is not an error: one line of output, and the cell's status stays ok.
                print(still_running(value.code), flush=True)
            else:
                ip._showtraceback(etype, value, [still_running(value.code)])
            return None
        if isinstance(value, asyncio.CancelledError) and interrupts.cancelled is not None:
            # The cancel an interrupt made (see interrupt_on_sigint): shown as the interrupt it
            # was, where the cell waited, as a sync cell's is.
            interrupts.cancelled = None
            interrupt = KeyboardInterrupt()
            interrupt.__suppress_context__ = True
            interrupts.replaced = (value, interrupt)
            return show_traceback((KeyboardInterrupt, interrupt, value.__traceback__), *args, **kwargs)
        if isinstance(value, KeyboardInterrupt) and getattr(value, "between_statements", False):
            # Raised between the cell's statements (see run_statement): no frame of the cell's.
            ip._showtraceback(etype, value, [f"KeyboardInterrupt: {value}"])
            return None
        if exc_tuple is None and isinstance(value, SyntaxError) and value.__traceback__ is not None:
            # IPython shows a SyntaxError raised at run time (exec, compile, an import, %%timeit's
            # compile of its code) with SyntaxTB, from sys.exc_info(), past the wrapper above, and
            # with the whole traceback: our frames go here, and so does its own run_code frame
            # ("exec(code_obj, self.user_global_ns, self.user_ns)"), which InteractiveTB skips.
            try:
                tb = without_our_frames(value.__traceback__)
                if tb is not None and tb.tb_next is not None and tb.tb_frame.f_code is run_code:
                    tb = tb.tb_next
                value.__traceback__ = tb
            except Exception:
                pass
        return show_traceback(exc_tuple, *args, **kwargs)

    ip.showtraceback = showtraceback

    def clean_exit_is_ok(result):
        error = getattr(result, "error_in_exec", None)
        if isinstance(error, SystemExit) and (error.code is None or error.code == 0):
            result.error_in_exec = None

    ip.events.register("post_run_cell", clean_exit_is_ok)

    class Exit(type(ip.exiter)):
        """exit() and quit() (also without brackets) stop the cell as sys.exit() does."""
        def __call__(self, code=None):
            __tracebackhide__ = ours
            raise SystemExit(code)

    ip.exiter = Exit(ip)
    for name in ("exit", "quit"):
        ip.user_ns[name] = ip.exiter
        ip.user_ns_hidden[name] = ip.exiter

    builtins.tool = tool
    builtins.ToolError = ToolError
    builtins.__tools__ = types.SimpleNamespace(sh=sh, pip=pip, cd=cd, timeit=timeit)

    # ipykernel sends each stream on a timer of its own (0.2 s after a write), so stderr came out
    # wherever its flush fell: a warning after the prints that followed it, a log line before the
    # prints before it. A write to one stream takes out what the other holds first (only when it
    # holds something: a stream written alone is sent as before) and queues it, and every send of
    # a stream (its timer, a flush, the cell's end) takes that queue and what the stream holds at
    # once and sends them, in the IO thread, without the writer waiting for it: they come out in
    # the order written. What one send takes for one cell is one message, its runs of stdout and
    # stderr in order ("tools/runs", split by the client): a cell switching streams 10 000 times
    # made as many messages, 40 times slower, and more than the iopub socket holds were dropped.
    # Not in a forked child, whose writes go to the fd (see fresh_in_child).
    import collections
    install_pid = os.getpid()
    order_lock = threading.Lock()
    taken_out = collections.deque()
    inside = threading.local()

    class Direct:
        """The IO thread's socket, sent on at once: the pub thread's own send_multipart schedules
        each message on the IO thread's queue, which the IO thread itself cannot wait on, and a
        message sent through it would go after one sent here later."""
        def __init__(self, pub_thread):
            self.pub_thread = pub_thread

        def send_multipart(self, *args, **kwargs):
            self.pub_thread._really_send(*args, **kwargs)

    def send_runs(stream, parent, runs):
        runs = [[name, "".join(pieces)] for name, pieces in runs]
        if len(runs) == 1:
            content = {"name": runs[0][0], "text": runs[0][1]}
        else:
            content = {"name": runs[0][0], "text": "", "tools/runs": runs}
        stream.session.pid = os.getpid()
        stream.session.send(Direct(stream.pub_thread), "stream", content=content, parent=parent,
                            ident=stream.topic)

    def send_in_order(stream, entries):
        # One message for each cell's consecutive entries; consecutive runs of one stream joined.
        runs, parent = [], None
        for name, entry_parent, data in entries:
            if runs and (entry_parent or {}).get("msg_id") != (parent or {}).get("msg_id"):
                send_runs(stream, parent, runs)
                runs = []
            parent = entry_parent
            if runs and runs[-1][0] == name:
                runs[-1][1].append(data)
            else:
                runs.append([name, [data]])
        if runs:
            send_runs(stream, parent, runs)

    def in_order(stream, other, take_out_other):
        write, take_out, flush = stream.write, stream._flush_buffer, stream.flush

        def ordered_write(string):
            # Not for the readers of fd 1 and 2 (see pythonFdOutputCode): the two pipes are read by
            # two threads, in any order, so what a child wrote to both is sent as before, stdout's
            # first at the flush after it ends.
            # Nor for a write made inside one of ours on the same thread (a signal handler, a
            # __del__ run by the collector): the lock is held by the frame it interrupted, or
            # ipykernel's buffer lock is, which the IO thread may be waiting for under ours.
            if (os.getpid() != install_pid or threading.current_thread().name.startswith("tools-fd-")
                    or getattr(inside, "ours", False)):
                return write(string)
            inside.ours = True
            try:
                # Only the taking out is under the lock: scheduling waits for the IO thread when its
                # queue is full, and the IO thread takes the lock to send. The stream's own write
                # schedules its flush, which sends what was taken out (see ordered_flush_buffer).
                with order_lock:
                    try:
                        if other._buffer.tell() > 0:
                            data = take_out_other()
                            if data:
                                taken_out.append((other.name, other.parent_header, data))
                    except Exception:
                        pass
                return write(string)
            finally:
                inside.ours = False

        def ordered_flush_buffer():
            # Called by the stream's flush (its timer, flush(), the cell's end) after it cleared its
            # pending flag, to get what it sends: the queue and what the stream holds are taken
            # together, so a write to either stream meanwhile goes after both; all is sent here.
            if os.getpid() != install_pid:
                return take_out()
            # Nested in one of ours on this thread (a __del__ run by the collector flushing): not
            # the lock again; ipykernel's _flush sends what the stream holds as it would.
            if getattr(inside, "ours", False):
                return take_out()
            inside.ours = True
            try:
                with order_lock:
                    entries = list(taken_out)
                    taken_out.clear()
                    data = take_out()
                if data:
                    entries.append((stream.name, stream.parent_header, data))
                if entries:
                    send_in_order(stream, entries)
                return ""
            finally:
                inside.ours = False
        def ordered_flush():
            # Nested in one of ours on this thread (print(..., flush=True) in a signal handler):
            # the flush is sent without waiting for it, since the IO thread may be waiting for the
            # lock this thread holds (ipykernel's flush waits 10 s, then goes on unsent).
            if os.getpid() == install_pid and getattr(inside, "ours", False):
                stream.pub_thread.schedule(stream._flush)
                return None
            return flush()
        return ordered_write, ordered_flush_buffer, ordered_flush

    streams = (sys.stdout, sys.stderr)
    needed = ("write", "flush", "_flush", "_flush_buffer", "_buffer", "session", "pub_thread", "parent_header", "topic", "name")
    if (all(hasattr(stream, name) for stream in streams for name in needed)
            and all(hasattr(stream.pub_thread, "_really_send") for stream in streams)):
        stdout_take_out, stderr_take_out = sys.stdout._flush_buffer, sys.stderr._flush_buffer
        sys.stdout.write, sys.stdout._flush_buffer, sys.stdout.flush = in_order(sys.stdout, sys.stderr, stderr_take_out)
        sys.stderr.write, sys.stderr._flush_buffer, sys.stderr.flush = in_order(sys.stderr, sys.stdout, stdout_take_out)

    # An interrupt (SIGINT) reaches the cell's code only. ipykernel raises KeyboardInterrupt
    # wherever the main thread is while it handles a request: one landing in its own code before
    # the cell's code starts (while it prepares the cell) or after it ends left the request
    # without a reply, and the harness killed the kernel, its variables lost. Here Python's own
    # handler is in place while a statement of the cell runs (as the cell expects to find it);
    # outside them one is kept and raised before the next statement, in the cell (saying which
    # ran), and one landing after the last is dropped with the request: the cell ran to its end.
    # (The harness sends it once the kernel has started the cell: before that ipykernel ignores it.)
    import signal
    # inside: how many of the cell's statements are running (one suspended at an await counts);
    # cancelled: the async cell's task an interrupt cancelled; replaced: the CancelledError shown
    # as a KeyboardInterrupt, and that KeyboardInterrupt (see showtraceback); delivered: an
    # interrupt reached one of the cell's statements (raised there, or cancelled its await), told
    # to the harness in the reply's metadata, so a cell that caught it and ended ok is not
    # reported as one the interrupt never reached; own_handler: the cell's own SIGINT handler
    # took it (told in the metadata too). redeliver: while an async cell runs, delivers an
    # interrupt again (see interrupt_not_lost); async_handler: that cell's SIGINT handler (ours);
    # taken: how many SIGINTs our handlers took.
    interrupts = types.SimpleNamespace(
        pending=False, statements=0, inside=0, cancelled=None, replaced=None, delivered=False,
        own_handler=False, redeliver=None, async_handler=None, taken=0)

    # Python's own handler raises KeyboardInterrupt in a sync statement without a trace the cell
    # cannot erase (it may catch it), and the cell's own handler, when it set one, leaves none: the
    # signal's arrival is seen through the wakeup fd instead, set to a pipe of ours while a
    # statement runs, on which Python's C handler writes the number of each signal caught as it
    # arrives. A thread empties the pipe as it fills (arrivals.seen: SIGINT was read since the last
    # arrived, which empties it too): a full pipe (64 KiB, as many signals caught in one statement)
    # took no more, SIGINT's too.
    # The cell may close the pipe's ends (code that closes the fds it did not open) and open others
    # under their numbers: the pipe serves while both its ends are still it, else the next
    # statement makes a new one, with a thread of its own; the thread of one whose write end is
    # closed ends (its poll says POLLHUP at once, forever: it spun on a CPU). A forked child
    # (os.fork, multiprocessing's fork) inherits the wakeup fd: the signals it caught landed in the
    # kernel's pipe, taken for the kernel's interrupt. The child forgets the pipe.
    # The signal's handler is the one in place when it arrived: the cell may change it within a
    # statement (set its own after catching the KeyboardInterrupt, or put back the one it found
    # after its own took the interrupt), so a change of SIGINT's handler while a statement is
    # watched notes the arrivals until then, with the handler they found (arrivals.handlers).
    # A wakeup fd of the cell's own (asyncio's add_signal_handler sets the loop's; a cell may set
    # one) stays Python's, as under ipykernel, in its statements and between them (arrivals.target,
    # kept across statements): each signal's byte is there as the signal arrives, before its
    # handler runs. A thread passing on what the pipe read was late (297 of 300 signals raised in
    # a row: no byte yet when the handler ran). The SIGINT's arrival is noted instead by a function
    # of ours around SIGINT's handler (noting_sigint), put in place while such a statement runs
    # (signal.getsignal and signal.signal give the cell's handler, not it). Before, the loop's fd
    # replaced the pipe, and an interrupt its handler took was told to the harness as one that
    # "did not reach" the cell.
    import fcntl
    real_signal, real_set_wakeup_fd = signal.signal, signal.set_wakeup_fd
    # Each statement changes and reads SIGINT's handler with the C functions: signal.signal and
    # getsignal turn a handler into an enum member where they can, failing (ValueError) for a
    # function, 3–7 µs a call, four times a statement (10 000 statements: ~200 ms). The cell's
    # calls get Python's, and so do the hooks around each request: the handler they put back may
    # be an enum member (ipykernel's own hook saved SIG_IGN as one for the request that installs
    # ours), which the C function refuses (TypeError): SIGINT then kept Python's handler between
    # requests, and an interrupt landing there ended the kernel.
    import _signal
    raw_signal, raw_getsignal = _signal.signal, _signal.getsignal
    # pipe: (read end, write end, (device, inode)), None until made or when none can be; watched:
    # the pipe of the statement being watched, on the main thread; target: the cell's own wakeup fd
    # (-1: none, and the pipe is the wakeup fd while a statement runs); warns: the
    # warn_on_full_buffer the cell gave with an fd (the last it set through ours); noting: the
    # function of ours in place as SIGINT's handler around noted, the handler in place. The lock
    # is reentrant: a signal handler run on the main thread while it holds the lock (noting
    # arrivals) may change SIGINT's handler, which notes them too; a plain lock waited for itself
    # there, forever, or one level deeper at each next signal (a RecursionError).
    arrivals = types.SimpleNamespace(lock=threading.RLock(), seen=False, pipe=None, watched=None, handlers=[],
                                     target=-1, warns=(-1, True), noting=None, noted=None)

    def still_ours(pipe, end):
        # Whether that end's fd is still that end of the pipe (not closed, nor another file since).
        try:
            stat = os.fstat(pipe[end])
            mode = fcntl.fcntl(pipe[end], fcntl.F_GETFL) & os.O_ACCMODE
        except OSError:
            return False
        return (stat.st_dev, stat.st_ino) == pipe[2] and mode == (os.O_RDONLY, os.O_WRONLY)[end]

    def close_ours(pipe):
        for end in (1, 0):
            if still_ours(pipe, end):
                try:
                    os.close(pipe[end])
                except OSError:
                    pass

    def arrivals_pipe():
        # Under arrivals.lock: the pipe, while both its ends are; else a new one (None when none
        # can be made). The old one's ends still ours are closed: its thread, waiting in poll,
        # sees its write end go, and ends.
        pipe = arrivals.pipe
        if pipe is not None and still_ours(pipe, 0) and still_ours(pipe, 1):
            return pipe
        if pipe is not None:
            close_ours(pipe)
            arrivals.pipe = None
        ends = ()
        try:
            ends = os.pipe()
            for end in ends:
                os.set_blocking(end, False)
            stat = os.fstat(ends[0])
        except OSError:
            for end in ends:
                os.close(end)
            return None
        pipe = arrivals.pipe = (ends[0], ends[1], (stat.st_dev, stat.st_ino))
        threading.Thread(target=empty_arrivals, args=(pipe,), name="tools-signal-arrivals", daemon=True).start()
        return pipe

    def read_arrivals(pipe):
        # Under arrivals.lock.
        if not still_ours(pipe, 0):
            return
        try:
            while True:
                chunk = os.read(pipe[0], 4096)
                if not chunk:
                    break
                if bytes([signal.SIGINT]) in chunk:
                    arrivals.seen = True
        except (BlockingIOError, OSError):
            pass

    def empty_arrivals(pipe):
        import select
        poller = select.poll()
        poller.register(pipe[0], select.POLLIN)
        while True:
            # A second at most: a thread whose pipe's read end the cell closed waits in poll on the
            # number, which a new pipe may take (the next one's read end), and nothing wakes it.
            try:
                events = poller.poll(1000)
            except OSError:
                return
            with arrivals.lock:
                if arrivals.pipe is not pipe:
                    return
                read_arrivals(pipe)
                if not still_ours(pipe, 0) or any(
                        event & (select.POLLHUP | select.POLLERR | select.POLLNVAL) for _, event in events):
                    # Its write end is closed (or its read end): the next statement makes a new pipe.
                    return

    def release_wakeup_fd(pipe):
        # The wakeup fd goes back to none when it is the pipe's write end; one set past our
        # signal.set_wakeup_fd stays, and is the cell's from then on. A cell's fd set through ours
        # was never replaced.
        if arrivals.target != -1:
            return
        try:
            current = real_set_wakeup_fd(-1)
            if current != pipe[1] and current != -1:
                real_set_wakeup_fd(current)
                arrivals.target = current
        except (ValueError, OSError):
            pass

    def noting_sigint_for(handler):
        def noting_sigint(signum, frame):
            # SIGINT's arrival, for a statement whose wakeup fd is the cell's (see arrivals).
            __tracebackhide__ = ours
            arrivals.seen = True
            return handler(signum, frame)
        arrivals.noting, arrivals.noted = noting_sigint, handler
        return noting_sigint

    def note_sigint():
        # While a watched statement's wakeup fd is the cell's: SIGINT's handler, if Python's or the
        # cell's function, goes on under one of ours that notes the arrival first.
        handler = raw_getsignal(signal.SIGINT)
        if (handler is arrivals.noting or not callable(handler) or handler is on_interrupt
                or handler is interrupts.async_handler):
            return
        raw_signal(signal.SIGINT, noting_sigint_for(handler))

    def unnote_sigint():
        if arrivals.noting is not None and raw_getsignal(signal.SIGINT) is arrivals.noting:
            raw_signal(signal.SIGINT, arrivals.noted)
        arrivals.noting = arrivals.noted = None

    def shown(handler):
        # The handler as the cell set it (not ours around it).
        return arrivals.noted if handler is arrivals.noting and handler is not None else handler

    def forget_arrivals_in_child():
        # In a child forked from the kernel: its signals are its own, not the kernel's interrupt.
        pipe, arrivals.pipe, arrivals.watched = arrivals.pipe, None, None
        arrivals.lock, arrivals.seen, arrivals.handlers = threading.RLock(), False, []
        if pipe is None:
            return
        release_wakeup_fd(pipe)
        close_ours(pipe)

    os.register_at_fork(after_in_child=forget_arrivals_in_child)

    def watch_arrivals():
        # The pipe is the wakeup fd while the statement runs, unless the cell has one of its own
        # (set through ours, or found set now): then SIGINT's handler notes the arrival.
        if interrupts.inside:
            # A cell run from a statement: that statement's watching goes on. (Not told by
            # arrivals.watched: an interrupt the cell's own handler raised in our code at a
            # statement's end, before arrived, left it set, and every later statement unwatched.)
            return None
        with arrivals.lock:
            pipe = arrivals_pipe()
        if pipe is None:
            return None
        if arrivals.target == -1:
            try:
                previous = real_set_wakeup_fd(pipe[1], warn_on_full_buffer=False)
            except (ValueError, OSError):
                return None
            if previous != -1 and previous != pipe[1]:
                # Set past our signal.set_wakeup_fd: the cell's.
                warns = arrivals.warns[1] if arrivals.warns[0] == previous else True
                try:
                    real_set_wakeup_fd(previous, warn_on_full_buffer=warns)
                except (ValueError, OSError):
                    pass
                arrivals.target = previous
        arrivals.watched, arrivals.handlers = pipe, []
        if arrivals.target != -1:
            note_sigint()
        return pipe

    def index_of(value):
        try:
            return value.__index__()
        except Exception:
            return None

    @functools.wraps(real_set_wakeup_fd)
    def set_wakeup_fd_beside_ours(*args, **kwargs):
        # The cell's fd is Python's wakeup fd, set by Python's own (its errors); -1 puts the pipe
        # back while a statement is watched. It returns the cell's previous one, never the pipe.
        __tracebackhide__ = ours
        if threading.current_thread() is not threading.main_thread():
            return real_set_wakeup_fd(*args, **kwargs)
        pipe = arrivals.watched
        if pipe is None:
            previous = real_set_wakeup_fd(*args, **kwargs)
            fd = index_of(args[0]) if args else None
            if fd is not None:
                arrivals.target = fd
                arrivals.warns = (fd, bool(kwargs.get("warn_on_full_buffer", True)))
            return -1 if arrivals.pipe is not None and previous == arrivals.pipe[1] else previous
        with arrivals.lock:
            # What arrived on the pipe until now is noted.
            read_arrivals(pipe)
            previous = real_set_wakeup_fd(*args, **kwargs)
            if previous == pipe[1]:
                previous = -1
            fd = index_of(args[0]) if args else None
            if fd is None:
                return previous
            if fd == -1:
                # None of the cell's: the pipe again (Python's handler still noting until it is).
                try:
                    real_set_wakeup_fd(pipe[1], warn_on_full_buffer=False)
                except (ValueError, OSError):
                    pass
                arrivals.target = -1
                unnote_sigint()
            else:
                arrivals.target = fd
                arrivals.warns = (fd, bool(kwargs.get("warn_on_full_buffer", True)))
                note_sigint()
            return previous

    signal.set_wakeup_fd = set_wakeup_fd_beside_ours

    real_getsignal = signal.getsignal

    @functools.wraps(real_getsignal)
    def getsignal_as_set(*args, **kwargs):
        __tracebackhide__ = ours
        return shown(real_getsignal(*args, **kwargs))

    signal.getsignal = getsignal_as_set

    def handlers_run():
        # Entering a Python function runs the signal handlers still pending.
        pass

    def note_arrivals(pipe, handler):
        # The SIGINT arrived since the last noted found handler in place.
        with arrivals.lock:
            read_arrivals(pipe)
            seen, arrivals.seen = arrivals.seen, False
        if seen:
            arrivals.handlers.append(handler)

    @functools.wraps(real_signal)
    def signal_noting_arrivals(*args, **kwargs):
        # The arguments go to Python's own as given (by position or keyword), for its errors.
        __tracebackhide__ = ours
        pipe = arrivals.watched
        signalnum = args[0] if args else kwargs.get("signalnum")
        if (pipe is not None and isinstance(signalnum, int) and signalnum == signal.SIGINT
                and threading.current_thread() is threading.main_thread()):
            before = shown(raw_getsignal(signal.SIGINT))
            try:
                handlers_run()
            finally:
                note_arrivals(pipe, before)
            previous = shown(real_signal(*args, **kwargs))
            if arrivals.target != -1:
                note_sigint()
            return previous
        return shown(real_signal(*args, **kwargs))

    signal.signal = signal_noting_arrivals

    def arrived(pipe, handler):
        # The SIGINT handlers in place when a SIGINT arrived since watch_arrivals (handler: the one
        # in place at the statement's end); the wakeup fd goes back to none when it was the pipe.
        if pipe is None:
            return []
        try:
            release_wakeup_fd(pipe)
            note_arrivals(pipe, handler)
        finally:
            # Even when an interrupt the cell's own handler raised landed here.
            handlers, arrivals.handlers, arrivals.watched = arrivals.handlers, [], None
        return handlers

    def cells_own(handler):
        # A SIGINT handler the cell set, not ours nor Python's own (SIG_IGN and SIG_DFL are no
        # function: the signal never reaches Python's code).
        return (callable(handler) and handler is not on_interrupt and handler is not signal.default_int_handler
                and handler is not interrupts.async_handler)

    def on_interrupt(signum, frame):
        interrupts.taken += 1
        interrupts.pending = True

    def pre_handler_hook():
        interrupts.pending, interrupts.statements, interrupts.delivered = False, 0, False
        interrupts.own_handler = False
        interrupts.cancelled = interrupts.replaced = None
        kernel.saved_sigint_handler = real_signal(signal.SIGINT, on_interrupt)

    def post_handler_hook():
        real_signal(signal.SIGINT, kernel.saved_sigint_handler)
        interrupts.pending = False

    shell_run_code = ip.run_code

    async def run_statement(code_obj, result=None, *, async_=False):
        # IPython runs each of the cell's top-level statements here, inside a try that takes any
        # exception as the cell's: a KeyboardInterrupt raised anywhere in it is the cell's.
        __tracebackhide__ = ours
        if threading.current_thread() is not threading.main_thread():
            return await shell_run_code(code_obj, result, async_=async_)
        # Python's own handler runs the statement only when ours is in place: not when the cell
        # set a handler of its own, or a cell with top-level await runs (its handler is
        # interrupt_on_sigint's), or in a cell run from a statement. The arrivals are watched
        # whoever's handler is in place (not in a cell run from a statement: the wakeup fd is
        # ours already, for the statement that runs it).
        ours_now = raw_getsignal(signal.SIGINT) is on_interrupt
        watching = watch_arrivals()
        taken = interrupts.taken
        try:
            if ours_now:
                # Python checks for signals right after a call of a C function: one that arrived
                # just before is raised here, by the handler just put in place (outside this try,
                # the finally below did not run: Python's handler, and the pipe as the wakeup fd,
                # stayed for the rest of the request). It came before the statement: kept for it.
                try:
                    raw_signal(signal.SIGINT, signal.default_int_handler)
                    if watching is not None and arrivals.target != -1:
                        note_sigint()
                except KeyboardInterrupt:
                    interrupts.pending = True
            if interrupts.pending:
                interrupts.pending = False
                interrupt = KeyboardInterrupt(
                    ${JSON.stringify(interruptedBeforeStart)} if interrupts.statements == 0
                    else ${JSON.stringify(interruptedBetweenStatements)})
                interrupt.between_statements = True
                raise interrupt
            interrupts.statements += 1
            interrupts.inside += 1
            try:
                failed = await shell_run_code(code_obj, result, async_=async_)
            finally:
                interrupts.inside -= 1
            if not failed and interrupts.inside == 0:
                # The statement ended without an error: the cell caught the cancel an interrupt
                # made, and goes on; a CancelledError later is its own, not the interrupt's.
                interrupts.cancelled = None
            replaced = interrupts.replaced
            if replaced is not None and result is not None and result.error_in_exec is replaced[0]:
                # The reply names the KeyboardInterrupt shown, not the cancel behind it.
                result.error_in_exec = replaced[1]
                interrupts.replaced = None
            return failed
        finally:
            # Ours back first, whatever lands meanwhile: one raised here by Python's handler came
            # after the statement's code, and is kept (pending), not raised out of the statement
            # with Python's handler left in place.
            while True:
                try:
                    if watching is not None:
                        unnote_sigint()
                    handler = raw_getsignal(signal.SIGINT)
                    if ours_now and handler is signal.default_int_handler:
                        raw_signal(signal.SIGINT, on_interrupt)
                    break
                except KeyboardInterrupt:
                    interrupts.pending = True
            lost_statement_ends()
            handlers = arrived(watching, handler)
            if handlers:
                # Arrived while the statement ran; raised in it only if Python's handler ran it
                # there: one whose handler runs only now is ours (on_interrupt), which keeps it
                # (pending) and drops it after the last statement. One that none of ours took,
                # with the cell's own handler in place when it arrived, went to that handler.
                handlers_run()
                if interrupts.taken == taken and any(cells_own(each) for each in handlers):
                    interrupts.delivered = interrupts.own_handler = True
                elif ours_now and not interrupts.pending:
                    interrupts.delivered = True

    @contextlib.contextmanager
    def interrupt_on_sigint(task):
        # ipykernel runs a cell with top-level await as a task on its event loop, under a SIGINT
        # handler of its own (_cancel_on_sigint) that asks the loop to cancel the task without
        # waking it: the loop, asleep in its selector, went on sleeping until some event came (the
        # end of the cell's sleep, or never), the cell was not stopped, and the harness killed the
        # kernel, its variables lost (ipykernel#881); a sync call in the task (time.sleep) was not
        # interrupted either. Here, as in a sync cell, an interrupt landing while one of the
        # cell's statements runs raises KeyboardInterrupt there; one landing while the cell waits
        # at an await (the loop asleep, or another task running) cancels the task through the
        # loop, woken, at the await it waits in, and is shown as a KeyboardInterrupt (see
        # showtraceback). One landing before the cell's first statement or between two is raised
        # before the next (run_statement), and one after the last is dropped with the request.
        loop = task.get_loop()

        def in_cell_code(frame):
            # Whether the interrupted frame runs the cell's code, or code the cell called: IPython's
            # run_code, which awaits the cell's statement, is one of its callers (not itself).
            if run_code is None:
                return True
            caller = frame.f_back if frame is not None else None
            while caller is not None:
                if caller.f_code is run_code:
                    return True
                caller = caller.f_back
            return False

        def interrupt_task():
            if task.done():
                return
            if interrupts.inside:
                interrupts.cancelled = task
                interrupts.delivered = True
                task.cancel()
            else:
                interrupts.pending = True

        def on_async_interrupt(signum, frame):
            # Its frame is not the cell's (Python's own handler, in C, has none): left out of the
            # traceback.
            __tracebackhide__ = ours
            interrupts.taken += 1
            if task.done():
                return
            if not interrupts.inside:
                # Not started, or in IPython's code between two statements (a task waits only
                # inside a statement).
                interrupts.pending = True
                return
            try:
                running = asyncio.current_task(loop)
            except RuntimeError:
                running = None
            if running is task and in_cell_code(frame):
                interrupts.delivered = True
                # Marked, for interrupt_not_lost: a KeyboardInterrupt of the cell's own is not one.
                interrupt = KeyboardInterrupt()
                interrupt.tools_interrupt = True
                raise interrupt
            # Never raised in the loop's own code or another task's: it would end the loop, and
            # the kernel with it. Nor in the loop's code that the task's step runs once the cell
            # has yielded (call_soon, which a bare yield, asyncio.sleep(0), reschedules the task
            # with): the task is current there too, but no frame of the cell's is below it.
            loop.call_soon_threadsafe(interrupt_task)

        saved = raw_signal(signal.SIGINT, on_async_interrupt)
        interrupts.async_handler = on_async_interrupt
        interrupts.redeliver = lambda: loop.call_soon_threadsafe(interrupt_task)
        try:
            yield
        finally:
            interrupts.redeliver = interrupts.async_handler = None
            raw_signal(signal.SIGINT, saved)

    unraisable_hook = sys.unraisablehook

    # In a sync statement the interrupt lost in a __del__ is raised again at the next instruction
    # Python runs in one of the frames of the cell's code that were running then (the one that
    # dropped the object, or those that called it), through a trace function on those frames alone
    # (set for that instruction: none runs otherwise). frames: those frames, each with the trace
    # function and f_trace_opcodes it had (a debugger's), put back when disarmed; previous_tracer:
    # the global one in place before. A trace function that raises makes Python drop the global
    # one (the cell's, or a debugger's): restore keeps it to put back at the statement's end,
    # unless the cell set one itself since (sys.settrace(None) as its tracing ends: before, the
    # cell's tracer came back after it had turned it off, for every later cell).
    real_settrace = sys.settrace
    lost = types.SimpleNamespace(frames=[], previous_tracer=None, armed=False, restore=None)

    def trace_nothing(frame, event, arg):
        return None

    def raise_lost_interrupt(frame, event, arg):
        __tracebackhide__ = ours
        if not lost.armed:
            return None
        previous = lost.previous_tracer
        disarm_lost()
        if previous is not None:
            lost.restore = previous
            sys.settrace = settrace_after_lost
        raise KeyboardInterrupt()

    @functools.wraps(real_settrace)
    def settrace_after_lost(*args, **kwargs):
        # The cell's own call after raise_lost_interrupt raised: its tracer is the one it wants.
        lost.restore = None
        if sys.settrace is settrace_after_lost:
            sys.settrace = real_settrace
        return real_settrace(*args, **kwargs)

    def arm_lost(frame):
        # False when no frame of the cell's code is there (the __del__ ran in IPython's).
        frames = []
        while frame is not None and frame.f_code is not run_code:
            frames.append(frame)
            frame = frame.f_back
        if frame is None or not frames or lost.armed:
            return False
        lost.previous_tracer = sys.gettrace()
        if lost.previous_tracer is None:
            real_settrace(trace_nothing)
        lost.frames = [(each, each.f_trace, each.f_trace_opcodes) for each in frames]
        for each in frames:
            each.f_trace = raise_lost_interrupt
            each.f_trace_opcodes = True
        lost.armed = True
        return True

    def disarm_lost():
        frames, lost.frames, lost.armed = lost.frames, [], False
        for each, trace, opcodes in frames:
            try:
                each.f_trace_opcodes = opcodes
                each.f_trace = trace
            except Exception:
                pass
        real_settrace(lost.previous_tracer)
        lost.previous_tracer = None

    def lost_statement_ends():
        # At the end of a sync statement: one not raised (no frame ran an instruction more) is
        # raised before the next statement; the tracer Python dropped as ours raised is back,
        # unless the cell set one since.
        if lost.armed:
            disarm_lost()
            interrupts.pending = True
        restore, lost.restore = lost.restore, None
        if sys.settrace is settrace_after_lost:
            sys.settrace = real_settrace
        if restore is not None and sys.gettrace() is None:
            real_settrace(restore)

    def sigint_arrived_unnoted():
        # Whether a SIGINT arrived on the watched pipe since the last noted, with Python's own
        # handler in place: then noted as one that handler took.
        pipe = arrivals.watched
        if pipe is None or shown(raw_getsignal(signal.SIGINT)) is not signal.default_int_handler:
            return False
        with arrivals.lock:
            read_arrivals(pipe)
            if not arrivals.seen:
                return False
            arrivals.seen = False
            arrivals.handlers.append(signal.default_int_handler)
        return True

    def interrupt_not_lost(unraisable):
        # The KeyboardInterrupt raised in the cell's code can land in code Python runs on its own
        # while the cell runs (a __del__, a weakref callback: WeakSet's _remove as an object the
        # cell dropped dies), whose exceptions Python prints ("Exception ignored in …") and drops:
        # the cell went on, and the harness killed the kernel. In an async cell it is delivered
        # again, as a cancel of the cell's task at its next await, and not printed; in a sync
        # statement, raised at its next instruction (see arm_lost). Only the one an interrupt
        # raised (an async cell's is marked so; in a sync statement, a SIGINT arrived with Python's
        # handler in place): one the cell's __del__ raises itself is printed and dropped.
        redeliver = interrupts.redeliver
        value = getattr(unraisable, "exc_value", None)
        if isinstance(value, KeyboardInterrupt) and threading.current_thread() is threading.main_thread():
            try:
                if redeliver is not None:
                    if getattr(value, "tools_interrupt", False) is True:
                        redeliver()
                        return None
                elif interrupts.inside and sigint_arrived_unnoted():
                    # One lost while the last lost still waits to be raised is that one, as Python
                    # takes two SIGINTs arriving before its handler ran as one: raised once.
                    if not lost.armed and not arm_lost(sys._getframe(1)):
                        interrupts.pending = True
                    return None
            except Exception:
                pass
        return unraisable_hook(unraisable)

    sys.unraisablehook = interrupt_not_lost

    # Python 3.11's asyncio.wait_for loses a cancel that comes as the awaited future completes: it
    # catches the CancelledError, sees the future done, and returns its result (CPython gh-86296;
    # 3.12's wait_for, built on asyncio.timeout, does not). An interrupt's cancel is one: a cell
    # looping on wait_for went on with its task "cancelling", and the harness killed the kernel
    # after the grace period, its variables lost (17 of 24 cancels of a wait_for(sleep(0)) loop).
    # Here a wait_for during which its task's cancel was asked for and that returned anyway raises
    # the CancelledError it lost, for any cancel (a worker task's too, or an asyncio.timeout's), as
    # 3.12 does; task.cancelling() (3.11) counts the cancels asked for. Not one with no timeout:
    # wait_for awaits its argument in its task then, and loses no cancel; a coroutine that caught
    # the cancel and returned (without uncancel) returns its result, as in 3.12.
    original_wait_for = asyncio.tasks.wait_for
    if sys.version_info < (3, 12) and hasattr(asyncio.Task, "cancelling"):
        @functools.wraps(original_wait_for)
        async def wait_for_keeping_cancel(fut, timeout):
            __tracebackhide__ = ours
            if timeout is None:
                return await original_wait_for(fut, timeout)
            task = asyncio.current_task()
            asked = task.cancelling() if task is not None else 0
            result = await original_wait_for(fut, timeout)
            if task is not None and task.cancelling() > asked:
                raise asyncio.CancelledError()
            return result

        asyncio.tasks.wait_for = asyncio.wait_for = wait_for_keeping_cancel

    finish_metadata = kernel.finish_metadata

    def finish_with_interrupt(parent, metadata, reply_content):
        metadata = finish_metadata(parent, metadata, reply_content)
        if interrupts.delivered and isinstance(metadata, dict):
            metadata["tools/interrupt_delivered"] = True
            if interrupts.own_handler:
                metadata["tools/interrupt_own_handler"] = True
        return metadata

    ip.run_code = run_statement
    kernel.finish_metadata = finish_with_interrupt
    if hasattr(kernel, "_cancel_on_sigint"):
        kernel._cancel_on_sigint = interrupt_on_sigint
    kernel.pre_handler_hook = pre_handler_hook
    kernel.post_handler_hook = post_handler_hook

    def watchdog():
        while True:
            time.sleep(1)
            if os.getppid() != parent_pid:
                os._exit(0)

    threading.Thread(target=watchdog, name="tools-parent-watchdog", daemon=True).start()
    try:
        ip.run_line_magic("colors", "NoColor")
    except Exception:
        pass

__tools_install(${options.parentPid}, ${JSON.stringify(bridgeMarker)}, ${JSON.stringify(options.shellTool)}, ${timeout === null ? "None" : String(timeout)}, ${subLineChars}, ${groupChars})
del __tools_install
${pythonFdOutputCode}`;
}
