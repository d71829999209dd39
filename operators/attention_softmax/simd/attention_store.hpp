// How AttentionSoftmax writes a row's outputs: vector by vector, plain or
// streamed (non-temporal at y's alignment), the keys the causal window
// excludes filled alongside. Apart from the row kernels so that each file
// holds one step.
#pragma once

#include <cstdint>

#include "attention_softmax/simd/attention_logits.hpp"
#include "simd/map.hpp"
#include "simd/stream_span.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {
namespace attn {

// y[0..e) = g(j, c), less than a cache line, out of line: inlined beside
// the streaming loop, it cost that loop (f32 causal rows on AVX2: 1.09x).
template <class T, class G>
SIMDAX_NOINLINE void store_head(T* y, size_t e, const G& g) {
    for (size_t j = 0, c; j < e; j += c) {
        c = e - j < V::N ? e - j : V::N;
        V::storen(y + j, g(j, c), c);
    }
}

// y[j..j+c) = g(j, c) for the vectors of [0, n), stored as T; stream: the
// whole cache lines of the run with non-temporal stores (stream_span; the
// caller fences), the partial line at each end with ordinary ones.
template <class T, class G>
SIMDAX_INLINE void store_each(T* y, size_t n, G g, bool stream) {
    size_t j = 0;
    if (stream) {
        const StreamSpan s = stream_span(y, n);
        const size_t b = s.begin, e = s.end;  // in registers across the stores
        if (e > b) {
            if (b) store_head(y, b, g);
            for (j = b; j < e; j += V::N) V::stream(y + j, g(j, V::N));
        }
    }
    for (; j + V::N <= n; j += V::N) V::store(y + j, g(j, V::N));
    if (j < n) V::storen(y + j, g(j, n - j), n - j);
}

// y[j] = f(buf[j]) over [0, n), as Softmax's rows are written (map.hpp):
// two vectors per narrowing store where that is one step (store_pair).
template <class T, class F>
SIMDAX_INLINE void store_map(const float* buf, T* y, size_t n, F f) {
    store_plain(y, 0, n, [&](size_t j, size_t c) {
        return f(c == V::N ? V::load(buf + j) : V::loadn(buf + j, c, V::zero()));
    });
}

// Softmax: 0 everywhere; LogSoftmax: -inf (a row with no finite logit, the
// keys the causal window excludes).
template <class T>
void fill(T* y, size_t n, bool log) {
    const R v = V::set1(log ? -__builtin_inff() : 0.0f);
    store_each(
        y, n, [&](size_t, size_t) { return v; }, false);
}

// A streamed row's elements [0, total) split at cache lines around its
// visible keys [lo, hi): [0, begin) and [end, total) hold excluded keys
// only, so that each part's streamed lines are whole and no partial
// (masked) store falls between them. Elements not aligned to T: one part.
struct LineSplit {
    size_t begin, end;
};
template <class T>
LineSplit line_split(const T* row, size_t lo, size_t hi, size_t total) {
    if (reinterpret_cast<uintptr_t>(row) % sizeof(T) != 0) return {0, total};
    const size_t back = size_t(reinterpret_cast<uintptr_t>(row + lo) % kLineBytes) / sizeof(T);
    const size_t end = hi + before_boundary<kLineBytes>(row + hi);
    return {lo > back ? lo - back : 0, end < total ? end : total};
}

// The excluded keys in the line_split parts of a streamed row that hold no
// visible key, written before the row computes: they drain while it does,
// where after it they queued behind the row's own streamed stores.
template <class T>
void fill_outside_lines(const AttnRowArgs& a) {
    auto* row = result_ptr(static_cast<T*>(a.y)) - a.before;
    const size_t total = a.before + a.n + a.after;
    const LineSplit s = line_split(row, a.before, a.before + a.n, total);
    const R v = V::set1(a.log ? -__builtin_inff() : 0.0f);
    const auto g = [v](size_t, size_t) { return v; };
    if (s.begin) store_each(row, s.begin, g, true);
    if (s.end < total) store_each(row + s.end, total - s.end, g, true);
}

// A row's output from buf (its n visible keys; f maps a vector of buf to
// outputs). Streamed: the excluded keys beside them within their cache
// lines in the same pass (fill_outside_lines wrote the rest).
template <class T, class F>
void store_row(const AttnRowArgs& a, const float* buf, F f) {
    auto* y = result_ptr(static_cast<T*>(a.y));
    if (!a.stream) return store_map(buf, y, a.n, f);
    const float fill_value = a.log ? -__builtin_inff() : 0.0f;
    const R fv = V::set1(fill_value);
    const size_t lo = a.before, hi = a.before + a.n;
    const LineSplit s = line_split(y - lo, lo, hi, hi + a.after);
    const auto g = [&, lo, hi](size_t j, size_t c) {
        j += s.begin;
        if (j >= lo && j + c <= hi)
            return f(c == V::N ? V::load(buf + (j - lo)) : V::loadn(buf + (j - lo), c, V::zero()));
        if (j + c <= lo || j >= hi) return fv;
        alignas(64) float t[V::N];  // a vector across an edge of the window
        for (size_t l = 0; l < V::N; ++l) t[l] = j + l >= lo && j + l < hi ? buf[j + l - lo] : 0.0f;
        V::store(t, f(V::load(t)));
        for (size_t l = 0; l < V::N; ++l)
            if (j + l < lo || j + l >= hi) t[l] = fill_value;
        return V::load(t);
    };
    store_each(y - lo + s.begin, s.end - s.begin, g, true);
}

// store_row, with a short row that is not streamed written inline
// (store_short_row): the batched rows' outputs then cost no call.
template <class T, class F>
SIMDAX_INLINE void store_row_or_short(const AttnRowArgs& a, const float* buf, F f) {
    if (a.stream || !is_short_row<float>(a.n)) return store_row<T>(a, buf, f);
    store_short_row(result_ptr(static_cast<T*>(a.y)), a.n, false, [&](size_t j, size_t c) {
        return f(c == V::N ? V::load(buf + j) : V::loadn(buf + j, c, V::zero()));
    });
}

}  // namespace attn
}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
