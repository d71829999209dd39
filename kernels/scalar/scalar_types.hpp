// Storage types and conversions for the portable kernels. Half types are
// stored as uint16 bit patterns and computed in float; rounding to them is
// to nearest, ties to even, once, on store.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

namespace simdax::kernels::scalar {

struct Half {
    uint16_t bits;
};
struct BFloat {
    uint16_t bits;
};

inline float bits_to_float(uint32_t b) {
    float f;
    std::memcpy(&f, &b, 4);
    return f;
}
inline uint32_t float_to_bits(float f) {
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
}

inline float half_to_float(uint16_t h) {
    const uint32_t sign = uint32_t(h & 0x8000u) << 16;
    const uint32_t e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    if (e == 0x1f) return bits_to_float(sign | 0x7f800000u | (m << 13));
    if (e == 0) {  // zero or subnormal: m * 2^-24 is exact in float
        const float v = float(m) * 0x1p-24f;
        return bits_to_float(sign | float_to_bits(v));
    }
    return bits_to_float(sign | ((e + 112u) << 23) | (m << 13));
}

inline uint16_t float_to_half(float f) {
    const uint32_t x = float_to_bits(f);
    const uint16_t sign = uint16_t((x >> 16) & 0x8000u);
    const uint32_t ax = x & 0x7fffffffu;
    if (ax >= 0x7f800000u) return uint16_t(sign | (ax > 0x7f800000u ? 0x7e00u : 0x7c00u));
    if (ax >= 0x477ff000u) return uint16_t(sign | 0x7c00u);  // >= 65520 rounds to inf
    if (ax < 0x38800000u) {
        // Below 2^-14: adding 0.5 puts the value in units of 2^-24 into the
        // low mantissa bits, rounded to nearest-even by the FPU.
        const float r = bits_to_float(ax) + 0.5f;
        return uint16_t(sign | (float_to_bits(r) - 0x3f000000u));
    }
    const uint32_t odd = (ax >> 13) & 1u;
    return uint16_t(sign | ((ax + 0xc8000fffu + odd) >> 13));  // rebias 127->15, round
}

inline float bfloat_to_float(uint16_t b) { return bits_to_float(uint32_t(b) << 16); }

inline uint16_t float_to_bfloat(float f) {
    const uint32_t x = float_to_bits(f);
    if ((x & 0x7fffffffu) > 0x7f800000u) return uint16_t((x >> 16) | 0x40u);  // quiet NaN
    return uint16_t((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

// Per storage type: the compute type and the conversions.
template <class T>
struct Storage;
template <>
struct Storage<float> {
    using Acc = float;
    static float load(float v) { return v; }
    static float store(float v) { return v; }
};
template <>
struct Storage<double> {
    using Acc = double;
    static double load(double v) { return v; }
    static double store(double v) { return v; }
};
template <>
struct Storage<Half> {
    using Acc = float;
    static float load(Half v) { return half_to_float(v.bits); }
    static Half store(float v) { return Half{float_to_half(v)}; }
};
template <>
struct Storage<BFloat> {
    using Acc = float;
    static float load(BFloat v) { return bfloat_to_float(v.bits); }
    static BFloat store(float v) { return BFloat{float_to_bfloat(v)}; }
};

// Through memcpy: buffers may sit at any byte address.
template <class T>
inline typename Storage<T>::Acc ld(const void* p, ptrdiff_t i) {
    T v;
    std::memcpy(&v, static_cast<const char*>(p) + i * ptrdiff_t(sizeof(T)), sizeof(T));
    return Storage<T>::load(v);
}
template <class T>
inline void st(void* p, ptrdiff_t i, typename Storage<T>::Acc v) {
    const T s = Storage<T>::store(v);
    std::memcpy(static_cast<char*>(p) + i * ptrdiff_t(sizeof(T)), &s, sizeof(T));
}

}  // namespace simdax::kernels::scalar
