// Vector traits for AVX-512 (F/CD/BW/DQ/VL): VF = 16 x float, VD = 8 x double.
// Tails use mask registers, which suppress faults on masked-off lanes, so a
// partial load or store never touches memory past the n elements.
//
// The vocabulary and its conventions are vec_contract.hpp's. Intrinsics
// throughout: this ISA cannot be run on the project's test machines, so it
// stays as it was tested.
#pragma once

#include <immintrin.h>

#include "simd/dtypes.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

struct VD {
    using E = double;
    static constexpr int kRegs = 32;  // vector registers (unrolling without spills)
    using R = __m512d;
    using M = __mmask8;
    static constexpr size_t N = 8;

    static R set1(double v) { return _mm512_set1_pd(v); }
    static R zero() { return _mm512_setzero_pd(); }
    static M lanes(size_t n) { return M(n >= N ? 0xFFu : (1u << n) - 1u); }

    static R load(const double* p) { return _mm512_loadu_pd(p); }
    static R loadn(const double* p, size_t n, R fill) {
        return _mm512_mask_loadu_pd(fill, lanes(n), p);
    }
    static void store(double* p, R v) { _mm512_storeu_pd(p, v); }
    static void storen(double* p, R v, size_t n) { _mm512_mask_storeu_pd(p, lanes(n), v); }
    static void stream(double* p, R v) { _mm512_stream_pd(p, v); }  // p 64-byte aligned

    static R add(R a, R b) { return _mm512_add_pd(a, b); }
    static R sub(R a, R b) { return _mm512_sub_pd(a, b); }
    static R mul(R a, R b) { return _mm512_mul_pd(a, b); }
    static R div(R a, R b) { return _mm512_div_pd(a, b); }
    static R sqrt(R a) { return _mm512_sqrt_pd(a); }
    static R fma(R a, R b, R c) { return _mm512_fmadd_pd(a, b, c); }
    static R fnma(R a, R b, R c) { return _mm512_fnmadd_pd(a, b, c); }
    static R max(R a, R b) { return _mm512_max_pd(a, b); }
    static R min(R a, R b) { return _mm512_min_pd(a, b); }
    static R abs(R a) { return _mm512_abs_pd(a); }
    static R sign(R a) { return _mm512_and_pd(a, set1(-0.0)); }
    static R xor_(R a, R b) { return _mm512_xor_pd(a, b); }

    static R blend(M m, R a, R b) { return _mm512_mask_blend_pd(m, a, b); }
    static M lt(R a, R b) { return _mm512_cmp_pd_mask(a, b, _CMP_LT_OQ); }
    static M gt(R a, R b) { return _mm512_cmp_pd_mask(a, b, _CMP_GT_OQ); }
    static M ge(R a, R b) { return _mm512_cmp_pd_mask(a, b, _CMP_GE_OQ); }
    static M eq(R a, R b) { return _mm512_cmp_pd_mask(a, b, _CMP_EQ_OQ); }
    static M not_le(R a, R b) { return _mm512_cmp_pd_mask(a, b, _CMP_NLE_UQ); }  // a > b or NaN
    static M isnan(R a) { return _mm512_cmp_pd_mask(a, a, _CMP_UNORD_Q); }
    static M m_or(M a, M b) { return M(a | b); }
    static M m_andnot(M a, M b) { return M(a & ~b); }  // a and not b
    static M m_none() { return 0; }
    static unsigned bits(M m) { return m; }

    static double hmax(R v) { return _mm512_reduce_max_pd(v); }
    static double hsum(R v) { return _mm512_reduce_add_pd(v); }
    static double first(R v) { return _mm512_cvtsd_f64(v); }

    static R round(R v) { return _mm512_roundscale_pd(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }
    static R ldexp(R p, R n) { return _mm512_scalef_pd(p, n); }
    static R frexp_sqrt2(R x, R& e) {
        R m = _mm512_getmant_pd(x, _MM_MANT_NORM_1_2, _MM_MANT_SIGN_zero);
        e = _mm512_getexp_pd(x);
        const M big = gt(m, set1(0x1.6a09e667f3bcdp+0));
        m = _mm512_mask_mul_pd(m, big, m, set1(0.5));
        e = _mm512_mask_add_pd(e, big, e, set1(1.0));
        return m;
    }
};

struct VF {
    using E = float;
    using R = __m512;
    using M = __mmask16;
    static constexpr size_t N = 16;

    static R set1(float v) { return _mm512_set1_ps(v); }
    static R zero() { return _mm512_setzero_ps(); }
    static M lanes(size_t n) { return M(n >= N ? 0xFFFFu : (1u << n) - 1u); }

    static R load(const float* p) { return _mm512_loadu_ps(p); }
    static R loadn(const float* p, size_t n, R fill) {
        return _mm512_mask_loadu_ps(fill, lanes(n), p);
    }
    static void store(float* p, R v) { _mm512_storeu_ps(p, v); }
    static void storen(float* p, R v, size_t n) { _mm512_mask_storeu_ps(p, lanes(n), v); }
    // Non-temporal stores of one vector; p aligned to the vector's bytes.
    static void stream(float* p, R v) { _mm512_stream_ps(p, v); }
    static void stream(F16* p, R v) { _mm256_stream_si256(reinterpret_cast<__m256i*>(p), to_f16(v)); }
    static void stream(BF16* p, R v) { _mm256_stream_si256(reinterpret_cast<__m256i*>(p), to_bf16(v)); }

