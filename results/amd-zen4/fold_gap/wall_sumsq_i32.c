#define _GNU_SOURCE
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <immintrin.h>
int32_t sumsq_i32(const int32_t *restrict x, int64_t x_len);
__attribute__((noinline)) int32_t gcc1(const int32_t *x, int64_t n){ int32_t s=0; for(int64_t i=0;i<n;i++) s+=x[i]*x[i]; return s; }
__attribute__((noinline,target("avx512f"))) int32_t acc2(const int32_t *x, int64_t n){
  __m512i a=_mm512_setzero_si512(), b=a; int64_t i=0;
  for(;i+32<=n;i+=32){ __m512i u=_mm512_loadu_si512(x+i), v=_mm512_loadu_si512(x+i+16);
    a=_mm512_add_epi32(a,_mm512_mullo_epi32(u,u)); b=_mm512_add_epi32(b,_mm512_mullo_epi32(v,v)); }
  int32_t s=_mm512_reduce_add_epi32(_mm512_add_epi32(a,b)); for(;i<n;i++) s+=x[i]*x[i]; return s; }
static double now(){ struct timespec t; clock_gettime(CLOCK_MONOTONIC,&t); return t.tv_sec+t.tv_nsec*1e-9; }
int main(int argc,char**argv){
  int64_t n=16777216; int off=argc>1?atoi(argv[1]):0;
  /* argv[2] "thp": 2 MiB pages (MADV_HUGEPAGE, as numpy's big arrays); default malloc's 4 KiB pages under THP=madvise */
  int thp=argc>2&&!strcmp(argv[2],"thp"); size_t bytes=((n+64)*4+(2<<20)-1)&~(size_t)((2<<20)-1);
  int32_t *buf=aligned_alloc(thp?2<<20:64,bytes); if(thp) madvise(buf,bytes,MADV_HUGEPAGE); int32_t *x=buf+off;
  for(int64_t i=0;i<n;i++) x[i]=(int32_t)(rand()%2001)-1000;
  typedef int32_t (*F)(const int32_t*,int64_t); F f[3]={sumsq_i32,gcc1,acc2}; const char*nm[3]={"loopopt","gcc1","acc2"};
  double best[3]={1e9,1e9,1e9}, tot[3]={0}; volatile int32_t sink;
  for(int r=0;r<61;r++) for(int k=0;k<3;k++){ int j=(k+r)%3; double t=now(); sink=f[j](x,n); t=now()-t; if(t<best[j])best[j]=t; tot[j]+=t; }
  for(int k=0;k<3;k++) printf("%s off %d %-8s best %.3f ms  %.1f GB/s  mean %.3f\n",thp?"2M":"4K",off,nm[k],best[k]*1e3,n*4/best[k]/1e9,tot[k]/61*1e3);
  (void)sink; return 0; }
