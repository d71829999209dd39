// Horizontal max and sum on SSE/AVX registers, shared by the AVX2 and
// AVX-512 traits (and Hardmax's int16 keys): a 256-bit register folds to
// 128 bits, then to lane 0.
// The AVX-512 traits use them for rows of at most a half or a quarter of a
// register (hmax_n / hsum_n), whose upper lanes need no shuffles.
#pragma once

#include <immintrin.h>

namespace simdax::kernels::SIMDAX_KERNEL_ISA::x86_reduce {

inline float hmax(__m128 m) {
    m = _mm_max_ps(m, _mm_movehl_ps(m, m));
    return _mm_cvtss_f32(_mm_max_ss(m, _mm_movehdup_ps(m)));
}
inline float hsum(__m128 s) {
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    return _mm_cvtss_f32(_mm_add_ss(s, _mm_movehdup_ps(s)));
}
inline double hmax(__m128d m) { return _mm_cvtsd_f64(_mm_max_sd(m, _mm_unpackhi_pd(m, m))); }
inline double hsum(__m128d s) { return _mm_cvtsd_f64(_mm_add_sd(s, _mm_unpackhi_pd(s, s))); }

inline float hmax(__m256 v) {
    return hmax(_mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1)));
}
inline float hsum(__m256 v) {
    return hsum(_mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1)));
}
inline double hmax(__m256d v) {
    return hmax(_mm_max_pd(_mm256_castpd256_pd128(v), _mm256_extractf128_pd(v, 1)));
}
inline double hsum(__m256d v) {
    return hsum(_mm_add_pd(_mm256_castpd256_pd128(v), _mm256_extractf128_pd(v, 1)));
}

// The signed maximum of int16 lanes: PHMINPOSUW finds the unsigned minimum
// of 0x7FFF - v, which falls as v rises.
inline int hmax_epi16(__m128i v) {
    const __m128i m = _mm_minpos_epu16(_mm_sub_epi16(_mm_set1_epi16(0x7FFF), v));
    return 0x7FFF - (_mm_cvtsi128_si32(m) & 0xFFFF);
}
inline int hmax_epi16(__m256i v) {
    return hmax_epi16(_mm_max_epi16(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1)));
}
#if defined(__AVX512BW__)
inline int hmax_epi16(__m512i v) {
    return hmax_epi16(_mm256_max_epi16(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64(v, 1)));
}
#endif

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA::x86_reduce
