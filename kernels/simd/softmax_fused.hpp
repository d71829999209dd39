// Fused rows kernels for LogSoftmax / Softmax: `rows` whole groups of n
// contiguous elements per call (kernel_table.hpp), each group reduced and
// written without a MaxSum state or a double-precision combine.
//
// Per row, in blocks of kFusedBlock elements (a block is read once from
// memory, then again from L1):
//   block max (float), then sum of 2^t over the block, t = x*log2(e) - hi
//   with hi = fl(M*log2(e)) for the running max M: one FMA per element does
//   the max subtraction and the base change. The exact remainder
//   lo = M*log2(e) - hi (an FMA, once per row) is a common factor 2^lo of
//   every term: Softmax divides it out by itself, LogSoftmax adds lo*ln2 to
//   log(sum). When the max grows, the partial sum is rescaled once.
//   |M| >= 2^22 (or +inf) would make lo (up to ulp(M*log2e)/2) too large:
//   such a row is redone "unfolded", t = (x - M)*log2(e).
//   Float64 always computes unfolded, with exp_f64.
// Sums: float, 4 vector accumulators within a block (<= 2048/(4N) terms per
// lane), block sums added into one more vector: the float rounding of the
// sum stays below ~1e-6 relative for any n the planner sends (<= 2^16).
// Short rows run in batches (softmax_rows_batched), LogSoftmax rows over
// 1 KiB as a software pipeline (log_softmax_rows_pipelined).
// Float32 Softmax stores 2^t into y during the sum pass and only rescales it
// in the output pass (no second exp).
// Output: LogSoftmax y = x - (M + ls) with one rounded constant when
// |M + ls| < 16 (its rounding error <= 2^-20), else (x - M) - ls.
// Special values as the chunk kernels: a NaN or +inf in a row makes it NaN, a
// row of only -inf is NaN, -inf beside a finite max gives -inf / 0.
#pragma once

#include <cmath>
#include <cstring>
#include <type_traits>

#include "kernel_table.hpp"
#include "simd/activation.hpp"
#include "simd/exp2_f32.hpp"
#include "simd/softmax_rows.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

constexpr size_t kFusedBlock = 2048;          // elements
constexpr size_t kFusedMaxBlocks = 64;        // float32 Softmax: per-block scales kept

// fused_block_sum over x[0..n), and in the same loop the max of the next
// block xm[0..nm) (returned in mout): the memory-bound reads of the next
// block overlap the exp of this one.
template <class T, bool FOLD, bool STORE, int DEG = 5>
inline typename Vec<T>::R fused_block_sum_max(const T* x, T* y, size_t n, typename Vec<T>::R nh,
                                              const T* xm, size_t nm, typename Vec<T>::E& mout) {
    using V = Vec<T>;
    using R = typename V::R;
    using MX = SmxMath<V>;
    constexpr bool Z = STORE;
    constexpr size_t N = V::N;
    const R ninf = V::set1(typename V::E(-__builtin_inf()));
    const size_t common = (n < nm ? n : nm) / (4 * N) * (4 * N);
    R s0 = V::zero(), s1 = V::zero(), s2 = V::zero(), s3 = V::zero(), m0 = ninf, m1 = ninf;
    for (size_t i = 0; i < common; i += 4 * N) {
        m0 = V::max(m0, V::load(xm + i));
        m1 = V::max(m1, V::load(xm + i + N));
        const R e0 = MX::template ex<FOLD, Z, DEG>(V::load(x + i), nh);
        const R e1 = MX::template ex<FOLD, Z, DEG>(V::load(x + i + N), nh);
        m0 = V::max(m0, V::load(xm + i + 2 * N));
        m1 = V::max(m1, V::load(xm + i + 3 * N));
        const R e2 = MX::template ex<FOLD, Z, DEG>(V::load(x + i + 2 * N), nh);
        const R e3 = MX::template ex<FOLD, Z, DEG>(V::load(x + i + 3 * N), nh);
        if constexpr (STORE) {
            V::store(y + i, e0);
            V::store(y + i + N, e1);
            V::store(y + i + 2 * N, e2);
            V::store(y + i + 3 * N, e3);
        }
        s0 = V::add(s0, e0);
        s1 = V::add(s1, e1);
        s2 = V::add(s2, e2);
        s3 = V::add(s3, e3);
    }
    R s = V::add(V::add(s0, s1), V::add(s2, s3));
    if (common < n) s = V::add(s, fused_block_sum<T, FOLD, STORE, DEG>(x + common, y + common, n - common, nh));
    typename V::E m = V::hmax(V::max(m0, m1));
    if (common < nm) {
        const typename V::E r = block_max(xm + common, nm - common);
        m = m > r ? m : r;  // a NaN of the rest is lost like block_max loses it
    }
    mout = m;
    return s;
}

