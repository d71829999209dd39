// Vector traits for AVX-512 (F/CD/BW/DQ/VL): VF = 16 x float, VD = 8 x
// double, on xsimd's avx512bw batches (vec_xsimd.hpp); the vocabulary is
// vec_contract.hpp's. Masks are mask registers; tails use them too, which
// suppress faults on masked-off lanes, so a partial load or store never
// touches memory past the n elements. Intrinsics remain for what xsimd 8.1
// lacks or does slower, each group below with its reason.
#pragma once

#include <immintrin.h>

#include "simd/cpu_facts.hpp"
#include "simd/vec_xsimd.hpp"
#include "simd/x86_reduce.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

using XArch = xsimd::avx512bw;

// XsimdVF's widen and narrow.
struct Halves {
    static __m512d lo(__m512 v) { return _mm512_cvtps_pd(_mm512_castps512_ps256(v)); }
    static __m512d hi(__m512 v) { return _mm512_cvtps_pd(_mm512_extractf32x8_ps(v, 1)); }
    static __m512 join(__m512d lo, __m512d hi) {
        return _mm512_insertf32x8(_mm512_castps256_ps512(_mm512_cvtpd_ps(lo)), _mm512_cvtpd_ps(hi), 1);
    }
};

// The intrinsics below, spelled once per element type.
namespace avx512_ops {
inline __m512 fmadd(__m512 a, __m512 b, __m512 c) { return _mm512_fmadd_ps(a, b, c); }
inline __m512d fmadd(__m512d a, __m512d b, __m512d c) { return _mm512_fmadd_pd(a, b, c); }
inline __m512 fnmadd(__m512 a, __m512 b, __m512 c) { return _mm512_fnmadd_ps(a, b, c); }
inline __m512d fnmadd(__m512d a, __m512d b, __m512d c) { return _mm512_fnmadd_pd(a, b, c); }
inline __mmask16 not_le(__m512 a, __m512 b) { return _mm512_cmp_ps_mask(a, b, _CMP_NLE_UQ); }
inline __mmask8 not_le(__m512d a, __m512d b) { return _mm512_cmp_pd_mask(a, b, _CMP_NLE_UQ); }
inline __m512 loadn(__m512 f, __mmask16 m, const float* p) { return _mm512_mask_loadu_ps(f, m, p); }
inline __m512d loadn(__m512d f, __mmask8 m, const double* p) { return _mm512_mask_loadu_pd(f, m, p); }
inline void storen(float* p, __mmask16 m, __m512 v) { _mm512_mask_storeu_ps(p, m, v); }
inline void storen(double* p, __mmask8 m, __m512d v) { _mm512_mask_storeu_pd(p, m, v); }
inline void stream(float* p, __m512 v) { _mm512_stream_ps(p, v); }
inline void stream(double* p, __m512d v) { _mm512_stream_pd(p, v); }
inline float hmax(__m512 v) { return _mm512_reduce_max_ps(v); }
inline double hmax(__m512d v) { return _mm512_reduce_max_pd(v); }
inline float hsum(__m512 v) { return _mm512_reduce_add_ps(v); }
inline double hsum(__m512d v) { return _mm512_reduce_add_pd(v); }
inline __m128 quarter(__m512 v) { return _mm512_castps512_ps128(v); }
inline __m128d quarter(__m512d v) { return _mm512_castpd512_pd128(v); }
inline __m256 half(__m512 v) { return _mm512_castps512_ps256(v); }
inline __m256d half(__m512d v) { return _mm512_castpd512_pd256(v); }
inline float first(__m512 v) { return _mm512_cvtss_f32(v); }
inline double first(__m512d v) { return _mm512_cvtsd_f64(v); }
inline __m512 scalef(__m512 p, __m512 n) { return _mm512_scalef_ps(p, n); }
inline __m512d scalef(__m512d p, __m512d n) { return _mm512_scalef_pd(p, n); }
inline __m512 getmant(__m512 x) { return _mm512_getmant_ps(x, _MM_MANT_NORM_1_2, _MM_MANT_SIGN_zero); }
inline __m512d getmant(__m512d x) { return _mm512_getmant_pd(x, _MM_MANT_NORM_1_2, _MM_MANT_SIGN_zero); }
inline __m512 getexp(__m512 x) { return _mm512_getexp_ps(x); }
inline __m512d getexp(__m512d x) { return _mm512_getexp_pd(x); }
}  // namespace avx512_ops

