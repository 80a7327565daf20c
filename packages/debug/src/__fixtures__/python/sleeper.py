import time

print("sleeping", flush=True)
# One long call in C: debugpy can stop the thread only at its next Python line.
time.sleep(1000)
