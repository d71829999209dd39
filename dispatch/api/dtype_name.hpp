// Spelling of a dtype in messages and the verbose line ("float16").
#pragma once

#include "kernel_types.hpp"
#include "simdax/simdax.h"

namespace simdax {

// "float32", "float16", "bfloat16", "float64", "uint8"; "unknown" otherwise.
inline const char* dtype_name(simdax_dtype d) {
    static const char* const kNames[] = {"unknown", "float32", "float16", "bfloat16", "float64", "uint8"};
    const int i = int(d);
    return i >= 1 && i <= 5 ? kNames[i] : kNames[0];
}

inline simdax_dtype public_dtype(DType d) {
    switch (d) {
        case DType::f32: return SIMDAX_DTYPE_FLOAT32;
        case DType::f16: return SIMDAX_DTYPE_FLOAT16;
        case DType::bf16: return SIMDAX_DTYPE_BFLOAT16;
        case DType::f64: return SIMDAX_DTYPE_FLOAT64;
        case DType::u8: return SIMDAX_DTYPE_UINT8;
    }
    return simdax_dtype(0);
}

}  // namespace simdax
