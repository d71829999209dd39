// LogSoftmax rows longer than a block, several rows: the statistics of row
// r (row_stats' blocks: the max of block k+1 beside the sum of block k) and
// the output of row r-1 at the same offsets run in one loop (PipeOps,
// rows_pipelined.hpp). Apart, the output pass of a row waits for memory while
// the statistics of the next wait for the exp; in one loop the loads and
// stores of the one hide under the arithmetic of the other. A row whose max
// cannot be folded is done on its own (softmax_row_alone), after the previous
// row's output is finished.
#pragma once

#include <cstdint>

#include "softmax/simd/rows_pipelined.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

template <class T>
void log_softmax_rows_long(const T* x, T* y, size_t rows, size_t n, ptrdiff_t xrs, ptrdiff_t yrs,
                           bool stream) {
    using P = Pipe<T, T>;
    using O = PipeOps<T, T>;
    using V = Vec<T>;
    using E = typename V::E;
    using R = typename V::R;
    constexpr size_t B = kSoftmaxBlock;
    const E ninf = E(-__builtin_inf());
    // float16/bfloat16: the max stage converts each block once into one half
    // of cbuf, for the sum stage to read from L1.
    alignas(64) E cbuf[P::kBuf ? 2 * B : 1];
    auto half = [&](size_t g) -> E* {
        if constexpr (P::kBuf)
            return cbuf + (g & 1) * B;
        else
            return nullptr;
    };
    const size_t nblk = (n + B - 1) / B;
    auto blen = [&](size_t k) { return k + 1 < nblk ? B : n - k * B; };
    auto row_x = [&](size_t r) { return x + ptrdiff_t(r) * xrs; };
    auto row_y = [&](size_t r) { return y + ptrdiff_t(r) * yrs; };

    // The row whose output runs beside the current row's statistics: its
    // max m and ls = log(sum) - lo*ln2.
    struct Pending {
        const T* x;
        T* y;
        E m, ls;
    } pr{};
    bool pend = false;
    auto finish_pending = [&](size_t from) {
        if (pend) log_softmax_row_out(pr.x + from, pr.y + from, n - from, pr.m, pr.ls, stream);
        pend = false;
    };

    P p{};
    R mx, sm;
    size_t g = 0;          // blocks begun: block k of a row has its copy in half(g + k)
    bool carried = false;  // this row's first block max was taken with the previous row
    E bm_next = ninf;
    for (size_t r = 0; r < rows; ++r) {
        const T* xr = row_x(r);
        T* yr = row_y(r);
        if (!carried) {
            p.n = blen(0);
            p.mx_src = xr;
            if constexpr (P::kBuf) p.mx_buf = half(g);
            mx = V::set1(ninf);
            O::dispatch(false, false, true, p, mx, sm);
            bm_next = V::hmax(mx);
        }
        RowRun<V, true, kSumDeg<T, SoftmaxKind::log>> run;
        size_t k = 0;
        for (; k < nblk; ++k) {
            const size_t b = k * B, nb = blen(k);
            const auto admit = run.admit(bm_next, xr + b, nb);
            if (admit == run.unfoldable) break;
            const bool dsum = admit == run.sum;
            // The next block: this row's, or the next row's first.
            const T* nx = k + 1 < nblk ? xr + b + B : r + 1 < rows ? row_x(r + 1) : nullptr;
            const size_t nn = k + 1 < nblk ? blen(k + 1) : blen(0);
            p.n = nb;
            if (dsum) {
                if constexpr (P::kBuf)
                    p.sm_src = half(g + k);
                else
                    p.sm_src = reinterpret_cast<const E*>(xr + b);
                p.sm_nh = V::set1(-run.hi);
            }
            if (pend) p.set_out(pr.x + b, pr.y + b, pr.m + pr.ls, stream);
            const bool fused = nx && nn == nb;  // a shorter block gets its own max loop
            if (nx) {
                p.mx_src = nx;
                if constexpr (P::kBuf) p.mx_buf = half(g + k + 1);
            }
            mx = V::set1(ninf);
            sm = V::zero();
            O::dispatch(dsum, pend, fused, p, mx, sm);
            if (dsum) run.add(sm);
            if (nx && !fused) {
                p.n = nn;
                O::dispatch(false, false, true, p, mx, sm);
            }
            if (nx) bm_next = V::hmax(mx);
        }
        g += nblk;
        if (k < nblk) {  // the pending output is done up to block k
            finish_pending(k * B);
            softmax_row_alone<T, SoftmaxKind::log>(xr, yr, n, stream);
            carried = false;
            continue;
        }
        pend = false;  // its output is complete
        carried = r + 1 < rows;
        const RowStat<E> st = run.stat();
        pr = Pending{xr, yr, st.m, row_log_sum<V>(st)};
        const E c = pr.m + pr.ls;
        pend = c < E(16) && c > E(-16);
        // NaN rows and large constants: the two-step form, now.
        if (!pend) log_softmax_row_out(xr, yr, n, pr.m, pr.ls, stream);
    }
    finish_pending(0);
}

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
