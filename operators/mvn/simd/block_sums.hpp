// MVN's shifted block sums, shared by the chunk, cols and rows statistics:
// over a block of values the sums of d = x - shift and of d^2, whether one
// pass around x[0] was enough, and when float sums cannot be trusted.
#pragma once

#include <type_traits>

#include "simd/lane_blocks.hpp"
#include "simd/vec.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

// Values summed per block: sized for L1.
constexpr size_t kMomentsBlock = 2048;
// Above this magnitude, (x - shift)^2 summed over a block may overflow float.
constexpr float kHugeF32 = 1e17f;
// Below this, a float sum of squared deviations (or variance + epsilon) has
// lost digits to subnormal rounding; it is redone in double. A block with a
// value of magnitude >= kTinyAbsF32 and any other value deviates by at least
// 2^-50 (half the float spacing there), so only blocks of values under
// kTinyAbsF32 fall below it without being constant (c2 exactly 0).
constexpr float kTinyVarF32 = 0x1p-100f;
constexpr float kTinyAbsF32 = 0x1p-25f;

template <class T>
inline bool is_huge(typename Vec<T>::E amax) {
    return sizeof(typename Vec<T>::E) == 4 && amax > typename Vec<T>::E(kHugeF32);
}

// A block of tiny values whose float sum of squared deviations c2 is too
// small to trust (zeros excepted: their c2 = 0 is exact).
template <class T>
inline bool is_tiny(typename Vec<T>::E amax, typename Vec<T>::E c2) {
    using E = typename Vec<T>::E;
    return sizeof(E) == 4 && c2 < E(kTinyVarF32) && amax > E(0) && amax < E(kTinyAbsF32);
}

template <class T>
struct BlockSums {
    typename Vec<T>::R s, q, am;  // sum of d, sum of d^2, largest |x| (lanes)
};

// How a block's values are shifted before they are summed: d = x (a
// float16/bfloat16 row's pass A: one vector operation less per element),
// x - vs, or (x - vs) - vs2.
enum class Shift { none, one, two };

// Sums of d (Shift) and of d^2 over one block; four chains each so fewer
// wait on the FMA latency; missing tail lanes count 0.
// AMAX: also the largest |x|. copy (float16/bfloat16 rows): the block's
// deviations d are written there on the way (copy may be xb itself). pfw:
// the output block, prefetched for writing so its reads for ownership
// overlap this pass.
template <class T, bool AMAX, Shift S = Shift::one>
inline BlockSums<T> shifted_block_sums(const T* xb, size_t nb, typename Vec<T>::R vs,
                                       typename Vec<T>::E* copy, const char* pfw, size_t pfw_esize,
                                       typename Vec<T>::R vs2 = Vec<T>::zero()) {
    using V = Vec<T>;
    using VE = Vec<typename V::E>;
    using R = typename V::R;
    constexpr size_t N = V::N;
    R a0 = V::zero(), a1 = V::zero(), a2 = V::zero(), a3 = V::zero(), am = V::zero();
    R q0 = V::zero(), q1 = V::zero(), q2 = V::zero(), q3 = V::zero();
    size_t i = 0;
    for (; i + 4 * N <= nb; i += 4 * N) {
        if (pfw) prefetch_row(pfw + i * pfw_esize, 4 * N * pfw_esize, true);
        R v[4];
        load4(xb, i, nullptr, v);
        const R v0 = v[0], v1 = v[1], v2 = v[2], v3 = v[3];
        if (AMAX) am = V::max(V::max(am, V::abs(v0)), V::max(V::abs(v1), V::max(V::abs(v2), V::abs(v3))));
        R e0 = v0, e1 = v1, e2 = v2, e3 = v3;
        if constexpr (S != Shift::none) {
            e0 = V::sub(v0, vs);
            e1 = V::sub(v1, vs);
            e2 = V::sub(v2, vs);
            e3 = V::sub(v3, vs);
        }
        if constexpr (S == Shift::two) {
            e0 = V::sub(e0, vs2);
            e1 = V::sub(e1, vs2);
            e2 = V::sub(e2, vs2);
            e3 = V::sub(e3, vs2);
        }
        if (copy) {
            VE::store(copy + i, e0);
            VE::store(copy + i + N, e1);
            VE::store(copy + i + 2 * N, e2);
            VE::store(copy + i + 3 * N, e3);
        }
        a0 = V::add(a0, e0);
        a1 = V::add(a1, e1);
        a2 = V::add(a2, e2);
        a3 = V::add(a3, e3);
        q0 = V::fma(e0, e0, q0);
        q1 = V::fma(e1, e1, q1);
        q2 = V::fma(e2, e2, q2);
        q3 = V::fma(e3, e3, q3);
    }
    for (; i < nb; i += N) {
        const size_t cnt = i + N <= nb ? N : nb - i;
        const R fill = S == Shift::none ? V::zero() : vs;
        const R v = cnt == N ? V::load(xb + i) : V::loadn(xb + i, cnt, fill);
        if (AMAX) am = V::max(am, V::abs(v));
        R e = S == Shift::none ? v : V::sub(v, vs);
        if constexpr (S == Shift::two) e = V::blend(V::lanes(cnt), V::zero(), V::sub(e, vs2));
        if (copy) VE::storen(copy + i, e, cnt);
        a0 = V::add(a0, e);
        q0 = V::fma(e, e, q0);
    }
    return {V::add(V::add(a0, a1), V::add(a2, a3)), V::add(V::add(q0, q1), V::add(q2, q3)), am};
}

// One pass shifted by x[0] (a block's or row's first element) is enough
// when x[0] lies near the mean: the sum of squares then exceeds M2 by at
// most this factor, and its rounding error by as much over a second pass
// around the mean. Float16/bfloat16 (1 ulp is 2^-8..2^-11) allow a wider
// spread than float32 and float64.
template <class T>
constexpr double kOnePassSpread = std::is_same_v<T, typename Vec<T>::E> ? 4.0 : 64.0;

// M2 of n values (inv_n = 1/n) from the sums of their deviations d from
// x[0] and of d^2; false when x[0] lies too far from the mean for one pass
// (or on NaN).
template <class T>
inline bool one_pass_m2(double sd, double sq, double inv_n, double* m2) {
    *m2 = sq - sd * (sd * inv_n);
    return *m2 * kOnePassSpread<T> >= sq;
}

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
