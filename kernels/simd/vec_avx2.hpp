// Vector traits for AVX2 + FMA + F16C: VF = 8 x float, VD = 4 x double, on
// xsimd's fma3<avx2> batches (vec_xsimd.hpp); the vocabulary is
// vec_contract.hpp's. Masks are vectors of all-ones lanes. Intrinsics remain
// for what xsimd 8.1 lacks. Tails move their n*size bytes in 8/4/2-byte
// pieces through general registers (tail_load / tail_store below), never
// touching memory past them. vmaskmov would do for f32/f64 on hardware, but
// QEMU 7.2 (used to run the AVX2 path on CI) faults on its masked-off lanes
// past the end of a buffer, and 16-bit types have no masked move. (A stack
// buffer filled element by element costs a failed store forward per tail.)
#pragma once

#include <immintrin.h>

#include <cstdint>
#include <cstring>

#include "simd/vec_xsimd.hpp"
#include "simd/x86_reduce.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

// Up to 7 bytes (an even count) at p, zero-extended, as one integer.
inline uint64_t tail_bytes_lt8(const char* s, size_t bytes) {
    uint64_t t = 0;
    unsigned sh = 0;
    if (bytes & 4) {
        uint32_t u;
        std::memcpy(&u, s, 4);
        t = u;
        s += 4;
        sh = 32;
    }
    if (bytes & 2) {
        uint16_t u;
        std::memcpy(&u, s, 2);
        t |= uint64_t(u) << sh;
    }
    return t;
}
inline uint64_t ld8(const char* s) {
    uint64_t u;
    std::memcpy(&u, s, 8);
    return u;
}

// The first `bytes` (< 32, even) bytes at p, zero-extended to 32 bytes. The
// vector is assembled in registers (a stack buffer would cost a failed store
// forward).
inline __m256i tail_load(const void* p, size_t bytes) {
    const char* s = static_cast<const char*>(p);
    const uint64_t t = tail_bytes_lt8(s + (bytes & ~size_t(7)), bytes & 7);
    uint64_t a = t, b = 0, c = 0, d = 0;
    switch (bytes >> 3) {
        case 1:
            a = ld8(s);
            b = t;
            break;
        case 2:
            a = ld8(s);
            b = ld8(s + 8);
            c = t;
            break;
        case 3:
            a = ld8(s);
            b = ld8(s + 8);
            c = ld8(s + 16);
            d = t;
            break;
        default: break;
    }
    const __m128i lo = _mm_insert_epi64(_mm_cvtsi64_si128((long long)a), (long long)b, 1);
    if (bytes < 16) return _mm256_zextsi128_si256(lo);
    const __m128i hi = _mm_insert_epi64(_mm_cvtsi64_si128((long long)c), (long long)d, 1);
    return _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
}

// Stores the first `bytes` (< 32, even) bytes of v at p.
inline void tail_store(void* p, __m256i v, size_t bytes) {
    char* d = static_cast<char*>(p);
    __m128i h = _mm256_castsi256_si128(v);
    if (bytes >= 16) {
        _mm_storeu_si128(reinterpret_cast<__m128i*>(d), h);
        h = _mm256_extracti128_si256(v, 1);
        d += 16;
        bytes -= 16;
    }
    uint64_t t = uint64_t(_mm_cvtsi128_si64(h));
    if (bytes >= 8) {
        std::memcpy(d, &t, 8);
        t = uint64_t(_mm_extract_epi64(h, 1));
        d += 8;
        bytes -= 8;
    }
    if (bytes & 4) {
        const uint32_t u = uint32_t(t);
        std::memcpy(d, &u, 4);
        d += 4;
        t >>= 32;
    }
    if (bytes & 2) {
        const uint16_t u = uint16_t(t);
        std::memcpy(d, &u, 2);
    }
}

using XArch = xsimd::fma3<xsimd::avx2>;

// XsimdVF's widen and narrow.
struct Halves {
    static __m256d lo(__m256 v) { return _mm256_cvtps_pd(_mm256_castps256_ps128(v)); }
    static __m256d hi(__m256 v) { return _mm256_cvtps_pd(_mm256_extractf128_ps(v, 1)); }
    static __m256 join(__m256d lo, __m256d hi) {
        return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm256_cvtpd_ps(lo)), _mm256_cvtpd_ps(hi), 1);
    }
};

