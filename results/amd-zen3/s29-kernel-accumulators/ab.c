/* Old vs new kernel library, both .so files in one process, interleaved (A B, B A, ...), best of 61.
 *   ./ab old_ISA.so new_ISA.so ISA
 * Times lo_<fold>_<dtype>_<ISA> for the folds below on f32 f64 i32 i64 at 256 / 1 Ki / 4 Ki / 64 Ki
 * elements (each timing repeats the call over ~2 M elements; thread CPU time) and checks that both
 * libraries return the same bits. Prints old and new ns per call and the new speed-up. */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ROUNDS 61
#define NMAX 65536
static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}
static const char *folds[] = {"sum", "sumsq", "filter_gt0_sum", "min", "max", "dot"};
static const char *dtypes[] = {"i32", "f32", "i64", "f64"};
static const int64_t sizes[] = {256, 1024, 4096, 65536};
static volatile uint64_t sink;

/* One call of fold f on x (and y for dot), result bits in *bits. */
typedef uint64_t (*caller)(void *f, const void *x, const void *y, int64_t n);
#define CALLERS(DT, T)                                                                             \
    static uint64_t call1_##DT(void *f, const void *x, const void *y, int64_t n) {                 \
        (void)y;                                                                                   \
        T r = ((T(*)(const T *, int64_t))f)((const T *)x, n);                                      \
        uint64_t b = 0;                                                                            \
        memcpy(&b, &r, sizeof r);                                                                  \
        return b;                                                                                  \
    }                                                                                              \
    static uint64_t call2_##DT(void *f, const void *x, const void *y, int64_t n) {                 \
        T r = ((T(*)(const T *, int64_t, const T *, int64_t))f)((const T *)x, n, (const T *)y, n); \
        uint64_t b = 0;                                                                            \
        memcpy(&b, &r, sizeof r);                                                                  \
        return b;                                                                                  \
    }
CALLERS(i32, int32_t)
CALLERS(f32, float)
CALLERS(i64, int64_t)
CALLERS(f64, double)
static const caller call1[] = {call1_i32, call1_f32, call1_i64, call1_f64};
static const caller call2[] = {call2_i32, call2_f32, call2_i64, call2_f64};

int main(int argc, char **argv) {
    if (argc != 4) return fprintf(stderr, "usage: %s old.so new.so ISA\n", argv[0]), 2;
    void *lib[2] = {dlopen(argv[1], RTLD_NOW | RTLD_LOCAL), dlopen(argv[2], RTLD_NOW | RTLD_LOCAL)};
    if (!lib[0] || !lib[1]) return puts(dlerror()), 1;
    void *x[4], *y[4];
    size_t bytes[4] = {4, 4, 8, 8};
    for (int d = 0; d < 4; d++) {
        x[d] = aligned_alloc(64, bytes[d] * NMAX);
        y[d] = aligned_alloc(64, bytes[d] * NMAX);
        for (int64_t i = 0; i < NMAX; i++) {
            int64_t v = (i * 7919) % 2001 - 1000, w = (i * 104729) % 2001 - 1000;
            if (d == 0) ((int32_t *)x[d])[i] = (int32_t)v, ((int32_t *)y[d])[i] = (int32_t)w;
            if (d == 1) ((float *)x[d])[i] = (float)v / 64, ((float *)y[d])[i] = (float)w / 64;
            if (d == 2) ((int64_t *)x[d])[i] = v, ((int64_t *)y[d])[i] = w;
            if (d == 3) ((double *)x[d])[i] = (double)v / 64, ((double *)y[d])[i] = (double)w / 64;
        }
    }
    for (int d = 0; d < 4; d++)
        for (int k = 0; k < 6; k++) {
            char name[64];
            snprintf(name, sizeof name, "lo_%s_%s_%s", folds[k], dtypes[d], argv[3]);
            void *f[2] = {dlsym(lib[0], name), dlsym(lib[1], name)};
            if (!f[0] || !f[1]) return printf("missing %s\n", name), 1;
            caller call = k == 5 ? call2[d] : call1[d];
            for (int s = 0; s < 4; s++) {
                int64_t n = sizes[s];
                int reps = (int)(2000000 / n) + 1;
                double best[2] = {1e9, 1e9};
                if (call(f[0], x[d], y[d], n) != call(f[1], x[d], y[d], n))
                    return printf("MISMATCH %s n=%lld\n", name, (long long)n), 1;
                for (int t = 0; t < ROUNDS; t++)
                    for (int v = 0; v < 2; v++) {
                        int which = (t & 1) ? v : 1 - v;
                        double t0 = now();
                        for (int r = 0; r < reps; r++) sink += call(f[which], x[d], y[d], n);
                        double dt = (now() - t0) / reps;
                        if (dt < best[which]) best[which] = dt;
                    }
                printf("%-28s n=%6lld old %9.2f ns new %9.2f ns  new speed-up %.3fx\n", name, (long long)n,
                       best[0] * 1e9, best[1] * 1e9, best[0] / best[1]);
                fflush(stdout);
            }
        }
    return 0;
}
