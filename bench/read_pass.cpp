#include "read_pass.hpp"

#include <cstring>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define SIMDAX_BENCH_X86 1
#endif

namespace simdax_bench {

namespace {

// Bytes past the last whole word, and the words from `from` on, one at a
// time: the tail of every variant.
uint64_t read_tail(const unsigned char* p, size_t from, size_t bytes) {
    uint64_t sum = 0;
    size_t i = from;
    for (; i + 8 <= bytes; i += 8) {
        uint64_t w;
        std::memcpy(&w, p + i, 8);
        sum += w;
    }
    for (; i < bytes; ++i) sum += p[i];
    return sum;
}

// Eight independent accumulators: loads, not the add chain, set the pace.
uint64_t read_portable(const unsigned char* p, size_t bytes) {
    uint64_t acc[8] = {};
    size_t i = 0;
    for (; i + 64 <= bytes; i += 64)
        for (int k = 0; k < 8; ++k) {
            uint64_t w;
            std::memcpy(&w, p + i + 8 * k, 8);
            acc[k] += w;
        }
    uint64_t sum = read_tail(p, i, bytes);
    for (uint64_t a : acc) sum += a;
    return sum;
}

#if SIMDAX_BENCH_X86
// Four 64-byte loads per step into four accumulators (two loads a cycle on
// current cores, four adds in flight).
__attribute__((target("avx512f"))) uint64_t read_avx512(const unsigned char* p, size_t bytes) {
    __m512i a0 = _mm512_setzero_si512(), a1 = a0, a2 = a0, a3 = a0;
    size_t i = 0;
    for (; i + 256 <= bytes; i += 256) {
        a0 = _mm512_add_epi64(a0, _mm512_loadu_si512(p + i));
        a1 = _mm512_add_epi64(a1, _mm512_loadu_si512(p + i + 64));
        a2 = _mm512_add_epi64(a2, _mm512_loadu_si512(p + i + 128));
        a3 = _mm512_add_epi64(a3, _mm512_loadu_si512(p + i + 192));
    }
    for (; i + 64 <= bytes; i += 64) a0 = _mm512_add_epi64(a0, _mm512_loadu_si512(p + i));
    const __m512i s = _mm512_add_epi64(_mm512_add_epi64(a0, a1), _mm512_add_epi64(a2, a3));
    return uint64_t(_mm512_reduce_add_epi64(s)) + read_tail(p, i, bytes);
}

__attribute__((target("avx2"))) uint64_t read_avx2(const unsigned char* p, size_t bytes) {
    __m256i a0 = _mm256_setzero_si256(), a1 = a0, a2 = a0, a3 = a0;
    size_t i = 0;
    for (; i + 128 <= bytes; i += 128) {
        a0 = _mm256_add_epi64(a0, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i)));
        a1 = _mm256_add_epi64(a1, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 32)));
        a2 = _mm256_add_epi64(a2, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 64)));
        a3 = _mm256_add_epi64(a3, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 96)));
    }
    const __m256i s = _mm256_add_epi64(_mm256_add_epi64(a0, a1), _mm256_add_epi64(a2, a3));
    alignas(32) uint64_t lanes[4];
    _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), s);
    return lanes[0] + lanes[1] + lanes[2] + lanes[3] + read_tail(p, i, bytes);
}
#endif

using ReadFn = uint64_t (*)(const unsigned char*, size_t);

struct Variant {
    ReadFn fn;
    const char* kind;
};

Variant pick() {
#if SIMDAX_BENCH_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) return {read_avx512, "avx512"};
    if (__builtin_cpu_supports("avx2")) return {read_avx2, "avx2"};
#endif
    return {read_portable, "portable"};
}

const Variant& variant() {
    static const Variant v = pick();
    return v;
}

}  // namespace

uint64_t read_pass(const void* data, size_t bytes) {
    return variant().fn(static_cast<const unsigned char*>(data), bytes);
}

const char* read_pass_kind() { return variant().kind; }

}  // namespace simdax_bench
