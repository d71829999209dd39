// Narrowing a double in two steps: to float with round to odd, then to the
// target type with round to nearest even gives the correctly rounded
// result, for any target at least two bits narrower than float (float16,
// bfloat16).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

namespace simdax::kernels {
// Internal linkage: each ISA's translation unit keeps its own copy, built
// with its own flags.
namespace {

inline float round_to_odd(double d) {
    float f = float(d);
    if (double(f) == d || std::isnan(d) || std::isinf(f)) return f;
    if (std::fabs(double(f)) > std::fabs(d)) f = std::nextafter(f, 0.0f);  // toward zero
    uint32_t u;
    std::memcpy(&u, &f, 4);
    u |= 1u;  // sticky: inexact
    std::memcpy(&f, &u, 4);
    return f;
}

}  // namespace
}  // namespace simdax::kernels
