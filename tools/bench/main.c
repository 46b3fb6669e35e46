/* The standalone webcrypto-bench executable. */
#include "bench.h"

int main(int argc, char **argv) { return webcrypto_bench_main(argc, argv); }
