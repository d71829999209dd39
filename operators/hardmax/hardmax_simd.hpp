// Hardmax passes over values in the compute type. Order: the first NaN of
// a group wins; without NaN the first maximum wins (strict >, so ties keep
// the earlier element; -0 == +0).
//   argmax: fold a contiguous chunk into the group's ArgMax state. Per
//     L1-sized block one pass finds the max and whether a NaN is present;
//     only then is the block re-scanned (from L1) for the position.
//   hardmax_cols_values: per lane a running (best value, best row) in
//     vectors, then the one-hot rows (down the lane block, or by rows where
//     the row stride has few offsets modulo 4 KiB). Row numbers ride in the
//     compute type (exact below 2^24 rows for float; beyond that a scalar
//     path).
//   row_argmax: a whole row; per block one pass for the max and a NaN/inf
//     flag (x*0 is NaN for NaN and +-inf: one FMA per vector) that also
//     zeroes the output row (not in place), the position from L1 only when
//     the block beats the row's best.
#pragma once

#include <cstring>
#include <type_traits>

#include "kernel_table.hpp"
#include "row_offsets.hpp"
#include "simd/lane_blocks.hpp"
#include "simd/stream_span.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

constexpr size_t kArgmaxBlock = 2048;

// Hardmax keeps two vectors of state per lane vector: 8-vector blocks (two
// cache lines per row, more memory parallelism per walk) where 32 registers
// hold them.
constexpr int kHardmaxColsBlock = RegsOf<VF>::value >= 32 ? 8 : 4;

// Index of the first lane of x[0..n) where pred(vector) holds; n if none.
template <class T, class P>
inline size_t find_first(const T* x, size_t n, typename Vec<T>::R fill, P pred) {
    using V = Vec<T>;
    size_t i = 0;
    for (; i + V::N <= n; i += V::N) {
        const unsigned b = V::bits(pred(V::load(x + i)));
        if (b) return i + size_t(__builtin_ctz(b));
    }
    if (i < n) {
        const unsigned b = V::bits(pred(V::loadn(x + i, n - i, fill))) & ((1u << (n - i)) - 1u);
        if (b) return i + size_t(__builtin_ctz(b));
    }
    return n;
}

template <class T>
void argmax(const void* xv, size_t n, int64_t base, ArgMax* st) {
    const VecScope scope;
    using V = Vec<T>;
    using E = typename V::E;
    using R = typename V::R;
    using M = typename V::M;
    if (st->nan) return;
    const T* x = static_cast<const T*>(xv);
    const R ninf = V::set1(E(-__builtin_inf()));
    for (size_t b = 0; b < n; b += kArgmaxBlock) {
        const size_t nb = n - b < kArgmaxBlock ? n - b : kArgmaxBlock;
        const T* xb = x + b;
        R m0 = ninf, m1 = ninf;
        M nan0 = V::m_none(), nan1 = V::m_none();
        size_t i = 0;
        for (; i + 2 * V::N <= nb; i += 2 * V::N) {
            const R a = V::load(xb + i), c = V::load(xb + i + V::N);
            nan0 = V::m_or(nan0, V::isnan(a));
            nan1 = V::m_or(nan1, V::isnan(c));
            m0 = V::max(m0, a);
            m1 = V::max(m1, c);
        }
        for (; i < nb; i += V::N) {
            const R a = i + V::N <= nb ? V::load(xb + i) : V::loadn(xb + i, nb - i, ninf);
            nan0 = V::m_or(nan0, V::isnan(a));
            m0 = V::max(m0, a);
        }
        if (V::bits(V::m_or(nan0, nan1))) {
            const size_t at = find_first(xb, nb, ninf, [](R v) { return V::isnan(v); });
            st->nan = 1;
            st->value = double(__builtin_nan(""));
            st->index = base + int64_t(b + at);
            return;
        }
        const E bm = V::hmax(V::max(m0, m1));
        if (st->index < 0 || double(bm) > st->value) {
            const R vb = V::set1(bm);
            const size_t at = find_first(xb, nb, ninf, [vb](R v) { return V::eq(v, vb); });
            st->value = double(bm);
            st->index = base + int64_t(b + at);
        }
    }
}

