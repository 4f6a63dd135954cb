#include <stdint.h>
float gcc_sumsq_f32(const float *restrict x, int64_t n) { float s = 0; for (int64_t i = 0; i < n; i++) s += x[i] * x[i]; return s; }
int32_t gcc_sumsq_i32(const int32_t *restrict x, int64_t n) { int32_t s = 0; for (int64_t i = 0; i < n; i++) s += x[i] * x[i]; return s; }
int32_t gcc_filter_gt0_sum_i32(const int32_t *restrict x, int64_t n) { int32_t s = 0; for (int64_t i = 0; i < n; i++) if (x[i] > 0) s += x[i]; return s; }
float gcc_filter_gt0_sum_f32(const float *restrict x, int64_t n) { float s = 0; for (int64_t i = 0; i < n; i++) if (x[i] > 0) s += x[i]; return s; }
float gcc_sum_f32(const float *restrict x, int64_t n) { float s = 0; for (int64_t i = 0; i < n; i++) s += x[i]; return s; }