// What VF and VD share, over xsimd's members (Base: XsimdVF or XsimdVec).
template <class Base>
struct Avx512Vec : Base {
    using E = typename Base::E;
    using R = typename Base::R;
    using M = typename Base::M;
    static constexpr size_t N = Base::N;
    static constexpr int kRegs = 32;            // vector registers (unrolling without spills)
    static constexpr bool kMaskedTails = true;  // loadn/storen: one masked move

    // xsimd 8.1 has no AVX-512 fma: its generic x*y + z is not fused
    // under ISO C++.
    static R fma(R a, R b, R c) { return avx512_ops::fmadd(a, b, c); }
    static R fnma(R a, R b, R c) { return avx512_ops::fnmadd(a, b, c); }
    // One unordered compare (xsimd 8.1 has only the ordered ones).
    static M not_le(R a, R b) { return avx512_ops::not_le(a, b); }

    // Tails on mask registers, non-temporal stores (none in xsimd 8.1).
    static M lanes(size_t n) {
        using K = typename M::register_type;
        return K(n >= N ? ~0u : (1u << n) - 1u);
    }
    static R loadn(const E* p, size_t n, R fill) { return avx512_ops::loadn(fill, lanes(n), p); }
    static void storen(E* p, R v, size_t n) { avx512_ops::storen(p, lanes(n), v); }
    static void stream(E* p, R v) { avx512_ops::stream(p, v); }  // p 64-byte aligned

    // Bitmask, horizontal max, lane 0 in a register: none in xsimd 8.1.
    // Horizontal sum: xsimd's ends in AVX2's two HADDPS, a longer chain
    // than the shuffle tree of the reduce sequence.
    static unsigned bits(M m) { return typename M::register_type(m); }
    static E hmax(R v) { return avx512_ops::hmax(v); }
    static E hsum(R v) { return avx512_ops::hsum(v); }
    static E hmax_n(R v, size_t n) {
        using namespace avx512_ops;
        return n <= N / 4 ? x86_reduce::hmax(quarter(v)) : n <= N / 2 ? x86_reduce::hmax(half(v)) : hmax(v);
    }
    static E hsum_n(R v, size_t n) {
        using namespace avx512_ops;
        return n <= N / 4 ? x86_reduce::hsum(quarter(v)) : n <= N / 2 ? x86_reduce::hsum(half(v)) : hsum(v);
    }
    static E first(R v) { return avx512_ops::first(v); }

    // VSCALEF rounds once into subnormals; VGETMANT/VGETEXP split x in
    // two instructions (xsimd 8.1 builds both from integer lanes).
    static R ldexp(R p, R n) { return avx512_ops::scalef(p, n); }
    static R frexp_sqrt2(R x, R& e) {
        R m = avx512_ops::getmant(x);
        e = avx512_ops::getexp(x);
        const M big = m > R(E(0x1.6a09e667f3bcdp+0));
        m = xsimd::select(big, m * R(E(0.5)), m);
        e = xsimd::select(big, e + R(E(1)), e);
        return m;
    }
};

struct VD : Avx512Vec<XsimdVec<double, XArch>> {};

struct VF : Avx512Vec<XsimdVF<XArch, Halves>> {
    using Avx512Vec::load;
    using Avx512Vec::loadn;
    using Avx512Vec::store;
    using Avx512Vec::storen;
    using Avx512Vec::stream;

    static M zero_bytes(const uint8_t* p) {
        const __m512i w = _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
        return typename M::register_type(_mm512_cmpeq_epi32_mask(w, _mm512_setzero_si512()));
    }