// Per lane the row of the first maximum (first NaN), then its one-hot rows;
// or, given at_rows, those rows' vectors stored there (for
// hardmax_cols_by_rows).
template <class T, int NV, bool PARTIAL>
void hardmax_cols_block(const T* x, T* y, size_t r, size_t tail, ptrdiff_t xrs, ptrdiff_t yrs,
                        const ColPrefetch& pf, typename Vec<T>::R* at_rows = nullptr) {
    using V = Vec<T>;
    using E = typename V::E;
    using R = typename V::R;
    const R zero = V::zero(), one = V::set1(E(1));
    R best[NV], at[NV];
    const size_t bytes = (size_t(NV - 1) * V::N + tail) * sizeof(T);
    // kNanAware: the first NaN of a lane is its maximum. Without, the loop
    // keeps a sum per lane instead, NaN if any value was (or +inf met
    // -inf): one add in place of two NaN tests, an and-not and an or per
    // vector. A block whose sum is NaN runs again, aware.
    const auto argmax = [&](auto nan_aware) __attribute__((always_inline)) {
        constexpr bool kNanAware = decltype(nan_aware)::value;
        R sum[NV];
        SIMDAX_UNROLL for (int u = 0; u < NV; ++u) {
            best[u] = ld_lane<NV, PARTIAL>(x, u, tail, zero);
            at[u] = zero;
            sum[u] = best[u];
        }
        for (size_t j = 1; j < r; ++j) {
            const T* row = x + ptrdiff_t(j) * xrs;
            if (pf.ahead && j + kColPrefetch < r)
                prefetch_row(row + ptrdiff_t(kColPrefetch) * xrs, bytes, false);
            if (pf.next_bytes) prefetch_row(row + pf.next, pf.next_bytes, false);
            const R jv = V::set1(E(j));
            SIMDAX_UNROLL for (int u = 0; u < NV; ++u) {
                const R v = ld_lane<NV, PARTIAL>(row, u, tail, zero);
                // Take v if it is greater, or if it is the first NaN.
                const auto take =
                    kNanAware ? V::m_or(V::gt(v, best[u]), V::m_andnot(V::isnan(v), V::isnan(best[u])))
                              : V::gt(v, best[u]);
                best[u] = V::blend(take, best[u], v);
                at[u] = V::blend(take, at[u], jv);
                if constexpr (!kNanAware) sum[u] = V::add(sum[u], v);
            }
        }
        auto nan = V::m_none();
        if constexpr (!kNanAware)
            SIMDAX_UNROLL for (int u = 0; u < NV; ++u) nan = V::m_or(nan, V::isnan(sum[u]));
        return V::bits(nan) != 0;
    };
    if (argmax(std::false_type{})) argmax(std::true_type{});
    if (at_rows) {
        SIMDAX_UNROLL for (int u = 0; u < NV; ++u) at_rows[u] = at[u];
        return;
    }
    for (size_t j = 0; j < r; ++j) {
        T* row = y + ptrdiff_t(j) * yrs;
        if (j + kColPrefetch < r) prefetch_row(row + ptrdiff_t(kColPrefetch) * yrs, bytes, true);
        const R jv = V::set1(E(j));
        SIMDAX_UNROLL for (int u = 0; u < NV; ++u)
            st_lane<NV, PARTIAL>(row, u, tail, V::blend(V::eq(at[u], jv), zero, one));
    }
}