// Tails of the element type itself (xsimd 8.1 has no masked load/store);
// D supplies lanes(n).
template <class D, class Base>
struct Avx2Vec : Base {
    using E = typename Base::E;
    using R = typename Base::R;
    static constexpr int kRegs = 16;  // vector registers (unrolling without spills)

    static R loadn(const E* p, size_t n, R fill) {
        if (n >= Base::N) return Base::load(p);
        using Raw = typename R::register_type;
        return Base::blend(D::lanes(n), fill, Raw(tail_load(p, n * sizeof(E))));
    }
    static void storen(E* p, R v, size_t n) {
        if (n >= Base::N) return Base::store(p, v);
        tail_store(p, __m256i(typename R::register_type(v)), n * sizeof(E));
    }

    // One unordered compare (xsimd 8.1 has only the ordered ones).
    // Bitmask, horizontal max, lane 0 in a register: none in xsimd 8.1
    // (its get() goes through memory). Horizontal sum: xsimd's hadd takes
    // two HADDPS, which lengthen the path of a short row by a quarter.
    using M = typename Base::M;
    static constexpr bool kDouble = std::is_same_v<E, double>;
    static M not_le(R a, R b) {
        if constexpr (kDouble)
            return _mm256_cmp_pd(a, b, _CMP_NLE_UQ);
        else
            return _mm256_cmp_ps(a, b, _CMP_NLE_UQ);
    }
    static unsigned bits(M m) {
        if constexpr (kDouble)
            return unsigned(_mm256_movemask_pd(m));
        else
            return unsigned(_mm256_movemask_ps(m));
    }
    static E hmax(R v) { return x86_reduce::hmax(typename R::register_type(v)); }
    static E hsum(R v) { return x86_reduce::hsum(typename R::register_type(v)); }
    static E hmax_n(R v, size_t n) { return n <= Base::N / 2 ? x86_reduce::hmax(low_half(v)) : hmax(v); }
    static E hsum_n(R v, size_t n) { return n <= Base::N / 2 ? x86_reduce::hsum(low_half(v)) : hsum(v); }
    static E first(R v) {
        if constexpr (kDouble)
            return _mm256_cvtsd_f64(v);
        else
            return _mm256_cvtss_f32(v);
    }

private:
    static auto low_half(R v) {
        if constexpr (kDouble)
            return _mm256_castpd256_pd128(v);
        else
            return _mm256_castps256_ps128(v);
    }
};

struct VD : Avx2Vec<VD, XsimdIeee<double, XArch>> {
    static M lanes(size_t n) {
        const long long c = (long long)(n > N ? N : n);
        return _mm256_castsi256_pd(_mm256_cmpgt_epi64(_mm256_set1_epi64x(c), _mm256_setr_epi64x(0, 1, 2, 3)));
    }
    // Non-temporal store (none in xsimd 8.1); p 32-byte aligned.
    static void stream(double* p, R v) { _mm256_stream_pd(p, v); }
};

struct VF : Avx2Vec<VF, XsimdVF<XArch, Halves>> {
    using Avx2Vec::loadn;
    using Avx2Vec::storen;
    using XsimdVF::load;
    using XsimdVF::store;

