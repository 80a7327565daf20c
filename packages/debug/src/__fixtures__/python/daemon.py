import subprocess

# A background process in its own session that keeps this program's output open, left running.
child = subprocess.Popen(["setsid", "sleep", "600"])
print(f"left {child.pid}", flush=True)
