// The vocabulary every ISA's vector traits provide; the kernels use nothing
// else. vec.hpp checks VF and VD of the ISA each kernel TU is built for,
// vec_neon_fp16.hpp checks VH, at compile time (VecContract below).
//
// A traits type V (VF: float, VD: double; VH: float16, neonfp16 only):
//   E, R, M, N       element, register and mask types, N lanes per register
//   set1(e), zero()  broadcast
//   load(p), store(p, v) for each storage type S of V (VF: float, F16, BF16;
//                    VD: double; VH: H16): N elements, unaligned.
//   loadn(p, n, fill), storen(p, v, n): tails, the first min(n, N) elements;
//                    the other lanes are fill. Never a byte past p + n.
//   stream(p, v)     non-temporal store of one vector, p aligned to the
//                    vector's bytes, ordered by stream_fence() (NEON: an
//                    ordinary store: Arm cores stream full-line runs)
//   lanes(n)         mask of lanes [0, min(n, N))
//   add sub mul fma(a, b, c) = a*b + c (fused), max min abs, all IEEE
//   max(a, b), min(a, b): b when either is NaN on x86, NaN on NEON; so the
//                    operand whose NaN must survive goes second
//   blend(m, a, b) = m ? b : a, per lane
//   lt gt ge eq      ordered compares (false for NaN); not_le(a, b): a > b
//                    or unordered; isnan
//   m_or, m_andnot(a, b) = a and not b, m_none(): all false
//   bits(m)          lane i's flag at bit i
//   hmax(v)          largest lane (a NaN lane: unspecified); first(v): lane 0
// VF and VD also:
//   div sqrt (IEEE), fnma(a, b, c) = c - a*b (fused), sign(a) (the sign
//                    bit), xor_, hsum (any order of additions)
//   hmax_n(v, n), hsum_n(v, n): hmax, hsum of a vector whose lanes from n
//                    on hold -inf / 0; they may be left out (short rows)
//   round(v)         to nearest, ties to even
//   ldexp(p, n)      p * 2^n for integral n in [-150, 128] (f32) or
//                    [-1075, 1024] (f64); rounds once, also into subnormals
//   frexp_sqrt2(x, e): x = m * 2^e with m in [sqrt(1/2), sqrt(2)), for
//                    positive normal x only
// VF also:
//   exp2_split(t, f) / exp2_scale(p, k): 2^t = 2^f * 2^k, the fast exp core
//                    of exp2_f32.hpp. exp2_split returns the scale carrier k
//                    and sets f, in [0, 1] when kExp2FloorFrac, else in
//                    [-1/2, 1/2]; exp2_scale(p, k) = p * 2^k for p in
//                    [1/2, 2]. kExp2Exact: any t <= 128 works (results round
//                    once into subnormals, -inf gives 0); otherwise t below
//                    exp2_split's template argument LOW (-127 to -125,
//                    default -127) is treated as LOW, and n = -127 gives 0.
//                    exp2_scale_add(p, k, s) = s + p * 2^k.
//   widen(v, lo, hi), narrow(lo, hi): float <-> two VD halves
//   zero_bytes(p)    lanes whose byte p[i] is 0, for N bytes (boolean masks)
//   float16 stores round to nearest-even; bfloat16 likewise, NaN kept quiet.
// Each ISA also has stream_fence(). Optional: kRegs, the number of vector
// registers (RegsOf in vec.hpp), and kMaskedTails (MaskedTailsOf).
#pragma once

#include <cstddef>
#include <type_traits>

#include "simd/dtypes.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

// Raw vector types (AVX-512's R) lose their attributes as template arguments:
// harmless for a type comparison.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes"

