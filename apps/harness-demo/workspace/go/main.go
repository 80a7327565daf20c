package main

import "fmt"

func restock(levels []int, minimum int) int {
	added := 0
	for _, level := range levels {
		if level < minimum {
			added += minimum - level
		}
	}
	return added
}

func main() {
	levels := []int{3, 9, 1}
	added := restock(levels, 5)
	fmt.Println("restocked", added)
}
