#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(void){struct timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID,&t); return t.tv_sec+1e-9*t.tv_nsec;}
typedef float T_f; typedef int32_t T_i;
static void *X,*Y,*O;
static volatile double sink;
/* kind: 0 fold, 1 map1 (x,a,b->out), 2 map2 (x,y,a->out), 3 filter (x,a->out, returns count) */
static double call(void *f, int kind, int isf, int64_t n){
  if(isf){ float a=1.5f,b=0.25f;
    switch(kind){case 0: return ((float(*)(const float*,int64_t))f)(X,n);
    case 1: ((void(*)(const float*,int64_t,float,float,float*,int64_t))f)(X,n,a,b,O,n); return ((float*)O)[n-1];
    case 2: ((void(*)(const float*,int64_t,const float*,int64_t,float,float*,int64_t))f)(X,n,Y,n,a,O,n); return ((float*)O)[n-1];
    default: return (double)((int64_t(*)(const float*,int64_t,float,float*,int64_t))f)(X,n,a,O,n);}
  } else { int32_t a=3,b=5;
    switch(kind){case 0: return ((int32_t(*)(const int32_t*,int64_t))f)(X,n);
    case 1: ((void(*)(const int32_t*,int64_t,int32_t,int32_t,int32_t*,int64_t))f)(X,n,a,b,O,n); return ((int32_t*)O)[n-1];
    case 2: ((void(*)(const int32_t*,int64_t,const int32_t*,int64_t,int32_t,int32_t*,int64_t))f)(X,n,Y,n,a,O,n); return ((int32_t*)O)[n-1];
    default: return (double)((int64_t(*)(const int32_t*,int64_t,int32_t,int32_t*,int64_t))f)(X,n,a,O,n);}
  }
}
int main(int argc,char**argv){
  void *a=dlopen(argv[1],RTLD_NOW|RTLD_LOCAL), *b=dlopen(argv[2],RTLD_NOW|RTLD_LOCAL);
  if(!a||!b){puts(dlerror());return 1;}
  X=aligned_alloc(64,4*65536+64); Y=aligned_alloc(64,4*65536+64); O=aligned_alloc(64,4*65536+64);
  for(int k=3;k+2<argc;k+=3){
    const char *name=argv[k]; int kind=atoi(argv[k+1]); int isf=argv[k+2][0]=='f';
    for(int64_t i=0;i<65536;i++){ if(isf){((float*)X)[i]=(float)(((i*7919)%2001)-1000)/1000.0f; ((float*)Y)[i]=(float)(i%13)/7.0f;} else {((int32_t*)X)[i]=(int32_t)((i*7919)%2001)-1000; ((int32_t*)Y)[i]=(int32_t)(i%13);} }
    void *f[2]={dlsym(a,name),dlsym(b,name)};
    int64_t sizes[]={256,1000,1024,4096,65536};
    for(int s=0;s<5;s++){ int64_t n=sizes[s]; int reps=(int)(1000000/n)+1; double best[2]={1e9,1e9};
      for(int t=0;t<41;t++) for(int v=0;v<2;v++){ int idx=(t&1)?v:1-v; double t0=now(); for(int r=0;r<reps;r++) sink+=call(f[idx],kind,isf,n); double d=(now()-t0)/reps; if(d<best[idx])best[idx]=d;}
      printf("%-22s n=%6lld old %9.2f ns new %9.2f ns  new speed-up %.3fx\n",name,(long long)n,best[0]*1e9,best[1]*1e9,best[0]/best[1]);}
  }
  return 0;
}
