/**
 * Python run silently in every new kernel, after the helpers: it takes over reading fd 1 and 2.
 *
 * ipykernel (6.x) copies what is written to fd 1 and 2 without `sys.stdout` (a child process, C
 * code, `os.write(1, …)`) into the cell's output: it points them at a pipe and a thread decodes
 * each read of it on its own. On 6.17 the first read that was not whole UTF-8 — a character split
 * between two reads (`subprocess.run` of a program printing accented text), a binary byte — ended
 * that thread: from then on that output was lost, and a writer of more than the pipe holds
 * (64 KiB, `subprocess.run(["seq", "1", "100000"])`) blocked for good, its cell with it. Here fd 1
 * and 2 get a new pipe each, read by a thread that decodes across reads and takes a byte that is
 * not UTF-8 as U+FFFD; what it reads goes to the cell's output and, as ipykernel's did, to the
 * kernel's own stream (whose stderr the harness keeps for its message should the kernel die).
 * ipykernel's thread is left waiting on its old pipe, which nothing writes to any more. A stream
 * that ipykernel does not watch (another version, or capture turned off) is left as it is.
 * The stream's fileno() is fd 1 or 2 while the thread runs (in a forked child: ran at the fork):
 * ipykernel's was its copy of the kernel's own stream, so a child given stdout=sys.stdout (or
 * stderr=sys.stderr) was lost to the cell. A forked child closes its copy of the pipes' read ends:
 * once the kernel is gone (a crash) its writes fail (EPIPE) instead of filling a pipe only it
 * holds and waiting for good.
 * A cell that closes fd 1 or 2 (through that fileno()) has it back on the pipe from its end (and at
 * the next cell's start), taken only while it is still free: a file the cell put there stays.
 *
 * At the end of each cell (post_execute), and before the last expression's echo, a mark is written
 * to each pipe and the cell waits, at most 2 s, until the thread has read up to it: what the cell
 * wrote there is its output, not output after it ended, and comes before the echo. Each mark
 * carries a number, rising, and a wait ends once the thread has read a mark numbered as high as
 * its own: a mark read late, or one an interrupt kept from being written or waited for, ends no
 * later wait early, and no lock is taken (a signal handler waiting for a child in the middle of a
 * mark goes on). The mark goes only to an fd that is still our pipe (a cell may have put a file
 * there) and only while the thread runs (the kernel shutting down); it is written through a
 * non-blocking description of its own, so into a pipe that stays full it is dropped after the
 * 2 s, not waited on for good. A character left unfinished at a cell's mark is U+FFFD in that
 * cell's output; one split around a child's mark (below) is kept whole.
 *
 * Node makes the pipe it gets as stdout non-blocking as it starts (and back when it exits
 * normally, not when killed). That flag belongs to the open file description, which fd 1 of the
 * kernel and of every child shared: while a Node child ran, or after it was killed, a later writer
 * in the same cell that filled the pipe (`seq`, `os.write(1, …)`) failed with EAGAIN. So the
 * kernel keeps a description of its own (opened anew through /proc/self/fd, close-on-exec), and
 * each child gets a fresh description of the same pipe, alone: a `Popen` as the fds its
 * `_execute_child` puts on the child's 1 and 2 (nothing changes in the kernel, so threads starting
 * children at once each get their own; the kernel closes them once the child has them, or failed to
 * start, or an interrupt came while they were opened); a forked child (`os.fork`, multiprocessing) opens its own
 * as it starts (after-fork hook); an `os.posix_spawn` child by file actions put before the cell's.
 * For `os.system` (also `posix.system`; audit event) and multiprocessing's "spawn" and "forkserver" (its
 * spawnv_passfds) fd 1 and 2 of the whole process are pointed at a fresh one before the child
 * starts and back on the kernel's own (made blocking) before each cell and each mark (and once a
 * multiprocessing child has started) — but not while such a start (for os.system, until its child
 * has ended) is in progress in any thread, when they go on another fresh one instead: another
 * thread putting them back between the swap and the start left that child on the kernel's
 * description, and one left on the description a child still running took (an os.system server
 * in a thread) had the kernel's writes made short by a Node child there. Children started so at the same time may share one. Without /proc the shared one is made blocking
 * at those points instead. The builtin os.system called through a reference taken before it
 * was wrapped holds its swap from its audit event until its thread runs Python again. A child
 * started where Python does not see it (C code, libc's `system()` through `ctypes`, whose foreign
 * calls raise no audit event) shares the kernel's description, made blocking again at the next
 * cell. An interrupt while the
 * audit hook flushes before a child stops the cell (the child does not start).
 *
 * Order: a print goes into ipykernel's buffer at once, a child's output only when the thread has
 * read it, so a print after `subprocess.run` could come before the child's output. When a child
 * ends (`Popen.wait`, which `run`, `call` and `communicate` use, and `os.system`) the cell waits
 * for the thread to read up to a mark (once per child: `run` waits twice), and before a child
 * starts and after it ends both streams are flushed, so print, child, print come out in that order, also when the child writes to stderr.
 * multiprocessing's Process.join does the same once the child has ended (any start method), and
 * Process.start flushes first ("spawn" and "forkserver" start past the audit hooks); a forked
 * child's sys.stdout and sys.stderr write straight to fd 1 and 2 (ipykernel's sent each write over
 * a ZMQ connection of its own, taken in any order and never waited for). ipykernel's stream
 * object itself writes to the fd there too (a logging handler made in the kernel holds it): it
 * sent each write as a message of the kernel's session, over a connection made from the kernel's
 * ZMQ context copied by fork.
 * None of these waits is taken in a reader thread itself (a Pool's finalizer run there by the
 * garbage collector joins its workers), where no mark could be read while it waited.
 * A child whose end Python does not wait for there (asyncio's, `os.posix_spawn` with
 * `os.waitpid`, one left running) is not waited for: its output comes when the thread reads it.
 */
