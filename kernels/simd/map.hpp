// map: y[i] = f(x[i]) over a contiguous array, two vectors per step, one
// masked step for the tail (never touches memory past n). x == y is allowed:
// each vector is loaded before its slot is stored. An output of at least
// kStreamBytes (beyond L2) that is not the input is written with
// non-temporal stores: no read-for-ownership of y, which would otherwise
// make a memory-bound pass move 3 bytes per 2 that memcpy moves. Streamed,
// only the run's whole cache lines are (stream_span; 16-bit data at +16
// bytes, streamed from the vector's alignment, took 2x), the partial line
// at each end written with ordinary stores; otherwise a head step aligns the
// stores to the vector width.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "simd/stream_span.hpp"
#include "simd/vec.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

// True when y sits 1 to `bytes` bytes past x (mod 4 KiB): a store to y then
// shares its low 12 address bits with the loads of x a few steps on, and
// those loads wait for it in the store buffer (4K aliasing).
inline bool stores_meet_later_loads(const void* x, const void* y, size_t bytes) {
    const size_t d = size_t(reinterpret_cast<uintptr_t>(y) - reinterpret_cast<uintptr_t>(x)) % 4096;
    return d != 0 && d <= bytes;
}

// Pairs of vectors over [i, e); returns where it stopped. load(j, a, b)
// computes the pair at j, store(j, a, b) stores it. LAG: in steps of at
// least a cache line, each step stored after the next step's loads, for y
// up to a step past x (stores_meet_later_loads; HardSigmoid with its output
// 48 bytes past its input took 1.7x as long on Zen 4). In place is safe:
// every load of a step comes before the stores of the step behind it.
template <class V, class T>
struct LaggedPairs {
    static constexpr size_t kPair = 2 * V::N;
    static constexpr size_t kPairs = 64 / (kPair * sizeof(T)) > 1 ? 64 / (kPair * sizeof(T)) : 1;
    static constexpr size_t kStepBytes = kPairs * kPair * sizeof(T);
};
template <class V, class T, class L, class S>
SIMDAX_INLINE size_t pairs(size_t i, size_t e, bool lag, L load, S store) {
    using R = typename V::R;
    constexpr size_t P = LaggedPairs<V, T>::kPair, K = LaggedPairs<V, T>::kPairs;
    if (!lag || i + K * P > e) {
        for (; i + P <= e; i += P) {
            R a, b;
            load(i, a, b);
            store(i, a, b);
        }
        return i;
    }
    R a[K], b[K];
    SIMDAX_UNROLL for (size_t k = 0; k < K; ++k) load(i + k * P, a[k], b[k]);
    for (i += K * P; i + K * P <= e; i += K * P) {
        R c[K], d[K];
        SIMDAX_UNROLL for (size_t k = 0; k < K; ++k) load(i + k * P, c[k], d[k]);
        SIMDAX_UNROLL for (size_t k = 0; k < K; ++k) {
            store(i - K * P + k * P, a[k], b[k]);
            a[k] = c[k];
            b[k] = d[k];
        }
    }
    SIMDAX_UNROLL for (size_t k = 0; k < K; ++k) store(i - K * P + k * P, a[k], b[k]);
    return i;
}

// y[i, n) = val(j, count) with ordinary stores, vector by vector; a run of
// four vectors or more first aligns its stores to the vector (a misaligned
// store splits across two cache lines). Where partial vectors cost more
// than whole ones (MaskedTailsOf), a run of a vector or more takes its
// misaligned head and its tail as whole vectors overlapping the aligned
// ones, computed first and stored last: val may read y[j..j+count) (in
// place), and reads every element before it is written.
// pair, if given: map's any-order pair (AnyOrderPair) for y[j, j + 2 *
// V::N); else val's two vectors by store_pair.
template <class T, class F, class P = std::nullptr_t>
inline void store_plain(T* y, size_t i, size_t n, F val, P pair = nullptr, bool lag = false) {
    using V = Vec<T>;
    constexpr size_t W = V::N * sizeof(T);
    const uintptr_t ya = reinterpret_cast<uintptr_t>(y + i);
    const bool misaligned = ya % W != 0 && ya % sizeof(T) == 0;
    const size_t i0 = i;
    const bool whole = !MaskedTailsOf<V>::value && misaligned && n - i >= V::N;
    typename V::R head, tail;
    if (whole) {
        head = val(i, V::N);
        tail = val(n - V::N, V::N);
        i += (W - ya % W) / sizeof(T);
    } else if (n - i >= 4 * V::N && misaligned) {
        const size_t h = (W - ya % W) / sizeof(T);
        V::storen(y + i, val(i, h), h);
        i += h;
    }
    // Two vectors per store where one narrowing does both (store_pair).
    using R = typename V::R;
    if constexpr (!std::is_null_pointer_v<P>)
        i = pairs<V, T>(
            i, n, lag, [&](size_t j, R & a, R & b) __attribute__((always_inline)) { pair.load(j, a, b); },
            [&](size_t j, R a, R b) __attribute__((always_inline)) { pair.store(j, a, b, false); });
    else if (HasPairStore<V, T>::value || lag)
        i = pairs<V, T>(
            i, n, lag,
            [&](size_t j, R & a, R & b) __attribute__((always_inline)) {
                a = val(j, V::N);
                b = val(j + V::N, V::N);
            },
            [&](size_t j, R a, R b) __attribute__((always_inline)) { store_pair<V>(y + j, a, b); });
    for (; i + V::N <= n; i += V::N) V::store(y + i, val(i, V::N));
    if (whole) {
        V::store(y + i0, head);
        V::store(y + n - V::N, tail);
    } else if (i < n) {
        V::storen(y + i, val(i, n - i), n - i);
    }
}

