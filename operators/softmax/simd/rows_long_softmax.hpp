// Float32 Softmax rows longer than a block, several rows, not in place:
// each row's pass 1 stores 2^t (row_stats' blocks: the max of block k+1
// beside the sum of block k), and the previous row's pass 2, y *= 1/sum
// (times its block's rescale), runs in the same loops (ScaleRun,
// blocks.hpp). Row by row, that scaling was a pass of its own over the
// row in L2; beside the exp of the next row its loads and stores hide.
// A row whose max cannot be folded is done on its own (softmax_row_alone).
#pragma once

#include <cstdint>

#include "simd/stream_span.hpp"
#include "softmax/simd/one_row.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

// Rows from this size on: a smaller row is still in L1 for its own scaling
// pass, which then costs little (rows of 32 KiB: 1.026 with the overlap).
constexpr size_t kScaleOverlapBytes = 48 * 1024;

// Where the scaling of the row at py starts while the row at yr is
// written (i + start beside i): a whole step (4N) on, such that its loads
// fall 256-511 bytes (mod 4 KiB) past the current stores. In lockstep (row
// strides like 32000 floats, 1 KiB mod 4 KiB) each load met a store 256
// elements back still in the store buffer with the same low 12 address
// bits, and waited on it (4K aliasing).
template <class E>
inline size_t scale_start(const E* py, const E* yr, size_t n) {
    constexpr size_t S = 4 * Vec<E>::N;
    const uintptr_t a = (reinterpret_cast<uintptr_t>(yr) - reinterpret_cast<uintptr_t>(py)) % 4096;
    size_t d = ((a + 256 + 255) / 256 * 256) % 4096 / sizeof(E);
    d = (d + S - 1) / S * S;
    return d < n ? d : n;
}

template <class T>
void softmax_rows_long(const T* x, T* y, size_t rows, size_t n, ptrdiff_t xrs, ptrdiff_t yrs) {
    static_assert(std::is_same_v<T, typename Vec<T>::E>, "float32: 2^t kept in y");
    using V = Vec<T>;
    using MX = SmxMath<V>;
    constexpr size_t B = kSoftmaxBlock;
    constexpr int DEG = kSumDeg<T, SoftmaxKind::softmax>;
    T bhi[kStoreMaxBlocks];  // this row's block shifts
    T pf[kStoreMaxBlocks];   // the pending row's factor per block
    // A row's blocks start at y's vector boundary, its first elements (the
    // head) joining block 0: every store of 2^t and every load and store of
    // the scaling is aligned (at +16 bytes each one split a cache line on
    // AVX-512, every other one on AVX2).
    // The pending row (y holds 2^t): from its vector boundary sc.p, scaled
    // from `start` by the loops of the current row (sc.q on), the rest once
    // that row is through; its head (pending_head elements before sc.p)
    // with block 0's factor.
    ScaleRun<T> sc{};
    size_t start = 0, pending_head = 0;
    auto scale_span = [&](size_t a, size_t b) {
        while (a < b) {
            const size_t e = (a / B + 1) * B < b ? (a / B + 1) * B : b;
            scale_in_place(sc.p + a, e - a, pf[a / B]);
            a = e;
        }
    };
    auto finish_pending = [&] {
        if (!sc.p) return;
        scale_span(0, start);
        scale_span(sc.q, sc.end);
        if (pending_head) scale_in_place(sc.p - pending_head, pending_head, pf[0]);
        sc.p = nullptr;
    };
    for (size_t r = 0; r < rows; ++r) {
        const T* xr = x + ptrdiff_t(r) * xrs;
        T* yr = y + ptrdiff_t(r) * yrs;
        const size_t head = before_boundary<V::N * sizeof(T)>(yr);
        const size_t nf = n - head;  // from the boundary on
        if (sc.p) {
            start = scale_start(sc.p, static_cast<const T*>(yr + head), sc.end);
            sc.q = start;
        }
        RowStat<T> st;
        const bool folded =
            row_stats<T, true, true, DEG>(xr + head, yr + head, nf, st, bhi, sc.p ? &sc : nullptr, head);
        finish_pending();
        if (!folded) {
            softmax_row_alone<T, SoftmaxKind::softmax>(xr, yr, n, false);
            continue;
        }
        const T inv = T(1) / st.s;
        for (size_t q = 0; q < (nf + B - 1) / B; ++q)
            pf[q] = bhi[q] != st.hi ? inv * MX::template rescale<true>(bhi[q], st.hi) : inv;
        sc = ScaleRun<T>{yr + head, pf, 0, nf};  // all of it still to scale
        start = 0;
        pending_head = head;
    }
    finish_pending();
}

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
