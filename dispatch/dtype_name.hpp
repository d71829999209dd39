// Spelling of a dtype in messages and the verbose line ("float16").
#pragma once

#include "simdax/simdax.h"

namespace simdax {

// "float32", "float16", "bfloat16", "float64"; "unknown" otherwise.
inline const char* dtype_name(simdax_dtype d) {
    switch (d) {
        case SIMDAX_DTYPE_FLOAT32: return "float32";
        case SIMDAX_DTYPE_FLOAT16: return "float16";
        case SIMDAX_DTYPE_BFLOAT16: return "bfloat16";
        case SIMDAX_DTYPE_FLOAT64: return "float64";
    }
    return "unknown";
}

}  // namespace simdax