// A row's statistics: max m, shift hi, sum s of 2^t (NaN when the row's
// output is NaN), lo_ln = lo*ln2.
template <class E>
struct RowStat {
    E m, hi, s, lo_ln;
    bool fold;
};

// One row's pass 1. Returns false when FOLD meets a max too large to fold
// (the caller redoes the row unfolded). STORE: block b's 2^t values are
// relative to bhi[b] (-inf for a block of only -inf, stored as zeros).
template <class T, bool FOLD, bool STORE, int DEG>
inline bool row_stats(const T* x, T* y, size_t n, RowStat<typename Vec<T>::E>& st,
                      typename Vec<T>::E* bhi) {
    using V = Vec<T>;
    using E = typename V::E;
    using R = typename V::R;
    using MX = SmxMath<V>;
    const E ninf = E(-__builtin_inf());
    E m = ninf, hi = 0;
    R acc = V::zero();
    bool have = false, bad = false;
    // The max of block k+1 is taken in the same loop as the sum of block k.
    E bm_next = block_max(x, n < kFusedBlock ? n : kFusedBlock);
    for (size_t b = 0, k = 0; b < n; b += kFusedBlock, ++k) {
        const size_t nb = n - b < kFusedBlock ? n - b : kFusedBlock;
        const size_t b2 = b + kFusedBlock, nb2 = b2 < n ? (n - b2 < kFusedBlock ? n - b2 : kFusedBlock) : 0;
        const E bm = bm_next;
        if (!(bm > ninf)) {  // only -inf (contributes 0), or a NaN max
            if (bm != bm || block_has_nan(x + b, nb)) bad = true;
            if constexpr (STORE) {
                std::memset(static_cast<void*>(y + b), 0, nb * sizeof(T));
                bhi[k] = ninf;
            }
            if (nb2) bm_next = block_max(x + b2, nb2);
            continue;
        }
        if (FOLD && !MX::foldable(bm)) return false;
        if (bm > m) {
            const E nhi = MX::template hi_of<FOLD>(bm);
            if (have) acc = V::mul(acc, V::set1(MX::template rescale<FOLD>(hi, nhi)));
            m = bm;
            hi = nhi;
        }
        have = true;
        if (nb2)
            acc = V::add(acc, fused_block_sum_max<T, FOLD, STORE, DEG>(x + b, y + b, nb, V::set1(-hi), x + b2, nb2,
                                                                  bm_next));
        else
            acc = V::add(acc, fused_block_sum<T, FOLD, STORE, DEG>(x + b, y + b, nb, V::set1(-hi)));
        if constexpr (STORE) bhi[k] = hi;
    }
    st.m = m;
    st.hi = hi;
    st.s = (bad || !have) ? E(__builtin_nan("")) : V::hsum(acc);
    st.lo_ln = have ? MX::template lo_ln<FOLD>(m, hi) : E(0);
    st.fold = FOLD;
    return true;
}

template <class T, bool STORE, int DEG>
inline void row_stats_any(const T* x, T* y, size_t n, RowStat<typename Vec<T>::E>& st,
                          typename Vec<T>::E* bhi) {
    if constexpr (SmxMath<Vec<T>>::kCanFold) {
        if (row_stats<T, true, STORE, DEG>(x, y, n, st, bhi)) return;
    }
    row_stats<T, false, STORE, DEG>(x, y, n, st, bhi);
}

template <class T>
inline void softmax_row_out(const T* x, T* y, size_t n, const RowStat<typename Vec<T>::E>& st,
                            typename Vec<T>::E inv, bool stream) {
    using V = Vec<T>;
    using R = typename V::R;
    using MX = SmxMath<V>;
    const R nh = V::set1(-st.hi), vi = V::set1(inv);
    if (st.fold)
        map(x, y, n, [nh, vi](R v) { return V::mul(MX::template ex<true, true>(v, nh), vi); }, stream);
    else
        map(x, y, n, [nh, vi](R v) { return V::mul(MX::template ex<false, true>(v, nh), vi); }, stream);
}