// y[i, e) = val(j, count) for less than a cache line, out of line: it runs
// at most twice a row, and edge code inlined beside a streaming loop has
// cost that loop its registers (tried in MVN's row output: 1.24-1.74x).
// Callers skip it for an empty range.
template <class T, class F>
SIMDAX_NOINLINE void store_part_line(T* y, size_t i, size_t e, F val) {
    using V = Vec<T>;
    for (; i < e; i += V::N) {
        const size_t c = e - i < V::N ? e - i : V::N;
        V::storen(y + i, val(i, c), c);
    }
}

// y[i, e) = val(j, V::N) with non-temporal stores (the caller fences); i and
// e from stream_span: whole cache lines, so whole vectors.
template <class T, class F>
inline void store_streamed(T* y, size_t i, size_t e, F val) {
    using V = Vec<T>;
    for (; i + 2 * V::N <= e; i += 2 * V::N) store_pair<V>(y + i, val(i, V::N), val(i + V::N, V::N), true);
    for (; i < e; i += V::N) V::stream(y + i, val(i, V::N));
}

// Stores y[0..n) = val(i, count): streamed (the caller fences) over the
// whole cache lines of the run, ordinary stores elsewhere. The partial
// line at the end is fetched before the streamed ones are written: an
// ordinary store that misses holds up every store behind it (the next
// rows' too) until its line arrives from memory. (The one at the start is
// the previous row's last, in cache when rows are contiguous.)
template <class T, class F>
inline void store_run(T* y, size_t n, bool stream, F val) {
    if (!stream) return store_plain(y, 0, n, val);
    const StreamSpan s = stream_span(y, n);
    if (s.end == s.begin) return store_plain(y, 0, n, val);
    if (s.end < n) __builtin_prefetch(y + s.end, 1, 3);
    if (s.begin) store_part_line(y, 0, s.begin, val);
    store_streamed(y, s.begin, s.end, val);
    if (s.end < n) store_part_line(y, s.end, n, val);
}

// Rows of up to this many bytes (of the compute type) take store_short_row.
constexpr size_t kShortRowBytes = 1024;
// Whether a row of n elements of compute type E is one for store_short_row.
template <class E>
constexpr bool is_short_row(size_t n) {
    return n >= Vec<E>::N && n * sizeof(E) <= kShortRowBytes;
}

// store_run for a row of one vector or more, inlined: a short row's output
// is too short to pay for a call, and for the batch's vectors spilled and
// reloaded around it. val(j, cnt) may read y[j, j + cnt) (in place): a row
// that is not streamed computes its last vector, which overlaps the one
// before, first.
template <class T, class F>
SIMDAX_INLINE void store_short_row(T* y, size_t n, bool stream, F val) {
    using V = Vec<T>;
    constexpr size_t N = V::N;
    const StreamSpan s = stream ? stream_span(y, n) : StreamSpan{};
    // Two vectors per store where one narrowing does both (store_pair).
    const auto vectors = [&](size_t j, size_t end, bool nt) __attribute__((always_inline)) {
        for (; j + 2 * N <= end; j += 2 * N) store_pair<V>(y + j, val(j, N), val(j + N, N), nt);
        if (j + N > end) return j;
        if (nt)
            V::stream(y + j, val(j, N));
        else
            V::store(y + j, val(j, N));
        return j + N;
    };
    if (s.end == s.begin) {
        const typename V::R last = val(n - N, N);
        if (vectors(0, n, false) < n) V::store(y + n - N, last);
        return;
    }
    size_t j = vectors(0, s.begin, false);
    if (j < s.begin) V::storen(y + j, val(j, s.begin - j), s.begin - j);
    j = vectors(vectors(s.begin, s.end, true), n, false);
    if (j < n) V::storen(y + j, val(j, n - j), n - j);
}

