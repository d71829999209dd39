// MVN over lanes (the mvn_cols slot): k contiguous groups side by side, each
// reduced down r strided rows, lane blocks as kernels/simd/lane_blocks.hpp.
// Statistics per lane from row blocks of kMvnColRows: shifted by the first
// row, around each block's mean, folded in double vectors (Chan et al.).
// Output as the chunk path: ((x - mean_hi) - mean_lo)*inv, then Scale/Bias
// (lane l of row j at p[j*rs + l*ks]) and the activation; written down each
// lane block, or by rows where the row stride has few offsets modulo 4 KiB
// (mvn_cols_by_rows).
#pragma once

#include <type_traits>

#include "mvn/simd/cols_block.hpp"
#include "row_offsets.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

// Lanes of a chunk that mvn_cols_by_rows writes a row at a time: up to 4 KiB
// of a row and 512 lanes, so that its per-lane statistics take at most
// 16 KiB of stack (1024 lanes ran 1-2% faster).
template <class T>
constexpr size_t kMvnByRowsLanes = kByRowsBytes / sizeof(T) < 512 ? kByRowsBytes / sizeof(T) : 512;

// The cols walk for row strides with few offsets modulo 4 KiB (see
// softmax_cols_by_rows: a walk down a lane block would load each row where
// the rows above it were just stored): each chunk's lane blocks are reduced
// as in cols_block.hpp and their statistics kept, then the chunk is written a row at a
// time, with one Scale/Bias/activation call per chunk row. A chunk with a
// lane block that belongs in the wider type (rare) takes the walk down its
// lane blocks instead.
template <class T>
void mvn_cols_by_rows(const T* x, T* y, size_t r, size_t k, ptrdiff_t xrs, ptrdiff_t yrs, const MvnArgs& a) {
    using V = Vec<T>;
    using E = typename V::E;
    using R = typename V::R;
    constexpr size_t N = V::N, kChunk = kMvnByRowsLanes<T>;
    alignas(64) E mh[kChunk], ml[kChunk], inv[kChunk];
    alignas(64) E t[std::is_same_v<T, E> ? 1 : kChunk];
    alignas(64) double fm[kChunk], fq[kChunk];
    const T* sc = static_cast<const T*>(a.scale);
    const T* bi = static_cast<const T*>(a.bias);
    const bool plain = is_plain(a);
    for_lane_chunks(k, kChunk, [&](size_t c0, size_t kc) {
        bool fast = true;
        for_lane_blocks<V>(kc, [&](auto nv, auto partial, size_t l, size_t tail) {
            constexpr int NV = decltype(nv)::value;
            if (!fast) return;
            ColStats<V, NV> st;
            fast = mvn_cols_stats<T, NV, decltype(partial)::value>(x + c0 + l, r, tail, xrs, a,
                                                                   col_prefetch<V>(kc, l, NV, sizeof(T)), st);
            SIMDAX_UNROLL for (int u = 0; u < NV; ++u) {
                const size_t at = l + size_t(u) * N;
                V::store(mh + at, st.mh[u]);
                V::store(ml + at, st.ml[u]);
                V::store(inv + at, st.inv[u]);
            }
            for (size_t q = 0; q < size_t(NV) * N; ++q) {
                fm[l + q] = st.fm[q];
                fq[l + q] = st.fq[q];
            }
        });
        if (!fast) {
            for_lane_blocks<V>(kc, [&](auto nv, auto partial, size_t l, size_t tail) {
                mvn_cols_block<T, decltype(nv)::value, decltype(partial)::value>(
                    x + c0 + l, y + c0 + l, r, tail, xrs, yrs, a, c0 + l,
                    col_prefetch<V>(kc, l, decltype(nv)::value, sizeof(T)));
            });
            return;
        }
        const size_t full = kc / N * N;
        auto normed = [&](const T* xr, size_t l, size_t n) {
            const R v = n == N ? V::load(xr + l) : V::loadn(xr + l, n, V::zero());
            return V::mul(V::sub(V::sub(v, V::load(mh + l)), V::load(ml + l)), V::load(inv + l));
        };
        const ptrdiff_t c = ptrdiff_t(c0);
        for (size_t j = 0; j < r; ++j) {
            const T* xr = x + ptrdiff_t(j) * xrs + c;
            T* yr = y + ptrdiff_t(j) * yrs + c;
            if (plain) {
                for (size_t l = 0; l < full; l += N) V::store(result_ptr(yr + l), normed(xr, l, N));
                if (full < kc) V::storen(result_ptr(yr + full), normed(xr, full, kc - full), kc - full);
                continue;
            }
            // The compute type's output row serves as the buffer.
            E* const tb = std::is_same_v<T, E> ? reinterpret_cast<E*>(yr) : t;
            for (size_t l = 0; l < full; l += N) V::store(tb + l, normed(xr, l, N));
            if (full < kc) V::storen(tb + full, normed(xr, full, kc - full), kc - full);
            const auto norm = [&](size_t q) {  // rare (act_map_in_range): the divisor here
                return (double(to_e(xr[q])) - fm[q]) * inv_divisor(fq[q] / double(r), a.vn);
            };
            const T* scj = sc ? sc + ptrdiff_t(j) * a.scale_rs + c * a.scale_ks : nullptr;
            const T* bij = bi ? bi + ptrdiff_t(j) * a.bias_rs + c * a.bias_ks : nullptr;
            scale_bias_act<T>(tb, kc, scj, a.scale_ks, bij, a.bias_ks, a.act, yr, norm);
        }
    });
}

template <class T>
void mvn_cols(const void* xv, void* yv, size_t r, size_t k, ptrdiff_t xrs, ptrdiff_t yrs, const MvnArgs* a) {
    const VecScope scope;
    const T* x = static_cast<const T*>(xv);
    T* y = static_cast<T*>(yv);
    if (cols_by_rows(xrs, yrs, sizeof(T))) return mvn_cols_by_rows<T>(x, y, r, k, xrs, yrs, *a);
    for_lane_blocks<Vec<T>>(k, [&](auto nv, auto partial, size_t l, size_t tail) {
        mvn_cols_block<T, decltype(nv)::value, decltype(partial)::value>(
            x + l, y + l, r, tail, xrs, yrs, *a, l,
            col_prefetch<Vec<T>>(k, l, decltype(nv)::value, sizeof(T)));
    });
}

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
