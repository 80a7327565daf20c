import sys
import time

# stdout leaves a line open, stderr writes two lines in one chunk, stdout ends its line.
sys.stdout.write("out partial")
sys.stdout.flush()
time.sleep(0.3)
sys.stderr.write("err one\nerr two\n")
sys.stderr.flush()
time.sleep(0.3)
sys.stdout.write(" rest\n")
sys.stdout.flush()
for i in range(3000):
    print(f"out line {i}")
