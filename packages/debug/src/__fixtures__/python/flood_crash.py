import os
import sys
import time

# The reason the program exits, on stderr, then much stdout after it (a cleanup that logs),
# then the exit: the stdout pushes the reason out of the last ~1500 characters.
sys.stderr.write("fatal: settings.toml not found\n")
sys.stderr.flush()
time.sleep(0.2)
for i in range(400):
    print(f"cleanup step {i}")
sys.stdout.flush()
os._exit(2)
