#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>
#include <time.h>
static uint64_t now(void){struct timespec ts; clock_gettime(CLOCK_THREAD_CPUTIME_ID,&ts); return ts.tv_sec*1000000000ull+ts.tv_nsec;}
volatile double sink;
void axpb_f32(const float*,int64_t,float,float,float*,int64_t);
void A_axpb_f32(const float*,int64_t,float,float,float*,int64_t);
void lo_axpb_f32_avx2(const float*,int64_t,float,float,float*,int64_t);
void A_lo_axpb_f32_avx2(const float*,int64_t,float,float,float*,int64_t);
static void run_D_axpb_f32(void*x,void*y,void*o,int64_t n){ typedef float T; axpb_f32((const T*)x,n,(T)2,(T)1,(T*)o,n); }
static void run_A_axpb_f32(void*x,void*y,void*o,int64_t n){ typedef float T; A_axpb_f32((const T*)x,n,(T)2,(T)1,(T*)o,n); }
static void run_K_axpb_f32(void*x,void*y,void*o,int64_t n){ typedef float T; lo_axpb_f32_avx2((const T*)x,n,(T)2,(T)1,(T*)o,n); }
static void run_KA_axpb_f32(void*x,void*y,void*o,int64_t n){ typedef float T; A_lo_axpb_f32_avx2((const T*)x,n,(T)2,(T)1,(T*)o,n); }
void axpb_i32(const int32_t*,int64_t,int32_t,int32_t,int32_t*,int64_t);
void A_axpb_i32(const int32_t*,int64_t,int32_t,int32_t,int32_t*,int64_t);
void lo_axpb_i32_avx2(const int32_t*,int64_t,int32_t,int32_t,int32_t*,int64_t);
void A_lo_axpb_i32_avx2(const int32_t*,int64_t,int32_t,int32_t,int32_t*,int64_t);
static void run_D_axpb_i32(void*x,void*y,void*o,int64_t n){ typedef int32_t T; axpb_i32((const T*)x,n,(T)2,(T)1,(T*)o,n); }
static void run_A_axpb_i32(void*x,void*y,void*o,int64_t n){ typedef int32_t T; A_axpb_i32((const T*)x,n,(T)2,(T)1,(T*)o,n); }
static void run_K_axpb_i32(void*x,void*y,void*o,int64_t n){ typedef int32_t T; lo_axpb_i32_avx2((const T*)x,n,(T)2,(T)1,(T*)o,n); }
static void run_KA_axpb_i32(void*x,void*y,void*o,int64_t n){ typedef int32_t T; A_lo_axpb_i32_avx2((const T*)x,n,(T)2,(T)1,(T*)o,n); }
void axpy_f32(const float*,int64_t,const float*,int64_t,float,float*,int64_t);
void A_axpy_f32(const float*,int64_t,const float*,int64_t,float,float*,int64_t);
void lo_axpy_f32_avx2(const float*,int64_t,const float*,int64_t,float,float*,int64_t);
void A_lo_axpy_f32_avx2(const float*,int64_t,const float*,int64_t,float,float*,int64_t);
static void run_D_axpy_f32(void*x,void*y,void*o,int64_t n){ typedef float T; axpy_f32((const T*)x,n,(const T*)y,n,(T)2,(T*)o,n); }
static void run_A_axpy_f32(void*x,void*y,void*o,int64_t n){ typedef float T; A_axpy_f32((const T*)x,n,(const T*)y,n,(T)2,(T*)o,n); }
static void run_K_axpy_f32(void*x,void*y,void*o,int64_t n){ typedef float T; lo_axpy_f32_avx2((const T*)x,n,(const T*)y,n,(T)2,(T*)o,n); }
static void run_KA_axpy_f32(void*x,void*y,void*o,int64_t n){ typedef float T; A_lo_axpy_f32_avx2((const T*)x,n,(const T*)y,n,(T)2,(T*)o,n); }
void axpy_i32(const int32_t*,int64_t,const int32_t*,int64_t,int32_t,int32_t*,int64_t);
void A_axpy_i32(const int32_t*,int64_t,const int32_t*,int64_t,int32_t,int32_t*,int64_t);
void lo_axpy_i32_avx2(const int32_t*,int64_t,const int32_t*,int64_t,int32_t,int32_t*,int64_t);
void A_lo_axpy_i32_avx2(const int32_t*,int64_t,const int32_t*,int64_t,int32_t,int32_t*,int64_t);
static void run_D_axpy_i32(void*x,void*y,void*o,int64_t n){ typedef int32_t T; axpy_i32((const T*)x,n,(const T*)y,n,(T)2,(T*)o,n); }
static void run_A_axpy_i32(void*x,void*y,void*o,int64_t n){ typedef int32_t T; A_axpy_i32((const T*)x,n,(const T*)y,n,(T)2,(T*)o,n); }
static void run_K_axpy_i32(void*x,void*y,void*o,int64_t n){ typedef int32_t T; lo_axpy_i32_avx2((const T*)x,n,(const T*)y,n,(T)2,(T*)o,n); }
static void run_KA_axpy_i32(void*x,void*y,void*o,int64_t n){ typedef int32_t T; A_lo_axpy_i32_avx2((const T*)x,n,(const T*)y,n,(T)2,(T*)o,n); }
float sum_f32(const float*,int64_t);
float A_sum_f32(const float*,int64_t);
float lo_sum_f32_avx2(const float*,int64_t);
float A_lo_sum_f32_avx2(const float*,int64_t);
static void run_D_sum_f32(void*x,void*y,void*o,int64_t n){ typedef float T; sink+=(double)sum_f32((const T*)x,n); }
static void run_A_sum_f32(void*x,void*y,void*o,int64_t n){ typedef float T; sink+=(double)A_sum_f32((const T*)x,n); }
static void run_K_sum_f32(void*x,void*y,void*o,int64_t n){ typedef float T; sink+=(double)lo_sum_f32_avx2((const T*)x,n); }
static void run_KA_sum_f32(void*x,void*y,void*o,int64_t n){ typedef float T; sink+=(double)A_lo_sum_f32_avx2((const T*)x,n); }
int32_t sum_i32(const int32_t*,int64_t);
int32_t A_sum_i32(const int32_t*,int64_t);
int32_t lo_sum_i32_avx2(const int32_t*,int64_t);
int32_t A_lo_sum_i32_avx2(const int32_t*,int64_t);
static void run_D_sum_i32(void*x,void*y,void*o,int64_t n){ typedef int32_t T; sink+=(double)sum_i32((const T*)x,n); }
static void run_A_sum_i32(void*x,void*y,void*o,int64_t n){ typedef int32_t T; sink+=(double)A_sum_i32((const T*)x,n); }
static void run_K_sum_i32(void*x,void*y,void*o,int64_t n){ typedef int32_t T; sink+=(double)lo_sum_i32_avx2((const T*)x,n); }
static void run_KA_sum_i32(void*x,void*y,void*o,int64_t n){ typedef int32_t T; sink+=(double)A_lo_sum_i32_avx2((const T*)x,n); }
float sumsq_f32(const float*,int64_t);
float A_sumsq_f32(const float*,int64_t);
float lo_sumsq_f32_avx2(const float*,int64_t);
float A_lo_sumsq_f32_avx2(const float*,int64_t);
static void run_D_sumsq_f32(void*x,void*y,void*o,int64_t n){ typedef float T; sink+=(double)sumsq_f32((const T*)x,n); }
static void run_A_sumsq_f32(void*x,void*y,void*o,int64_t n){ typedef float T; sink+=(double)A_sumsq_f32((const T*)x,n); }
static void run_K_sumsq_f32(void*x,void*y,void*o,int64_t n){ typedef float T; sink+=(double)lo_sumsq_f32_avx2((const T*)x,n); }
static void run_KA_sumsq_f32(void*x,void*y,void*o,int64_t n){ typedef float T; sink+=(double)A_lo_sumsq_f32_avx2((const T*)x,n); }
int32_t sumsq_i32(const int32_t*,int64_t);
int32_t A_sumsq_i32(const int32_t*,int64_t);
int32_t lo_sumsq_i32_avx2(const int32_t*,int64_t);
int32_t A_lo_sumsq_i32_avx2(const int32_t*,int64_t);
static void run_D_sumsq_i32(void*x,void*y,void*o,int64_t n){ typedef int32_t T; sink+=(double)sumsq_i32((const T*)x,n); }
static void run_A_sumsq_i32(void*x,void*y,void*o,int64_t n){ typedef int32_t T; sink+=(double)A_sumsq_i32((const T*)x,n); }
static void run_K_sumsq_i32(void*x,void*y,void*o,int64_t n){ typedef int32_t T; sink+=(double)lo_sumsq_i32_avx2((const T*)x,n); }
static void run_KA_sumsq_i32(void*x,void*y,void*o,int64_t n){ typedef int32_t T; sink+=(double)A_lo_sumsq_i32_avx2((const T*)x,n); }
float filter_gt0_sum_f32(const float*,int64_t);
float A_filter_gt0_sum_f32(const float*,int64_t);
float lo_filter_gt0_sum_f32_avx2(const float*,int64_t);
float A_lo_filter_gt0_sum_f32_avx2(const float*,int64_t);
static void run_D_filter_gt0_sum_f32(void*x,void*y,void*o,int64_t n){ typedef float T; sink+=(double)filter_gt0_sum_f32((const T*)x,n); }
static void run_A_filter_gt0_sum_f32(void*x,void*y,void*o,int64_t n){ typedef float T; sink+=(double)A_filter_gt0_sum_f32((const T*)x,n); }
static void run_K_filter_gt0_sum_f32(void*x,void*y,void*o,int64_t n){ typedef float T; sink+=(double)lo_filter_gt0_sum_f32_avx2((const T*)x,n); }
static void run_KA_filter_gt0_sum_f32(void*x,void*y,void*o,int64_t n){ typedef float T; sink+=(double)A_lo_filter_gt0_sum_f32_avx2((const T*)x,n); }
int32_t filter_gt0_sum_i32(const int32_t*,int64_t);
int32_t A_filter_gt0_sum_i32(const int32_t*,int64_t);
int32_t lo_filter_gt0_sum_i32_avx2(const int32_t*,int64_t);
int32_t A_lo_filter_gt0_sum_i32_avx2(const int32_t*,int64_t);
static void run_D_filter_gt0_sum_i32(void*x,void*y,void*o,int64_t n){ typedef int32_t T; sink+=(double)filter_gt0_sum_i32((const T*)x,n); }
static void run_A_filter_gt0_sum_i32(void*x,void*y,void*o,int64_t n){ typedef int32_t T; sink+=(double)A_filter_gt0_sum_i32((const T*)x,n); }
static void run_K_filter_gt0_sum_i32(void*x,void*y,void*o,int64_t n){ typedef int32_t T; sink+=(double)lo_filter_gt0_sum_i32_avx2((const T*)x,n); }
static void run_KA_filter_gt0_sum_i32(void*x,void*y,void*o,int64_t n){ typedef int32_t T; sink+=(double)A_lo_filter_gt0_sum_i32_avx2((const T*)x,n); }
int64_t filter_gt0_scale_f32(const float*,int64_t,float,float*,int64_t);
int64_t A_filter_gt0_scale_f32(const float*,int64_t,float,float*,int64_t);
int64_t lo_filter_gt0_scale_f32_avx2(const float*,int64_t,float,float*,int64_t);
int64_t A_lo_filter_gt0_scale_f32_avx2(const float*,int64_t,float,float*,int64_t);
static void run_D_filter_gt0_scale_f32(void*x,void*y,void*o,int64_t n){ typedef float T; sink+=(double)filter_gt0_scale_f32((const T*)x,n,(T)2,(T*)o,n); }
static void run_A_filter_gt0_scale_f32(void*x,void*y,void*o,int64_t n){ typedef float T; sink+=(double)A_filter_gt0_scale_f32((const T*)x,n,(T)2,(T*)o,n); }
static void run_K_filter_gt0_scale_f32(void*x,void*y,void*o,int64_t n){ typedef float T; sink+=(double)lo_filter_gt0_scale_f32_avx2((const T*)x,n,(T)2,(T*)o,n); }
static void run_KA_filter_gt0_scale_f32(void*x,void*y,void*o,int64_t n){ typedef float T; sink+=(double)A_lo_filter_gt0_scale_f32_avx2((const T*)x,n,(T)2,(T*)o,n); }
int64_t filter_gt0_scale_i32(const int32_t*,int64_t,int32_t,int32_t*,int64_t);
int64_t A_filter_gt0_scale_i32(const int32_t*,int64_t,int32_t,int32_t*,int64_t);
int64_t lo_filter_gt0_scale_i32_avx2(const int32_t*,int64_t,int32_t,int32_t*,int64_t);
int64_t A_lo_filter_gt0_scale_i32_avx2(const int32_t*,int64_t,int32_t,int32_t*,int64_t);
static void run_D_filter_gt0_scale_i32(void*x,void*y,void*o,int64_t n){ typedef int32_t T; sink+=(double)filter_gt0_scale_i32((const T*)x,n,(T)2,(T*)o,n); }
static void run_A_filter_gt0_scale_i32(void*x,void*y,void*o,int64_t n){ typedef int32_t T; sink+=(double)A_filter_gt0_scale_i32((const T*)x,n,(T)2,(T*)o,n); }
static void run_K_filter_gt0_scale_i32(void*x,void*y,void*o,int64_t n){ typedef int32_t T; sink+=(double)lo_filter_gt0_scale_i32_avx2((const T*)x,n,(T)2,(T*)o,n); }
static void run_KA_filter_gt0_scale_i32(void*x,void*y,void*o,int64_t n){ typedef int32_t T; sink+=(double)A_lo_filter_gt0_scale_i32_avx2((const T*)x,n,(T)2,(T*)o,n); }
void sqrt_abs_axpb_f32(const float*,int64_t,float,float,float*,int64_t);
void A_sqrt_abs_axpb_f32(const float*,int64_t,float,float,float*,int64_t);
void lo_sqrt_abs_axpb_f32_avx2(const float*,int64_t,float,float,float*,int64_t);
void A_lo_sqrt_abs_axpb_f32_avx2(const float*,int64_t,float,float,float*,int64_t);
static void run_D_sqrt_abs_axpb_f32(void*x,void*y,void*o,int64_t n){ typedef float T; sqrt_abs_axpb_f32((const T*)x,n,(T)2,(T)1,(T*)o,n); }
static void run_A_sqrt_abs_axpb_f32(void*x,void*y,void*o,int64_t n){ typedef float T; A_sqrt_abs_axpb_f32((const T*)x,n,(T)2,(T)1,(T*)o,n); }
static void run_K_sqrt_abs_axpb_f32(void*x,void*y,void*o,int64_t n){ typedef float T; lo_sqrt_abs_axpb_f32_avx2((const T*)x,n,(T)2,(T)1,(T*)o,n); }
static void run_KA_sqrt_abs_axpb_f32(void*x,void*y,void*o,int64_t n){ typedef float T; A_lo_sqrt_abs_axpb_f32_avx2((const T*)x,n,(T)2,(T)1,(T*)o,n); }
typedef void (*R)(void*,void*,void*,int64_t);
static const char* names[]={"axpb_f32","axpb_i32","axpy_f32","axpy_i32","sum_f32","sum_i32","sumsq_f32","sumsq_i32","filter_gt0_sum_f32","filter_gt0_sum_i32","filter_gt0_scale_f32","filter_gt0_scale_i32","sqrt_abs_axpb_f32"};
static R fns[][4]={{run_D_axpb_f32,run_A_axpb_f32,run_K_axpb_f32,run_KA_axpb_f32},{run_D_axpb_i32,run_A_axpb_i32,run_K_axpb_i32,run_KA_axpb_i32},{run_D_axpy_f32,run_A_axpy_f32,run_K_axpy_f32,run_KA_axpy_f32},{run_D_axpy_i32,run_A_axpy_i32,run_K_axpy_i32,run_KA_axpy_i32},{run_D_sum_f32,run_A_sum_f32,run_K_sum_f32,run_KA_sum_f32},{run_D_sum_i32,run_A_sum_i32,run_K_sum_i32,run_KA_sum_i32},{run_D_sumsq_f32,run_A_sumsq_f32,run_K_sumsq_f32,run_KA_sumsq_f32},{run_D_sumsq_i32,run_A_sumsq_i32,run_K_sumsq_i32,run_KA_sumsq_i32},{run_D_filter_gt0_sum_f32,run_A_filter_gt0_sum_f32,run_K_filter_gt0_sum_f32,run_KA_filter_gt0_sum_f32},{run_D_filter_gt0_sum_i32,run_A_filter_gt0_sum_i32,run_K_filter_gt0_sum_i32,run_KA_filter_gt0_sum_i32},{run_D_filter_gt0_scale_f32,run_A_filter_gt0_scale_f32,run_K_filter_gt0_scale_f32,run_KA_filter_gt0_scale_f32},{run_D_filter_gt0_scale_i32,run_A_filter_gt0_scale_i32,run_K_filter_gt0_scale_i32,run_KA_filter_gt0_scale_i32},{run_D_sqrt_abs_axpb_f32,run_A_sqrt_abs_axpb_f32,run_K_sqrt_abs_axpb_f32,run_KA_sqrt_abs_axpb_f32}};

