package main

import "math"

// Shape is anything with an area.
type Shape interface {
	Area() float64
}

// Circle is a round Shape.
type Circle struct {
	Radius float64
}

// Area returns the area of the circle.
func (c Circle) Area() float64 {
	return math.Pi * c.Radius * c.Radius
}

func total(shapes []Shape) float64 {
	sum := 0.0
	for _, shape := range shapes {
		sum += shape.Area()
	}
	return sum
}

var unit = total([]Shape{Circle{Radius: 1}})
