// Hardmax on float16 and bfloat16 storage by integer compares on the bits:
// twice the lanes of the float path per instruction and no conversions.
//   rows: the signed maximum of the bits is the largest non-negative value,
//     the signed minimum the largest negative one (a negative's bits grow
//     with its magnitude); the unsigned maximum of bits+bits (the sign
//     shifted out) finds a NaN.
//   cols: per lane an order key, the magnitude negated for a negative (so
//     -0 and +0 are both 0 and tie), compared as int16; row numbers are
//     16-bit lanes too (kKeyRows).
// A block that holds a NaN is finished by the float path (hardmax_simd.hpp),
// whose order (the first NaN wins) is the operator's.
#pragma once

#include <climits>
#include <cstdint>
#include <type_traits>

#include "hardmax/hardmax_simd.hpp"
#if !defined(__aarch64__)
#include "simd/x86_reduce.hpp"
#endif

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

template <class T>
struct Keys16 {
    using A = typename VF::R::arch_type;
    using K = xsimd::batch<int16_t, A>;
    using U = xsimd::batch<uint16_t, A>;
    static constexpr size_t N = K::size;
    static constexpr bool kBF16 = std::is_same_v<T, BF16>;
    // The bits of +inf, and of its magnitude doubled (bits+bits of a NaN
    // are above it).
    static constexpr uint16_t kInf = kBF16 ? 0x7F80 : 0x7C00;
    static constexpr uint16_t kInf2 = uint16_t(kInf * 2);
    static constexpr int16_t kOne = kBF16 ? 0x3F80 : 0x3C00;

    static K load(const T* p) { return K::load_unaligned(reinterpret_cast<const int16_t*>(p)); }
    static void store(T* p, K v) { v.store_unaligned(reinterpret_cast<int16_t*>(p)); }
    static U twice(K v) { return lanes_as<U>(v + v); }
    static K key(K v) {
        const K s = v >> 15;
        return ((v & K(int16_t(0x7FFF))) ^ s) - s;
    }
    static int key(uint16_t b) { return b & 0x8000 ? -int(b & 0x7FFF) : int(b); }

    static int hmax(K v) {
#if defined(__aarch64__)
        return vmaxvq_s16(v);
#else
        return x86_reduce::hmax_epi16(v);
#endif
    }
    static bool any_nan(U twice_max) { return xsimd::any(twice_max > U(kInf2)); }
};

template <class T>
constexpr bool kKeys16 = std::is_same_v<T, F16> || std::is_same_v<T, BF16>;

// Rows numbered in 16-bit lanes: only compared for equality, so exact
// modulo 2^16.
constexpr size_t kKeyRows = 65536;

// Position of the first element of x[0..n) whose key is `key`, found by
// its bits (either zero's for key 0).
template <class T>
inline size_t find_key(const T* x, size_t n, int key) {
    using KV = Keys16<T>;
    using K = typename KV::K;
    const uint16_t mask = key == 0 ? 0x7FFF : 0xFFFF;
    const uint16_t bits = key >= 0 ? uint16_t(key) : uint16_t(0x8000 | -key);
    const K mv = K(int16_t(mask)), bv = K(int16_t(bits));
    size_t i = 0;
    for (; i + KV::N <= n; i += KV::N)
        if (xsimd::any((KV::load(x + i) & mv) == bv)) break;
    for (; i < n; ++i)
        if ((x[i].bits & mask) == bits) return i;
    return n;
}

// One block's best key and whether it holds a NaN; yz (when Zero) is
// zeroed in the same loop. Blocks of a vector or more start and end on
// overlapping vectors rather than element by element: max, min and the NaN
// test do not mind seeing an element twice, and yz is then another buffer
// than x.
template <class T, bool Zero>
inline int block_best_key(const T* xb, size_t nb, T* yz, bool* nan_out) {
    using KV = Keys16<T>;
    using K = typename KV::K;
    using U = typename KV::U;
    constexpr size_t N = KV::N;
    if (nb < N) {
        int bk = INT_MIN;
        bool nan = false;
        for (size_t i = 0; i < nb; ++i) {
            const int kb = KV::key(xb[i].bits);
            bk = kb > bk ? kb : bk;
            nan = nan || uint16_t(xb[i].bits << 1) > KV::kInf2;
            if constexpr (Zero) yz[i].bits = 0;
        }
        *nan_out = nan;
        return bk;
    }
    K hi0(int16_t(-32768)), hi1 = hi0, lo0(int16_t(32767)), lo1 = lo0;
    U nan0(uint16_t(0)), nan1 = nan0;
    const K zero(int16_t(0));
    size_t i = 0;
    if constexpr (Zero) {
        // A first vector up to yz's vector boundary: the loop's stores are
        // then aligned (a store split across cache lines costs two).
        const size_t h = before_boundary<N * sizeof(T)>(yz);
        if (h != 0) {
            const K a = KV::load(xb);
            KV::store(yz, zero);
            hi0 = a;
            lo0 = a;
            nan0 = KV::twice(a);
            i = h;
        }
    }
    for (; i + 2 * N <= nb; i += 2 * N) {
        const K a = KV::load(xb + i), c = KV::load(xb + i + N);
        if constexpr (Zero) {
            KV::store(yz + i, zero);
            KV::store(yz + i + N, zero);
        }
        hi0 = xsimd::max(hi0, a);
        hi1 = xsimd::max(hi1, c);
        lo0 = xsimd::min(lo0, a);
        lo1 = xsimd::min(lo1, c);
        nan0 = xsimd::max(nan0, KV::twice(a));
        nan1 = xsimd::max(nan1, KV::twice(c));
    }
    for (; i < nb; i += N) {  // at most two vectors, the last ending at nb
        const size_t at = i + N <= nb ? i : nb - N;
        const K a = KV::load(xb + at);
        if constexpr (Zero) KV::store(yz + at, zero);
        hi0 = xsimd::max(hi0, a);
        lo0 = xsimd::min(lo0, a);
        nan0 = xsimd::max(nan0, KV::twice(a));
    }
    const K hi = xsimd::max(hi0, hi1), lo = xsimd::min(lo0, lo1);
    *nan_out = KV::any_nan(xsimd::max(nan0, nan1));
    return KV::hmax(xsimd::select(hi >= zero, hi, KV::key(lo)));
}

