import sys

print("child running", sys.argv[1:])