// y = f(x) for two vectors at x + j / y + j: load gives f of both, store
// writes them. f is element-wise, so where V has an any-order pair for T
// it sees the elements in that order.
template <class V, class T, class Y, class F>
struct AnyOrderPair {
    using R = typename V::R;
    const T* x;
    Y* y;
    F f;
    SIMDAX_INLINE void load(size_t j, R& a, R& b) const {
        if constexpr (HasAnyOrderPair<V, T>::value) {
            V::load2_any(x + j, a, b);
        } else {
            a = V::load(x + j);
            b = V::load(x + j + V::N);
        }
        a = f(a);
        b = f(b);
    }
    SIMDAX_INLINE void store(size_t j, R a, R b, bool stream) const {
        if constexpr (HasAnyOrderPair<V, T>::value)
            V::store2_any(y + j, a, b, stream);
        else
            store_pair<V>(y + j, a, b, stream);
    }
};

// stream_rows: the caller writes a large output in many calls (rows of a
// rows kernel): stream this one too, and leave the fence to the caller.
// Y: T, or the ResultOf<T> an operator's output is stored through.
template <class T, class Y, class F>
inline void map(const T* x, Y* y, size_t n, F f, bool stream_rows = false) {
    static_assert(sizeof(Y) == sizeof(T));
    using V = Vec<T>;
    size_t i = 0;
    const bool in_place = static_cast<const void*>(x) == static_cast<const void*>(y);
    // f by value: constants it holds stay in registers across the stores.
    const auto val = [x, f](size_t j, size_t c) {
        return f(c == V::N ? V::load(x + j) : V::loadn(x + j, c, V::zero()));
    };
    const bool lag = stores_meet_later_loads(x, y, LaggedPairs<V, T>::kStepBytes);
    const StreamSpan s =
        !in_place && (stream_rows || n * sizeof(T) >= kStreamBytes) ? stream_span(y, n) : StreamSpan{};
    if (s.end > s.begin) {
        constexpr size_t W = V::N * sizeof(T);
        if (s.begin) store_part_line(y, 0, s.begin, val);
        i = s.begin;
        // Four pages at a time where that pays (interleave_streams), a
        // vector of each in turn (as glibc's large memcpy does).
        // Each step writes a whole cache line of each page: partial lines
        // of four streams thrash the write-combining buffers (AVX2: 2x).
        constexpr size_t P = 4096 / sizeof(T);
        constexpr size_t L = W >= 64 ? 1 : 64 / W;  // vectors per cache line
        const bool pages = interleave_streams();
        using R = typename V::R;
        const AnyOrderPair<V, T, Y, F> pair{x, y, f};
        for (; pages && i + 4 * P <= s.end; i += 4 * P) {
            for (size_t j = 0; j < P; j += L * V::N) {
                SIMDAX_UNROLL for (size_t q = 0; q < 4; ++q) {
                    const size_t k = i + q * P + j;
                    if constexpr (L == 1) {
                        V::stream(y + k, f(V::load(x + k)));
                    } else {
                        SIMDAX_UNROLL for (size_t v = 0; v < L; v += 2) {
                            R a, b;
                            pair.load(k + v * V::N, a, b);
                            pair.store(k + v * V::N, a, b, true);
                        }
                    }
                }
            }
        }
        i = pairs<V, T>(
            i, s.end, lag, [&](size_t j, R & a, R & b) __attribute__((always_inline)) { pair.load(j, a, b); },
            [&](size_t j, R a, R b) __attribute__((always_inline)) { pair.store(j, a, b, true); });
        for (; i < s.end; i += V::N) V::stream(y + i, f(V::load(x + i)));
        if (!stream_rows) stream_fence();
        if (s.end < n) store_part_line(y, s.end, n, val);
        return;
    }
    if constexpr (HasAnyOrderPair<V, T>::value)
        store_plain(y, 0, n, val, AnyOrderPair<V, T, Y, F>{x, y, f}, lag);
    else
        store_plain(y, 0, n, val, nullptr, lag);
}

// y[i] = x[i] between two storage types of the same compute vector (float
// <-> float16/bfloat16, rounding once on store).
template <class S, class D>
inline void convert(const S* x, D* y, size_t n) {
    using V = Vec<D>;
    size_t i = 0;
    for (; i + V::N <= n; i += V::N) V::store(y + i, V::load(x + i));
    if (i < n) V::storen(y + i, V::loadn(x + i, n - i, V::zero()), n - i);
}

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
