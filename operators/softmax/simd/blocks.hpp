// The block passes every LogSoftmax / Softmax kernel is built from: the max
// of a block, the sum of 2^t over it, and the LogSoftmax output form.
//
// A block (kSoftmaxBlock elements) is read once from memory for its max,
// then again from L1 for its sum. t = x*log2(e) - hi with hi = fl(M*log2(e))
// for the max M ("folded": one FMA per element does the max subtraction and
// the base change); the exact remainder lo = M*log2(e) - hi is a common
// factor 2^lo of every term, divided out by Softmax, added as lo*ln2 to
// log(sum) by LogSoftmax. |M| >= 2^22 (or +inf) would make lo too large:
// such a row runs unfolded, t = (x - M)*log2(e). Float64 always runs
// unfolded, with exp_f64.
// Sums: float, 4 vector accumulators (<= 2048/(4N) terms per lane within a
// block), so the float rounding of a row's sum stays below ~1e-6 relative
// for any n the planner sends (<= 2^16).
// Special values: a NaN or +inf in a group makes it NaN, a group of only
// -inf is NaN, -inf beside a finite max gives -inf / 0.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "kernel_table.hpp"
#include "softmax/softmax_kind.hpp"
#include "simd/activation.hpp"
#include "simd/exp2_f32.hpp"
#include "simd/map.hpp"
#include "softmax/simd/smx_math.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

constexpr size_t kSoftmaxBlock = 2048;  // elements
// Float bytes of rows kept in L1 between the passes of a rows strategy.
constexpr size_t kRowsL1Bytes = 24576;

// The max of x[0..n). copy (float16/bfloat16): the float values are written
// there on the way, for the passes that follow to read from L1.
template <class T>
SIMDAX_INLINE typename Vec<T>::E block_max(const T* x, size_t n, typename Vec<T>::E* copy = nullptr) {
    using V = Vec<T>;
    using VE = Vec<typename V::E>;
    using R = typename V::R;
    const R ninf = V::set1(-__builtin_inf());
    R m0 = ninf, m1 = ninf, m2 = ninf, m3 = ninf;
    size_t i = 0;
    // Aligned loads for the main loop (this pass streams from L2 or memory),
    // in rows of 2 KiB or more: in shorter ones the partial head load (and
    // the tail it leaves) costs more than the split loads it saves.
    constexpr size_t W = V::N * sizeof(T);
    const uintptr_t xa = reinterpret_cast<uintptr_t>(x);
    if (n * sizeof(T) >= 2048 && xa % sizeof(T) == 0 && xa % W != 0) {
        i = (W - xa % W) / sizeof(T);
        m3 = V::loadn(x, i, ninf);
        if (copy) VE::storen(copy, m3, i);
    }
    for (; i + 4 * V::N <= n; i += 4 * V::N) {
        R v[4];
        load4(x, i, copy, v);
        m0 = V::max(m0, v[0]);
        m1 = V::max(m1, v[1]);
        m2 = V::max(m2, v[2]);
        m3 = V::max(m3, v[3]);
    }
    for (; i < n; i += V::N) {
        const size_t c = n - i < V::N ? n - i : V::N;
        const R v = c == V::N ? V::load(x + i) : V::loadn(x + i, c, ninf);
        if (copy) VE::storen(copy + i, v, c);
        m0 = V::max(m0, v);
    }
    return V::hmax(V::max(V::max(m0, m1), V::max(m2, m3)));
}

template <class T>
inline bool block_has_nan(const T* x, size_t n) {
    using V = Vec<T>;
    for (size_t i = 0; i < n; i += V::N) {
        const typename V::R v = i + V::N <= n ? V::load(x + i) : V::loadn(x + i, n - i, V::zero());
        if (V::bits(V::isnan(v))) return true;
    }
    return false;
}

// The exp degree of the passes of storage type T: 3 for float16/bfloat16
// (kF3); for float32, Softmax divides by the sum (degree 5), LogSoftmax's
// sum only enters through a log (kF4: an absolute 2.6e-6 there).
template <class T, SoftmaxKind K>
constexpr int kSumDeg = !std::is_same_v<T, typename Vec<T>::E> ? 3
                        : K == SoftmaxKind::log                ? 4
                                                               : 5;

