import os
import signal

print("about to die", flush=True)
os.kill(os.getpid(), signal.SIGKILL)
