// neonfp16 build of the float16 activations (simd/f16/activation_f16.hpp).
#include "simd/vec_neon_fp16.hpp"
#include "activation/activation_f16.hpp"
