/* tools/bench/threads_filter_cachegrind.sh: one parallel filter driver (DRIVER, generated C), CALLS calls on N f32
   (half positive); argv: serial (the chunk kernel) | par (the driver on 2 threads) | count (the count kernel) */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
int loopopt_num_threads = 2;
int loopopt_parallel_calls = 0;
#include DRIVER
int main(int argc, char **argv)
{
    int64_t n = atoll(argv[2]); int calls = atoi(argv[3]);
    float *x = aligned_alloc(4096, 4 * n + 4096), *out = aligned_alloc(4096, 4 * n + 4096);
    uint64_t s = 1;
    for (int64_t i = 0; i < n; i++) { s = s * 6364136223846793005ull + 1442695040888963407ull; x[i] = (float)((int64_t)(s >> 33) - (1ll << 30)); }
    memset(out, 0, 4 * n);
    int64_t c = 0;
    for (int r = 0; r < calls; r++) {
        if (!strcmp(argv[1], "serial")) c = filter_scale__chunk(x, n, 2.0f, out, n);
        else if (!strcmp(argv[1], "par")) c = filter_scale(x, n, 2.0f, out, n);
#ifdef HAS_COUNT
        else c = filter_scale__count(x, n, 2.0f, out, n);
#endif
    }
    printf("%lld\n", (long long)c);
    return 0;
}
