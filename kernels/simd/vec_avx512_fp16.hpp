// Native float16 vectors for the avx512fp16 kernels (AVX512-FP16, compiled
// with -mavx512fp16; only ever called when CPUID and the OS report it). VH =
// 32 x _Float16, the lane part of vec_contract.hpp's vocabulary with
// vec_avx512.hpp's conventions (mask registers, masked tails that never
// touch memory past n); intrinsics throughout (xsimd 8.1 has no float16
// type).
#pragma once

#if !defined(__AVX512FP16__)
#error "vec_avx512_fp16.hpp needs -mavx512fp16 (avx512fp16 TUs only)"
#endif

#include <immintrin.h>

#include <cstring>

#include "simd/f16/h16.hpp"
#include "simd/vec.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

struct VH {
    using E = _Float16;
    using R = __m512h;
    using M = __mmask32;
    static constexpr size_t N = 32;
    static constexpr int kRegs = 32;
    static constexpr bool kMaskedTails = true;  // loadn/storen: one masked move

    static R set1(E v) { return _mm512_set1_ph(v); }
    static R zero() { return _mm512_setzero_ph(); }
    static M lanes(size_t n) { return n >= N ? M(~0u) : M((1u << n) - 1u); }

    static R load(const H16* p) { return _mm512_loadu_ph(p); }
    static R loadn(const H16* p, size_t n, R fill) {
        return _mm512_castsi512_ph(_mm512_mask_loadu_epi16(_mm512_castph_si512(fill), lanes(n), p));
    }
    static void store(H16* p, R v) { _mm512_storeu_ph(p, v); }
    static void stream(H16* p, R v) {  // p 64-byte aligned
        _mm512_stream_si512(reinterpret_cast<__m512i*>(p), _mm512_castph_si512(v));
    }
    static void storen(H16* p, R v, size_t n) {
        _mm512_mask_storeu_epi16(p, lanes(n), _mm512_castph_si512(v));
    }

    static R add(R a, R b) { return _mm512_add_ph(a, b); }
    static R sub(R a, R b) { return _mm512_sub_ph(a, b); }
    static R mul(R a, R b) { return _mm512_mul_ph(a, b); }
    static R fma(R a, R b, R c) { return _mm512_fmadd_ph(a, b, c); }  // a*b + c
    static R max(R a, R b) { return _mm512_max_ph(a, b); }
    static R min(R a, R b) { return _mm512_min_ph(a, b); }
    static R abs(R a) { return _mm512_abs_ph(a); }

    static R blend(M m, R a, R b) { return _mm512_mask_blend_ph(m, a, b); }
    static M lt(R a, R b) { return _mm512_cmp_ph_mask(a, b, _CMP_LT_OQ); }
    static M gt(R a, R b) { return _mm512_cmp_ph_mask(a, b, _CMP_GT_OQ); }
    static M ge(R a, R b) { return _mm512_cmp_ph_mask(a, b, _CMP_GE_OQ); }
    static M eq(R a, R b) { return _mm512_cmp_ph_mask(a, b, _CMP_EQ_OQ); }
    static M not_le(R a, R b) { return _mm512_cmp_ph_mask(a, b, _CMP_NLE_UQ); }
    static M isnan(R a) { return _mm512_cmp_ph_mask(a, a, _CMP_UNORD_Q); }
    static M m_or(M a, M b) { return M(a | b); }
    static M m_andnot(M a, M b) { return M(a & ~b); }
    static M m_none() { return M(0); }
    static unsigned bits(M m) { return m; }

    static E hmax(R v) { return _mm512_reduce_max_ph(v); }
    static E first(R v) { return _mm512_cvtsh_h(v); }
};

static_assert(VecLaneContract<VH, H16>::ok);

template <>
struct VecOf<H16> {
    using type = VH;
};

inline _Float16 to_e(H16 v) {
    _Float16 h;
    std::memcpy(&h, &v.bits, 2);
    return h;
}

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
