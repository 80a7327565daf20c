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
 *
 * At the end of each cell (post_execute), and before the last expression's echo, a mark is written
 * to each pipe and the cell waits, at most 2 s, until the thread has read up to it: what the cell
 * wrote there is its output, not output after it ended, and comes before the echo. Marks are counted, never reset, so a mark read late ends no later wait early.
 * The mark goes only to an fd that is still our pipe (a cell may have put a file there). A
 * character left unfinished at a mark is U+FFFD in that cell's output. Before each cell and each
 * mark, our pipes are made blocking again: a child (node) may have left them non-blocking.
 */
export const pythonFdOutputCode = String.raw`
def __tools_watch_fds(ip):
    import codecs, os, sys, threading

    watched = []

    def watch(stream, fd):
        if not getattr(stream, "_should_watch", False) or getattr(stream, "watch_fd_thread", None) is None:
            return
        original = getattr(stream, "_original_stdstream_copy", None)
        read_end, write_end = os.pipe()
        os.dup2(write_end, fd)
        os.close(write_end)
        identity = (os.fstat(fd).st_dev, os.fstat(fd).st_ino)
        mark = b"\0tools-fd-mark-" + os.urandom(8).hex().encode() + b"\0"
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        state = {"written": 0, "read": 0, "changed": threading.Condition()}

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
            # At a mark the cell has ended: a character it left unfinished is U+FFFD in its
            # output, not the start of the next cell's.
            text = decoder.decode(data, final=final)
            if text:
                stream.write(text)

        def pump():
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
                    at = data.find(mark)
                    while at >= 0:
                        emit(data[:at], final=True)
                        data = data[at + len(mark):]
                        with state["changed"]:
                            state["read"] += 1
                            state["changed"].notify_all()
                        at = data.find(mark)
                    # The start of a mark may end this read: held for the next one.
                    keep = next((n for n in range(min(len(mark) - 1, len(data)), 0, -1)
                                 if data.endswith(mark[:n])), 0)
                    held = data[len(data) - keep:] if keep else b""
                    emit(data[:len(data) - keep])
                except ValueError:
                    # The stream was closed: the kernel is shutting down.
                    return

        thread = threading.Thread(target=pump, name=f"tools-fd-{fd}", daemon=True)
        stream._fid = read_end
        stream.watch_fd_thread = thread
        thread.start()
        watched.append((fd, identity, mark, state))

    watch(sys.stdout, 1)
    watch(sys.stderr, 2)

    def our_pipes():
        for entry in watched:
            try:
                stat = os.fstat(entry[0])
            except OSError:
                continue
            if (stat.st_dev, stat.st_ino) == entry[1]:
                yield entry

    def set_blocking(pipes=None):
        # A child (node, for one) may leave the pipe non-blocking, and the pipe is shared: a
        # later writer that fills it (seq, the mark) would fail with EAGAIN instead of waiting.
        for fd, _identity, _mark, _state in our_pipes() if pipes is None else pipes:
            try:
                os.set_blocking(fd, True)
            except OSError:
                pass

    def read_up_to_marks():
        __tracebackhide__ = True
        pipes = list(our_pipes())
        set_blocking(pipes)
        for fd, identity, mark, state in pipes:
            try:
                # Shorter than PIPE_BUF: written whole or not at all.
                os.write(fd, mark)
            except OSError:
                continue
            with state["changed"]:
                state["written"] += 1
                target = state["written"]
                state["changed"].wait_for(lambda: state["read"] >= target, timeout=2)

    ip.events.register("pre_execute", set_blocking)
    ip.events.register("post_execute", read_up_to_marks)
    # The last expression's echo goes out after what was written to the fds before it, too.
    hook = ip.displayhook
    finish = getattr(hook, "finish_displayhook", None)
    if watched and finish is not None:
        def finish_displayhook():
            __tracebackhide__ = True
            read_up_to_marks()
            return finish()
        hook.finish_displayhook = finish_displayhook

__tools_watch_fds(get_ipython())
del __tools_watch_fds
`;
