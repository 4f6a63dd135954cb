/* The baseline loops for gcc -O3 -march=native: branch-free (store at the cursor, advance by the test). */
#include <stdint.h>
#define K(name, T, U) int64_t gcc_keep_##name(const T *restrict x, int64_t n, T *restrict out, int64_t out_len) \
{ (void)out_len; int64_t c = 0; for (int64_t i = 0; i < n; i++) { out[c] = x[i]; c += (U)x[i] > (U)3; } return c; }
K(i8, int8_t, int8_t) K(u8, int8_t, uint8_t) K(i16, int16_t, int16_t) K(u16, int16_t, uint16_t)