// The first maximum of a row (the float path's answer where a block holds
// a NaN); yz (may be null) is zeroed in the same loop.
template <class T>
inline size_t row_argmax_keys(const T* x, size_t n, T* yz) {
    size_t at = 0;
    int best = 0;
    for (size_t b = 0; b < n; b += kArgmaxBlock) {
        const size_t nb = n - b < kArgmaxBlock ? n - b : kArgmaxBlock;
        const T* xb = x + b;
        bool nan = false;
        const int bk = yz ? block_best_key<T, true>(xb, nb, yz + b, &nan)
                          : block_best_key<T, false>(xb, nb, nullptr, &nan);
        if (nan) {
            const size_t q = row_argmax(xb, nb);
            if (yz) {
                for (size_t z = b + nb; z < n; ++z) yz[z].bits = 0;
            }
            return b + q;
        }
        if (b == 0 || bk > best) {
            at = b + find_key(xb, nb, bk);
            best = bk;
        }
    }
    return at;
}

// One lane block of NV whole vectors; false (nothing written) if it holds a
// NaN.
template <class T, int NV>
bool hardmax_cols_keys_block(const T* x, T* y, size_t r, ptrdiff_t xrs, ptrdiff_t yrs,
                             const ColPrefetch& pf) {
    using KV = Keys16<T>;
    using K = typename KV::K;
    using U = typename KV::U;
    constexpr size_t N = KV::N;
    K best[NV], at[NV];
    U nan(uint16_t(0));
    SIMDAX_UNROLL for (int u = 0; u < NV; ++u) {
        const K v = KV::load(x + size_t(u) * N);
        best[u] = KV::key(v);
        at[u] = K(int16_t(0));
        nan = xsimd::max(nan, KV::twice(v));
    }
    constexpr size_t bytes = NV * N * sizeof(T);
    for (size_t j = 1; j < r; ++j) {
        const T* row = x + ptrdiff_t(j) * xrs;
        if (pf.ahead && j + kColPrefetch < r) prefetch_row(row + ptrdiff_t(kColPrefetch) * xrs, bytes, false);
        if (pf.next_bytes) prefetch_row(row + pf.next, pf.next_bytes, false);
        const K jv = K(int16_t(uint16_t(j)));
        SIMDAX_UNROLL for (int u = 0; u < NV; ++u) {
            const K v = KV::load(row + size_t(u) * N);
            const K kv = KV::key(v);
            at[u] = xsimd::select(kv > best[u], jv, at[u]);
            best[u] = xsimd::max(best[u], kv);
            nan = xsimd::max(nan, KV::twice(v));
        }
    }
    if (KV::any_nan(nan)) return false;
    const K one(KV::kOne), zero(int16_t(0));
    for (size_t j = 0; j < r; ++j) {
        T* row = y + ptrdiff_t(j) * yrs;
        if (j + kColPrefetch < r) prefetch_row(row + ptrdiff_t(kColPrefetch) * yrs, bytes, true);
        const K jv = K(int16_t(uint16_t(j)));
        SIMDAX_UNROLL for (int u = 0; u < NV; ++u)
            KV::store(row + size_t(u) * N, xsimd::select(at[u] == jv, one, zero));
    }
    return true;
}

// Lanes in blocks of B whole vectors, then single vectors; the rest (fewer
// than a vector), a block with a NaN, and columns of more than kKeyRows go
// to the float path.
template <class T, int B>
void hardmax_cols_keys(const T* x, T* y, size_t r, size_t k, ptrdiff_t xrs, ptrdiff_t yrs) {
    constexpr size_t N = Keys16<T>::N;
    if (r > kKeyRows) return hardmax_cols_values(x, y, r, k, xrs, yrs);
    struct Block {
        size_t nv;
        bool (*run)(const T*, T*, size_t, ptrdiff_t, ptrdiff_t, const ColPrefetch&);
    };
    size_t l = 0;
    for (const Block blk :
         {Block{size_t(B), hardmax_cols_keys_block<T, B>}, Block{1, hardmax_cols_keys_block<T, 1>}}) {
        for (; l + blk.nv * N <= k; l += blk.nv * N) {
            const ColPrefetch pf = col_prefetch<Keys16<T>, size_t(B)>(k, l, blk.nv, sizeof(T));
            if (!blk.run(x + l, y + l, r, xrs, yrs, pf))
                hardmax_cols_values(x + l, y + l, r, blk.nv * N, xrs, yrs);
        }
    }
    if (l < k) hardmax_cols_values(x + l, y + l, r, k - l, xrs, yrs);
}

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
