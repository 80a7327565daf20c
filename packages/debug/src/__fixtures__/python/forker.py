import os

pid = os.fork()
if pid == 0:
    print("in child", flush=True)
    os._exit(0)
os.waitpid(pid, 0)
print("parent after child")
