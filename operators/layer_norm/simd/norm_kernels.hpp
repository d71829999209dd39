// LayerNormalization / RMSNormalization kernels over the vector layer
// (kernels/simd/vec*.hpp), one copy per ISA. The row lives in `buf` in the
// compute type between the passes: norm_load reads the inputs once (and
// writes the skip sum), norm_moments reads buf twice from L1 (the mean,
// then the squared deviations, summed in double: no cancellation, no
// overflow or underflow of the squares of any float), norm_apply writes y.
#pragma once

#include <cmath>
#include <type_traits>

#include "kernel_table.hpp"
#include "simd/stream_span.hpp"
#include "simd/vec.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {
namespace norm {

// P: a parameter's storage type (the data's, or float for a float16 or
// bfloat16 row); void: absent.
template <class T, class P>
SIMDAX_INLINE typename Vec<T>::R param(const void* p, size_t i) {
    return Vec<T>::load(static_cast<const P*>(p) + i);
}
template <class T, class P>
SIMDAX_INLINE typename Vec<T>::R param_n(const void* p, size_t i, size_t n) {
    return Vec<T>::loadn(static_cast<const P*>(p) + i, n, Vec<T>::zero());
}

// Calls f(P{}) with P the parameter's storage type: T, or float when f32
// (float16/bfloat16 data only).
template <class T, class F>
SIMDAX_INLINE void with_param_type(bool f32, F&& f) {
    if constexpr (!std::is_same_v<T, double>)
        if (f32) return f(float{});
    f(T{});
}

template <class T, class SB>
void load_row(const T* x, const T* skip, const void* sb, T* sum, typename Vec<T>::E* buf, size_t n) {
    using V = Vec<T>;
    using R = typename V::R;
    constexpr size_t N = V::N;
    // A float16/bfloat16 sum is rounded to its dtype: through `sum`, or
    // through this vector's worth when the caller wants no sum.
    alignas(64) T round[N];
    constexpr bool narrow = !std::is_same_v<T, typename V::E>;
    for (size_t i = 0; i < n; i += N) {
        const size_t m = n - i < N ? n - i : N;
        R v = m == N ? V::load(x + i) : V::loadn(x + i, m, V::zero());
        if (skip) {
            v = V::add(v, m == N ? V::load(skip + i) : V::loadn(skip + i, m, V::zero()));
            if constexpr (!std::is_void_v<SB>)
                v = V::add(v, m == N ? param<T, SB>(sb, i) : param_n<T, SB>(sb, i, m));
            T* s = sum ? sum + i : round;
            if (sum || narrow) {
                if (m == N)
                    V::store(s, v);
                else
                    V::storen(s, v, m);
            }
            if (narrow) v = m == N ? V::load(s) : V::loadn(s, m, V::zero());
        }
        if (m == N)
            V::store(buf + i, v);
        else
            V::storen(buf + i, v, m);
    }
}

// Sums of v (pass 1) and of d = v - mean, d^2 (pass 2), in double.
template <class E>
struct Sums {
    double s1 = 0, d1 = 0, d2 = 0;
};

SIMDAX_INLINE void widen_e(VF::R v, VD::R& lo, VD::R& hi) { VF::widen(v, lo, hi); }

// In double throughout: float64 rows, and the rows the float sums do not
// suit (an infinity or NaN, squares beyond or below float's range).
template <class S>
NormMoments moments_wide(const S* b, size_t n, bool rms) {
    using V = Vec<S>;
    using E = typename V::E;
    using D = VD::R;
    constexpr size_t N = V::N;
    const auto split = [&](size_t i, D& lo, D& hi) {
        const size_t m = n - i < N ? n - i : N;
        const typename V::R v = m == N ? V::load(b + i) : V::loadn(b + i, m, V::zero());
        if constexpr (std::is_same_v<E, float>)
            widen_e(v, lo, hi);
        else
            lo = v, hi = VD::zero();
        return m;
    };
    if (rms) {
        D q0 = VD::zero(), q1 = VD::zero();
        for (size_t i = 0; i < n; i += N) {
            D lo, hi;
            split(i, lo, hi);
            q0 = VD::fma(lo, lo, q0);
            q1 = VD::fma(hi, hi, q1);
        }
        return {double(n), 0.0, VD::hsum(VD::add(q0, q1))};
    }
    D s0 = VD::zero(), s1 = VD::zero();
    for (size_t i = 0; i < n; i += N) {
        D lo, hi;
        split(i, lo, hi);
        s0 = VD::add(s0, lo);
        s1 = VD::add(s1, hi);
    }
    const double mean = VD::hsum(VD::add(s0, s1)) / double(n);
    if (!std::isfinite(mean)) return {double(n), mean, mean - mean};  // an infinity or NaN in the row
    // Lanes that hold no element get deviation 0: taking their -mean out of
    // the sums afterwards cancels terms of mean^2, which swamp the variance
    // of a row far from 0 ([-7.5e37, +2 ulps, +2 ulps]: 9/8 of it).
    const D vm = VD::set1(mean);
    D d0 = VD::zero(), d1 = VD::zero(), q0 = VD::zero(), q1 = VD::zero();
    for (size_t i = 0; i < n; i += N) {
        D lo, hi;
        const size_t m = split(i, lo, hi);
        const size_t nlo = m < VD::N ? m : VD::N;
        const size_t nhi = std::is_same_v<E, float> && m > VD::N ? m - VD::N : 0;
        lo = VD::sub(lo, vm);
        hi = VD::sub(hi, vm);
        if (nlo < VD::N) lo = VD::blend(VD::lanes(nlo), VD::zero(), lo);
        if (nhi < VD::N) hi = VD::blend(VD::lanes(nhi), VD::zero(), hi);
        d0 = VD::add(d0, lo);
        d1 = VD::add(d1, hi);
        q0 = VD::fma(lo, lo, q0);
        q1 = VD::fma(hi, hi, q1);
    }
    const double sd = VD::hsum(VD::add(d0, d1));
    const double sq = VD::hsum(VD::add(q0, q1));
    return {double(n), mean + sd / double(n), sq - sd * sd / double(n)};
}

// Sums of f(v) over b (float, or float16/bfloat16 read as float): four
// chains, folded into double every kFoldVectors vectors (each lane adds
// few terms in float); lanes past n hold `fill`, which f must map to 0.
constexpr size_t kFoldVectors = 64;
template <class S, class F>
SIMDAX_INLINE double fold_sums(const S* b, size_t n, float fill, F&& f, double* second = nullptr) {
    using V = VF;
    using R = V::R;
    constexpr size_t N = V::N;
    double total = 0, total2 = 0;
    for (size_t b0 = 0; b0 < n; b0 += kFoldVectors * N) {
        const size_t end = n - b0 < kFoldVectors * N ? n : b0 + kFoldVectors * N;
        R a0 = V::zero(), a1 = V::zero(), a2 = V::zero(), a3 = V::zero();
        R c0 = V::zero(), c1 = V::zero(), c2 = V::zero(), c3 = V::zero();
        size_t i = b0;
        for (; i + 4 * N <= end; i += 4 * N) {
            f(V::load(b + i), a0, c0);
            f(V::load(b + i + N), a1, c1);
            f(V::load(b + i + 2 * N), a2, c2);
            f(V::load(b + i + 3 * N), a3, c3);
        }
        for (; i < end; i += N)
            f(end - i < N ? V::loadn(b + i, end - i, V::set1(fill)) : V::load(b + i), a0, c0);
        total += double(V::hsum(V::add(V::add(a0, a1), V::add(a2, a3))));
        total2 += double(V::hsum(V::add(V::add(c0, c1), V::add(c2, c3))));
    }
    if (second) *second = total2;
    return total;
}

// The fast form for float rows: the mean from float sums, then the sums of
// d = v - mean and d^2 around it (the corrected two-pass formula); rows
// whose sums leave float's comfortable range go to moments_wide.
template <class S>
NormMoments moments(const S* b, size_t n, bool rms) {
    if constexpr (!std::is_same_v<typename Vec<S>::E, float>) {
        return moments_wide(b, n, rms);
    } else {
        using R = VF::R;
        const double tiny = 1e-30 * double(n);  // below this the squares lose bits to underflow
        if (rms) {
            const double q = fold_sums(b, n, 0.0f, [](R v, R& a, R&) { a = VF::fma(v, v, a); });
            if (std::isfinite(q) && q >= tiny) return {double(n), 0.0, q};
            return moments_wide(b, n, rms);
        }
        const double s = fold_sums(b, n, 0.0f, [](R v, R& a, R&) { a = VF::add(a, v); });
        const float m = float(s / double(n));
        if (!std::isfinite(s) || !std::isfinite(m)) return moments_wide(b, n, rms);
        const R vm = VF::set1(m);
        double q = 0;
        const double d = fold_sums(
            b, n, m,
            [&](R v, R& a, R& c) {
                const R e = VF::sub(v, vm);
                a = VF::add(a, e);
                c = VF::fma(e, e, c);
            },
            &q);
        if (!std::isfinite(q) || q < tiny) return moments_wide(b, n, rms);
        return {double(n), double(m) + d / double(n), q - d * d / double(n)};
    }
}

// A row outside float's comfortable range (NormApply::wide): each element
// in double, rounded once to E.
template <class T, class S, class B, class Row>
void apply_row_wide(const Row* b, T* y, size_t n, const NormApply& a) {
    using V = Vec<T>;
    using E = typename V::E;
    constexpr size_t N = V::N;
    alignas(64) E sc[N], bi[N], out[N];
    for (size_t i = 0; i < n; i += N) {
        const size_t m = n - i < N ? n - i : N;
        V::store(sc, param_n<T, S>(a.scale, i, m));
        if constexpr (!std::is_void_v<B>) V::store(bi, param_n<T, B>(a.bias, i, m));
        for (size_t l = 0; l < m; ++l) {
            double v = (double(to_e(b[i + l])) - a.mean) * a.inv * double(sc[l]);
            if constexpr (!std::is_void_v<B>) v += double(bi[l]);
            out[l] = E(v);
        }
        V::storen(y + i, V::load(out), m);
    }
}

template <class T, class S, class B, class Row>
void apply_row(const Row* b, T* y, size_t n, const NormApply& a) {
    using V = Vec<T>;
    using E = typename V::E;
    using R = typename V::R;
    constexpr size_t N = V::N;
    if (a.wide) return apply_row_wide<T, S, B, Row>(b, y, n, a);
    const E mh = E(a.mean), ml = E(a.mean - double(mh));
    const R vmh = V::set1(mh), vml = V::set1(ml), vinv = V::set1(E(a.inv));
    // The normalized value first: inv * scale may overflow where the
    // output does not.
    const auto out = [&](size_t i, size_t m) __attribute__((always_inline)) {
        const bool full = m == N;
        const R v = full ? V::load(b + i) : V::loadn(b + i, m, V::zero());
        const R t = V::mul(V::sub(V::sub(v, vmh), vml), vinv);
        const R sc = full ? param<T, S>(a.scale, i) : param_n<T, S>(a.scale, i, m);
        if constexpr (std::is_void_v<B>)
            return V::mul(t, sc);
        else
            return V::fma(t, sc, full ? param<T, B>(a.bias, i) : param_n<T, B>(a.bias, i, m));
    };
    // Streamed: only the row's whole cache lines [span.begin, se), two
    // vectors at a time (one narrowing and one full line for 16-bit data);
    // the partial lines at its ends with ordinary stores (stream_span.hpp).
    const StreamSpan span = a.stream ? stream_span(y, n) : StreamSpan{};
    const bool stream = span.end > span.begin;
    const size_t se = stream ? span.end : n;
    const auto plain = [&](size_t i, size_t end) __attribute__((always_inline)) {
        for (; i + N <= end; i += N) V::store(y + i, out(i, N));
        if (i < end) V::storen(y + i, out(i, end - i), end - i);
    };
    plain(0, span.begin);
    size_t i = span.begin;
    const size_t bytes = n * sizeof(T);
    size_t line = 0;  // bytes of the next group's arrays prefetched, into L1: its first pass reads them next
    const auto prefetch_to = [&](size_t end) __attribute__((always_inline)) {
        if (a.ahead[0])
            for (; line < end && line < bytes; line += 64) {
                __builtin_prefetch(a.ahead[0] + line, 0, 3);
                if (a.ahead[1]) __builtin_prefetch(a.ahead[1] + line, 0, 3);
            }
    };
    for (; i + 2 * N <= se; i += 2 * N) {
        prefetch_to((i + 2 * N) * sizeof(T));
        store_pair<V>(y + i, out(i, N), out(i + N, N), stream);
    }
    for (; i + N <= se; i += N) {
        if (stream)
            V::stream(y + i, out(i, N));
        else
            V::store(y + i, out(i, N));
    }
    plain(i, n);
    prefetch_to(bytes);  // what the loop above did not reach
    if (a.fence) stream_fence();
}

}  // namespace norm

