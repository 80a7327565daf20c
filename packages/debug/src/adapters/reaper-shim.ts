/**
 * A tiny Python parent for adapters written in Python (debugpy): it marks itself a child
 * subreaper (Linux prctl), forks the adapter, and reaps every process of the adapter's tree,
 * including the debugpy launcher, which the adapter itself never reaps. Where PID 1 does not
 * reap (containers), that launcher would otherwise stay a zombie after every session. When the
 * adapter exits, the shim kills what is left of the tree, reaps it, and exits the way the adapter
 * did (same code, or the same signal), so a crash still reads as a crash.
 *
 * `python -c SHIM -m MODULE ARGS…` runs the module in the forked child itself (no second exec,
 * no second interpreter start-up: ~20–30 ms off every debugpy launch); `python -S -c SHIM
 * COMMAND ARGS…` execs COMMAND in the child instead.
 */
export const reaperShim = `
import os, signal, sys
pid = os.fork()
if pid == 0:
    if sys.argv[1] == "-m":
        import runpy
        del sys.argv[:2]
        runpy.run_module(sys.argv[0], run_name="__main__", alter_sys=True)
        sys.exit(0)
    os.execv(sys.argv[1], sys.argv[1:])
def forward(sig, _frame):
    try:
        os.kill(pid, sig)
    except OSError:
        pass
signal.signal(signal.SIGTERM, forward)
signal.signal(signal.SIGINT, forward)
# Subreaper from here on, while the adapter starts (importing ctypes costs ~5-10 ms): the
# adapter's first children (the debugpy launcher) come only after a launch request.
try:
    import ctypes
    ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)
except Exception:
    pass
def children():
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open("/proc/%s/stat" % entry) as f:
                    stat = f.read()
                if int(stat[stat.rindex(")") + 2:].split()[1]) == os.getpid():
                    found.append(int(entry))
            except (OSError, ValueError):
                pass
    return found
status = None
while True:
    try:
        done, code = os.waitpid(-1, 0)
    except ChildProcessError:
        break
    except InterruptedError:
        continue
    if done == pid:
        status = code
    if status is not None:
        # Again after every reaped process: killing a launcher hands its children (the
        # debuggee) to us, and they must not keep the shim (and the session's end) waiting.
        for child in children():
            try:
                os.kill(child, signal.SIGKILL)
            except OSError:
                pass
if status is None:
    sys.exit(1)
if os.WIFSIGNALED(status):
    sig = os.WTERMSIG(status)
    try:
        signal.signal(sig, signal.SIG_DFL)
    except (OSError, ValueError):
        pass
    os.kill(os.getpid(), sig)
sys.exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1)
`;
