#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <immintrin.h>
