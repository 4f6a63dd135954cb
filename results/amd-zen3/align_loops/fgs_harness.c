#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <x86intrin.h>
float filter_gt0_sum_f32(const float *restrict x, int64_t x_len);
float lo_filter_gt0_sum_f32_avx2(const float *restrict x, int64_t x_len);
typedef float (*fn)(const float *, int64_t);
static int cmp(const void *a, const void *b) { uint64_t x=*(uint64_t*)a, y=*(uint64_t*)b; return x<y?-1:x>y; }
int main(int argc, char **argv) {
  int64_t n = atoll(argv[1]); int rounds = atoi(argv[2]);
  float *x = aligned_alloc(64, n*4+64);
  srand(1); for (int64_t i=0;i<n;i++) x[i] = (rand()/(float)RAND_MAX) - 0.5f;
  fn f[2] = {filter_gt0_sum_f32, lo_filter_gt0_sum_f32_avx2};
  int reps = (int)(4000000/n) + 1;
  uint64_t *t[2]; t[0]=malloc(8*rounds); t[1]=malloc(8*rounds);
  volatile float sink=0;
  for (int r=0;r<rounds;r++) for (int k=0;k<2;k++) {
    fn volatile g = f[k];
    uint64_t a=__rdtsc(); for (int i=0;i<reps;i++) { sink += g(x,n); } uint64_t b=__rdtsc();
    t[k][r]=(b-a)/reps;
  }
  for (int k=0;k<2;k++){ qsort(t[k],rounds,8,cmp); printf("%s n=%lld best %llu med %llu cyc\n", k?"kernels":"loopopt", (long long)n,(unsigned long long)t[k][0],(unsigned long long)t[k][rounds/2]); }
}
