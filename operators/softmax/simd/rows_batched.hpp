// Short rows in batches: up to V::N rows whose float values fit in L1 (the
// float16/bfloat16 ones converted once, by the max pass, into buf). Per
// batch: the max of each row, the sums of 2^t, one vector log (LogSoftmax)
// or reciprocal (Softmax) for all the batch's sums, then the outputs
// (Softmax keeps 2^t, one exp per element: float16/bfloat16 in buf;
// float32 in y (STORE), or in buf when y is streamed (EXP_BUF), where
// scaling y in place would read each line of y back from memory). Each
// pass is a plain loop over a row, with no per-row bookkeeping between them.
// The sum pass prefetches the next batch's rows: otherwise the max pass
// waits on memory with no computation beside it to overlap.
// With 16 vector registers the max and sum passes take the rows two at a
// time (row_pairs.hpp).
// A row whose max is not an ordinary number (NaN lost by max, +-inf,
// |max| >= 2^22) is done on its own; a NaN the max lost reaches the sum.
#pragma once

#include <type_traits>

#include "softmax/simd/one_row.hpp"
#include "softmax/simd/row_pairs.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

template <class T, SoftmaxKind K, bool STORE, bool EXP_BUF = false>
void softmax_rows_batched(const T* x, T* y, size_t rows, size_t n, ptrdiff_t xrs, ptrdiff_t yrs,
                          bool stream) {
    constexpr bool kLog = K == SoftmaxKind::log;
    using V = Vec<T>;
    using E = typename V::E;
    using R = typename V::R;
    using MX = SmxMath<V>;
    constexpr bool kBuf = !std::is_same_v<T, E>;
    constexpr bool kBufExp = (kBuf && !kLog) || EXP_BUF;
    constexpr int D = kSumDeg<T, K>;
    constexpr size_t N = V::N;
    constexpr bool kPairs = RegsOf<V>::value < 32;  // row_pairs.hpp
    size_t batch = kRowsL1Bytes / (n * sizeof(E));
    batch = batch < 1 ? 1 : batch > N ? N : batch;
    alignas(64) E buf[kBuf || kBufExp ? kRowsL1Bytes / sizeof(E) : 1];
    alignas(64) E m[N], hi[N], cs[N];
    bool alone[N];
    for (size_t r0 = 0; r0 < rows; r0 += batch) {
        const size_t b = rows - r0 < batch ? rows - r0 : batch;
        size_t i2 = 0;  // rows taken in pairs (kPairs)
        if constexpr (kPairs)
            for (; i2 + 2 <= b; i2 += 2)
                pair_max(x + ptrdiff_t(r0 + i2) * xrs, x + ptrdiff_t(r0 + i2 + 1) * xrs, n,
                         kBuf ? buf + i2 * n : nullptr, kBuf ? buf + (i2 + 1) * n : nullptr, m[i2],
                         m[i2 + 1]);
        for (size_t i = i2; i < b; ++i)
            m[i] = block_max(x + ptrdiff_t(r0 + i) * xrs, n, kBuf ? buf + i * n : nullptr);
        for (size_t i = 0; i < b; ++i) {
            alone[i] = !MX::template foldable<D>(m[i]);
            hi[i] = MX::template hi_of<true>(m[i]);
        }
        auto src = [&](size_t i) -> const E* {
            if constexpr (kBuf)
                return buf + i * n;
            else
                return reinterpret_cast<const E*>(x + ptrdiff_t(r0 + i) * xrs);
        };
        auto pow_dst = [&](size_t i) -> E* {
            return STORE     ? reinterpret_cast<E*>(y + ptrdiff_t(r0 + i) * yrs)
                   : kBufExp ? buf + i * n
                             : nullptr;
        };
        for (size_t i = 0; i < b; ++i) {
            if (r0 + b + i < rows) prefetch_row(x + ptrdiff_t(r0 + b + i) * xrs, n * sizeof(T), false);
            cs[i] = E(1);
            if (alone[i]) continue;
            if (kPairs && i + 1 < b && !alone[i + 1]) {
                if (r0 + b + i + 1 < rows)
                    prefetch_row(x + ptrdiff_t(r0 + b + i + 1) * xrs, n * sizeof(T), false);
                pair_sum<E, STORE || kBufExp, D>(src(i), src(i + 1), pow_dst(i), pow_dst(i + 1), n,
                                                 V::set1(-hi[i]), V::set1(-hi[i + 1]), cs[i], cs[i + 1]);
                ++i;
                continue;
            }
            cs[i] = V::hsum(fused_block_sum < E, true, STORE || kBufExp,
                            D > (src(i), pow_dst(i), n, V::set1(-hi[i])));
        }
        for (size_t i = 0; i < b; i += N) {
            const size_t c = b - i < N ? b - i : N;
            const R v = V::loadn(cs + i, c, V::set1(E(1)));
            V::storen(cs + i, kLog ? MX::log(v) : V::div(V::set1(E(1)), v), c);
        }
        const bool short_rows = is_short_row<E>(n);
        const auto write = [&](auto* yo, auto val) __attribute__((always_inline)) {
            if (short_rows)
                store_short_row(yo, n, stream, val);
            else
                store_run(yo, n, stream, val);
        };
        for (size_t i = 0; i < b; ++i) {
            const T* xr = x + ptrdiff_t(r0 + i) * xrs;
            T* yr = y + ptrdiff_t(r0 + i) * yrs;
            if (alone[i]) {
                softmax_row_alone<T, K>(xr, yr, n, stream);
                continue;
            }
            const E* sp = kBufExp ? buf + i * n : src(i);  // the powers, where kept in buf
            auto ld = [sp](size_t j, size_t c) {
                return c == N ? V::load(sp + j) : V::loadn(sp + j, c, V::zero());
            };
            if constexpr (kLog) {
                const E ls = cs[i] - MX::template lo_ln<true>(m[i], hi[i]);
                const E c = m[i] + ls;
                if (!(c < E(16) && c > E(-16))) {
                    log_softmax_row_out(xr, yr, n, m[i], ls, stream);
                    continue;
                }
                const R vc = V::set1(c);
                write(result_ptr(yr), [&](size_t j, size_t cnt) { return V::sub(ld(j, cnt), vc); });
            } else if constexpr (STORE) {
                E* const ye = reinterpret_cast<E*>(yr);
                if (!short_rows) {
                    scale_in_place(ye, n, cs[i]);
                    continue;
                }
                const R vi = V::set1(cs[i]);
                store_short_row(ye, n, false, [&](size_t j, size_t cnt) {
                    return V::mul(cnt == N ? V::load(ye + j) : V::loadn(ye + j, cnt, V::zero()), vi);
                });
            } else if constexpr (kBufExp) {
                const R vi = V::set1(cs[i]);
                write(result_ptr(yr), [&](size_t j, size_t cnt) { return V::mul(ld(j, cnt), vi); });
            } else {
                const R nh = V::set1(-hi[i]), vi = V::set1(cs[i]);
                write(result_ptr(yr), [&](size_t j, size_t cnt) {
                    return V::mul(MX::template ex<true, D>(ld(j, cnt), nh), vi);
                });
            }
        }
    }
}

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
