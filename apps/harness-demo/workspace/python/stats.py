"""Small helpers over a list of numbers."""


def total(values):
    running = 0
    for value in values:
        running += value
    return running


def average(values):
    return total(values) / len(values) if values else 0.0
