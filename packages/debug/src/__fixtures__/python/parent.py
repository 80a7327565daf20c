import subprocess
import sys

result = subprocess.run([sys.executable, "child.py", "x"], capture_output=True, text=True)
print("parent got:", result.stdout.strip(), result.returncode)
