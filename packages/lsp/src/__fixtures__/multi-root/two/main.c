static int twice(int value) {
  return value * 2;
}

int main(void) {
  return twice(21) - 42;
}
