import sys

def compute(values):
    total = 0
    for v in values:
        total += v
    return total

def main():
    xs = [1, 2, 3, 4]
    label = "sum"
    result = compute(xs)
    print(f"{label} {result}", flush=True)
    return 3

if __name__ == "__main__":
    sys.exit(main())