// y[i] *= f over a contiguous float/double run.
template <class E>
inline void scale_in_place(E* y, size_t n, E f) {
    using V = Vec<E>;
    using R = typename V::R;
    const R vf = V::set1(f);
    map(y, y, n, [vf](R v) { return V::mul(v, vf); });
}

// ---------------------------------------------------------------------------
// LogSoftmax rows of 1 KiB to kFusedBlock elements, several rows: a software
// pipeline (shorter rows and Softmax run in batches, below). One loop
// over the element index does three stages on three rows at once: the max
// of row k+1 (read from memory; float16/bfloat16 converted once into a ring
// buffer), the sum of row k (from L1), and the output of row k-1 (stores
// aligned to the vector). The loads/stores of the memory-bound stages then
// hide under the exp of the sum. A row whose max is not an ordinary number
// (NaN, +-inf, |max| >= 2^22) or whose output needs the two-step form is
// done on its own, outside the pipeline.

template <class T>
struct Pipe {
    using V = Vec<T>;
    using E = typename V::E;
    using R = typename V::R;
    static constexpr bool kBuf = !std::is_same_v<T, E>;
    size_t n;
    const T* mx_src;  // MAX stage: row k+1
    E* mx_buf;        // its float copy (kBuf)
    const E* sm_src;  // SUM stage: row k
    R sm_nh;          // -hi of row k
    const E* out_src;  // OUT stage: row k-lag
    T* out_dst;
    R out_a;          // M + ls
    size_t out_h;    // elements before the first aligned store
    bool stream;     // non-temporal stores for the aligned output vectors
};