    static M lanes(size_t n) {
        const int c = int(n > N ? N : n);
        return _mm256_castsi256_ps(
            _mm256_cmpgt_epi32(_mm256_set1_epi32(c), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)));
    }
    template <class H>
    static __m128i load_bits_n(const H* p, size_t n) {
        return _mm256_castsi256_si128(tail_load(p, (n < 8 ? n : 8) * 2));
    }
    template <class H>
    static void store_bits_n(H* p, __m128i v, size_t n) {
        tail_store(p, _mm256_castsi128_si256(v), (n < 8 ? n : 8) * 2);
    }
    // Non-temporal stores of one vector (none in xsimd 8.1); p aligned to
    // the vector's bytes.
    static void stream(float* p, R v) { _mm256_stream_ps(p, v); }
    SIMDAX_INLINE static void stream(F16* p, R v) {
        _mm_stream_si128(reinterpret_cast<__m128i*>(p), to_f16(v));
    }
    SIMDAX_INLINE static void stream(BF16* p, R v) {
        _mm_stream_si128(reinterpret_cast<__m128i*>(p), to_bf16(v));
    }

    // float16 and bfloat16 (no 16-bit float types in xsimd 8.1). Forced
    // inline: GCC's budget left to_bf16 out of line in the row writers, a
    // call per vector.
    // float16 via F16C, round to nearest-even on store.
    SIMDAX_INLINE static __m128i to_f16(R v) {
        return _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    }
    SIMDAX_INLINE static R load(const F16* p) {
        return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
    }
    static R loadn(const F16* p, size_t n, R fill) {
        return blend(lanes(n), fill, _mm256_cvtph_ps(load_bits_n(p, n)));
    }
    SIMDAX_INLINE static void store(F16* p, R v) {
        _mm_storeu_si128(reinterpret_cast<__m128i*>(p), to_f16(v));
    }
    static void storen(F16* p, R v, size_t n) { store_bits_n(p, to_f16(v), n); }
    // bfloat16: XsimdVF's widening and rounding; the lanes packed by
    // VPACKUSDW (no AVX512-BF16 here), two vectors by one pack in store2.
    SIMDAX_INLINE static R from_bf16(__m128i h) { return XsimdVF::from_bf16(_mm256_cvtepu16_epi32(h)); }
    // packus works per 128-bit half; the permute puts a's quadwords first.
    // One test for a NaN in either vector: the select that keeps NaNs
    // quiet (a compare, an OR and a 3-uop VPBLENDVB per vector on Intel's
    // big cores) runs only when there is one.
    SIMDAX_INLINE static void bf16_upper_pair(R a, R b, __m256i& ra, __m256i& rb) {
        const R unordered = _mm256_cmp_ps(a, b, _CMP_UNORD_Q);
        if (__builtin_expect(_mm256_testz_ps(unordered, unordered), 1)) {
            ra = bf16_rounded_upper(a);
            rb = bf16_rounded_upper(b);
        } else {
            ra = bf16_upper(a);
            rb = bf16_upper(b);
        }
    }
    SIMDAX_INLINE static __m256i to_bf16_pair(R a, R b) {
        __m256i ra, rb;
        bf16_upper_pair(a, b, ra, rb);
        return _mm256_permute4x64_epi64(
            _mm256_packus_epi32(_mm256_srli_epi32(ra, 16), _mm256_srli_epi32(rb, 16)), 0xD8);
    }
    SIMDAX_INLINE static __m128i to_bf16(R v) { return _mm256_castsi256_si128(to_bf16_pair(v, v)); }
    SIMDAX_INLINE static R load(const BF16* p) {
        return from_bf16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
    }
    static R loadn(const BF16* p, size_t n, R fill) {
        return blend(lanes(n), fill, from_bf16(load_bits_n(p, n)));
    }
    SIMDAX_INLINE static void store(BF16* p, R v) {
        _mm_storeu_si128(reinterpret_cast<__m128i*>(p), to_bf16(v));
    }
    static void storen(BF16* p, R v, size_t n) { store_bits_n(p, to_bf16(v), n); }
    SIMDAX_INLINE static void store2(BF16* p, R a, R b) {
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), to_bf16_pair(a, b));
    }
    // p 32-byte aligned: the callers stream whole cache lines (stream_span).
    SIMDAX_INLINE static void stream2(BF16* p, R a, R b) {
        _mm256_stream_si256(reinterpret_cast<__m256i*>(p), to_bf16_pair(a, b));
    }
    // 16 bfloat16 in any lane order, for element-wise work (map): a holds
    // the even elements and b the odd ones, so one load and a shift or an
    // AND widen them, and one word blend narrows them back (no VPMOVZXWD
    // per 8 elements, no pack and permute per 16).
    SIMDAX_INLINE static void load2_any(const BF16* p, R& a, R& b) {
        const __m256i w = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
        a = _mm256_castsi256_ps(_mm256_slli_epi32(w, 16));
        b = _mm256_castsi256_ps(_mm256_and_si256(w, _mm256_set1_epi32(int(0xFFFF0000u))));
    }
    SIMDAX_INLINE static void store2_any(BF16* p, R a, R b, bool stream) {
        __m256i ra, rb;
        bf16_upper_pair(a, b, ra, rb);
        const __m256i w = _mm256_blend_epi16(_mm256_srli_epi32(ra, 16), rb, 0xAA);
        if (stream)
            _mm256_stream_si256(reinterpret_cast<__m256i*>(p), w);
        else
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), w);
    }

    static M zero_bytes(const uint8_t* p) {
        const __m256i w = _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)));
        return _mm256_castsi256_ps(_mm256_cmpeq_epi32(w, _mm256_setzero_si256()));
    }
};

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