// The cols walk for row strides with few offsets modulo 4 KiB (see
// softmax_cols_by_rows): each chunk's argmax rows are kept per lane, then
// the one-hot rows written a whole chunk row at a time.
template <class T, int B>
void hardmax_cols_by_rows(const T* x, T* y, size_t r, size_t k, ptrdiff_t xrs, ptrdiff_t yrs) {
    using V = Vec<T>;
    using E = typename V::E;
    using R = typename V::R;
    constexpr size_t N = V::N, kChunk = kByRowsBytes / sizeof(T);
    R at[kChunk / N];  // vectors: NEON's float16 E is not a load type
    const R zero = V::zero(), one = V::set1(E(1));
    for_lane_chunks(k, kChunk, [&](size_t c0, size_t kc) {
        for_lane_blocks<V, B>(kc, [&](auto nv, auto partial, size_t l, size_t tail) {
            constexpr int NV = decltype(nv)::value;
            hardmax_cols_block<T, NV, decltype(partial)::value>(
                x + c0 + l, nullptr, r, tail, xrs, 0, col_prefetch<V, B>(kc, l, NV, sizeof(T)), at + l / N);
        });
        const size_t full = kc / N * N;
        for (size_t j = 0; j < r; ++j) {
            T* yr = y + ptrdiff_t(j) * yrs + ptrdiff_t(c0);
            const R jv = V::set1(E(j));
            for (size_t l = 0; l < full; l += N) V::store(yr + l, V::blend(V::eq(at[l / N], jv), zero, one));
            if (full < kc) V::storen(yr + full, V::blend(V::eq(at[full / N], jv), zero, one), kc - full);
        }
    });
}

// Scalar path for columns too tall for float row numbers.
template <class T>
void hardmax_cols_scalar(const T* x, T* y, size_t r, size_t k, ptrdiff_t xrs, ptrdiff_t yrs) {
    using V = Vec<T>;
    using E = typename V::E;
    for (size_t l = 0; l < k; ++l) {
        size_t at = 0;
        E best = to_e(x[l]);
        for (size_t j = 1; j < r && best == best; ++j) {
            const E v = to_e(x[ptrdiff_t(j) * xrs + ptrdiff_t(l)]);
            if (v > best || v != v) {
                best = v;
                at = j;
            }
        }
        for (size_t j = 0; j < r; ++j) {
            const typename V::R val = V::set1(E(j == at ? 1 : 0));
            V::storen(y + ptrdiff_t(j) * yrs + ptrdiff_t(l), val, 1);
        }
    }
}

// The one of each storage type, as its bits (memcpy: any byte address).
template <class T>
constexpr T kOne = T(1);
template <>
constexpr F16 kOne<F16> = F16{0x3c00};
template <>
constexpr BF16 kOne<BF16> = BF16{0x3f80};
template <class T>
inline void put_one(T* p) {
    std::memcpy(p, &kOne<T>, sizeof(T));
}

// The one-hot output of positions [base, base + n) of a group whose first
// maximum is at state->index.
template <class T>
void hardmax_out(void* yv, size_t n, int64_t base, const ArgMax* state) {
    T* y = static_cast<T*>(yv);
    std::memset(y, 0, n * sizeof(T));
    const int64_t at = state->index - base;
    if (at >= 0 && at < int64_t(n)) put_one(y + at);
}