template <class T>
struct PipeOps {
    using P = Pipe<T>;
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
    SIMDAX_INLINE static R sum_ex(const P& p, R v) {
        return MX::template ex<true, false, kSumDeg<true>>(v, p.sm_nh);
    }
    SIMDAX_INLINE static R out_val(const P& p, R v) { return V::sub(v, p.out_a); }
    SIMDAX_INLINE static void out_one(const P& p, size_t i, size_t c) {
        if (c == V::N && p.stream) V::stream(p.out_dst + i, out_val(p, V::load(p.out_src + i)));
        else if (c == V::N) V::store(p.out_dst + i, out_val(p, V::load(p.out_src + i)));
        else V::storen(p.out_dst + i, out_val(p, V::loadn(p.out_src + i, c, V::zero())), c);
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
            out_one(p, 0, h);
        }
        const size_t steps = (n - h) / N;
        R m0 = mx, m1 = ninf, s0 = sm, s1 = V::zero();
        size_t q = 0;
        // Two vectors per stage and step where the register file has room
        // for them (32 registers); with 16 (AVX2) the second set would spill.
        constexpr size_t U = RegsOf<V>::value >= 32 ? 2 : 1;
        for (; q + 2 <= steps && U == 2; q += 2) {
            const size_t a = q * N, b = a + N;
            if (MAXS) {
                m0 = V::max(m0, max_ld(p, a));
                m1 = V::max(m1, max_ld(p, b));
            }
            if (SUM) {
                s0 = V::add(s0, sum_ex(p, V::load(p.sm_src + a)));
                s1 = V::add(s1, sum_ex(p, V::load(p.sm_src + b)));
            }
            if (OUT) {
                out_one(p, h + a, N);
                out_one(p, h + b, N);
            }
        }
        for (; q < steps; ++q) {
            const size_t a = q * N;
            if (MAXS) m0 = V::max(m0, max_ld(p, a));
            if (SUM) s0 = V::add(s0, sum_ex(p, V::load(p.sm_src + a)));
            if (OUT) out_one(p, h + a, N);
        }
        // Tails: [steps*N, n) for MAX and SUM, [h + steps*N, n) for OUT.
        for (size_t i = steps * N; i < n; i += N) {
            const size_t c = n - i < N ? n - i : N;
            if (MAXS) m1 = V::max(m1, c == N ? max_ld(p, i) : max_ldn(p, i, c));
            if (SUM) {
                const R v = c == N ? V::load(p.sm_src + i) : V::loadn(p.sm_src + i, c, ninf);
                s1 = V::add(s1, sum_ex(p, v));
            }
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

// One row done alone (the general path): statistics, then its output.
template <class T, bool LOG>
inline void softmax_row_alone(const T* x, T* y, size_t n, bool stream) {
    using V = Vec<T>;
    using E = typename V::E;
    using MX = SmxMath<V>;
    constexpr bool kStoreOk = !LOG && std::is_same_v<T, E>;
    const size_t nblocks = (n + kFusedBlock - 1) / kFusedBlock;
    const bool store = kStoreOk && nblocks <= kFusedMaxBlocks &&
                       static_cast<const void*>(x) != static_cast<void*>(y);
    RowStat<E> st;
    E bhi[kFusedMaxBlocks];
    if (store) row_stats_any<T, kStoreOk, kSumDeg<LOG>>(x, y, n, st, bhi);
    else row_stats_any<T, false, kSumDeg<LOG>>(x, y, n, st, bhi);
    if (LOG) {
        const E ls = V::first(MX::log(V::set1(st.s))) - st.lo_ln;
        log_softmax_row_out(x, y, n, st.m, ls, stream);
        return;
    }
    const E inv = E(1) / st.s;
    if (!store) return softmax_row_out(x, y, n, st, inv, stream);
    E* ye = reinterpret_cast<E*>(y);
    for (size_t b = 0, k = 0; b < n; b += kFusedBlock, ++k) {
        const size_t nb = n - b < kFusedBlock ? n - b : kFusedBlock;
        E f = inv;
        if (bhi[k] != st.hi)
            f *= st.fold ? MX::template rescale<true>(bhi[k], st.hi)
                         : MX::template rescale<false>(bhi[k], st.hi);
        scale_in_place(ye + b, nb, f);
    }
}

constexpr size_t kPipeBytes = 24576;  // rows kept in L1 between the stages (and ring buffer)
constexpr size_t kPipeMaxLag = 16;

template <class T>
void log_softmax_rows_pipelined(const T* x, T* y, size_t rows, size_t n, ptrdiff_t xrs,
                                ptrdiff_t yrs, bool stream) {
    using P = Pipe<T>;
    using O = PipeOps<T>;
    using V = Vec<T>;
    using E = typename V::E;
    using R = typename V::R;
    using MX = SmxMath<V>;
    constexpr size_t W = V::N * sizeof(T);
    // The output of row k runs `lag` rows after its sum, so the log of `lag`
    // rows' sums is one vector operation. Rows k-lag ..
    // k+1 are live: they must fit in L1 (and in the float16/bfloat16 ring).
    size_t lag = kPipeBytes / (n * sizeof(E));
    lag = lag < 3 ? 1 : lag - 2;
    lag = lag > V::N ? V::N : lag > kPipeMaxLag ? kPipeMaxLag : lag;
    const size_t live = lag + 2;
    alignas(64) E ring[P::kBuf ? kPipeBytes / sizeof(E) : 1];
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
        if constexpr (P::kBuf) return ring + ring_index(r) * n;
        else return nullptr;
    };
    auto src = [&](size_t r) -> const E* {
        if constexpr (P::kBuf) return buf(r);
        else return reinterpret_cast<const E*>(row_x(r));
    };
    // After the max of row r: its shift, or the decision to do it alone.
    auto after_max = [&](size_t r, R mv) {
        Slot& s = slot(r);
        const E m = V::hmax(mv);
        s.m = m;
        s.alone = !MX::foldable(m);
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
        if (dout) {
            const Slot& s = slot(k - lag);
            T* yo = row_y(k - lag);
            p.out_dst = yo;
            p.out_src = src(k - lag);
            p.out_a = V::set1(s.a);
            const uintptr_t ya = reinterpret_cast<uintptr_t>(yo);
            p.out_h = (ya % sizeof(T) == 0 && ya % W != 0) ? (W - ya % W) / sizeof(T) : 0;
            if (p.out_h >= n) p.out_h = 0;
            p.stream = stream && ya % sizeof(T) == 0 && (ya + p.out_h * sizeof(T)) % W == 0;
        }
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
                softmax_row_alone<T, true>(row_x(k), row_y(k), n, stream);
            }
            if (kl == lag - 1 || k + 1 == rows) after_sums(k - kl, k);
        }
        if (dmax) after_max(k + 1, mx);
    }
}

