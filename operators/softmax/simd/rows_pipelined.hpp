// LogSoftmax rows of 1 KiB to kSoftmaxBlock elements, several rows: a
// software pipeline. One loop over the element index does three stages on
// three rows at once: the max of row k+1 (read from memory; float16/bfloat16
// converted once into a ring buffer), the sum of row k (from L1), and the
// output of row k-lag (stores aligned to the vector). The loads and stores of
// the memory-bound stages then hide under the exp of the sum. A row whose
// max is not an ordinary number (NaN, +-inf, |max| >= 2^22) or whose output
// needs the two-step form is done on its own, outside the pipeline.
#pragma once

#include <cstdint>
#include <type_traits>

#include "softmax/simd/one_row.hpp"
#include "simd/stream_span.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

// OS: the type the OUT stage reads (the float copy, or the input itself:
// rows_long.hpp).
template <class T, class OS = typename Vec<T>::E>
struct Pipe {
    using V = Vec<T>;
    using E = typename V::E;
    using R = typename V::R;
    static constexpr bool kBuf = !std::is_same_v<T, E>;
    size_t n;
    const T* mx_src;    // MAX stage: row k+1
    E* mx_buf;          // its float copy (kBuf)
    const E* sm_src;    // SUM stage: row k
    R sm_nh;            // -hi of row k
    const OS* out_src;  // OUT stage: row k-lag
    T* out_dst;
    R out_a;        // M + ls
    size_t out_h;   // elements before the first aligned (or streamed) store
    size_t out_se;  // end of the streamed elements (stream_span)
    bool stream;    // non-temporal stores for the output vectors in [out_h, out_se)

    // The OUT stage: y = x - c over src -> dst (n elements), its stores
    // aligned to the vector after a head of out_h elements; streamed over
    // the whole cache lines of the row only.
    void set_out(const OS* src, T* dst, E c, bool stream_out) {
        constexpr size_t W = V::N * sizeof(T);
        out_dst = dst;
        out_src = src;
        out_a = V::set1(c);
        const StreamSpan s = stream_out ? stream_span(dst, n) : StreamSpan{};
        stream = s.end > s.begin;
        out_se = s.end;
        if (stream) {
            out_h = s.begin;
            return;
        }
        out_h = before_boundary<W>(dst);
        if (out_h >= n) out_h = 0;
    }
};

template <class T, class OS = typename Vec<T>::E>
struct PipeOps {
    using P = Pipe<T, OS>;
    using V = Vec<T>;
    using E = typename V::E;
    using R = typename V::R;
    using MX = SmxMath<V>;
    SIMDAX_INLINE static R max_ld(const P& p, size_t i) {
        const R v = V::load(p.mx_src + i);
        if constexpr (P::kBuf) V::store(p.mx_buf + i, v);
        return v;
    }
    SIMDAX_INLINE static R max_ldn(const P& p, size_t i, size_t c) {
        const R v = V::loadn(p.mx_src + i, c, V::set1(E(-__builtin_inf())));
        if constexpr (P::kBuf) V::storen(p.mx_buf + i, v, c);
        return v;
    }
    SIMDAX_INLINE static R sum_add(const P& p, R v, R s) {
        return MX::template ex_add<true, kSumDeg<T, SoftmaxKind::log>>(v, p.sm_nh, s);
    }
    SIMDAX_INLINE static R out_val(const P& p, R v) { return V::sub(v, p.out_a); }
    // Vectors from out_h on; streamed up to out_se.
    SIMDAX_INLINE static void out_one(const P& p, size_t i, size_t c) {
        if (c == V::N && p.stream && i + V::N <= p.out_se)
            V::stream(result_ptr(p.out_dst + i), out_val(p, V::load(p.out_src + i)));
        else
            out_plain(p, i, c);
    }
    SIMDAX_INLINE static void out_plain(const P& p, size_t i, size_t c) {
        if (c == V::N)
            V::store(result_ptr(p.out_dst + i), out_val(p, V::load(p.out_src + i)));
        else
            V::storen(result_ptr(p.out_dst + i), out_val(p, V::loadn(p.out_src + i, c, V::zero())), c);
    }

    SIMDAX_INLINE static void out_two(const P& p, size_t i) {
        const R a = out_val(p, V::load(p.out_src + i)), b = out_val(p, V::load(p.out_src + i + V::N));
        if (!p.stream || i + 2 * V::N <= p.out_se)
            return store_pair<V>(result_ptr(p.out_dst + i), a, b, p.stream);
        // The streamed lines end inside the pair.
        out_one(p, i, V::N);
        out_one(p, i + V::N, V::N);
    }

