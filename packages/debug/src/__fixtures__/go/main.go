package main

import (
	"fmt"
	"os"
)

func total(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s
}

func main() {
	xs := []int{1, 2, 3}
	r := total(xs)
	fmt.Println("result", r)
	os.Exit(4)
}
