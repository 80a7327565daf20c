#include <stdio.h>

static int square(int n) {
    int r = n * n;
    return r;
}

int main(int argc, char **argv) {
    int s = 0;
    for (int i = 0; i < 3; i++) {
        s += square(i);
    }
    printf("sum %d\n", s);
    return 5;
}
