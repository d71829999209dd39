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

// The lanes of batch v as batch type To, same register width (xsimd 8.1's
// bitwise_cast is an out-of-line call on NEON).
template <class To, class From>
inline To lanes_as(From v) {
    return typename To::register_type(typename From::register_type(v));
}

// The IEEE binary format of a compute type (float or double): its bits as
// an unsigned integer of the same width, fraction bits, exponent bias; and
// the fraction field of sqrt(2) (rounded down: float's is double's top 23
// bits), up to which frexp_sqrt2 keeps the mantissa in [1, 2).
template <class T>
struct IeeeFormat {
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>);
    using Bits = std::conditional_t<sizeof(T) == 8, uint64_t, uint32_t>;
    static constexpr int kFracBits = std::numeric_limits<T>::digits - 1;
    static constexpr Bits kBias = std::numeric_limits<T>::max_exponent - 1;
    static constexpr Bits kSqrt2Frac = Bits(0x6A09E667F3BCDull >> (52 - kFracBits));  // 0x1.6a09e667f3bcdp+0
};

// ldexp and frexp_sqrt2 built on the bits of the IEEE format, through
// xsimd's unsigned lanes of the same width, once for float and double
// (xsimd::ldexp scales in one step: no single rounding into subnormals).
// Integers travel in the low bits of a float's pattern, never through an
// integer conversion: AVX2 has none for 64-bit lanes.
template <class T, class A>
struct XsimdIeee : XsimdVec<T, A> {
    using R = typename XsimdVec<T, A>::R;
    using F = IeeeFormat<T>;
    using U = xsimd::batch<typename F::Bits, A>;

    static R from_bits(U i) { return lanes_as<R>(i); }
    static U to_bits(R v) { return lanes_as<U>(v); }

    // 2^n built in two factors, 2^floor(n/2) * 2^ceil(n/2), so that n down
    // to the subnormal end and up to overflow both round once, in the last
    // multiply. The pattern of n + 1.5*2^kFracBits is that of the shifter
    // plus n; halving it halves n (the shifter's half ends in zero bits), and
    // the shift into the exponent field keeps only the low bits.
    static R ldexp(R p, R n) {
        const U k = to_bits(n + R(T(typename F::Bits(3) << (F::kFracBits - 1))));
        const U k1 = k >> 1;
        const U k2 = k - k1;
        return p * pow2(k1) * pow2(k2);
    }
    // 2^j from k whose low bits hold j (the higher ones fall out of the
    // exponent field).
    static R pow2(U k) { return from_bits((k + U(F::kBias)) << F::kFracBits); }
    // Adding `carry` carries into the exponent field exactly when the
    // fraction is above sqrt(2)'s: that halves m and counts in e at once, no
    // compare. The exponent field is then read as a float, 2^kFracBits +
    // field.
    static R frexp_sqrt2(R x, R& e) {
        using B = typename F::Bits;
        constexpr B frac_mask = (B(1) << F::kFracBits) - 1;
        constexpr B carry = frac_mask - F::kSqrt2Frac;  // frac + carry > frac_mask iff frac > kSqrt2Frac
        const U b = to_bits(x) + U(carry);
        const R two_k = R(T(B(1) << F::kFracBits));
        e = from_bits((b >> F::kFracBits) | to_bits(two_k)) - (two_k + R(T(F::kBias)));
        return from_bits((b & U(frac_mask)) + U((B(F::kBias) << F::kFracBits) - carry));
    }
};

// The float members beyond XsimdIeee's.
template <class A, class Halves>
struct XsimdVF : XsimdIeee<float, A> {
    using Base = XsimdIeee<float, A>;
    using R = typename Base::R;
    using U = typename Base::U;
    using Base::from_bits;
    using Base::to_bits;

    // exp2_f32.hpp's split: n = rint(t) by the 1.5*2^23 + 127 shifter, which
    // leaves n + 127, the exponent field of 2^n, in the low bits of k; f =
    // t - n in [-1/2, 1/2]. t is clamped to LOW first (NaN kept), so 2^n is
    // one shift from k: 0 for n = -127 (LOW = -127: t < -126.5 gives exactly
    // 0, -inf included, with no select), a normal float from n = -126 on.
    // LOW = -125 (sums) keeps every p * 2^n normal: a subnormal FMA result
    // costs a microcode assist.
    static constexpr bool kExp2FloorFrac = false;
    static constexpr bool kExp2Exact = false;
    template <int LOW = -127>
    static R exp2_split(R t, R& f) {
        static_assert(LOW >= -127 && LOW <= -125);
        constexpr float kShifter = 0x1.8p23f + 127.0f;
        t = xsimd::max(R(float(LOW)), t);
        const R k = t + R(kShifter);
        f = t - (k - R(kShifter));
        return k;
    }
    static R exp2_scale(R p, R k) { return p * from_bits(to_bits(k) << 23); }
    static R exp2_scale_add(R p, R k, R s) { return xsimd::fma(p, from_bits(to_bits(k) << 23), s); }

    // bfloat16 is the upper half of a float. bf16_upper(v): v rounded to
    // bfloat16, nearest-even on the bit pattern (exact for subnormals and
    // overflow to inf), NaN kept quiet, in the upper 16 bits of each lane
    // (the lower 16 are garbage); each ISA narrows the lanes with its own
    // instruction. from_bf16(h): h's lanes, bfloat16 in the low 16 bits.
    // Signed lanes: xsimd 8.1 selects them by a float mask (bool_cast).
    using I = xsimd::batch<int32_t, A>;
    // bf16_rounded_upper(v): the same without the NaN select (v has none).
    SIMDAX_INLINE static I bf16_rounded_upper(R v) {
        const I b = lanes_as<I>(v);
        return b + (((b >> 16) & I(1)) + I(0x7FFF));
    }
    SIMDAX_INLINE static I bf16_upper(R v) {
        const I b = lanes_as<I>(v);
        return xsimd::select(xsimd::bool_cast(xsimd::isnan(v)), b | I(0x00400000), bf16_rounded_upper(v));
    }
    SIMDAX_INLINE static R from_bf16(U h) { return from_bits(h << 16); }

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
