class Circle:
    """A circle with a radius."""

    def __init__(self, radius: float) -> None:
        self.radius = radius

    def area(self) -> float:
        return 3.14159 * self.radius * self.radius


def scale(circle: Circle, factor: float) -> Circle:
    """Returns a scaled copy.

    Args:
        factor: how much_larger the copy is, e.g. 2 * radius.
    """
    return Circle(circle.radius * factor)
