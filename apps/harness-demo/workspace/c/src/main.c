#include <stdio.h>

static unsigned checksum(const char *text) {
  unsigned sum = 0;
  for (const char *p = text; *p != '\0'; p++) sum = sum * 31u + (unsigned char)*p;
  return sum;
}

int main(void) {
  printf("checksum %u\n", checksum("harness"));
  return 0;
}
