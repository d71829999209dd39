// Test-side number formats: float64 <-> float32/float16/bfloat16 rounding,
// step size and ULP distance, and the conformance pass rule
// (shared/conformance/README.md "Pass rule and tolerances").
// Written from the IEEE 754 definitions; never calls library code, so a
// conversion bug in the library cannot hide behind the same bug here.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "simdax/simdax.h"

namespace sxt {

inline const char* dtype_name(simdax_dtype dt) {
    switch (dt) {
        case SIMDAX_DTYPE_FLOAT32: return "float32";
        case SIMDAX_DTYPE_FLOAT16: return "float16";
        case SIMDAX_DTYPE_BFLOAT16: return "bfloat16";
        case SIMDAX_DTYPE_FLOAT64: return "float64";
        case SIMDAX_DTYPE_UINT8: return "uint8";
    }
    return "unknown-dtype";
}

// Fraction and exponent bits of a binary format.
struct BinaryFormat {
    int frac_bits;
    int exp_bits;
};

inline BinaryFormat format_of(simdax_dtype dt) {
    switch (dt) {
        case SIMDAX_DTYPE_FLOAT32: return {23, 8};
        case SIMDAX_DTYPE_FLOAT16: return {10, 5};
        case SIMDAX_DTYPE_BFLOAT16: return {7, 8};
        case SIMDAX_DTYPE_FLOAT64: return {52, 11};
        case SIMDAX_DTYPE_UINT8: break;  // not a binary format (boolean masks)
    }
    return {0, 0};
}

// A binary format's width is its sign, exponent and fraction bits; 0 for an
// unknown dtype.
inline size_t dtype_bytes(simdax_dtype dt) {
    if (dt == SIMDAX_DTYPE_UINT8) return 1;  // a boolean mask's byte
    const BinaryFormat f = format_of(dt);
    return size_t(1 + f.exp_bits + f.frac_bits) / 8;
}

// One step of format f at the finite value x: the step above |x| (at a
// power of two, the larger one); the subnormal step below the normals.
inline double step_at(double x, BinaryFormat f) {
    const int emin = 2 - (1 << (f.exp_bits - 1));
    int e = emin;
    if (x != 0.0) {
        std::frexp(x, &e);  // |x| in [2^(e-1), 2^e)
        e = std::max(e - 1, emin);
    }
    return std::ldexp(1.0, e - f.frac_bits);
}
inline double step_at(double x, simdax_dtype dt) { return step_at(x, format_of(dt)); }

// Rounds x to the nearest value of format f (ties to even, gradual
// underflow, overflow to the infinity of x's sign). Result is exact in double.
inline double round_to_format(double x, BinaryFormat f) {
    if (std::isnan(x) || std::isinf(x) || x == 0.0) return x;
    const double quantum = step_at(x, f);
    // x / quantum is exact (power of two); nearbyint rounds ties to even
    // in the default rounding mode.
    const double r = std::nearbyint(x / quantum) * quantum;
    const int emax = (1 << (f.exp_bits - 1)) - 1;
    const double max_finite = std::ldexp(2.0 - std::ldexp(1.0, -f.frac_bits), emax);
    if (std::fabs(r) > max_finite) return std::copysign(std::numeric_limits<double>::infinity(), x);
    return r;
}

inline double round_to_dtype(double x, simdax_dtype dt) {
    if (dt == SIMDAX_DTYPE_UINT8) return x != 0.0 ? 1.0 : 0.0;  // a boolean mask's value
    return dt == SIMDAX_DTYPE_FLOAT64 ? x : round_to_format(x, format_of(dt));
}

// IEEE binary16 bits of x rounded to nearest even; NaN stays (quiet) NaN.
inline uint16_t f64_to_f16_bits(double x) {
    const uint16_t sign = std::signbit(x) ? 0x8000 : 0;
    if (std::isnan(x)) return uint16_t(sign | 0x7E00);
    const double r = std::fabs(round_to_format(x, format_of(SIMDAX_DTYPE_FLOAT16)));
    if (std::isinf(r)) return uint16_t(sign | 0x7C00);
    if (r == 0.0) return sign;
    int e;
    std::frexp(r, &e);
    e -= 1;
    if (e < -14) return uint16_t(sign | uint16_t(r * 16777216.0));  // subnormal: r / 2^-24
    const uint16_t frac = uint16_t((std::ldexp(r, -e) - 1.0) * 1024.0);
    return uint16_t(sign | uint16_t((e + 15) << 10) | frac);
}

inline double f16_bits_to_f64(uint16_t h) {
    const double sign = (h & 0x8000) ? -1.0 : 1.0;
    const int exp = (h >> 10) & 0x1F;
    const int frac = h & 0x3FF;
    if (exp == 0x1F)
        return frac ? std::numeric_limits<double>::quiet_NaN()
                    : sign * std::numeric_limits<double>::infinity();
    if (exp == 0) return sign * std::ldexp(double(frac), -24);
    return sign * std::ldexp(1.0 + frac / 1024.0, exp - 15);
}

// Unaligned typed access to an element's bytes.
template <class U>
inline void put_raw(void* p, U v) {
    std::memcpy(p, &v, sizeof v);
}
template <class U>
inline U get_raw(const void* p) {
    U v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

inline uint32_t f32_bits(float f) { return get_raw<uint32_t>(&f); }
inline float f32_from_bits(uint32_t u) { return get_raw<float>(&u); }
inline uint64_t f64_bits(double d) { return get_raw<uint64_t>(&d); }

// float32 nearest to x; the double is rounded first, so the cast is exact
// (and never the undefined out-of-range conversion).
inline float f64_to_f32(double x) {
    if (std::isnan(x))
        return std::copysign(std::numeric_limits<float>::quiet_NaN(), float(std::signbit(x) ? -1 : 1));
    return static_cast<float>(round_to_dtype(x, SIMDAX_DTYPE_FLOAT32));
}

// bfloat16 = upper half of a binary32; the rounded value is a float exactly.
inline uint16_t f64_to_bf16_bits(double x) {
    const uint16_t sign = std::signbit(x) ? 0x8000 : 0;
    if (std::isnan(x)) return uint16_t(sign | 0x7FC0);
    return uint16_t(f32_bits(static_cast<float>(round_to_dtype(x, SIMDAX_DTYPE_BFLOAT16))) >> 16);
}

inline double bf16_bits_to_f64(uint16_t b) { return double(f32_from_bits(uint32_t(b) << 16)); }

// Stores x (rounded to the dtype) at p / loads the element at p as double.
inline void store_as(simdax_dtype dt, void* p, double x) {
    switch (dt) {
        case SIMDAX_DTYPE_FLOAT32: return put_raw(p, f64_to_f32(x));
        case SIMDAX_DTYPE_FLOAT16: return put_raw(p, f64_to_f16_bits(x));
        case SIMDAX_DTYPE_BFLOAT16: return put_raw(p, f64_to_bf16_bits(x));
        case SIMDAX_DTYPE_FLOAT64: return put_raw(p, x);
        case SIMDAX_DTYPE_UINT8: return put_raw(p, uint8_t(x != 0.0));
    }
}

inline double load_as(simdax_dtype dt, const void* p) {
    switch (dt) {
        case SIMDAX_DTYPE_FLOAT32: return double(get_raw<float>(p));
        case SIMDAX_DTYPE_FLOAT16: return f16_bits_to_f64(get_raw<uint16_t>(p));
        case SIMDAX_DTYPE_BFLOAT16: return bf16_bits_to_f64(get_raw<uint16_t>(p));
        case SIMDAX_DTYPE_FLOAT64: return get_raw<double>(p);
        case SIMDAX_DTYPE_UINT8: return double(get_raw<uint8_t>(p));
    }
    return std::numeric_limits<double>::quiet_NaN();
}

// Sign-magnitude bits of a value of the dtype (value must be representable).
inline uint64_t dtype_bits(double v, simdax_dtype dt, uint64_t* sign_mask) {
    switch (dt) {
        case SIMDAX_DTYPE_FLOAT32: *sign_mask = 1ull << 31; return f32_bits(static_cast<float>(v));
        case SIMDAX_DTYPE_FLOAT16: *sign_mask = 1ull << 15; return f64_to_f16_bits(v);
        case SIMDAX_DTYPE_BFLOAT16: *sign_mask = 1ull << 15; return f64_to_bf16_bits(v);
        case SIMDAX_DTYPE_FLOAT64: *sign_mask = 1ull << 63; return f64_bits(v);
        case SIMDAX_DTYPE_UINT8: break;
    }
    *sign_mask = 0;
    return 0;
}

// Number of representable steps between two finite values of the dtype;
// -0 and +0 are the same step.
inline uint64_t ulp_distance(double a, double b, simdax_dtype dt) {
    uint64_t sm;
    const uint64_t ba = dtype_bits(a, dt, &sm);
    const uint64_t bb = dtype_bits(b, dt, &sm);
    const uint64_t ma = ba & ~sm, mb = bb & ~sm;
    const bool na = (ba & sm) && ma, nb = (bb & sm) && mb;
    if (na == nb) return ma > mb ? ma - mb : mb - ma;
    const uint64_t s = ma + mb;
    return s < ma ? UINT64_MAX : s;  // saturate (float64 extremes)
}

// atol + rtol*|ref|, or `ulps` steps from ref rounded to the dtype; exact for
// Hardmax.
struct Tolerance {
    double atol = 0;
    double rtol = 0;
    int ulps = 0;
    bool exact = false;
};

// Activations built on exp/log/tanh/erf: MVN in float16/bfloat16 gets 2 ulps
// with these fused (docs/spec.md "Accuracy").
inline bool is_transcendental(simdax_activation_type t) {
    switch (t) {
        case SIMDAX_ACTIVATION_ELU:
        case SIMDAX_ACTIVATION_CELU:
        case SIMDAX_ACTIVATION_SCALED_ELU:
        case SIMDAX_ACTIVATION_SIGMOID:
        case SIMDAX_ACTIVATION_TANH:
        case SIMDAX_ACTIVATION_SCALED_TANH:
        case SIMDAX_ACTIVATION_SOFTPLUS:
        case SIMDAX_ACTIVATION_PARAMETRIC_SOFTPLUS:
        case SIMDAX_ACTIVATION_GELU: return true;
        default: return false;
    }
}

// The table of the conformance README. Standalone activations use the
// MVN/HardSigmoid row (element-wise, same bound).
inline Tolerance tolerance_for(simdax_operator_type op, simdax_dtype dt, bool transcendental_fused = false) {
    Tolerance t;
    if (op == SIMDAX_OPERATOR_HARDMAX) {
        t.exact = true;
        return t;
    }
    if (op == SIMDAX_OPERATOR_CAST) {  // the input's value rounded once to the output's type
        t.atol = t.rtol = 0;
        return t;
    }
    if (dt == SIMDAX_DTYPE_FLOAT64) {
        t.atol = t.rtol = 1e-12;
        return t;
    }
    t.atol = op == SIMDAX_OPERATOR_SOFTMAX ? 1e-6 : 1e-5;
    t.rtol = 1e-5;
    if (dt == SIMDAX_DTYPE_FLOAT16 || dt == SIMDAX_DTYPE_BFLOAT16)
        t.ulps = (op == SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION && transcendental_fused) ? 2 : 1;
    return t;
}

// The pass rule for one element: ref is the float64 reference, got the
// library's value (exactly representable in dt).
inline bool passes(double ref, double got, simdax_dtype dt, const Tolerance& t) {
    if (std::isnan(ref)) return std::isnan(got);
    if (t.exact) return got == ref;
    const double r = round_to_dtype(ref, dt);
    if (std::isinf(r) && got == r) return true;
    if (std::isnan(got) || std::isinf(got) || std::isinf(r)) return false;
    if (std::fabs(got - ref) <= t.atol + t.rtol * std::fabs(ref)) return true;
    return t.ulps > 0 && ulp_distance(got, r, dt) <= uint64_t(t.ulps);
}

// What MVN's range rule (docs/mvn_range.md) accepts for one element: any
// value between lo[k] and hi[k] (k = 0, 1; an interval with lo > hi is
// empty; the bounds may be infinite) within the tolerance of its nearer
// end, and NaN when `nan` is set.
struct RefRange {
    double lo[2] = {1, 1}, hi[2] = {0, 0};
    bool nan = false;
};

inline bool passes(const RefRange& r, double got, simdax_dtype dt, const Tolerance& t) {
    if (std::isnan(got)) return r.nan;
    for (int k = 0; k < 2; ++k) {
        const double lo = r.lo[k], hi = r.hi[k];
        if (!(lo <= hi)) continue;
        if (lo <= got && got <= hi) return true;
        // Outside: the nearer end under the ordinary rule (an infinity only
        // where that end rounds to it in dt).
        if (passes(got < lo ? lo : hi, got, dt, t)) return true;
    }
    return false;
}

// How badly an element fails, for picking the worst one to report
// (infinity for a NaN/inf mismatch or an exact-compare miss).
inline double badness(const RefRange& r, double got, simdax_dtype dt, const Tolerance& t) {
    if (passes(r, got, dt, t)) return 0.0;
    if (t.exact || !std::isfinite(got)) return std::numeric_limits<double>::infinity();
    double best = std::numeric_limits<double>::infinity();
    for (int k = 0; k < 2; ++k) {
        if (!(r.lo[k] <= r.hi[k])) continue;
        const double e = got < r.lo[k] ? r.lo[k] : r.hi[k];
        if (std::isfinite(e)) best = std::min(best, std::fabs(got - e) / (t.atol + t.rtol * std::fabs(e)));
    }
    return best;
}

// A single reference value as a range (every operator but MVN).
inline RefRange point_range(double ref) {
    RefRange r;
    r.nan = std::isnan(ref);
    if (!r.nan) r.lo[0] = r.hi[0] = ref;
    return r;
}

}  // namespace sxt