    // float16: F16C-style conversion, round to nearest-even on store.
    static __m256i to_f16(R v) {
        return _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    }
    static R load(const F16* p) {
        return _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
    }
    static R loadn(const F16* p, size_t n, R fill) {
        const M m = lanes(n);
        return _mm512_mask_mov_ps(fill, m, _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(m, p)));
    }
    static void store(F16* p, R v) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), to_f16(v)); }
    static void storen(F16* p, R v, size_t n) { _mm256_mask_storeu_epi16(p, lanes(n), to_f16(v)); }

    // bfloat16: widen by a shift; narrow with round-to-nearest-even done on
    // the bit pattern (correct for subnormals and overflow to inf), NaN kept
    // quiet. The AVX512-BF16 instruction is not used: it flushes subnormals.
    static R from_bf16(__m256i h) {
        return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
    }
    static __m256i to_bf16(R v) {
        const __m512i b = _mm512_castps_si512(v);
        const __m512i hi = _mm512_srli_epi32(b, 16);
        const __m512i odd = _mm512_and_si512(hi, _mm512_set1_epi32(1));
        __m512i r = _mm512_srli_epi32(
            _mm512_add_epi32(b, _mm512_add_epi32(odd, _mm512_set1_epi32(0x7FFF))), 16);
        r = _mm512_mask_mov_epi32(r, isnan(v), _mm512_or_si512(hi, _mm512_set1_epi32(0x40)));
        return _mm512_cvtepi32_epi16(r);
    }
    static R load(const BF16* p) {
        return from_bf16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
    }
    static R loadn(const BF16* p, size_t n, R fill) {
        const M m = lanes(n);
        return _mm512_mask_mov_ps(fill, m, from_bf16(_mm256_maskz_loadu_epi16(m, p)));
    }
    static void store(BF16* p, R v) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), to_bf16(v)); }
    static void storen(BF16* p, R v, size_t n) { _mm256_mask_storeu_epi16(p, lanes(n), to_bf16(v)); }

    static R add(R a, R b) { return _mm512_add_ps(a, b); }
    static R sub(R a, R b) { return _mm512_sub_ps(a, b); }
    static R mul(R a, R b) { return _mm512_mul_ps(a, b); }
    static R div(R a, R b) { return _mm512_div_ps(a, b); }
    static R sqrt(R a) { return _mm512_sqrt_ps(a); }
    static R fma(R a, R b, R c) { return _mm512_fmadd_ps(a, b, c); }
    static R fnma(R a, R b, R c) { return _mm512_fnmadd_ps(a, b, c); }
    static R max(R a, R b) { return _mm512_max_ps(a, b); }
    static R min(R a, R b) { return _mm512_min_ps(a, b); }
    static R abs(R a) { return _mm512_abs_ps(a); }
    static R sign(R a) { return _mm512_and_ps(a, set1(-0.0f)); }
    static R xor_(R a, R b) { return _mm512_xor_ps(a, b); }

    static R blend(M m, R a, R b) { return _mm512_mask_blend_ps(m, a, b); }
    static M lt(R a, R b) { return _mm512_cmp_ps_mask(a, b, _CMP_LT_OQ); }
    static M gt(R a, R b) { return _mm512_cmp_ps_mask(a, b, _CMP_GT_OQ); }
    static M ge(R a, R b) { return _mm512_cmp_ps_mask(a, b, _CMP_GE_OQ); }
    static M eq(R a, R b) { return _mm512_cmp_ps_mask(a, b, _CMP_EQ_OQ); }
    static M not_le(R a, R b) { return _mm512_cmp_ps_mask(a, b, _CMP_NLE_UQ); }
    static M isnan(R a) { return _mm512_cmp_ps_mask(a, a, _CMP_UNORD_Q); }
    static M m_or(M a, M b) { return M(a | b); }
    static M m_andnot(M a, M b) { return M(a & ~b); }
    static M m_none() { return 0; }
    static unsigned bits(M m) { return m; }

    static float hmax(R v) { return _mm512_reduce_max_ps(v); }
    static float hsum(R v) { return _mm512_reduce_add_ps(v); }
    static float first(R v) { return _mm512_cvtss_f32(v); }

    static R round(R v) { return _mm512_roundscale_ps(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }
    static R ldexp(R p, R n) { return _mm512_scalef_ps(p, n); }
    static R frexp_sqrt2(R x, R& e) {
        R m = _mm512_getmant_ps(x, _MM_MANT_NORM_1_2, _MM_MANT_SIGN_zero);
        e = _mm512_getexp_ps(x);
        const M big = gt(m, set1(0x1.6a09e6p+0f));
        m = _mm512_mask_mul_ps(m, big, m, set1(0.5f));
        e = _mm512_mask_add_ps(e, big, e, set1(1.0f));
        return m;
    }
    static constexpr int kRegs = 32;  // vector registers (unrolling without spills)
    static constexpr bool kExp2FloorFrac = true;
    static constexpr bool kExp2Exact = true;
    // f = t - floor(t) (one VREDUCEPS); scalef takes floor(k) itself.
    // t = -inf gives f = 0, k = -inf: 2^-inf = 0. NaN stays NaN.
    static R exp2_split(R t, R& f) {
        f = _mm512_reduce_ps(t, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
        return t;
    }
    static R exp2_scale(R p, R k) { return _mm512_scalef_ps(p, k); }

    // float <-> two halves of double, for accumulations that need double.
    static void widen(R v, VD::R& lo, VD::R& hi) {
        lo = _mm512_cvtps_pd(_mm512_castps512_ps256(v));
        hi = _mm512_cvtps_pd(_mm512_extractf32x8_ps(v, 1));
    }
    static R narrow(VD::R lo, VD::R hi) {
        return _mm512_insertf32x8(_mm512_castps256_ps512(_mm512_cvtpd_ps(lo)), _mm512_cvtpd_ps(hi), 1);
    }
};

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