// One vector of a sum pass: s + 2^t of v; STORE also writes 2^t to y, c
// lanes when c < N.
template <class T, bool FOLD, bool STORE, int DEG>
SIMDAX_INLINE typename Vec<T>::R exp_add(typename Vec<T>::R v, typename Vec<T>::R nh, typename Vec<T>::R s,
                                         T* y, size_t c = Vec<T>::N) {
    using V = Vec<T>;
    using MX = SmxMath<V>;
    if constexpr (STORE) {
        const typename V::R e = MX::template ex<FOLD, DEG>(v, nh);
        if (c == V::N)
            V::store(y, e);
        else
            V::storen(y, e, c);
        return V::add(s, e);
    } else {
        return MX::template ex_add<FOLD, DEG>(v, nh, s);
    }
}

// Four vectors of a sum pass: 2^t of x[i..i+4N) added into s0..s3; STORE
// also writes them to y[i..] (y may be null otherwise: no offset is formed).
template <class T, bool FOLD, bool STORE, int DEG>
SIMDAX_INLINE void exp_add4(const T* x, T* y, size_t i, typename Vec<T>::R nh, typename Vec<T>::R& s0,
                            typename Vec<T>::R& s1, typename Vec<T>::R& s2, typename Vec<T>::R& s3) {
    using V = Vec<T>;
    constexpr size_t N = V::N;
    T* const yi = STORE ? y + i : nullptr;
    s0 = exp_add<T, FOLD, STORE, DEG>(V::load(x + i), nh, s0, yi);
    s1 = exp_add<T, FOLD, STORE, DEG>(V::load(x + i + N), nh, s1, STORE ? yi + N : nullptr);
    s2 = exp_add<T, FOLD, STORE, DEG>(V::load(x + i + 2 * N), nh, s2, STORE ? yi + 2 * N : nullptr);
    s3 = exp_add<T, FOLD, STORE, DEG>(V::load(x + i + 3 * N), nh, s3, STORE ? yi + 3 * N : nullptr);
}

// Sum of 2^t over a block (see SmxMath::ex); STORE also writes each 2^t to y.
// Missing lanes of the tail read -inf: 2^t = 0 (or <= 2^-125 without
// kExp2Exact, harmless in a sum >= ~1).
template <class T, bool FOLD, bool STORE, int DEG = 5>
inline typename Vec<T>::R fused_block_sum(const T* x, T* y, size_t n, typename Vec<T>::R nh) {
    using V = Vec<T>;
    using R = typename V::R;
    constexpr size_t N = V::N;
    R s0 = V::zero(), s1 = V::zero(), s2 = V::zero(), s3 = V::zero();
    size_t i = 0;
    if constexpr (RegsOf<V>::value < 32) {  // 16 registers: two vectors per step, no spills
        for (; i + 2 * N <= n; i += 2 * N) {
            s0 = exp_add<T, FOLD, STORE, DEG>(V::load(x + i), nh, s0, STORE ? y + i : nullptr);
            s1 = exp_add<T, FOLD, STORE, DEG>(V::load(x + i + N), nh, s1, STORE ? y + i + N : nullptr);
        }
    } else {
        for (; i + 4 * N <= n; i += 4 * N) exp_add4<T, FOLD, STORE, DEG>(x, y, i, nh, s0, s1, s2, s3);
    }
    for (; i + N <= n; i += N)
        s0 = exp_add<T, FOLD, STORE, DEG>(V::load(x + i), nh, s0, STORE ? y + i : nullptr);
    if (i < n)
        s1 = exp_add<T, FOLD, STORE, DEG>(V::loadn(x + i, n - i, V::set1(-__builtin_inf())), nh, s1,
                                          STORE ? y + i : nullptr, n - i);
    return V::add(V::add(s0, s1), V::add(s2, s3));
}

// A previous row's stored 2^t, scaled in the loop of this row's sums
// (rows_long_softmax.hpp): p[q..end) *= f[its block], one step of 4N
// elements per step of the loop (q a multiple of 4N: no step straddles a
// block). q advances; the caller scales what is left.
template <class E>
struct ScaleRun {
    E* p;
    const E* f;
    size_t q, end;
};

