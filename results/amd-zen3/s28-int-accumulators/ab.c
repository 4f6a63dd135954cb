#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
typedef int32_t (*fn)(const int32_t *, int64_t);
static double now(void){struct timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID,&t); return t.tv_sec+1e-9*t.tv_nsec;}
int main(int argc,char**argv){
  void *a=dlopen(argv[1],RTLD_NOW|RTLD_LOCAL), *b=dlopen(argv[2],RTLD_NOW|RTLD_LOCAL);
  if(!a||!b){puts(dlerror());return 1;}
  const char *names[]={"sum_i32","sumsq_i32","filter_gt0_sum_i32","max_i32"};
  int64_t sizes[]={256,1024,4096,65536};
  int32_t *x = aligned_alloc(64, 4*65536+64); for (int64_t i=0;i<65536;i++) x[i]=(int32_t)((i*7919)%2001)-1000;
  for(int k=0;k<4;k++){ fn f[2]={(fn)dlsym(a,names[k]),(fn)dlsym(b,names[k])};
    for(int s=0;s<4;s++){ int64_t n=sizes[s]; int reps=(int)(2000000/n)+1; double best[2]={1e9,1e9}; volatile int32_t sink=0;
      if(f[0](x,n)!=f[1](x,n)){printf("MISMATCH %s %lld\n",names[k],(long long)n);return 1;}
      for(int t=0;t<61;t++) for(int v=0;v<2;v++){ fn g=f[(t&1)?v:1-v]; double t0=now(); for(int r=0;r<reps;r++) sink+=g(x,n); double d=(now()-t0)/reps; int idx=(t&1)?v:1-v; if(d<best[idx])best[idx]=d;}
      printf("%-20s n=%6lld old %9.2f ns new %9.2f ns  new speed-up %.3fx\n",names[k],(long long)n,best[0]*1e9,best[1]*1e9,best[0]/best[1]);}}
  return 0;
}
