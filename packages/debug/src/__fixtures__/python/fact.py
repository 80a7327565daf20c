def fact(n):
    if n <= 1:
        return 1
    return n * fact(n - 1)


data = list(range(80))
print(fact(40), flush=True)