    // float16 and bfloat16 (no 16-bit float types in xsimd 8.1), as 16
    // lanes of 16 bits, forced inline (GCC's budget left narrow16 out of
    // line in 118 callers). float16: F16C-style, round to nearest-even on
    // store.
    SIMDAX_INLINE static R widen16(F16, __m256i h) { return _mm512_cvtph_ps(h); }
    SIMDAX_INLINE static __m256i narrow16(F16, R v) {
        return _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    }
    // bfloat16: XsimdVF's widening and rounding (narrow16_exact), the lanes
    // packed by VPMOVDW. Where the CPU has AVX512-BF16 (a fact read per call: the
    // avx512 level does not imply it), VCVTNEPS2BF16 does it in one
    // instruction, spelled in asm since this TU is built without
    // -mavx512bf16; it reads subnormal inputs as 0, so those lanes (and only
    // they: a normal float never rounds to a subnormal bfloat16) take the
    // rounding done on the bit pattern, as every lane does without it.
    SIMDAX_INLINE static R widen16(BF16, __m256i h) { return from_bf16(_mm512_cvtepu16_epi32(h)); }
    SIMDAX_INLINE static __m256i narrow16_exact(R v) {
        return _mm512_cvtepi32_epi16(_mm512_srli_epi32(bf16_upper(v), 16));
    }
    static __m256i narrow16_bf16_instruction(R v) {
        __m256i r;  // volatile: never moved above the test of the fact
        __asm__ volatile("vcvtneps2bf16 %1, %0" : "=v"(r) : "v"(__m512(v)));
        return r;
    }
    SIMDAX_INLINE static __m256i narrow16(BF16, R v) {
        if (!cpu_facts.avx512bf16) return narrow16_exact(v);
        __m256i r = narrow16_bf16_instruction(v);
        const __mmask16 sub = _mm512_fpclass_ps_mask(v, 0x20);  // subnormal lanes
        if (__builtin_expect(sub != 0, 0)) r = _mm256_mask_mov_epi16(r, sub, narrow16_exact(v));
        return r;
    }
    // Subnormal lanes become zeros, which BF16Result allows.
    SIMDAX_INLINE static __m256i narrow16(BF16Result, R v) {
        return cpu_facts.avx512bf16 ? narrow16_bf16_instruction(v) : narrow16_exact(v);
    }
    // 32 bfloat16 results (a's lanes first) in one VCVTNE2PS2BF16; stream2
    // streams whole 64-byte lines, else the two halves.
    static __m512i narrow32_bf16_instruction(R a, R b) {
        __m512i r;  // volatile: as narrow16_bf16_instruction
        __asm__ volatile("vcvtne2ps2bf16 %2, %1, %0" : "=v"(r) : "v"(__m512(b)), "v"(__m512(a)));
        return r;
    }
    SIMDAX_INLINE static void store2(BF16Result* p, R a, R b) {
        if (!cpu_facts.avx512bf16) {
            store(p, a);
            store(p + N, b);
            return;
        }
        _mm512_storeu_si512(p, narrow32_bf16_instruction(a, b));
    }
    SIMDAX_INLINE static void stream2(BF16Result* p, R a, R b) {
        if (!cpu_facts.avx512bf16) {
            stream(p, a);
            stream(p + N, b);
            return;
        }
        const __m512i r = narrow32_bf16_instruction(a, b);
        if (reinterpret_cast<uintptr_t>(p) % 64 == 0) {
            _mm512_stream_si512(reinterpret_cast<__m512i*>(p), r);
        } else {
            _mm256_stream_si256(reinterpret_cast<__m256i*>(p), _mm512_castsi512_si256(r));
            _mm256_stream_si256(reinterpret_cast<__m256i*>(p + N), _mm512_extracti64x4_epi64(r, 1));
        }
    }
    template <class H, class = IfHalf<H>>
    SIMDAX_INLINE static R load(const H* p) {
        return widen16(H{}, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
    }
    template <class H, class = IfHalf<H>>
    static R loadn(const H* p, size_t n, R fill) {
        const M m = lanes(n);
        return _mm512_mask_mov_ps(fill, m, widen16(H{}, _mm256_maskz_loadu_epi16(m, p)));
    }
    template <class H, class = IfHalf<H>>
    SIMDAX_INLINE static void store(H* p, R v) {
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), narrow16(H{}, v));
    }
    template <class H, class = IfHalf<H>>
    static void storen(H* p, R v, size_t n) {
        _mm256_mask_storeu_epi16(p, lanes(n), narrow16(H{}, v));
    }
    template <class H, class = IfHalf<H>>
    SIMDAX_INLINE static void stream(H* p, R v) {
        _mm256_stream_si256(reinterpret_cast<__m256i*>(p), narrow16(H{}, v));
    }

    // exp2_f32.hpp's split: f = t - floor(t) (one VREDUCEPS); scalef takes
    // floor(k) itself. t = -inf gives f = 0, k = -inf: 2^-inf = 0. NaN stays
    // NaN. None of it in xsimd 8.1.
    static constexpr bool kExp2FloorFrac = true;
    static constexpr bool kExp2Exact = true;
    template <int LOW = -127>  // no clamp needed
    static R exp2_split(R t, R& f) {
        f = _mm512_reduce_ps(t, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
        return t;
    }
    static R exp2_scale(R p, R k) { return _mm512_scalef_ps(p, k); }
    static R exp2_scale_add(R p, R k, R s) { return _mm512_add_ps(_mm512_scalef_ps(p, k), s); }
};

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
