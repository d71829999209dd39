// neonfp16 build of the float16 Hardmax kernels (simd/f16/hardmax_f16.hpp).
#include "simd/vec_neon_fp16.hpp"
#include "hardmax/hardmax_f16.hpp"
