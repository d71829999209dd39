#include "half_convert.hpp"

#include <cmath>
#include <cstring>

namespace simdax_bench {

uint16_t float_to_half(float value) {
    uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    const uint16_t sign = uint16_t((bits >> 16) & 0x8000u);
    const uint32_t abs = bits & 0x7fffffffu;
    if (abs >= 0x7f800000u)  // inf stays inf; NaN stays a quiet NaN
        return uint16_t(sign | 0x7c00u | (abs > 0x7f800000u ? 0x0200u : 0u));
    if (abs >= 0x477ff000u)  // >= 65520 rounds to infinity
        return uint16_t(sign | 0x7c00u);
    if (abs < 0x38800000u) {  // below 2^-14: a half subnormal (or zero)
        float magnitude;
        std::memcpy(&magnitude, &abs, sizeof magnitude);
        // Units of 2^-24 (exact scaling), rounded to nearest even; 1024
        // carries into the smallest normal, which is the right encoding.
        return uint16_t(sign | uint16_t(std::nearbyint(magnitude * 16777216.0f)));
    }
    // Normal: round the 13 dropped mantissa bits to nearest even, then
    // rebias the exponent from 127 to 15 (a carry into the exponent is right).
    const uint32_t rounded = abs + 0x0fffu + ((abs >> 13) & 1u);
    return uint16_t(sign | ((rounded - (112u << 23)) >> 13));
}

uint16_t float_to_bfloat16(float value) {
    uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    if ((bits & 0x7fffffffu) > 0x7f800000u)  // NaN: keep it quiet
        return uint16_t((bits >> 16) | 0x0040u);
    return uint16_t((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);
}

}  // namespace simdax_bench
