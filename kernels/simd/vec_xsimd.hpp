// The part of the vector vocabulary (vec_contract.hpp) that xsimd provides,
// for one element type and xsimd architecture: the base of the AVX2,
// AVX-512 and NEON traits. Each ISA's header adds what xsimd 8.1 lacks, and replaces a member
// where xsimd's form is not the contract's (it says why there).
#pragma once

// xsimd is compiled into this ISA's namespace (docs/dependencies.md): functions it
// leaves out of line (NEON: its reinterpret wrappers, exp) are then this
// ISA's own symbols, never shared with another ISA's objects. Its system
// headers come first, at global scope; ::xsimd names the nested copy.
#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <tuple>
#include <type_traits>
#include <utility>
#if defined(__aarch64__)
#include <arm_neon.h>
#if defined(__linux__)
#include <asm/hwcap.h>
#include <sys/auxv.h>
#endif
#else
#include <immintrin.h>
#endif

#include "simd/dtypes.hpp"

#if defined(__aarch64__)
// xsimd's NEON code calls these same-type casts as ::name; its own global
// definitions land in the ISA's namespace below. Internal linkage here.
#define SIMDAX_SAME_CAST(S, T) \
    static inline T vreinterpretq_##S##_##S(T a) noexcept { return a; }
SIMDAX_SAME_CAST(u8, uint8x16_t)
SIMDAX_SAME_CAST(s8, int8x16_t)
SIMDAX_SAME_CAST(u16, uint16x8_t)
SIMDAX_SAME_CAST(s16, int16x8_t)
SIMDAX_SAME_CAST(u32, uint32x4_t)
SIMDAX_SAME_CAST(s32, int32x4_t)
SIMDAX_SAME_CAST(u64, uint64x2_t)
SIMDAX_SAME_CAST(s64, int64x2_t)
SIMDAX_SAME_CAST(f32, float32x4_t)
#undef SIMDAX_SAME_CAST
#endif

namespace simdax::kernels::SIMDAX_KERNEL_ISA::xsimd {}
namespace xsimd = simdax::kernels::SIMDAX_KERNEL_ISA::xsimd;
namespace simdax::kernels::SIMDAX_KERNEL_ISA {
#include <xsimd/xsimd.hpp>
}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA

// The traits of this TU are xsimd batches (xsimd's math functions apply).
#define SIMDAX_VEC_XSIMD 1

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

template <class T, class A>
struct XsimdVec {
    using E = T;
    using R = xsimd::batch<T, A>;
    using M = xsimd::batch_bool<T, A>;
    static constexpr size_t N = R::size;

    static R set1(T v) { return R(v); }
    static R zero() { return R(T(0)); }
    static R load(const T* p) { return R::load_unaligned(p); }
    static void store(T* p, R v) { v.store_unaligned(p); }

    static R add(R a, R b) { return a + b; }
    static R sub(R a, R b) { return a - b; }
    static R mul(R a, R b) { return a * b; }
    static R div(R a, R b) { return a / b; }
    static R sqrt(R a) { return xsimd::sqrt(a); }
    static R fma(R a, R b, R c) { return xsimd::fma(a, b, c); }
    static R fnma(R a, R b, R c) { return xsimd::fnma(a, b, c); }
    static R max(R a, R b) { return xsimd::max(a, b); }
    static R min(R a, R b) { return xsimd::min(a, b); }
    static R abs(R a) { return xsimd::abs(a); }
    static R sign(R a) { return xsimd::bitofsign(a); }
    static R xor_(R a, R b) { return a ^ b; }
    static R round(R v) { return xsimd::nearbyint(v); }

    static R blend(M m, R a, R b) { return xsimd::select(m, b, a); }
    static M lt(R a, R b) { return a < b; }
    static M gt(R a, R b) { return a > b; }
    static M ge(R a, R b) { return a >= b; }
    static M eq(R a, R b) { return a == b; }
    static M not_le(R a, R b) { return ~(a <= b); }
    static M isnan(R a) { return xsimd::isnan(a); }
    static M m_or(M a, M b) { return a | b; }
    // Not xsimd::bitwise_andnot: in 8.1 it is ~a & b on x86, a & ~b on NEON.
    static M m_andnot(M a, M b) { return a & ~b; }
    static M m_none() { return M(false); }

    static T hsum(R v) { return xsimd::hadd(v); }
};

// The float members built on the bits of the IEEE format, through xsimd's
// int32 lanes (xsimd::ldexp scales in one step: no single rounding into
// subnormals).
template <class A, class Halves>
struct XsimdVF : XsimdVec<float, A> {
    using R = typename XsimdVec<float, A>::R;
    using M = typename XsimdVec<float, A>::M;
    using I = xsimd::batch<int32_t, A>;

    static R from_bits(I i) { return xsimd::bitwise_cast<R>(i); }
    static I to_bits(R v) { return xsimd::bitwise_cast<I>(v); }

    // 2^n built in two factors so that n down to -150 (subnormal results)
    // and up to 128 (overflow to inf) both round once, in the last multiply.
    static R ldexp(R p, R n) {
        const I ni = xsimd::to_int(n);
        const I n1 = ni >> 1;
        const I n2 = ni - n1;
        return p * from_bits((n1 + I(127)) << 23) * from_bits((n2 + I(127)) << 23);
    }
    static R frexp_sqrt2(R x, R& e) {
        const I b = to_bits(x);
        e = xsimd::to_float((b >> 23) - I(127));
        const R m = from_bits((b & I(0x007FFFFF)) | I(0x3F800000));
        const M big = m > R(0x1.6a09e6p+0f);
        e = xsimd::select(big, e + R(1.0f), e);
        return xsimd::select(big, m * R(0.5f), m);
    }

    // exp2_f32.hpp's split: n = rint(t) by the 1.5*2^23 shifter, which leaves
    // n in the low bits of k; f = t - n in [-1/2, 1/2]. t is clamped to -126
    // first (NaN kept), so exp2_scale builds a normal 2^n by adding n to the
    // exponent field of p.
    static constexpr bool kExp2FloorFrac = false;
    static constexpr bool kExp2Exact = false;
    static R exp2_split(R t, R& f) {
        t = xsimd::max(R(-126.0f), t);
        const R k = t + R(0x1.8p23f);
        f = t - (k - R(0x1.8p23f));
        return k;
    }
    static R exp2_scale(R p, R k) { return from_bits(to_bits(p) + (to_bits(k) << 23)); }

    // float <-> two halves of double by the ISA's conversions (Halves:
    // lo(v), hi(v), join(lo, hi)): none in xsimd 8.1, and GCC 12 lowers the
    // generic vector conversions piecewise (x86) or lane by lane (NEON).
    using D = xsimd::batch<double, A>;
    static void widen(R v, D& lo, D& hi) {
        lo = Halves::lo(v);
        hi = Halves::hi(v);
    }
    static R narrow(D lo, D hi) { return Halves::join(lo, hi); }
};

// The 16-bit float storage types, whose loads and stores each ISA's VF
// writes once for both (F16 and BF16 differ only in the conversion).
template <class H>
using IfHalf = std::enable_if_t<std::is_same_v<H, F16> || std::is_base_of_v<BF16, H>>;

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