    // Elements of a row at src before its first vector boundary, where a
    // vector of S is a whole cache line or more; else 0.
    template <class S>
    static size_t line_head(const S* src, size_t n) {
        constexpr size_t W = V::N * sizeof(S);
        if constexpr (W < kLineBytes) {
            return 0;
        } else {
            const size_t h = before_boundary<W>(src);
            return h < n ? h : 0;
        }
    }

    template <bool SUM, bool OUT, bool MAXS>
    static void run(const P& pp, R& mx, R& sm) {
        const P p = pp;  // locals: the stores to y cannot alias them
        constexpr size_t N = V::N;
        const size_t n = p.n;
        const R ninf = V::set1(E(-__builtin_inf()));
        size_t h = 0;
        if (OUT && p.out_h) {
            h = p.out_h;
            for (size_t j = 0; j < h; j += N) out_plain(p, j, h - j < N ? h - j : N);
        }
        // The MAX and SUM stages' loads start at their source's vector
        // boundary where a vector is a whole cache line (a load split
        // across two lines costs two); the OUT stage's at its stores'.
        const size_t hm = MAXS ? line_head(p.mx_src, n) : 0, hs = SUM ? line_head(p.sm_src, n) : 0;
        const size_t hh = h > hm ? (h > hs ? h : hs) : (hm > hs ? hm : hs);
        const size_t steps = (n - hh) / N;
        R m0 = mx, m1 = ninf, s0 = sm, s1 = V::zero();
        if (MAXS && hm) m1 = max_ldn(p, 0, hm);
        if (SUM && hs) s1 = sum_add(p, V::loadn(p.sm_src, hs, ninf), s1);
        size_t q = 0;
        // Two vectors per stage and step, also with 16 registers (AVX2):
        // the constants GCC then reads from memory cost less than the
        // stage's single max and sum chains, and the output's pair store
        // narrows float16/bfloat16 once for both.
        for (; q + 2 <= steps; q += 2) {
            const size_t a = q * N, b = a + N;
            if (MAXS) {
                m0 = V::max(m0, max_ld(p, hm + a));
                m1 = V::max(m1, max_ld(p, hm + b));
            }
            if (SUM) {
                s0 = sum_add(p, V::load(p.sm_src + hs + a), s0);
                s1 = sum_add(p, V::load(p.sm_src + hs + b), s1);
            }
            if (OUT) out_two(p, h + a);
        }
        for (; q < steps; ++q) {
            const size_t a = q * N;
            if (MAXS) m0 = V::max(m0, max_ld(p, hm + a));
            if (SUM) s0 = sum_add(p, V::load(p.sm_src + hs + a), s0);
            if (OUT) out_one(p, h + a, N);
        }
        // Tails: from each stage's head + steps*N to n.
        if (MAXS)
            for (size_t i = hm + steps * N; i < n; i += N) {
                const size_t c = n - i < N ? n - i : N;
                m1 = V::max(m1, c == N ? max_ld(p, i) : max_ldn(p, i, c));
            }
        if (SUM)
            for (size_t i = hs + steps * N; i < n; i += N) {
                const size_t c = n - i < N ? n - i : N;
                const R v = c == N ? V::load(p.sm_src + i) : V::loadn(p.sm_src + i, c, ninf);
                s1 = sum_add(p, v, s1);
            }
        if (OUT)
            for (size_t i = h + steps * N; i < n; i += N) out_one(p, i, n - i < N ? n - i : N);
        mx = V::max(m0, m1);
        sm = V::add(s0, s1);
    }

    static void dispatch(bool sum, bool out, bool mxs, const P& p, R& mx, R& sm) {
        switch ((sum ? 4 : 0) | (out ? 2 : 0) | (mxs ? 1 : 0)) {
            case 1: return run<false, false, true>(p, mx, sm);
            case 2: return run<false, true, false>(p, mx, sm);
            case 3: return run<false, true, true>(p, mx, sm);
            case 4: return run<true, false, false>(p, mx, sm);
            case 5: return run<true, false, true>(p, mx, sm);
            case 6: return run<true, true, false>(p, mx, sm);
            case 7: return run<true, true, true>(p, mx, sm);
            default: return;
        }
    }
};

constexpr size_t kPipeMaxLag = 16;

