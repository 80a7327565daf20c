"""Prints a sales report: the program the tour runs under the debugger."""
from stats import average, total


def main():
    sales = [120, 80, 200]
    label = "sales"
    grand = total(sales)
    print(f"{label}: total {grand}, average {average(sales):.1f}", flush=True)


if __name__ == "__main__":
    main()
