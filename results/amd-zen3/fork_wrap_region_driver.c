/* per-region cost: the runtime loaded RTLD_GLOBAL, then a kernel linked with or without
   -Wl,--wrap=GOMP_parallel; argv: runtime.so kernel.so calls */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
int main(int argc, char **argv)
{
    void *rt = dlopen(argv[1], RTLD_NOW | RTLD_GLOBAL);
    if (!rt) { puts(dlerror()); return 1; }
    *(int *)dlsym(rt, "loopopt_num_threads") = 2;
    void *k = dlopen(argv[2], RTLD_NOW);
    if (!k) { puts(dlerror()); return 1; }
    float (*f)(const float *, int64_t) = (float (*)(const float *, int64_t))dlsym(k, "sum_f32");
    static float x[4096];
    for (int i = 0; i < 4096; i++) x[i] = (float)(i % 7);
    int calls = atoi(argv[3]);
    float s = 0;
    for (int i = 0; i < calls; i++) s += f(x, 4096);
    printf("%g %d\n", s, ((int (*)(void))dlsym(rt, "loopopt_fork_safe"))());
    return 0;
}
