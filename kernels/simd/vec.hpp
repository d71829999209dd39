// Picks the vector traits of the ISA this TU is compiled for, and adds the
// dtype plumbing every kernel uses: which vector computes a storage type,
// scalar conversion, and a double-precision twin of a compute vector.
#pragma once

#include <cstring>
#include <type_traits>
#include <utility>

#if defined(__AVX512F__)
#include "simd/vec_avx512.hpp"
#elif defined(__AVX2__) && defined(__FMA__) && defined(__F16C__)
#include "simd/vec_avx2.hpp"
#elif defined(__aarch64__) && defined(__ARM_NEON)
#include "simd/vec_neon.hpp"
#else
#error "kernels need AVX2+FMA+F16C or AVX-512 compile flags (x86), or aarch64 NEON"
#endif
#include "simd/vec_contract.hpp"
#include "kernel_table.hpp"
#if !defined(__aarch64__)
#include "simd/cpu_facts.hpp"
#endif

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

// Vector registers of a traits type (V::kRegs; 16 if a traits type does not
// say), for unroll choices that must not spill.
template <class V, class = void>
struct RegsOf {
    static constexpr int value = 16;
};
template <class V>
struct RegsOf<V, std::void_t<decltype(V::kRegs)>> {
    static constexpr int value = V::kRegs;
};

// Whether loadn/storen are single masked moves (V::kMaskedTails; else a
// partial vector costs more than a whole one: AVX2 moves it through general
// registers, NEON lane by lane).
template <class V, class = void>
struct MaskedTailsOf : std::false_type {};
template <class V>
struct MaskedTailsOf<V, std::void_t<decltype(V::kMaskedTails)>> : std::bool_constant<V::kMaskedTails> {};

// Two consecutive vectors a, b stored at p (stream: non-temporal, ordered
// by stream_fence()): one narrowing instruction for both where an ISA has
// V::store2/stream2 for the storage type (AVX512-BF16's VCVTNE2PS2BF16 does
// 32 lanes in the time VCVTNEPS2BF16 does 16), else two stores.
template <class V, class S, class = void>
struct HasPairStore : std::false_type {};
template <class V, class S>
struct HasPairStore<V, S, std::void_t<decltype(V::store2(std::declval<S*>(), V::zero(), V::zero()))>>
    : std::true_type {};

template <class V, class S>
SIMDAX_INLINE void store_pair(S* p, typename V::R a, typename V::R b, bool stream = false) {
    if constexpr (HasPairStore<V, S>::value) {
        if (stream)
            V::stream2(p, a, b);
        else
            V::store2(p, a, b);
    } else if (stream) {
        V::stream(p, a);
        V::stream(p + V::N, b);
    } else {
        V::store(p, a);
        V::store(p + V::N, b);
    }
}

// V::load2_any / V::store2_any: two vectors of S in an order of the ISA's
// choosing, inverse of each other (element-wise work only).
template <class V, class S, class = void>
struct HasAnyOrderPair : std::false_type {};
template <class V, class S>
struct HasAnyOrderPair<
    V, S,
    std::void_t<decltype(V::load2_any(std::declval<const S*>(), std::declval<typename V::R&>(),
                                      std::declval<typename V::R&>()))>> : std::true_type {};

// float32, float16 and bfloat16 compute in float; float64 in double.
template <class T>
struct VecOf {
    using type = VF;
};
template <>
struct VecOf<double> {
    using type = VD;
};
template <class T>
using Vec = typename VecOf<T>::type;