// Position of the first maximum of a row (first NaN if any).
// yz (may be null): a row of the output zeroed in the same loop (its
// stores overlap the loads and compares).
template <class T>
inline size_t row_argmax(const T* x, size_t n, T* yz = nullptr) {
    using V = Vec<T>;
    using E = typename V::E;
    using R = typename V::R;
    const R ninf = V::set1(E(-__builtin_inf())), zero = V::zero();
    size_t at = 0;
    E best = E(0);
    bool first = true;
    for (size_t b = 0; b < n; b += kArgmaxBlock) {
        const size_t nb = n - b < kArgmaxBlock ? n - b : kArgmaxBlock;
        const T* xb = x + b;
        R m0 = ninf, m1 = ninf, f0 = zero, f1 = zero;
        size_t i = 0;
        if (yz) {
            // A first vector up to the output's vector boundary: the
            // loop's stores are then aligned (a store split across cache
            // lines costs two). Only for whole-line vectors: of 32-byte ones
            // every other store splits, which costs less than the extra
            // first and last vectors (lib_ab, avx2).
            constexpr size_t W = V::N * sizeof(T);
            const size_t h = W >= kLineBytes && nb >= V::N ? before_boundary<W>(yz + b) : 0;
            if (h != 0) {
                const R a = V::load(xb);
                std::memset(static_cast<void*>(yz + b), 0, W);
                m0 = a;
                f0 = V::fma(a, zero, f0);
                i = h;
            }
            for (; i + 2 * V::N <= nb; i += 2 * V::N) {
                const R a = V::load(xb + i), c = V::load(xb + i + V::N);
                std::memset(static_cast<void*>(yz + b + i), 0, 2 * V::N * sizeof(T));
                m0 = V::max(m0, a);
                m1 = V::max(m1, c);
                f0 = V::fma(a, zero, f0);
                f1 = V::fma(c, zero, f1);
            }
            // Vector stores, not a memset call: on rows of about a
            // thousand elements the call (and the registers it saves)
            // cost as much as the loop. Whole ones, the last overlapping:
            // AVX2's masked stores are slow.
            for (size_t z = i; z < nb; z += V::N) {
                if (nb < V::N)
                    V::storen(yz + b + z, zero, nb - z);
                else
                    V::store(yz + b + (z + V::N <= nb ? z : nb - V::N), zero);
            }
        }
        for (; i + 2 * V::N <= nb; i += 2 * V::N) {
            const R a = V::load(xb + i), c = V::load(xb + i + V::N);
            m0 = V::max(m0, a);
            m1 = V::max(m1, c);
            f0 = V::fma(a, zero, f0);
            f1 = V::fma(c, zero, f1);
        }
        for (; i < nb; i += V::N) {
            if (nb >= V::N) {  // the last vector ends at nb: max and the test may see an element twice
                const R a = V::load(xb + (i + V::N <= nb ? i : nb - V::N));
                m0 = V::max(m0, a);
                f0 = V::fma(a, zero, f0);
                continue;
            }
            const R a = V::loadn(xb + i, nb - i, ninf);
            m0 = V::max(m0, a);
            f0 = V::fma(V::blend(V::lanes(nb - i), zero, a), zero, f0);
        }
        if (V::bits(V::isnan(V::add(f0, f1)))) {  // a NaN or an infinity
            const size_t q = find_first(xb, nb, ninf, [](R v) { return V::isnan(v); });
            if (q < nb) {
                if (yz) std::memset(static_cast<void*>(yz + b + nb), 0, (n - b - nb) * sizeof(T));
                return b + q;
            }
        }
        const E bm = V::hmax(V::max(m0, m1));
        if (first || bm > best) {
            const R vb = V::set1(bm);
            at = b + find_first(xb, nb, ninf, [vb](R v) { return V::eq(v, vb); });
            best = bm;
            first = false;
        }
    }
    return at;
}

template <class T>
void hardmax_cols_values(const T* x, T* y, size_t r, size_t k, ptrdiff_t xrs, ptrdiff_t yrs) {
    if (sizeof(typename Vec<T>::E) == 4 && r > (size_t(1) << 24))
        return hardmax_cols_scalar(x, y, r, k, xrs, yrs);
    constexpr int B = kHardmaxColsBlock;
    if (cols_by_rows(xrs, yrs, sizeof(T))) return hardmax_cols_by_rows<T, B>(x, y, r, k, xrs, yrs);
    for_lane_blocks<Vec<T>, B>(k, [&](auto nv, auto partial, size_t l, size_t tail) {
        hardmax_cols_block<T, decltype(nv)::value, decltype(partial)::value>(
            x + l, y + l, r, tail, xrs, yrs, col_prefetch<Vec<T>, B>(k, l, decltype(nv)::value, sizeof(T)));
    });
}

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