#define SIMDAX_VEC_EXPECT(type, ...) \
    static_assert(std::is_same_v<decltype(__VA_ARGS__), type>, #__VA_ARGS__ " must give " #type)

// Values of V's types, for the unevaluated calls below.
template <class V>
struct Val {
    static typename V::R r();
    static typename V::R& out();
    static typename V::M m();
    static typename V::E e();
};

// Loads and stores of storage type S.
template <class V, class S>
struct VecStorageContract {
    using R = typename V::R;
    static const S* src();
    static S* dst();
    SIMDAX_VEC_EXPECT(R, V::load(src()));
    SIMDAX_VEC_EXPECT(R, V::loadn(src(), size_t(), Val<V>::r()));
    SIMDAX_VEC_EXPECT(void, V::store(dst(), Val<V>::r()));
    SIMDAX_VEC_EXPECT(void, V::storen(dst(), Val<V>::r(), size_t()));
    SIMDAX_VEC_EXPECT(void, V::stream(dst(), Val<V>::r()));
    static constexpr bool ok = true;
};

// What VF, VD and VH share; S is V's own storage type.
template <class V, class S, class A = Val<V>>
struct VecLaneContract {
    using E = typename V::E;
    using R = typename V::R;
    using M = typename V::M;
    static_assert(std::is_same_v<decltype(V::N), const size_t> && V::N >= 2);
    static_assert(VecStorageContract<V, S>::ok);
    SIMDAX_VEC_EXPECT(R, V::set1(A::e()));
    SIMDAX_VEC_EXPECT(R, V::zero());
    SIMDAX_VEC_EXPECT(M, V::lanes(size_t()));
    SIMDAX_VEC_EXPECT(R, V::add(A::r(), A::r()));
    SIMDAX_VEC_EXPECT(R, V::sub(A::r(), A::r()));
    SIMDAX_VEC_EXPECT(R, V::mul(A::r(), A::r()));
    SIMDAX_VEC_EXPECT(R, V::fma(A::r(), A::r(), A::r()));
    SIMDAX_VEC_EXPECT(R, V::max(A::r(), A::r()));
    SIMDAX_VEC_EXPECT(R, V::min(A::r(), A::r()));
    SIMDAX_VEC_EXPECT(R, V::abs(A::r()));
    SIMDAX_VEC_EXPECT(R, V::blend(A::m(), A::r(), A::r()));
    SIMDAX_VEC_EXPECT(M, V::lt(A::r(), A::r()));
    SIMDAX_VEC_EXPECT(M, V::gt(A::r(), A::r()));
    SIMDAX_VEC_EXPECT(M, V::ge(A::r(), A::r()));
    SIMDAX_VEC_EXPECT(M, V::eq(A::r(), A::r()));
    SIMDAX_VEC_EXPECT(M, V::not_le(A::r(), A::r()));
    SIMDAX_VEC_EXPECT(M, V::isnan(A::r()));
    SIMDAX_VEC_EXPECT(M, V::m_or(A::m(), A::m()));
    SIMDAX_VEC_EXPECT(M, V::m_andnot(A::m(), A::m()));
    SIMDAX_VEC_EXPECT(M, V::m_none());
    SIMDAX_VEC_EXPECT(unsigned, V::bits(A::m()));
    SIMDAX_VEC_EXPECT(E, V::hmax(A::r()));
    SIMDAX_VEC_EXPECT(E, V::first(A::r()));
    static constexpr bool ok = true;
};

// VF and VD: the compute vectors of the float types.
template <class V, class A = Val<V>>
struct VecComputeContract {
    using E = typename V::E;
    using R = typename V::R;
    static_assert(VecLaneContract<V, E>::ok);
    SIMDAX_VEC_EXPECT(R, V::div(A::r(), A::r()));
    SIMDAX_VEC_EXPECT(R, V::sqrt(A::r()));
    SIMDAX_VEC_EXPECT(R, V::fnma(A::r(), A::r(), A::r()));
    SIMDAX_VEC_EXPECT(R, V::sign(A::r()));
    SIMDAX_VEC_EXPECT(R, V::xor_(A::r(), A::r()));
    SIMDAX_VEC_EXPECT(E, V::hsum(A::r()));
    SIMDAX_VEC_EXPECT(E, V::hmax_n(A::r(), size_t()));
    SIMDAX_VEC_EXPECT(E, V::hsum_n(A::r(), size_t()));
    SIMDAX_VEC_EXPECT(R, V::round(A::r()));
    SIMDAX_VEC_EXPECT(R, V::ldexp(A::r(), A::r()));
    SIMDAX_VEC_EXPECT(R, V::frexp_sqrt2(A::r(), A::out()));
    static constexpr bool ok = true;
};

template <class VF, class VD, class F = Val<VF>, class D = Val<VD>>
struct VecContract {
    using R = typename VF::R;
    static_assert(std::is_same_v<typename VF::E, float> && std::is_same_v<typename VD::E, double>);
    static_assert(VecComputeContract<VF>::ok && VecComputeContract<VD>::ok);
    static_assert(VecStorageContract<VF, F16>::ok && VecStorageContract<VF, BF16>::ok);
    SIMDAX_VEC_EXPECT(R, VF::exp2_split(F::r(), F::out()));
    SIMDAX_VEC_EXPECT(R, VF::exp2_scale(F::r(), F::r()));
    SIMDAX_VEC_EXPECT(R, VF::template exp2_split<-125>(F::r(), F::out()));
    SIMDAX_VEC_EXPECT(R, VF::exp2_scale_add(F::r(), F::r(), F::r()));
    SIMDAX_VEC_EXPECT(const bool, VF::kExp2FloorFrac);
    SIMDAX_VEC_EXPECT(const bool, VF::kExp2Exact);
    SIMDAX_VEC_EXPECT(void, VF::widen(F::r(), D::out(), D::out()));
    SIMDAX_VEC_EXPECT(R, VF::narrow(D::r(), D::r()));
    SIMDAX_VEC_EXPECT(typename VF::M, VF::zero_bytes(static_cast<const uint8_t*>(nullptr)));
    static constexpr bool ok = true;
};

#undef SIMDAX_VEC_EXPECT
#pragma GCC diagnostic pop

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
