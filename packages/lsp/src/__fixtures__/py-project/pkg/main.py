from pkg.geometry import Circle, scale

unit = Circle(1.0)
big = scale(unit, 2.0)
print(big.area())