// fused_block_sum over x[0..n), and in the same loop the max of the next
// block xm[0..nm) (returned in mout): the memory-bound reads of the next
// block overlap the exp of this one. x may be a float copy (S = float) of a
// float16/bfloat16 row; copy: where the next block's float values go.
// SCALE: sc's run too.
template <class S, bool FOLD, bool STORE, int DEG = 5, class T = S, bool SCALE = false>
inline typename Vec<T>::R fused_block_sum_max(const S* x, S* y, size_t n, typename Vec<T>::R nh, const T* xm,
                                              size_t nm, typename Vec<T>::E& mout,
                                              typename Vec<T>::E* copy = nullptr,
                                              ScaleRun<typename Vec<T>::E>* sc = nullptr) {
    using V = Vec<T>;
    using E = typename V::E;
    using R = typename V::R;
    constexpr size_t N = V::N;
    const R ninf = V::set1(E(-__builtin_inf()));
    const size_t common = (n < nm ? n : nm) / (4 * N) * (4 * N);
    R s0 = V::zero(), s1 = V::zero(), s2 = V::zero(), s3 = V::zero();
    R m0 = ninf, m1 = ninf;
    // Locals: the stores to y and p cannot alias them.
    E* const sp = SCALE ? sc->p : nullptr;
    const E* const sf = SCALE ? sc->f : nullptr;
    size_t sq = SCALE ? sc->q : 0, ssteps = SCALE ? (sc->end - sc->q) / (4 * N) : 0;
    // LAG (STORE, y up to a step past x mod 4 KiB): each step's 2^t is
    // stored after the next step's loads, which otherwise waited for it in
    // the store buffer (4K aliasing: Softmax [16,32000] with its output 48
    // bytes past its input took 2.1x as long on Zen 4). Its own loop: with
    // 16 registers the lag spills, 1.05x at other placements.
    const auto steps = [&](auto lag_tag) __attribute__((always_inline)) {
        constexpr bool LAG = STORE && decltype(lag_tag)::value;
        R e[4];
        for (size_t i = 0; i < common; i += 4 * N) {
            R v[4];
            load4(xm, i, copy, v);
            m0 = V::max(V::max(m0, v[0]), v[2]);
            m1 = V::max(V::max(m1, v[1]), v[3]);
            if constexpr (LAG) {
                R u[4];
                SIMDAX_UNROLL for (size_t j = 0; j < 4; ++j) u[j] = V::load(x + i + j * N);
                if (i) SIMDAX_UNROLL for (size_t j = 0; j < 4; ++j) V::store(y + i - 4 * N + j * N, e[j]);
                SIMDAX_UNROLL for (size_t j = 0; j < 4; ++j) e[j] =
                    SmxMath<V>::template ex<FOLD, DEG>(u[j], nh);
                s0 = V::add(s0, e[0]);
                s1 = V::add(s1, e[1]);
                s2 = V::add(s2, e[2]);
                s3 = V::add(s3, e[3]);
            } else {
                exp_add4<S, FOLD, STORE, DEG>(x, y, i, nh, s0, s1, s2, s3);
            }
            if (SCALE && ssteps) {
                E* const p = sp + sq;
                const R f = V::set1(sf[sq / kSoftmaxBlock]);
                SIMDAX_UNROLL for (size_t j = 0; j < 4; ++j)
                    V::store(p + j * N, V::mul(V::load(p + j * N), f));
                sq += 4 * N;
                --ssteps;
            }
        }
        if (LAG && common)
            SIMDAX_UNROLL for (size_t j = 0; j < 4; ++j) V::store(y + common - 4 * N + j * N, e[j]);
    };
    if (STORE && stores_meet_later_loads(x, y, 4 * N * sizeof(S)))
        steps(std::true_type{});
    else
        steps(std::false_type{});
    if (SCALE) sc->q = sq;
    R sum = V::add(V::add(s0, s1), V::add(s2, s3));
    if (common < n)
        sum = V::add(
            sum, fused_block_sum<S, FOLD, STORE, DEG>(x + common, STORE ? y + common : y, n - common, nh));
    typename V::E m = V::hmax(V::max(m0, m1));
    if (common < nm) {
        const typename V::E r = block_max(xm + common, nm - common, copy ? copy + common : nullptr);
        m = m > r ? m : r;  // a NaN of the rest is lost like block_max loses it
    }
    mout = m;
    return sum;
}

// LogSoftmax output of one row given ls, the log of the true sum.
template <class T>
inline void log_softmax_row_out(const T* x, T* y, size_t n, typename Vec<T>::E m, typename Vec<T>::E ls,
                                bool stream = false) {
    using V = Vec<T>;
    using E = typename V::E;
    using R = typename V::R;
    const E c = m + ls;
    // One rounded constant when |m + ls| < 16 (its rounding error <= 2^-20).
    if (c < E(16) && c > E(-16)) {
        const R vc = V::set1(c);
        map(
            x, result_ptr(y), n, [vc](R v) { return V::sub(v, vc); }, stream);
    } else {
        const R vm = V::set1(m), vl = V::set1(ls);  // NaN rows come here
        map(
            x, result_ptr(y), n, [vm, vl](R v) { return V::sub(V::sub(v, vm), vl); }, stream);
    }
}

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
