// LogSoftmax / Softmax rows kernels: `rows` whole groups of n contiguous
// elements per call (kernel_table.hpp), each group reduced and written
// without a MaxSum state or a double-precision combine. The strategy by row
// length (float32/float16/bfloat16; float64 always takes the general path):
//   n <= one vector: one masked load and store per row (one_row.hpp);
//   float32 rows of a few vectors: each row held in registers
//     (rows_in_registers.hpp);
//   n <= kSoftmaxBlock, several rows: batches (rows_batched.hpp), except
//     LogSoftmax rows over kBatchMaxRowBytes, which run as a pipeline
//     (rows_pipelined.hpp): a batch saves Softmax its second exp, while
//     LogSoftmax, with none to save, overlaps its stores and the next row's
//     reads with the exp instead;
//   LogSoftmax rows longer than that, several: the statistics of one row in
//     the same loop as the output of the row before (rows_long.hpp);
//     float32 Softmax rows of 48 KiB on (not in place): the 2^t of one row
//     stored in the same loops as the previous row's scaling
//     (rows_long_softmax.hpp);
//   otherwise row by row on the general path (one_row.hpp).
#pragma once

#include <type_traits>

#include "softmax/simd/one_row.hpp"
#include "softmax/simd/rows_long.hpp"
#include "softmax/simd/rows_long_softmax.hpp"
#include "softmax/simd/rows_batched.hpp"
#include "softmax/simd/rows_in_registers.hpp"
#include "softmax/simd/rows_pipelined.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

constexpr size_t kBatchMaxRowBytes = 1024;  // LogSoftmax rows batched up to this

template <class T, SoftmaxKind K>
void softmax_or_log_rows(const void* xv, void* yv, size_t rows, size_t n, ptrdiff_t xrs, ptrdiff_t yrs) {
    const VecScope scope;
    constexpr bool kLog = K == SoftmaxKind::log;
    using E = typename Vec<T>::E;
    const T* x = static_cast<const T*>(xv);
    T* y = static_cast<T*>(yv);
    // A large output (the executor passes many rows per call) is streamed.
    const bool stream =
        static_cast<const void*>(x) != static_cast<void*>(y) && rows * n * sizeof(T) >= kStreamBytes;
    if constexpr (SmxMath<Vec<T>>::kCanFold) {
        if (n <= Vec<T>::N && !stream) {
            for (size_t r = 0; r < rows; ++r) {
                const T* xr = x + ptrdiff_t(r) * xrs;
                T* yr = y + ptrdiff_t(r) * yrs;
                if (!softmax_row_short<T, K>(xr, yr, n)) softmax_row_alone<T, K>(xr, yr, n, false);
            }
            return;
        }
        if constexpr (!kLog) {
            if (in_register_pairs<T, K>(n) && !stream && rows >= 2) {
                softmax_rows_in_register_pairs<T>(x, y, rows, n, xrs, yrs);
                return;
            }
        }
        if (in_registers<T, K>(n)) {
            softmax_rows_in_registers<T, K>(x, y, rows, n, xrs, yrs, stream);
            if (stream) stream_fence();
            return;
        }
        if (rows >= 2 && n <= kSoftmaxBlock) {
            // Softmax keeps 2^t in y (float32; never in place: y is written
            // before the output pass reads it).
            constexpr bool kStore = !kLog && std::is_same_v<T, E>;
            const bool st = kStore && static_cast<const void*>(x) != static_cast<void*>(y);
            if (!kLog || n * sizeof(E) <= kBatchMaxRowBytes) {
                if (st && stream)
                    softmax_rows_batched<T, K, false, kStore>(x, y, rows, n, xrs, yrs, stream);
                else if (st)
                    softmax_rows_batched<T, K, kStore>(x, y, rows, n, xrs, yrs, stream);
                else
                    softmax_rows_batched<T, K, false>(x, y, rows, n, xrs, yrs, stream);
            } else {
                log_softmax_rows_pipelined<T>(x, y, rows, n, xrs, yrs, stream);
            }
            if (stream) stream_fence();
            return;
        }
        if constexpr (!kLog && std::is_same_v<T, E>) {
            if (rows >= 2 && static_cast<const void*>(x) != static_cast<void*>(y) &&
                n * sizeof(T) >= kScaleOverlapBytes &&
                (n + kSoftmaxBlock - 1) / kSoftmaxBlock <= kStoreMaxBlocks) {
                softmax_rows_long<T>(x, y, rows, n, xrs, yrs);
                return;
            }
        }
        // rows_long's form (the output recomputes the exp) gained Softmax
        // nothing: S2 0.997-0.999, float16 1.01.
        if (kLog && rows >= 2) {
            log_softmax_rows_long<T>(x, y, rows, n, xrs, yrs, stream);
            if (stream) stream_fence();
            return;
        }
    }
    for (size_t r = 0; r < rows; ++r)
        softmax_row_alone<T, K>(x + ptrdiff_t(r) * xrs, y + ptrdiff_t(r) * yrs, n, stream);
    if (stream) stream_fence();
}

SIMDAX_SOFTMAX_KIND_ROWS_SLOTS

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
