import time

n = 0
while True:
    n += 1
    time.sleep(0.05)