export const pythonFdOutputCode = String.raw`
def __tools_watch_fds(ip):
    import codecs, errno, fcntl, functools, inspect, io, itertools, os, select, subprocess, sys, threading, time

    kernel_pid = os.getpid()
    watched = []
    # Each round of marks takes the next number (next() on a count is atomic: no lock, which a
    # signal handler waiting for a child in the same thread would find taken). The reader keeps the
    # highest number it has read; a mark with a higher number was written after a lower one was
    # taken, so after all that was in the pipe then. A mark lost to an interrupt moves no later wait.
    numbers = itertools.count(1)
    # Set while this thread is in Popen._execute_child: the child gets its description there.
    spawning = threading.local()

    class Pipe:
        __slots__ = ("fd", "identity", "mark", "state", "own", "thread", "mark_fd", "stream", "read_end", "read_open")

    def reopen(fd):
        # A new open file description of the same pipe, blocking and not inherited: its flags
        # (O_NONBLOCK) are its own. None without /proc (not Linux). Closed again on any error,
        # an interrupt (KeyboardInterrupt) too: a spawn interrupted here leaks no fd. The fd goes
        # into "opened" in C (list.extend over map): an interrupt is raised as a C call returns,
        # and one raised as os.open returned, before its result had a name, left it open for good.
        opened = []
        made = False
        try:
            try:
                opened.extend(map(os.open, (f"/proc/self/fd/{fd}",),
                                  (os.O_WRONLY | os.O_CLOEXEC | os.O_NONBLOCK,)))
            except OSError:
                return None
            os.set_blocking(opened[0], True)
            made = True
        except OSError:
            pass
        finally:
            if not made:
                for new in opened:
                    os.close(new)
        return opened[0] if made else None

    def watch(stream, fd):
        if not getattr(stream, "_should_watch", False) or getattr(stream, "watch_fd_thread", None) is None:
            return
        original = getattr(stream, "_original_stdstream_copy", None)
        read_end, write_end = os.pipe()
        own = reopen(write_end)
        os.dup2(write_end if own is None else own, fd)
        os.close(write_end)
        pipe = Pipe()
        pipe.fd = fd
        pipe.own = own
        pipe.stream = stream
        # Open in this process until a forked child closes its copy (fresh_in_child); its
        # children inherit False, so none closes an fd the number now names something else.
        pipe.read_end = read_end
        pipe.read_open = True
        # Marks go through a non-blocking description of their own: into a full pipe nobody reads
        # (the reader stopped) a mark is not written rather than waiting for good.
        pipe.mark_fd = reopen(write_end)
        if pipe.mark_fd is not None:
            try:
                os.set_blocking(pipe.mark_fd, False)
            except OSError:
                os.close(pipe.mark_fd)
                pipe.mark_fd = None
        pipe.identity = (os.fstat(fd).st_dev, os.fstat(fd).st_ino)
        # A mark is the prefix, then "c" at a cell's end (a character left unfinished there is
        # U+FFFD) or "p" at a child's end (one a child still running split around it is kept
        # whole), then its number in 16 hex digits, then a NUL.
        pipe.mark = prefix = b"\0tools-fd-mark-" + os.urandom(8).hex().encode()
        mark_length = len(prefix) + 18
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        pipe.state = state = {"read": 0, "stopped": False, "changed": threading.Condition()}

        def emit(data, final=False):
            nonlocal original
            if not data and not final:
                return
            if data and original is not None:
                try:
                    os.write(original, data)
                except OSError:
                    # Nobody reads the kernel's own stream any more: the cell's output goes on.
                    original = None
            # At a cell's mark (final) the cell has ended: a character it left unfinished is
            # U+FFFD in its output, not the start of the next cell's. At a child's mark a child
            # still running may be in the middle of one: the decoder keeps its start.
            text = decoder.decode(data, final=final)
            if text:
                stream.write(text)

        def mark_number(digits):
            try:
                return int(digits, 16)
            except ValueError:
                return 0

        def pump():
            try:
                read_all()
            finally:
                # Waits for a mark end now: nothing will read it.
                with state["changed"]:
                    state["stopped"] = True
                    state["changed"].notify_all()

        def read_all():
            held = b""
            while stream._should_watch:
                try:
                    data = os.read(read_end, 65536)
                except InterruptedError:
                    continue
                except OSError:
                    return
                if not data:
                    return
                data = held + data
                try:
                    at = data.find(prefix)
                    while at >= 0 and len(data) - at >= mark_length:
                        head = at + len(prefix)
                        number = data[head + 1:head + 17]
                        emit(data[:at], final=data[head] == ord("c"))
                        data = data[at + mark_length:]
                        number = mark_number(number)
                        with state["changed"]:
                            if number > state["read"]:
                                state["read"] = number
                            state["changed"].notify_all()
                        at = data.find(prefix)
                    # The start of a mark may end this read: held for the next one.
                    if at >= 0:
                        keep = len(data) - at
                    else:
                        keep = next((n for n in range(min(len(prefix) - 1, len(data)), 0, -1)
                                     if data.endswith(prefix[:n])), 0)
                    held = data[len(data) - keep:] if keep else b""
                    emit(data[:len(data) - keep])
                except ValueError:
                    # The stream was closed: the kernel is shutting down.
                    return

        thread = threading.Thread(target=pump, name=f"tools-fd-{fd}", daemon=True)
        pipe.thread = thread
        stream._fid = read_end
        stream.watch_fd_thread = thread
        thread.start()
        watched.append(pipe)

        kernel_stream_fileno = stream.fileno

        def fileno():
            # ipykernel answers the kernel's own stream (the harness's stderr), so a child given
            # stdout=sys.stdout or stderr=sys.stderr, or os.write(sys.stdout.fileno(), ...), was
            # lost to the cell. fd 1 or 2 here, as in a script: our pipe, the cell's output. Also in
            # a forked child (os.fork, multiprocessing's "fork"), where the reader thread is not
            # alive but the kernel's still reads the pipe: as it was when the child was forked.
            if not state["stopped"]:
                return fd
            return kernel_stream_fileno()

        stream.fileno = fileno

    watch(sys.stdout, 1)
    watch(sys.stderr, 2)

    def our_pipes():
        for pipe in watched:
            try:
                stat = os.fstat(pipe.fd)
            except OSError:
                continue
            if (stat.st_dev, stat.st_ino) == pipe.identity:
                yield pipe

    def shared(pipe):
        # A pipe the kernel has no description of its own of (it could not be opened): children
        # share the kernel's, kept blocking for the kernel's writes. True then: nothing is
        # reopened for it.
        if pipe.own is not None:
            return False
        try:
            os.set_blocking(pipe.fd, True)
        except OSError:
            pass
        return True

    # Process-wide swaps in progress (os.system, a multiprocessing "spawn" or "forkserver" start,
    # a Popen in a form we do not know), one token each, from before the swap until the child has
    # started (os.system: until it has ended, as libc's system() does not say when it started).
    # While there is one, fd 1 and 2 are not put back on the kernel's description: another
    # thread's child ending or a cell starting between the swap and the child's start left that
    # child on the kernel's. The check and the dup2 are one step against a swap under
    # "swapping", re-entrant: a signal handler in the thread holding it goes on.
    swaps = set()
    swapping = threading.RLock()
    # os.system's builtin called past our wrapper (a reference taken before it was wrapped): its
    # audit event is all that is seen of it. It holds a swap from that event until its thread is
    # seen in Python again: its next audit event, a to_own in it, or its end. Nothing in that
    # thread runs Python between the event and system()'s fork, nor until system() returns, so
    # no other thread puts fd 1 and 2 back on the kernel's description before its child started.
    # By thread id: (thread, token).
    raw_systems = {}

    def hold_raw_system():
        token = object()
        swaps.add(token)
        previous = raw_systems.get(threading.get_ident())
        raw_systems[threading.get_ident()] = (threading.current_thread(), token)
        if previous is not None:
            swaps.discard(previous[1])

    def release_raw_systems():
        # Those of this thread (it runs Python: the call returned) and of threads that ended.
        for ident, (thread, token) in list(raw_systems.items()):
            if ident == threading.get_ident() or not thread.is_alive():
                if raw_systems.get(ident, (None, None))[1] is token:
                    raw_systems.pop(ident, None)
                swaps.discard(token)

    def to_own(pipes=None):
        # fd 1 and 2 back on the kernel's own description of the pipe, blocking. A child (node,
        # for one) makes the description it was given non-blocking; shared, a later writer that
        # fills the pipe (seq, os.write, the mark) would fail with EAGAIN instead of waiting.
        # Only in the kernel: a forked child keeps the description it took, not the kernel's,
        # which its fd of "own" still names. While a swap is in progress, on another fresh
        # description instead: left on the one a child took (an os.system child running on, a
        # server started in a thread), every later cell shared it, and a Node child there made the
        # kernel's os.write(1, ...) short again.
        if os.getpid() != kernel_pid:
            return
        with swapping:
            if raw_systems:
                release_raw_systems()
            busy = bool(swaps)
            for pipe in our_pipes() if pipes is None else pipes:
                try:
                    if pipe.own is None:
                        os.set_blocking(pipe.fd, True)
                    elif busy:
                        fresh(pipe)
                    else:
                        os.set_blocking(pipe.own, True)
                        os.dup2(pipe.own, pipe.fd)
                except OSError:
                    pass

    def fresh(pipe):
        # fd 1 or 2 on a new, blocking description of the pipe (closed in the kernel whatever
        # happens), or made blocking where none can be opened.
        new = reopen(pipe.own)
        if new is None:
            os.set_blocking(pipe.fd, True)
            return
        try:
            os.dup2(new, pipe.fd)
        finally:
            os.close(new)

    def to_fresh():
        # Before a child starts that Python cannot give fds of its own (os.system, os.posix_spawn):
        # fd 1 and 2 on a new description of the pipe, the one it inherits, so what it does to its
        # flags is its own and the kernel's and other children's stay blocking. For the whole
        # process: a child started at the same time may get the same one. Called within a swap
        # (swapped), no other thread puts them back on the kernel's before the child starts.
        with swapping:
            for pipe in our_pipes():
                try:
                    if not shared(pipe):
                        fresh(pipe)
                except OSError:
                    pass

    def swapped(call, *args, **kwargs):
        # call with fd 1 and 2 on a fresh description, kept there until it returns (the token is
        # in "swaps" before the swap), then back on the kernel's once no other swap is in progress.
        __tracebackhide__ = "__tools__"
        token = object()
        try:
            swaps.add(token)
            to_fresh()
            return call(*args, **kwargs)
        finally:
            swaps.discard(token)
            to_own()

    def flush_streams():
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                pass

    def write_mark(pipe, mark, deadline):
        # Shorter than PIPE_BUF: written whole or not at all. Never under "changed", which the
        # reader takes between reads. Into a full pipe: once there is room, until the deadline.
        if pipe.mark_fd is None:
            # Without /proc only the shared, blocking description: written once there is room.
            try:
                if select.select([], [pipe.fd], [], max(0, deadline - time.monotonic()))[1]:
                    os.write(pipe.fd, mark)
                    return True
            except (OSError, ValueError):
                pass
            return False
        while True:
            try:
                os.write(pipe.mark_fd, mark)
                return True
            except BlockingIOError:
                pass
            except OSError:
                return False
            try:
                if not select.select([], [pipe.mark_fd], [], max(0, deadline - time.monotonic()))[1]:
                    return False
            except (OSError, ValueError):
                return False

    def reclaim_closed():
        # A cell that closed fd 1 or 2 (os.close(sys.stdout.fileno()), open(sys.stdout.fileno())
        # closed or collected) left every later cell's children and os.write(1, ...) writing
        # nowhere: from its end the fd is our pipe again. One the cell put a file on stays; F_DUPFD
        # takes the fd only if it is still free (another thread may have opened a file on it).
        if os.getpid() != kernel_pid:
            return
        for pipe in watched:
            if pipe.own is None or not pipe.thread.is_alive():
                continue
            try:
                os.fstat(pipe.fd)
                continue
            except OSError as error:
                if error.errno != errno.EBADF:
                    continue
            try:
                got = fcntl.fcntl(pipe.own, fcntl.F_DUPFD, pipe.fd)
            except OSError:
                continue
            if got != pipe.fd:
                os.close(got)

    def read_up_to_marks(cell_end=True):
        __tracebackhide__ = "__tools__"
        if cell_end:
            reclaim_closed()
        pipes = list(our_pipes())
        to_own(pipes)
        if any(pipe.thread is threading.current_thread() for pipe in watched):
            # A reader itself (a finalizer the garbage collector ran as it wrote, a Pool's joining
            # its workers): no reader could read its mark while it waits, so each join waited the
            # whole 2 s, and held that pipe's output meanwhile.
            return
        number = next(numbers)
        deadline = time.monotonic() + 2
        kind = b"c" if cell_end else b"p"
        waits = []
        for pipe in pipes:
            # A reader that stopped (the kernel shutting down) reads no mark.
            if pipe.thread.is_alive() and write_mark(pipe, b"%s%s%016x\0" % (pipe.mark, kind, number), deadline):
                waits.append(pipe)
        for pipe in waits:
            state = pipe.state
            with state["changed"]:
                state["changed"].wait_for(lambda: state["read"] >= number or state["stopped"],
                                          timeout=max(0, deadline - time.monotonic()))

    def child_ended():
        # What the child wrote is read before the cell goes on, so a print after it comes after
        # it; and sent before a print to the other stream.
        __tracebackhide__ = "__tools__"
        if os.getpid() != kernel_pid:
            return
        try:
            read_up_to_marks(cell_end=False)
        except Exception:
            pass
        flush_streams()

    spawns = frozenset({"subprocess.Popen", "os.system", "os.posix_spawn", "os.fork", "os.forkpty"})
    # Children that inherit the process's fd 1 and 2 as they are: a forked child takes a
    # description of its own itself (fresh_in_child), a Popen's is given in _execute_child, an
    # os.posix_spawn's by its file actions (spawn_with_own; this covers one called past it).
    inheriting = frozenset({"os.system", "os.posix_spawn"})

    def before_child(event, _args):
        if raw_systems and not getattr(spawning, "hooking", False):
            # This thread runs Python again: a raw os.system it was in has returned.
            raw = raw_systems.pop(threading.get_ident(), None)
            if raw is not None:
                swaps.discard(raw[1])
        if event not in spawns or os.getpid() != kernel_pid:
            return
        spawning.hooking = True
        try:
            # What the cell printed before the child goes out before what the child writes.
            flush_streams()
            if event in inheriting and not getattr(spawning, "inside", False):
                if event == "os.system" and not getattr(spawning, "system", False):
                    hold_raw_system()
                to_fresh()
        except Exception:
            # An audit hook that raises stops the call it audits. An interrupt (KeyboardInterrupt)
            # stops it, as it stops the cell.
            pass
        finally:
            spawning.hooking = False

    class ForkedStream(io.TextIOBase):
        # sys.stdout or sys.stderr of a forked child: written straight to fd 1 or 2, our pipe. As
        # ipykernel's, it went to the kernel over a socket of its own (a ZMQ connection per write,
        # taken in any order), so a joined child's output could come after the parent's next
        # print, or after the cell's end. Through the pipe it is read up to the mark written once
        # the child is joined (or the cell ends). Unbuffered: a child ending with os._exit loses
        # nothing it printed.

        def __init__(self, fd, name):
            super().__init__()
            self._fd = fd
            self._name = name

        @property
        def name(self):
            return self._name

        @property
        def encoding(self):
            return "utf-8"

        @property
        def errors(self):
            return "replace"

        def fileno(self):
            return self._fd

        def writable(self):
            return True

        def isatty(self):
            return False

        def write(self, text):
            if not isinstance(text, str):
                raise TypeError(f"write() argument must be str, not {type(text).__name__}")
            data = memoryview(text.encode("utf-8", "replace"))
            while data:
                try:
                    data = data[os.write(self._fd, data):]
                except BlockingIOError:
                    # Another process made the description non-blocking: wait for room.
                    select.select([], [self._fd], [])
            return len(text)

    def fresh_in_child():
        # In a forked child (os.fork, multiprocessing): fd 1 and 2 on a description of its own,
        # and sys.stdout and sys.stderr writing to them (if they are still ipykernel's streams).
        # The pipes' read ends closed: only the kernel's reader reads them. Kept open, a child
        # still writing once the kernel was gone held the last read end, filled the pipe and
        # waited for good; now its write fails (EPIPE) once no reader is left.
        for pipe in watched:
            if pipe.read_open:
                pipe.read_open = False
                try:
                    os.close(pipe.read_end)
                except OSError:
                    pass
        for pipe in our_pipes():
            if pipe.own is None:
                continue
            new = reopen(pipe.fd)
            if new is not None:
                try:
                    os.dup2(new, pipe.fd)
                except OSError:
                    pass
                finally:
                    os.close(new)
            name = "stdout" if pipe.fd == 1 else "stderr"
            forked = ForkedStream(pipe.fd, f"<{name}>")
            if getattr(sys, name, None) is pipe.stream:
                setattr(sys, name, forked)
            # ipykernel's stream itself, which a logging handler (or anything else) set up in the
            # kernel still holds: sent each write as a message of the kernel's session, over a
            # ZMQ connection made from the kernel's context copied by fork, out of order with the
            # child's writes to the fd. Here it writes to the fd, and its flush sends nothing (what
            # it holds is text the kernel buffered before the fork: the kernel's to send).
            try:
                pipe.stream.write = forked.write
                pipe.stream.writelines = forked.writelines
                pipe.stream.flush = forked.flush
            except Exception:
                pass

    # Where Popen._execute_child takes the fds the child gets as 1 and 2 (-1: inherit ours).
    names = list(inspect.signature(subprocess.Popen._execute_child).parameters)[1:]
    out_at = names.index("c2pwrite") if "c2pwrite" in names else None
    err_at = names.index("errwrite") if "errwrite" in names else None

    def own_descriptions(args, opened):
        # The fds for the child's 1 and 2: where it would get our pipe, a new description of it,
        # for this child alone (no process-wide swap another thread could undo). None when the
        # arguments are not where this Python puts them. Each fd opened goes into "opened" (by
        # the fd it stands for) at once, for the caller to close whatever happens next.
        if out_at is None or err_at is None or len(args) <= max(out_at, err_at):
            return None
        args = list(args)
        pipes = {pipe.fd: pipe for pipe in our_pipes()}
        for at, inherited in ((out_at, 1), (err_at, 2)):
            fd = inherited if args[at] == -1 else args[at]
            pipe = pipes.get(fd)
            if pipe is None:
                continue
            if shared(pipe):
                continue
            if fd not in opened:
                opened[fd] = reopen(pipe.own)
            if opened[fd] is not None:
                args[at] = opened[fd]
        return args

    if watched:
        sys.addaudithook(before_child)
        os.register_at_fork(after_in_child=fresh_in_child)

        execute_child = subprocess.Popen._execute_child

        @functools.wraps(execute_child)
        def _execute_child(self, *args, **kwargs):
            __tracebackhide__ = "__tools__"
            if os.getpid() != kernel_pid:
                return execute_child(self, *args, **kwargs)
            opened = {}
            try:
                given = own_descriptions(args, opened)
                if given is None:
                    # Not in this Python's form: fd 1 and 2 swapped for the whole process meanwhile.
                    return swapped(execute_child, self, *args, **kwargs)
                spawning.inside = True
                try:
                    return execute_child(self, *given, **kwargs)
                finally:
                    spawning.inside = False
            finally:
                # Closed in the kernel once the child has them, or did not start, or an interrupt
                # came while they were being opened.
                for fd in opened.values():
                    if fd is not None:
                        os.close(fd)

        subprocess.Popen._execute_child = _execute_child

        def spawn_with_own(spawn):
            # os.posix_spawn and os.posix_spawnp called by the cell: fd 1 and 2 of this child on a
            # description of its own, put there by file actions that run before the cell's (which
            # may still point them elsewhere). No process-wide swap another thread could undo.
            @functools.wraps(spawn)
            def posix_spawn(*args, **kwargs):
                __tracebackhide__ = "__tools__"
                if os.getpid() != kernel_pid or getattr(spawning, "inside", False):
                    return spawn(*args, **kwargs)
                file_actions = kwargs.pop("file_actions", None)
                opened = []
                try:
                    ours = []
                    for pipe in our_pipes():
                        if shared(pipe):
                            continue
                        new = reopen(pipe.own)
                        if new is not None:
                            opened.append(new)
                            ours.append((os.POSIX_SPAWN_DUP2, new, pipe.fd))
                    try:
                        actions = [*ours, *(() if file_actions is None else file_actions)]
                    except TypeError:
                        # Not a sequence: the spawn fails with Python's own message, which names it.
                        actions = file_actions
                    spawning.inside = True
                    try:
                        return spawn(*args, file_actions=actions, **kwargs)
                    finally:
                        spawning.inside = False
                finally:
                    # An interrupt that came during the spawn is raised at the first check after it:
                    # on Python 3.11, after the first close here. The other fd is closed all the
                    # same, then the interrupt goes on.
                    interrupted = None
                    for fd in opened:
                        try:
                            os.close(fd)
                        except KeyboardInterrupt as error:
                            interrupted = error
                    if interrupted is not None:
                        try:
                            raise interrupted
                        finally:
                            interrupted = None

            return posix_spawn

        for name in ("posix_spawn", "posix_spawnp"):
            if hasattr(os, name) and hasattr(os, "POSIX_SPAWN_DUP2"):
                setattr(os, name, spawn_with_own(getattr(os, name)))

        try:
            import multiprocessing.util as multiprocessing_util
        except Exception:
            multiprocessing_util = None
        spawnv = getattr(multiprocessing_util, "spawnv_passfds", None)
        if spawnv is not None:
            @functools.wraps(spawnv)
            def spawnv_passfds(*args, **kwargs):
                # multiprocessing's "spawn" and "forkserver" start a Python past subprocess and the
                # audit hooks: it, and all it starts (a Node child), shared the kernel's description,
                # so a Node child left the kernel's os.write(1, ...) writing short. fd 1 and 2 on a
                # fresh one while it starts (for the whole process, as for os.system; a thread's
                # Popen child gets its own regardless), back on the kernel's once it has started.
                __tracebackhide__ = "__tools__"
                if os.getpid() != kernel_pid:
                    return spawnv(*args, **kwargs)
                return swapped(spawnv, *args, **kwargs)

            multiprocessing_util.spawnv_passfds = spawnv_passfds

        try:
            import multiprocessing.process as multiprocessing_process
        except Exception:
            multiprocessing_process = None
        process_class = getattr(multiprocessing_process, "BaseProcess", None)
        if process_class is not None:
            process_start = process_class.start
            process_join = process_class.join

            @functools.wraps(process_start)
            def start(self, *args, **kwargs):
                # What the cell printed goes out before the child's output ("spawn" and
                # "forkserver" start it past the audit hooks).
                __tracebackhide__ = "__tools__"
                if os.getpid() == kernel_pid:
                    flush_streams()
                return process_start(self, *args, **kwargs)

            @functools.wraps(process_join)
            def join(self, *args, **kwargs):
                # A child that has ended: what it wrote is read before the cell goes on (once per
                # child), as at Popen.wait.
                __tracebackhide__ = "__tools__"
                result = process_join(self, *args, **kwargs)
                if os.getpid() == kernel_pid and not getattr(self, "_tools_output_read", False):
                    popen = getattr(self, "_popen", None)
                    if popen is not None and getattr(popen, "returncode", None) is not None:
                        try:
                            self._tools_output_read = True
                        except Exception:
                            pass
                        child_ended()
                return result

            process_class.start = start
            process_class.join = join

        wait = subprocess.Popen.wait

        @functools.wraps(wait)
        def popen_wait(self, *args, **kwargs):
            __tracebackhide__ = "__tools__"
            code = wait(self, *args, **kwargs)
            # Once per child: subprocess.run waits in communicate and again on leaving its
            # "with"; the second wait would only repeat the round trip.
            if not getattr(self, "_tools_output_read", False):
                try:
                    self._tools_output_read = True
                except Exception:
                    pass
                child_ended()
            return code

        subprocess.Popen.wait = popen_wait

        system = os.system

        @functools.wraps(system)
        def os_system(command):
            # The audit hook swaps fd 1 and 2 (before_child, also for a system() called past
            # this); swapped keeps them so until the child has ended.
            __tracebackhide__ = "__tools__"
            inside = getattr(spawning, "system", False)
            try:
                if os.getpid() != kernel_pid:
                    return system(command)
                spawning.system = True
                return swapped(system, command)
            finally:
                spawning.system = inside
                child_ended()

        os.system = os_system
        # posix.system is the same builtin: a call through it went past the wrapper.
        try:
            import posix
            if getattr(posix, "system", None) is system:
                posix.system = os_system
        except ImportError:
            pass

    def cell_starts():
        reclaim_closed()
        to_own()

    ip.events.register("pre_execute", cell_starts)
    ip.events.register("post_execute", read_up_to_marks)
    # The last expression's echo goes out after what was written to the fds before it, too.
    hook = ip.displayhook
    finish = getattr(hook, "finish_displayhook", None)
    if watched and finish is not None:
        def finish_displayhook():
            __tracebackhide__ = "__tools__"
            read_up_to_marks()
            return finish()
        hook.finish_displayhook = finish_displayhook

__tools_watch_fds(get_ipython())
del __tools_watch_fds
`;