template <class T>
void norm_load(const void* x, const void* skip, const void* skip_bias, bool skip_bias_f32, void* sum,
               void* buf, size_t n) {
    const VecScope scope;
    using E = typename Vec<T>::E;
    const T* xt = static_cast<const T*>(x);
    const T* st = static_cast<const T*>(skip);
    T* sm = static_cast<T*>(sum);
    E* b = static_cast<E*>(buf);
    if (!skip_bias) return norm::load_row<T, void>(xt, st, nullptr, sm, b, n);
    norm::with_param_type<T>(skip_bias_f32,
                             [&](auto p) { norm::load_row<T, decltype(p)>(xt, st, skip_bias, sm, b, n); });
}

// f(row) with the row as its type: the data's own (stored: the input
// itself, float16/bfloat16 converted as read) or the compute type (buf).
template <class T, class F>
SIMDAX_INLINE void with_row(const void* row, bool stored, F&& f) {
    if constexpr (!std::is_same_v<T, typename Vec<T>::E>)
        if (stored) return f(static_cast<const T*>(row));
    f(static_cast<const typename Vec<T>::E*>(row));
}

template <class T>
void norm_moments(const void* row, bool stored, size_t n, bool rms, NormMoments* out) {
    const VecScope scope;
    with_row<T>(row, stored, [&](const auto* b) { *out = norm::moments(b, n, rms); });
}

template <class T>
void norm_apply(const void* row, void* y, size_t n, const NormApply* a) {
    const VecScope scope;
    T* yt = static_cast<T*>(y);
    with_row<T>(row, a->row_stored, [&](const auto* b) {
        using Row = std::remove_const_t<std::remove_pointer_t<decltype(b)>>;
        norm::with_param_type<T>(a->scale_f32, [&](auto s) {
            using S = decltype(s);
            if (!a->bias) return norm::apply_row<T, S, void, Row>(b, yt, n, *a);
            norm::with_param_type<T>(
                a->bias_f32, [&](auto bb) { norm::apply_row<T, S, decltype(bb), Row>(b, yt, n, *a); });
        });
    });
}

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