static int cmp(const void*a,const void*b){uint64_t x=*(uint64_t*)a,y=*(uint64_t*)b;return x<y?-1:x>y;}
int main(int argc,char**argv){ int64_t n=atoll(argv[1]); int rounds=atoi(argv[2]); int off=argc>3?atoi(argv[3]):0;
 char*bx=aligned_alloc(64,n*4+4160),*by=aligned_alloc(64,n*4+4160),*bo=aligned_alloc(64,n*4+4160);
 float*x=(float*)bx; int32_t*xi=(int32_t*)bx; srand(1);
 for(int64_t i=0;i<n;i++){ x[i]=rand()/(float)RAND_MAX-0.5f; } memcpy(by,bx,n*4);
 int np=sizeof(names)/sizeof(names[0]); int reps=(int)(2000000/n)+1; uint64_t *t=malloc(8*rounds*4);
 for(int p=0;p<np;p++){ if(getenv("ONLY") && strcmp(getenv("ONLY"),names[p])) continue; int isint=strstr(names[p],"i32")!=0; if(isint) for(int64_t i=0;i<n;i++) xi[i]=rand()%2001-1000; else for(int64_t i=0;i<n;i++) x[i]=rand()/(float)RAND_MAX-0.5f;
   memcpy(by,bx,n*4);
   for(int r=0;r<rounds;r++) for(int k=0;k<4;k++){ R volatile f=fns[p][k]; uint64_t a=now(); for(int i=0;i<reps;i++) f(bx,by,bo+off,n); t[k*rounds+r]=(now()-a)*1000/reps; }
   printf("%-22s n=%-7lld", names[p], (long long)n); uint64_t med[4];
   for(int k=0;k<4;k++){ qsort(t+k*rounds,rounds,8,cmp); med[k]=t[k*rounds+rounds/2]; }
   printf(" med D %6llu A %6llu K %6llu KA %6llu | D/K %.2f A/K %.2f A/D %.2f KA/K %.2f\n",(unsigned long long)med[0],(unsigned long long)med[1],(unsigned long long)med[2],(unsigned long long)med[3],
     (double)med[2]/med[0],(double)med[2]/med[1],(double)med[0]/med[1],(double)med[2]/med[3]); }
}