// Short rows in batches: up to V::N rows whose float values fit in L1 (the
// float16/bfloat16 ones converted once, by the max pass, into buf). Per
// batch: the max of each row, the sums of 2^t, one vector log (LogSoftmax)
// or reciprocal (Softmax) for all the batch's sums, then the outputs. Each
// pass is a plain loop over a row, with no per-row bookkeeping between them.
// A row whose max is not an ordinary number (NaN lost by max, +-inf,
// |max| >= 2^22) is done on its own; a NaN the max lost reaches the sum.
// Batches suit Softmax at every row length (no second exp either way, and
// the rescale pass reads y from L1), and LogSoftmax on rows up to 1 KiB;
// longer LogSoftmax rows gain from the pipeline's overlap of the output
// stores and the next row's reads with the exp.
constexpr size_t kBatchMaxRowBytes = 1024;

template <class T, bool LOG, bool STORE>
void softmax_rows_batched(const T* x, T* y, size_t rows, size_t n, ptrdiff_t xrs, ptrdiff_t yrs,
                          bool stream) {
    using V = Vec<T>;
    using E = typename V::E;
    using R = typename V::R;
    using MX = SmxMath<V>;
    constexpr bool kBuf = !std::is_same_v<T, E>;
    constexpr size_t N = V::N;
    size_t batch = kPipeBytes / (n * sizeof(E));
    batch = batch < 1 ? 1 : batch > N ? N : batch;
    alignas(64) E buf[kBuf ? kPipeBytes / sizeof(E) : 1];
    alignas(64) E m[N], hi[N], cs[N];
    bool alone[N];
    for (size_t r0 = 0; r0 < rows; r0 += batch) {
        const size_t b = rows - r0 < batch ? rows - r0 : batch;
        for (size_t i = 0; i < b; ++i) {
            m[i] = block_max(x + ptrdiff_t(r0 + i) * xrs, n, kBuf ? buf + i * n : nullptr);
            alone[i] = !MX::foldable(m[i]);
            hi[i] = MX::template hi_of<true>(m[i]);
        }
        auto src = [&](size_t i) -> const E* {
            if constexpr (kBuf) return buf + i * n;
            else return reinterpret_cast<const E*>(x + ptrdiff_t(r0 + i) * xrs);
        };
        for (size_t i = 0; i < b; ++i) {
            cs[i] = E(1);
            if (alone[i]) continue;
            E* st = STORE ? reinterpret_cast<E*>(y + ptrdiff_t(r0 + i) * yrs) : nullptr;
            cs[i] = V::hsum(fused_block_sum<E, true, STORE, kSumDeg<LOG>>(src(i), st, n, V::set1(-hi[i])));
        }
        for (size_t i = 0; i < b; i += N) {
            const size_t c = b - i < N ? b - i : N;
            const R v = V::loadn(cs + i, c, V::set1(E(1)));
            V::storen(cs + i, LOG ? MX::log(v) : V::div(V::set1(E(1)), v), c);
        }
        for (size_t i = 0; i < b; ++i) {
            const T* xr = x + ptrdiff_t(r0 + i) * xrs;
            T* yr = y + ptrdiff_t(r0 + i) * yrs;
            if (alone[i]) {
                softmax_row_alone<T, LOG>(xr, yr, n, stream);
                continue;
            }
            const E* sp = src(i);
            auto ld = [sp](size_t j, size_t c) { return c == N ? V::load(sp + j) : V::loadn(sp + j, c, V::zero()); };
            if constexpr (LOG) {
                const E ls = cs[i] - MX::template lo_ln<true>(m[i], hi[i]);
                const E c = m[i] + ls;
                if (!(c < E(16) && c > E(-16))) {
                    log_softmax_row_out(xr, yr, n, m[i], ls, stream);
                    continue;
                }
                const R vc = V::set1(c);
                store_run(yr, n, stream, [&](size_t j, size_t cnt) { return V::sub(ld(j, cnt), vc); });
            } else if constexpr (STORE) {
                scale_in_place(reinterpret_cast<E*>(yr), n, cs[i]);
            } else {
                const R nh = V::set1(-hi[i]), vi = V::set1(cs[i]);
                store_run(yr, n, stream, [&](size_t j, size_t cnt) {
                    return V::mul(MX::template ex<true, true>(ld(j, cnt), nh), vi);
                });
            }
        }
    }
}

