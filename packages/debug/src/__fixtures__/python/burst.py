import sys

# One big write: debugpy sends it as a few large output events, each cut inside a line.
sys.stdout.write("".join(f"row {i}\n" for i in range(20000)))
sys.stdout.write("last line, no newline")