// One element to its compute type.
inline float to_e(float v) { return v; }
inline double to_e(double v) { return v; }
#if defined(__aarch64__)
inline float to_e(F16 v) { return f16_to_float(v.bits); }
inline void vec_scope_end() {}                      // no upper-state transitions on AArch64
inline bool interleave_streams() { return false; }  // stream() is a plain store
inline bool carry_row_passes() { return true; }
#else
inline float to_e(F16 v) { return _cvtsh_ss(v.bits); }
// Orders map()'s non-temporal stores before whatever the caller does next
// (vec_neon.hpp has its own: its stream() is an ordinary store).
inline void stream_fence() { _mm_sfence(); }
inline bool interleave_streams() { return cpu_facts.interleave_streams; }
inline bool carry_row_passes() { return cpu_facts.carry_row_passes; }
// Leaves the upper halves of the vector registers clean (VZEROUPPER). The
// dispatch code around the kernels is baseline SSE; entering it with dirty
// upper state costs a state transition per kernel call, and GCC omits the
// VZEROUPPER on some return paths of functions that take vector arguments.
// Every kernel entry point holds a VecScope.
inline void vec_scope_end() { _mm256_zeroupper(); }
#endif
struct VecScope {
    VecScope() = default;
    VecScope(const VecScope&) = delete;
    VecScope& operator=(const VecScope&) = delete;
    ~VecScope() { vec_scope_end(); }
};
inline float to_e(BF16 v) {
    const uint32_t b = uint32_t(v.bits) << 16;
    float f;
    std::memcpy(&f, &b, 4);
    return f;
}

// c[0] + x*(c[1] + x*(... + x*c[K-1])) in Horner form, one FMA a
// coefficient, unrolled.
template <class V, size_t K, size_t... I>
inline typename V::R horner(typename V::R x, const typename V::E (&c)[K], std::index_sequence<I...>) {
    typename V::R p = V::set1(c[K - 1]);
    ((p = V::fma(p, x, V::set1(c[K - 2 - I]))), ...);
    return p;
}
template <class V, size_t K>
inline typename V::R horner(typename V::R x, const typename V::E (&c)[K]) {
    return horner<V>(x, c, std::make_index_sequence<K - 1>{});
}

// Four vectors from x + i; copy (float16/bfloat16 blocks kept in L1 for a
// later pass): their compute-type values are stored at copy + i too.
template <class T>
SIMDAX_INLINE void load4(const T* x, size_t i, typename Vec<T>::E* copy, typename Vec<T>::R (&v)[4]) {
    using V = Vec<T>;
    SIMDAX_UNROLL for (size_t q = 0; q < 4; ++q) v[q] = V::load(x + i + q * V::N);
    if (copy) SIMDAX_UNROLL for (size_t q = 0; q < 4; ++q) V::store(copy + i + q * V::N, v[q]);
}

// op over the first `used` of K registers. All K (K a power of two): as a
// tree, log2(K) dependent steps where a running fold takes K; a row held in
// registers waits on that chain between its passes. Fewer: a running fold,
// which skips the unused ones (a tree over them cost rows of 24 floats 15%).
template <class V, size_t K, class Op>
SIMDAX_INLINE typename V::R tree_fold(const typename V::R (&v)[K], size_t used, Op op) {
    static_assert(K > 0 && (K & (K - 1)) == 0);
    typename V::R t[K];
    if (used < K) {
        t[0] = v[0];
        SIMDAX_UNROLL for (size_t k = 1; k < K && k < used; ++k) t[0] = op(t[0], v[k]);
        return t[0];
    }
    SIMDAX_UNROLL for (size_t k = 0; k < K; ++k) t[k] = v[k];
    SIMDAX_UNROLL for (size_t w = K / 2; w > 0; w /= 2) {
        SIMDAX_UNROLL for (size_t k = 0; k < w; ++k) t[k] = op(t[k], t[k + w]);
    }
    return t[0];
}

// A compute vector held in double: H vectors of VD. Used where float
// accumulation over many terms would lose the accuracy docs/spec.md asks for.
template <class V>
struct Wide;
template <>
struct Wide<VD> {
    static constexpr int H = 1;
    VD::R h[1];
    static Wide from(VD::R v) { return Wide{{v}}; }
    VD::R narrow() const { return h[0]; }
};
template <>
struct Wide<VF> {
    static constexpr int H = 2;
    VD::R h[2];
    static Wide from(VF::R v) {
        Wide w;
        VF::widen(v, w.h[0], w.h[1]);
        return w;
    }
    VF::R narrow() const { return VF::narrow(h[0], h[1]); }
};

static_assert(VecContract<VF, VD>::ok);

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
