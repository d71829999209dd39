// Which part of an output run non-temporal stores may write: whole cache
// lines only. A line written partly by a streaming store and partly by an
// ordinary one (a head or tail step, the row before or after) leaves its
// write-combining buffer part full; the core then evicts it as partial
// writes, each a read-modify-write in memory. With 32-byte vectors on rows
// whose ends are not line-aligned that is most lines (AVX2 LogSoftmax
// [6144,128] ran ~10x slower with its output at +48 bytes on Zen 3).
// Used by the softmax family's rows writers (store_run, the LogSoftmax
// pipeline), MVN's and LayerNorm's row outputs; map() keeps its own loop.
#pragma once

#include <cstddef>
#include <cstdint>

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

constexpr size_t kLineBytes = 64;

// Elements of T at p before its next W-byte boundary: 0 when p is on one,
// or when p is not aligned to T (no element then starts on a boundary).
template <size_t W, class T>
inline size_t before_boundary(const T* p) {
    const size_t off = size_t(reinterpret_cast<uintptr_t>(p) % W);
    return off != 0 && off % sizeof(T) == 0 ? (W - off) / sizeof(T) : 0;
}

// A run shorter than this with a partial line at either end is not
// streamed at all: beside so few streamed lines, the ordinary (on AVX-512
// masked) stores of its partial lines cost more than the reads for
// ownership that streaming saves (AVX-512 LogSoftmax [12288,128] with its
// output at +16 bytes: 2.7x the time at +0 when streamed, 1.1x when not).
// Where between 512 B and 2 KiB the balance turns was not measured apart.
constexpr size_t kPartialStreamMinBytes = 1024;

// Elements [begin, end) of the n elements of type T at y that fill whole
// cache lines (begin == end: none, write the run with ordinary stores).
struct StreamSpan {
    size_t begin = 0, end = 0;
};

template <class T>
inline StreamSpan stream_span(const T* y, size_t n) {
    const uintptr_t a = reinterpret_cast<uintptr_t>(y);
    if (a % sizeof(T) != 0) return {};
    const uintptr_t b = (a + kLineBytes - 1) & ~uintptr_t(kLineBytes - 1);
    const uintptr_t e = (a + n * sizeof(T)) & ~uintptr_t(kLineBytes - 1);
    if (e <= b) return {};
    if ((b != a || e != a + n * sizeof(T)) && n * sizeof(T) < kPartialStreamMinBytes) return {};
    return {(b - a) / sizeof(T), (e - a) / sizeof(T)};
}

// Whether every row of y (rows of yrs elements of T apart) starts at the
// same place in its cache line.
template <class T>
inline bool rows_share_phase(size_t rows, ptrdiff_t yrs) {
    return rows < 2 || size_t(yrs) * sizeof(T) % kLineBytes == 0;
}

// Whether every row of y starts on a cache line.
template <class T>
inline bool rows_on_lines(const T* y, size_t rows, ptrdiff_t yrs) {
    return reinterpret_cast<uintptr_t>(y) % kLineBytes == 0 && rows_share_phase<T>(rows, yrs);
}

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
