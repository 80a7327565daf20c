print("package main ran")