// A row of at most one vector: one masked load and store, no blocks (a
// 4-element LogSoftmax is otherwise mostly the block machinery). Same math as
// row_stats with FOLD. Returns false, having written nothing, for a row the
// general path must do: a NaN, an infinite max, or a max too large to fold.
template <class T, bool LOG>
inline bool softmax_row_short(const T* x, T* y, size_t n) {
    using V = Vec<T>;
    using E = typename V::E;
    using R = typename V::R;
    using MX = SmxMath<V>;
    const R v = V::loadn(x, n, V::set1(E(-__builtin_inf())));
    const E m = V::hmax(v);
    if (V::bits(V::isnan(v)) || !MX::foldable(m)) return false;
    const E hi = MX::template hi_of<true>(m);
    // Missing lanes are -inf: 2^t = 0 (ZERO), or <= 2^-126 in a sum >= ~1.
    const R e = MX::template ex<true, !LOG, kSumDeg<LOG>>(v, V::set1(-hi));
    const E s = V::hsum(e);
    if constexpr (LOG) {
        const E ls = V::first(MX::log(V::set1(s))) - MX::template lo_ln<true>(m, hi);
        const E c = m + ls;
        const R out = c < E(16) && c > E(-16) ? V::sub(v, V::set1(c))
                                              : V::sub(V::sub(v, V::set1(m)), V::set1(ls));
        V::storen(y, out, n);
    } else {
        V::storen(y, V::mul(e, V::set1(E(1) / s)), n);
    }
    return true;
}

template <class T, bool LOG>
void softmax_or_log_rows(const void* xv, void* yv, size_t rows, size_t n, ptrdiff_t xrs, ptrdiff_t yrs) {
    const VecScope scope;
    using E = typename Vec<T>::E;
    const T* x = static_cast<const T*>(xv);
    T* y = static_cast<T*>(yv);
    // A large output (the executor passes many rows per call) is streamed.
    const bool stream = static_cast<const void*>(x) != static_cast<void*>(y) &&
                        rows * n * sizeof(T) >= kStreamBytes;
    if constexpr (SmxMath<Vec<T>>::kCanFold) {
        if (n <= Vec<T>::N && !stream) {
            for (size_t r = 0; r < rows; ++r) {
                const T* xr = x + ptrdiff_t(r) * xrs;
                T* yr = y + ptrdiff_t(r) * yrs;
                if (!softmax_row_short<T, LOG>(xr, yr, n)) softmax_row_alone<T, LOG>(xr, yr, n, false);
            }
            return;
        }
        if (rows >= 2 && n <= kFusedBlock) {
            // Softmax keeps 2^t in y (float32; never in place: y is written
            // before the output pass reads it).
            constexpr bool kStore = !LOG && std::is_same_v<T, E>;
            const bool st = kStore && static_cast<const void*>(x) != static_cast<void*>(y);
            if (!LOG || n * sizeof(E) <= kBatchMaxRowBytes) {
                if (st) softmax_rows_batched<T, LOG, kStore>(x, y, rows, n, xrs, yrs, stream);
                else softmax_rows_batched<T, LOG, false>(x, y, rows, n, xrs, yrs, stream);
            } else {
                log_softmax_rows_pipelined<T>(x, y, rows, n, xrs, yrs, stream);
            }
            if (stream) stream_fence();
            return;
        }
    }
    for (size_t r = 0; r < rows; ++r)
        softmax_row_alone<T, LOG>(x + ptrdiff_t(r) * xrs, y + ptrdiff_t(r) * yrs, n, stream);
    if (stream) stream_fence();
}

template <class T>
void log_softmax_rows(const void* x, void* y, size_t rows, size_t n, ptrdiff_t xrs, ptrdiff_t yrs) {
    softmax_or_log_rows<T, true>(x, y, rows, n, xrs, yrs);
}
template <class T>
void softmax_rows(const void* x, void* y, size_t rows, size_t n, ptrdiff_t xrs, ptrdiff_t yrs) {
    softmax_or_log_rows<T, false>(x, y, rows, n, xrs, yrs);
}

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