template <class T>
void log_softmax_rows_pipelined(const T* x, T* y, size_t rows, size_t n, ptrdiff_t xrs, ptrdiff_t yrs,
                                bool stream) {
    using P = Pipe<T>;
    using O = PipeOps<T>;
    using V = Vec<T>;
    using E = typename V::E;
    using R = typename V::R;
    using MX = SmxMath<V>;
    // The output of row k runs `lag` rows after its sum, so the log of `lag`
    // rows' sums is one vector operation. Rows k-lag ..
    // k+1 are live: they must fit in L1 (and in the float16/bfloat16 ring).
    size_t lag = kRowsL1Bytes / (n * sizeof(E));
    lag = lag < 3 ? 1 : lag - 2;
    lag = lag > V::N ? V::N : lag > kPipeMaxLag ? kPipeMaxLag : lag;
    const size_t live = lag + 2;
    alignas(64) E ring[P::kBuf ? kRowsL1Bytes / sizeof(E) : 1];
    struct Slot {
        E m, hi, a, sum, lo_ln;
        bool alone;  // done outside the pipeline
        bool out;    // its output runs in the pipeline
    };
    Slot sl[kPipeMaxLag + 2];
    alignas(64) E cs[kPipeMaxLag];
    // r % live by multiplications (Lemire's fastmod for 32-bit r): no
    // division per row.
    const uint64_t mod_m = ~uint64_t(0) / live + 1;
    auto ring_index = [&](size_t r) -> size_t {
        if (r >> 32) return r % live;
        return size_t((static_cast<unsigned __int128>(mod_m * uint64_t(r)) * live) >> 64);
    };
    auto slot = [&](size_t r) -> Slot& { return sl[ring_index(r)]; };
    auto row_x = [&](size_t r) { return x + ptrdiff_t(r) * xrs; };
    auto row_y = [&](size_t r) { return y + ptrdiff_t(r) * yrs; };
    auto buf = [&](size_t r) -> E* {
        if constexpr (P::kBuf)
            return ring + ring_index(r) * n;
        else
            return nullptr;
    };
    auto src = [&](size_t r) -> const E* {
        if constexpr (P::kBuf)
            return buf(r);
        else
            return reinterpret_cast<const E*>(row_x(r));
    };
    // After the max of row r: its shift, or the decision to do it alone.
    auto after_max = [&](size_t r, R mv) {
        Slot& s = slot(r);
        const E m = V::hmax(mv);
        s.m = m;
        s.alone = !MX::template foldable<kSumDeg<T, SoftmaxKind::log>>(m);
        s.hi = MX::template hi_of<true>(m);
        s.a = E(0);
        s.out = false;
    };
    // After the sums of rows [r0, r1]: their output constants, the log or
    // reciprocal a vector of rows at a time.
    auto after_sums = [&](size_t r0, size_t r1) {
        const size_t g = r1 - r0 + 1;
        for (size_t i = 0; i < g; ++i) cs[i] = slot(r0 + i).sum;
        for (size_t i = 0; i < g; i += V::N) {
            const size_t c = g - i < V::N ? g - i : V::N;
            const R v = V::loadn(cs + i, c, V::set1(E(1)));
            V::storen(cs + i, MX::log(v), c);
        }
        for (size_t i = 0; i < g; ++i) {
            Slot& s = slot(r0 + i);
            if (s.alone) continue;
            const E ls = cs[i] - s.lo_ln;
            const E c = s.m + ls;
            s.a = c;
            s.out = c < E(16) && c > E(-16);
            if (!s.out) log_softmax_row_out(row_x(r0 + i), row_y(r0 + i), n, s.m, ls, stream);
        }
    };
    P p{};
    p.n = n;
    R mx = V::set1(E(-__builtin_inf())), sm = V::zero();
    p.mx_src = row_x(0);
    if constexpr (P::kBuf) p.mx_buf = buf(0);
    O::dispatch(false, false, true, p, mx, sm);
    after_max(0, mx);
    size_t kl = 0;  // k % lag
    for (size_t k = 0; k < rows + lag; ++k, kl = kl + 1 == lag ? 0 : kl + 1) {
        // SUM row k, OUT row k-lag, MAX row k+1.
        const bool dsum = k < rows && !slot(k).alone;
        const bool dout = k >= lag && k - lag < rows && slot(k - lag).out;
        const bool dmax = k + 1 < rows;
        if (dsum) {
            p.sm_src = src(k);
            p.sm_nh = V::set1(-slot(k).hi);
        }
        if (dout) p.set_out(src(k - lag), row_y(k - lag), slot(k - lag).a, stream);
        if (dmax) {
            p.mx_src = row_x(k + 1);
            if constexpr (P::kBuf) p.mx_buf = buf(k + 1);
        }
        mx = V::set1(E(-__builtin_inf()));
        sm = V::zero();
        if (dsum || dout || dmax) O::dispatch(dsum, dout, dmax, p, mx, sm);
        if (k < rows) {
            Slot& s = slot(k);
            if (dsum) {
                s.sum = V::hsum(sm);
                s.lo_ln = MX::template lo_ln<true>(s.m, s.hi);
            } else {  // alone
                softmax_row_alone<T, SoftmaxKind::log>(row_x(k), row_y(k), n, stream);
            }
            if (kl == lag - 1 || k + 1 == rows) after_sums(k - kl, k);
        }
        if (dmax) after_max(k + 1, mx);
    }
}

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
