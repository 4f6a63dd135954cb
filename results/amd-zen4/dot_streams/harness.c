#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <time.h>
#include <sys/mman.h>
typedef float (*ff)(const float*, int64_t, const float*, int64_t);
typedef int32_t (*fi)(const int32_t*, int64_t, const int32_t*, int64_t);
float A_dot_f32(), B_dot_f32(), C_dot_f32(); int32_t A_dot_i32(), B_dot_i32(), C_dot_i32();
static double now(void){struct timespec t; clock_gettime(CLOCK_MONOTONIC,&t); return t.tv_sec*1e9+t.tv_nsec;}
static int cmp(const void*a,const void*b){double x=*(double*)a,y=*(double*)b;return x<y?-1:x>y;}
#define C 4
#define NV 3
int main(int argc, char** argv){
  int64_t n = 16<<20; int huge = atoi(argv[1]); int T = argc>2?atoi(argv[2]):41;
  size_t bytes = n*4; size_t tot = bytes*2*C + (4<<20);
  char* mem = mmap(0, tot, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0);
  madvise(mem, tot, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
  char* base = (char*)(((uintptr_t)mem + (2<<20)-1) & ~(uintptr_t)((2<<20)-1));
  float* xs[C]; float* ys[C];
  for(int c=0;c<C;c++){ xs[c]=(float*)(base + (2*c)*bytes); ys[c]=(float*)(base+(2*c+1)*bytes);
    for(int64_t i=0;i<n;i++){ xs[c][i]=(float)((i*7+c)%13-6); ys[c][i]=(float)((i*3)%5-2);} }
  ff F[NV] = {(ff)A_dot_f32,(ff)B_dot_f32,(ff)C_dot_f32}; fi I[NV] = {(fi)A_dot_i32,(fi)B_dot_i32,(fi)C_dot_i32};
  static double tf[NV][256], ti[NV][256], rf[NV][256], ri[NV][256];
  volatile float sf; volatile int32_t si; unsigned seed=1;
  for(int t=-2;t<T;t++){
    int perm[NV]={0,1,2}; for(int k=NV-1;k>0;k--){int j=rand_r(&seed)%(k+1); int q=perm[k]; perm[k]=perm[j]; perm[j]=q;}
    double a[NV], b[NV];
    for(int v=0; v<NV; v++){ int w = perm[v];
      double s=now(); for(int c=0;c<C;c++) sf = F[w](xs[c],n,ys[c],n); a[w]=(now()-s)/C/1e6;
      s=now(); for(int c=0;c<C;c++) si = I[w]((int32_t*)xs[c],n,(int32_t*)ys[c],n); b[w]=(now()-s)/C/1e6; }
    if(t<0) continue;
    for(int w=0;w<NV;w++){ tf[w][t]=a[w]; ti[w][t]=b[w]; rf[w][t]=a[0]/a[w]; ri[w][t]=b[0]/b[w]; }
  }
  int lo = T/2 - (int)(0.98*sqrt(T)), hi = T/2 + (int)(0.98*sqrt(T));
  const char* nm[NV]={"old (adjacent)","4 streams x 1 block","2 streams x 2 blocks"};
  for(int w=0;w<NV;w++){ qsort(tf[w],T,sizeof(double),cmp); qsort(ti[w],T,sizeof(double),cmp); qsort(rf[w],T,sizeof(double),cmp); qsort(ri[w],T,sizeof(double),cmp);
    printf("%s %-20s f32 %.2f ms  %.3fx [%.3f-%.3f] | i32 %.2f ms %.3fx [%.3f-%.3f]\n", huge?"2MiB":"4KiB", nm[w], tf[w][T/2], rf[w][T/2], rf[w][lo], rf[w][hi], ti[w][T/2], ri[w][T/2], ri[w][lo], ri[w][hi]); }
  return 0;
}
