import sys

print("out1", flush=True)
sys.stderr.write("e1\n\ne3\n")
sys.stderr.flush()
print("out2", flush=True)
