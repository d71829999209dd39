// MeanVarianceNormalization passes.
//   moments: shifted statistics per L1-sized block. d = x - x[b] (the
//     block's first element): sums of d and d^2, enough when x[b] lies near
//     the block mean (kOnePassSpread); otherwise over the block again
//     e = d - mean_d: sum e (corrects the float mean) and sum e^2.
//     Block (count, mean, M2) are folded into the state in double (Chan et
//     al.), so a float32 group with mean 1e4 and std 1 keeps its digits.
//     Float blocks holding |x| > kHugeF32 (whose squared deviations could
//     overflow float), or only tiny values whose squared deviations sum below
//     kTinyVarF32 (subnormal rounding eats their digits), are summed in
//     double instead.
//   normalize: y = act(scale*((x - mean_hi) - mean_lo)*inv_std + bias), the
//     double mean split into two floats (x - mean_hi is exact near the mean).
//   mvn_cols: the same per lane over strided rows (row blocks of kColRows).
//   mvn_rows: whole rows, statistics in the compute type: pass A sums
//     d = x - x[0] and d^2 (s = x[0]). Only when x[0] lies far from the
//     mean (sum d^2 > kOnePassSpread * M2) does pass B sum e = x - s and
//     e^2 around s = x[0] + mean(d). mean = s + sum(e)/n carried as the
//     pair (s, sum(e)/n). Sums run in 4+4 vector accumulators per block of
//     kMomentsBlock and block sums in one more vector.
//     Output y = act(scale*((x - s)*inv - sum(e)/n*inv) + bias), folded into
//     one FMA after the subtraction when scale and bias are constant on the
//     row.
//   A group (row, lane, chunked group) whose statistics fail fits_fast_path
//     (an infinity or NaN, huge or near-subnormal magnitudes, a variance
//     below the compute type's reach) is evaluated by the wide path of
//     kernels/mvn_wide.hpp instead: normalize_wide, and the redo branches
//     of mvn_cols and row_moments.
// Scale/bias element i (or lane l of row j) is at p[i*stride] (p[j*rs +
// l*ks]); stride 0 and 1 are the fast paths.
#pragma once

#include <cmath>
#include <limits>
#include <type_traits>
#include <utility>

#include "kernel_table.hpp"
#include "mvn_wide.hpp"
#include "simd/activation.hpp"
#include "simd/lane_blocks.hpp"
#include "simd/map.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

constexpr size_t kMomentsBlock = 2048;
constexpr size_t kNormBlock = 512;
constexpr size_t kMvnColRows = 64;
// Above this magnitude, (x - shift)^2 summed over a block may overflow float.
constexpr float kHugeF32 = 1e17f;
// Below this, a float sum of squared deviations (or variance + epsilon) has
// lost digits to subnormal rounding; it is redone in double. A block with a
// value of magnitude >= kTinyAbsF32 and any other value deviates by at least
// 2^-50 (half the float spacing there), so only blocks of values under
// kTinyAbsF32 fall below it without being constant (c2 exactly 0).
constexpr float kTinyVarF32 = 0x1p-100f;
constexpr float kTinyAbsF32 = 0x1p-25f;

template <class T>
inline bool is_huge(typename Vec<T>::E amax) {
    return sizeof(typename Vec<T>::E) == 4 && amax > typename Vec<T>::E(kHugeF32);
}

// A block of tiny values whose float sum of squared deviations c2 is too
// small to trust (zeros excepted: their c2 = 0 is exact).
template <class T>
inline bool is_tiny(typename Vec<T>::E amax, typename Vec<T>::E c2) {
    using E = typename Vec<T>::E;
    return sizeof(E) == 4 && c2 < E(kTinyVarF32) && amax > E(0) && amax < E(kTinyAbsF32);
}

// Vector sums of d = x - sh (TWO: (x - sh) - sh2) and of d^2 over one block
// (four chains each: fewer wait on the FMA latency; missing tail lanes count
// 0). AMAX: also the largest |x|. copy (float16/bfloat16 rows): the block's float
// values are written there on the way. pfw: the output block, prefetched
// for writing (its reads for ownership overlap this pass's reads of x).
template <class T>
struct BlockSums {
    typename Vec<T>::R s, q, am;
};

template <class T, bool AMAX, bool TWO = false>
inline BlockSums<T> shifted_block_sums(const T* xb, size_t nb, typename Vec<T>::R vs,
                                       typename Vec<T>::E* copy, const char* pfw, size_t pfw_esize,
                                       typename Vec<T>::R vs2 = Vec<T>::zero()) {
    using V = Vec<T>;
    using VE = Vec<typename V::E>;
    using R = typename V::R;
    constexpr size_t N = V::N;
    R a0 = V::zero(), a1 = V::zero(), a2 = V::zero(), a3 = V::zero(), am = V::zero();
    R q0 = V::zero(), q1 = V::zero(), q2 = V::zero(), q3 = V::zero();
    size_t i = 0;
    for (; i + 4 * N <= nb; i += 4 * N) {
        if (pfw) prefetch_row(pfw + i * pfw_esize, 4 * N * pfw_esize, true);
        const R v0 = V::load(xb + i), v1 = V::load(xb + i + N);
        const R v2 = V::load(xb + i + 2 * N), v3 = V::load(xb + i + 3 * N);
        if (copy) {
            VE::store(copy + i, v0);
            VE::store(copy + i + N, v1);
            VE::store(copy + i + 2 * N, v2);
            VE::store(copy + i + 3 * N, v3);
        }
        if (AMAX) am = V::max(V::max(am, V::abs(v0)), V::max(V::abs(v1), V::max(V::abs(v2), V::abs(v3))));
        R e0 = V::sub(v0, vs), e1 = V::sub(v1, vs), e2 = V::sub(v2, vs), e3 = V::sub(v3, vs);
        if constexpr (TWO) {
            e0 = V::sub(e0, vs2);
            e1 = V::sub(e1, vs2);
            e2 = V::sub(e2, vs2);
            e3 = V::sub(e3, vs2);
        }
        a0 = V::add(a0, e0);
        a1 = V::add(a1, e1);
        a2 = V::add(a2, e2);
        a3 = V::add(a3, e3);
        q0 = V::fma(e0, e0, q0);
        q1 = V::fma(e1, e1, q1);
        q2 = V::fma(e2, e2, q2);
        q3 = V::fma(e3, e3, q3);
    }
    for (; i < nb; i += N) {
        const size_t cnt = i + N <= nb ? N : nb - i;
        const R v = cnt == N ? V::load(xb + i) : V::loadn(xb + i, cnt, vs);
        if (copy) VE::storen(copy + i, v, cnt);
        if (AMAX) am = V::max(am, V::abs(v));
        R e = V::sub(v, vs);
        if constexpr (TWO) e = V::blend(V::lanes(cnt), V::zero(), V::sub(e, vs2));
        a0 = V::add(a0, e);
        q0 = V::fma(e, e, q0);
    }
    return {V::add(V::add(a0, a1), V::add(a2, a3)), V::add(V::add(q0, q1), V::add(q2, q3)), am};
}

// One pass shifted by x[0] (a block's or row's first element) is enough
// when x[0] lies near the mean: the sum of squares then exceeds M2 by at
// most this factor, and its rounding error by as much over a second pass
// around the mean. Float16/bfloat16 (1 ulp is 2^-8..2^-11) allow a wider
// spread than float32 and float64.
template <class T>
constexpr double kOnePassSpread = std::is_same_v<T, typename Vec<T>::E> ? 4.0 : 64.0;

// M2 of n values from the sums of their deviations d from x[0] and of d^2;
// false when x[0] lies too far from the mean for one pass (or on NaN).
template <class T>
inline bool one_pass_m2(double sd, double sq, double n, double* m2) {
    *m2 = sq - sd * sd / n;
    return *m2 * kOnePassSpread<T> >= sq;
}

template <class T>
void moments(const void* xv, size_t n, Moments* st) {
    const VecScope scope;
    using V = Vec<T>;
    using E = typename V::E;
    using R = typename V::R;
    const T* x = static_cast<const T*>(xv);
    for (size_t b = 0; b < n; b += kMomentsBlock) {
        const size_t nb = n - b < kMomentsBlock ? n - b : kMomentsBlock;
        const T* xb = x + b;
        const E shift = to_e(xb[0]);
        const R sh = V::set1(shift);
        const BlockSums<T> bs = shifted_block_sums<T, true>(xb, nb, sh, nullptr, nullptr, 0);
        const auto in_double = [&] {
            const auto w = wide_moments_n<double>(nb, [&](size_t q) { return to_e(xb[q]); });
            chan_combine(st, double(nb), w.mean, w.m2);
        };
        const E amax = V::hmax(bs.am);
        if (is_huge<T>(amax)) {
            in_double();
            continue;
        }
        // One pass when the block's first element lies near its mean (as
        // row_moments): M2 from the sums of d and d^2.
        const E sd = V::hsum(bs.s);
        const E sq = V::hsum(bs.q);
        double m2_one;
        if (one_pass_m2<T>(sd, sq, double(nb), &m2_one) && !is_tiny<T>(amax, E(m2_one))) {
            chan_combine(st, double(nb), double(shift) + double(sd) / double(nb), m2_one);
            continue;
        }
        const E dm = sd / E(nb);
        // Around the block mean: e = (x - x[b]) - mean_d, two roundings as
        // the one-pass sums (exact near the mean).
        const BlockSums<T> bs2 = shifted_block_sums<T, false, true>(xb, nb, sh, nullptr, nullptr, 0, V::set1(dm));
        const E c2f = V::hsum(bs2.q);
        if (is_tiny<T>(amax, c2f)) {
            in_double();
            continue;
        }
        const double c1 = double(V::hsum(bs2.s));
        const double c2 = double(c2f);
        const double dn = double(nb);
        chan_combine(st, dn, double(shift) + (double(dm) + c1 / dn), c2 - c1 * c1 / dn);
    }
}

// Scale or bias values for elements [i, i+cnt) of a run with stride s.
template <class T>
inline typename Vec<T>::R affine_vec(const T* p, ptrdiff_t s, size_t i, size_t cnt) {
    using V = Vec<T>;
    using E = typename V::E;
    if (s == 1) return cnt == V::N ? V::load(p + i) : V::loadn(p + i, cnt, V::zero());
    alignas(64) E t[V::N] = {};
    for (size_t q = 0; q < cnt; ++q) t[q] = to_e(p[ptrdiff_t(i + q) * s]);
    return V::load(t);
}

// The activation over t[0..n) into out. A value the affine map pushed
// beyond a float compute type (inf from finite operands: a Scale times a
// deviation near the top) is evaluated again in double, activation
// included, so an activation that brings it back (gelu(-1e39) = -0, linear
// with a tiny alpha) keeps its result. pre(i): element i's value before the
// activation, in double. (Infinite operands give the same inf again.)
template <class E, class Pre>
void act_map_in_range(const ActParams& act, E* t, E* out, size_t n, const Pre& pre) {
    if constexpr (sizeof(E) == 4) {
        bool any = false;
        if (act.type != SIMDAX_ACTIVATION_IDENTITY)
            for (size_t i = 0; i < n; ++i) any |= std::fabs(t[i]) == std::numeric_limits<E>::infinity();
        if (any) {  // rare: element by element
            for (size_t i = 0; i < n; ++i) {
                E v = t[i];
                if (std::fabs(v) == std::numeric_limits<E>::infinity())
                    v = E(wide_activate(pre(i), act));
                else
                    act_map<E>(act, &v, &v, 1);
                out[i] = v;
            }
            return;
        }
    }
    act_map<E>(act, t, out, n);
}

// t[0..n) holds normalised values; y = act(t*scale + bias), stored as T.
// t may be y itself when T is the compute type. norm(i): element i's
// normalised value in double (for act_map_in_range).
template <class T, class Norm>
void finish(typename Vec<T>::E* t, size_t n, const T* sc, ptrdiff_t ss, const T* bi, ptrdiff_t bs,
            const ActParams& act, T* y, const Norm& norm) {
    using V = Vec<T>;
    using E = typename V::E;
    using R = typename V::R;
    if (sc || bi) {
        const R one = V::set1(E(1));
        const bool sc_c = !sc || ss == 0, bi_c = !bi || bs == 0;
        const R scv = sc ? V::set1(to_e(sc[0])) : one, biv = bi ? V::set1(to_e(bi[0])) : V::zero();
        for (size_t i = 0; i < n; i += V::N) {
            const size_t cnt = n - i < V::N ? n - i : V::N;
            const R s = sc_c ? scv : affine_vec(sc, ss, i, cnt);
            const R b = bi_c ? biv : affine_vec(bi, bs, i, cnt);
            const R v = cnt == V::N ? V::load(t + i) : V::loadn(t + i, cnt, V::zero());
            if (cnt == V::N)
                V::store(t + i, V::fma(v, s, b));
            else
                V::storen(t + i, V::fma(v, s, b), cnt);
        }
    }
    act_map_in_range<E>(act, t, t, n, [&](size_t i) {
        const ptrdiff_t k = ptrdiff_t(i);
        return (sc ? double(to_e(sc[k * ss])) : 1.0) * norm(i) + (bi ? double(to_e(bi[k * bs])) : 0.0);
    });
    if constexpr (!std::is_same_v<T, E>) convert(t, y, n);
}

// f(b, nb, t) for each block [b, b + nb) of kNormBlock elements; t is the
// block's compute-type buffer (y itself when T is the compute type).
template <class T, class F>
inline void for_norm_blocks(T* y, size_t n, F&& f) {
    using E = typename Vec<T>::E;
    alignas(64) E buf[std::is_same_v<T, E> ? 1 : kNormBlock];
    for (size_t b = 0; b < n; b += kNormBlock) {
        E* t;
        if constexpr (std::is_same_v<T, E>)
            t = y + b;
        else
            t = buf;
        f(b, n - b < kNormBlock ? n - b : kNormBlock, t);
    }
}

// A group outside the fast range (NormArgs::wide): the affine map of every
// element in the wider type, the activation in double, then rounded to E.
template <class T>
void normalize_wide(const T* x, T* y, size_t n, const NormArgs* a) {
    using E = typename Vec<T>::E;
    using W = WideOf<E>;
    const WideFpScope<W> fp;
    const T* sc = static_cast<const T*>(a->scale);
    const T* bi = static_cast<const T*>(a->bias);
    const WideNorm<W> g{W(a->wide_mean), W(a->wide_inv)};
    for_norm_blocks(y, n, [&](size_t b, size_t nb, E* t) {
        for (size_t i = 0; i < nb; ++i) {
            const ptrdiff_t k = ptrdiff_t(b + i);
            t[i] = E(wide_value<W>(W(to_e(x[k])), g, sc ? W(to_e(sc[k * a->scale_stride])) : W(1),
                                   bi ? W(to_e(bi[k * a->bias_stride])) : W(0), a->act));
        }
        if constexpr (!std::is_same_v<T, E>) convert(t, y + b, nb);
    });
}

template <class T>
void normalize_run(const T* x, T* y, size_t n, const NormArgs* a) {
    using V = Vec<T>;
    using E = typename V::E;
    using R = typename V::R;
    if (a->wide) {
        normalize_wide(x, y, n, a);
        return;
    }
    const E mh = E(a->mean);
    const R vmh = V::set1(mh), vml = V::set1(E(a->mean - double(mh))), inv = V::set1(E(a->inv_std));
    const T* sc = static_cast<const T*>(a->scale);
    const T* bi = static_cast<const T*>(a->bias);
    for_norm_blocks(y, n, [&](size_t b, size_t nb, E* t) {
        size_t i = 0;
        for (; i + V::N <= nb; i += V::N)
            V::store(t + i, V::mul(V::sub(V::sub(V::load(x + b + i), vmh), vml), inv));
        if (i < nb)
            V::storen(t + i, V::mul(V::sub(V::sub(V::loadn(x + b + i, nb - i, vmh), vmh), vml), inv), nb - i);
        finish<T>(t, nb, sc ? sc + ptrdiff_t(b) * a->scale_stride : nullptr, a->scale_stride,
                  bi ? bi + ptrdiff_t(b) * a->bias_stride : nullptr, a->bias_stride, a->act, y + b,
                  [&](size_t i) { return (double(to_e(x[b + i])) - a->mean) * a->inv_std; });
    });
}

template <class T>
void normalize(const void* x, void* y, size_t n, const NormArgs* a) {
    const VecScope scope;
    normalize_run(static_cast<const T*>(x), static_cast<T*>(y), n, a);
}

template <class T, int NV, bool PARTIAL>
void mvn_cols_block(const T* x, T* y, size_t r, size_t tail, ptrdiff_t xrs, ptrdiff_t yrs,
                    const MvnArgs& a, size_t l0, const ColPrefetch& pf) {
    using V = Vec<T>;
    using E = typename V::E;
    using R = typename V::R;
    using W = Wide<V>;
    constexpr auto dadd = [](VD::R p, VD::R q) { return VD::add(p, q); };
    constexpr auto dsub = [](VD::R p, VD::R q) { return VD::sub(p, q); };
    constexpr auto dmul = [](VD::R p, VD::R q) { return VD::mul(p, q); };
    const size_t pf_bytes = (size_t(NV - 1) * V::N + tail) * sizeof(T);
    R sh[NV];
    W mean[NV], m2[NV];
    SIMDAX_UNROLL for (int u = 0; u < NV; ++u) {
        sh[u] = ld_lane<NV, PARTIAL>(x, u, tail, V::zero());
        mean[u] = wsplat<V>(0.0);
        m2[u] = wsplat<V>(0.0);
    }
    double cnt = 0;
    bool redo = false;  // the block in the wider type instead
    for (size_t j0 = 0; j0 < r && !redo; j0 += kMvnColRows) {
        const size_t j1 = r - j0 < kMvnColRows ? r : j0 + kMvnColRows;
        const double nb = double(j1 - j0);
        R s[NV], a1[NV], a2[NV], am = V::zero();
        SIMDAX_UNROLL for (int u = 0; u < NV; ++u) s[u] = a1[u] = a2[u] = V::zero();
        for (size_t j = j0; j < j1; ++j) {
            const T* row = x + ptrdiff_t(j) * xrs;
            if (pf.ahead && j + kColPrefetch < r) prefetch_row(row + ptrdiff_t(kColPrefetch) * xrs, pf_bytes, false);
            if (pf.next_bytes && j0 == 0) prefetch_row(row + pf.next, pf.next_bytes, false);
            SIMDAX_UNROLL for (int u = 0; u < NV; ++u) {
                const R v = ld_lane<NV, PARTIAL>(row, u, tail, V::zero());
                am = V::max(am, V::abs(v));
                s[u] = V::add(s[u], V::sub(v, sh[u]));
            }
        }
        if (is_huge<T>(V::hmax(am))) {
            redo = true;
            break;
        }
        const R rn = V::set1(E(1) / E(j1 - j0));
        SIMDAX_UNROLL for (int u = 0; u < NV; ++u) s[u] = V::mul(s[u], rn);  // block mean of d
        for (size_t j = j0; j < j1; ++j) {
            const T* row = x + ptrdiff_t(j) * xrs;
            SIMDAX_UNROLL for (int u = 0; u < NV; ++u) {
                const R e = V::sub(V::sub(ld_lane<NV, PARTIAL>(row, u, tail, V::zero()), sh[u]), s[u]);
                a1[u] = V::add(a1[u], e);
                a2[u] = V::fma(e, e, a2[u]);
            }
        }
        const double tot = cnt + nb;
        const W wf = wsplat<V>(nb / tot), wg = wsplat<V>(cnt * nb / tot), winv = wsplat<V>(1.0 / nb);
        SIMDAX_UNROLL for (int u = 0; u < NV; ++u) {
            const W c1 = W::from(a1[u]);
            const W mb = wmap<V>(W::from(s[u]), wmap<V>(c1, winv, dmul), dadd);
            const W m2b = wmap<V>(W::from(a2[u]), wmap<V>(wmap<V>(c1, c1, dmul), winv, dmul), dsub);
            const W d = wmap<V>(mb, mean[u], dsub);
            mean[u] = wmap<V>(mean[u], wmap<V>(d, wf, dmul), dadd);
            m2[u] = wmap<V>(wmap<V>(m2[u], m2b, dadd), wmap<V>(wmap<V>(d, d, dmul), wg, dmul), dadd);
        }
        cnt = tot;
    }
    const size_t lanes = size_t(NV - 1) * V::N + tail;
    // Per lane in double: mean and m2. Every lane's statistics must suit
    // the fast normalisation in E.
    alignas(64) double fm[NV * V::N], fq[NV * V::N];
    if (!redo) {
        SIMDAX_UNROLL for (int u = 0; u < NV; ++u) {
            const W full = wmap<V>(W::from(sh[u]), mean[u], dadd);
            for (int h = 0; h < W::H; ++h) {
                VD::store(fm + size_t(u) * V::N + size_t(h) * VD::N, full.h[h]);
                VD::store(fq + size_t(u) * V::N + size_t(h) * VD::N, m2[u].h[h]);
            }
        }
        for (size_t l = 0; l < lanes; ++l)
            redo |= !fits_fast_path<E>(fm[l], fq[l], double(r), a.vn);
    }
    const T* sc = static_cast<const T*>(a.scale);
    const T* bi = static_cast<const T*>(a.bias);
    alignas(64) E t[NV * V::N];
    const ptrdiff_t l = ptrdiff_t(l0);
    if (redo) {
        // Huge magnitudes, an infinity, a variance below E's reach: every
        // lane in the wider type (kernels/mvn_wide.hpp).
        using WT = WideOf<E>;
        const WideFpScope<WT> fp;
        WideNorm<WT> g[NV * V::N];
        for (size_t q = 0; q < lanes; ++q)
            g[q] = wide_norm(wide_moments_n<WT>(r, [&](size_t j) { return to_e(x[ptrdiff_t(j) * xrs + ptrdiff_t(q)]); }),
                             double(r), a.vn);
        for (size_t j = 0; j < r; ++j) {
            const T* xr = x + ptrdiff_t(j) * xrs;
            T* yr = y + ptrdiff_t(j) * yrs;
            for (size_t q = 0; q < lanes; ++q) {
                const ptrdiff_t lq = l + ptrdiff_t(q);
                const WT s = sc ? WT(to_e(sc[ptrdiff_t(j) * a.scale_rs + lq * a.scale_ks])) : WT(1);
                const WT b = bi ? WT(to_e(bi[ptrdiff_t(j) * a.bias_rs + lq * a.bias_ks])) : WT(0);
                t[q] = E(wide_value<WT>(WT(to_e(xr[q])), g[q], s, b, a.act));
            }
            if constexpr (std::is_same_v<T, E>)
                for (size_t q = 0; q < lanes; ++q) yr[q] = t[q];
            else
                convert(t, yr, lanes);
        }
        return;
    }
    // Per lane: mean split in two, 1 / divisor, in double then rounded.
    R mh[NV], ml[NV], inv[NV];
    const W wr = wsplat<V>(1.0 / double(r));
    const VD::R veps = VD::set1(a.vn.epsilon), one = VD::set1(1.0);
    const bool on_sd = a.vn.epsilon_on_stddev;
    SIMDAX_UNROLL for (int u = 0; u < NV; ++u) {
        const W full = wmap<V>(W::from(sh[u]), mean[u], dadd);
        mh[u] = full.narrow();
        ml[u] = wmap<V>(full, W::from(mh[u]), dsub).narrow();
        if (a.vn.normalize_variance) {
            const W var = wmap<V>(m2[u], wr, dmul);
            inv[u] = wmap<V>(var, [&](VD::R v) { return VD::div(one, mvn_divisor<VD>(v, veps, on_sd)); }).narrow();
        } else {
            inv[u] = V::set1(E(1));
        }
    }
    const bool plain = !sc && !bi && a.act.type == SIMDAX_ACTIVATION_IDENTITY;
    for (size_t j = 0; j < r; ++j) {
        const T* xr = x + ptrdiff_t(j) * xrs;
        T* yr = y + ptrdiff_t(j) * yrs;
        if (j + kColPrefetch < r) prefetch_row(yr + ptrdiff_t(kColPrefetch) * yrs, pf_bytes, true);
        SIMDAX_UNROLL for (int u = 0; u < NV; ++u)
            V::store(t + size_t(u) * V::N,
                     V::mul(V::sub(V::sub(ld_lane<NV, PARTIAL>(xr, u, tail, V::zero()), mh[u]), ml[u]), inv[u]));
        if (plain) {
            SIMDAX_UNROLL for (int u = 0; u < NV; ++u) st_lane<NV, PARTIAL>(yr, u, tail, V::load(t + size_t(u) * V::N));
            continue;
        }
        const auto norm = [&](size_t q) {  // rare (act_map_in_range): the divisor here
            return (double(to_e(xr[q])) - fm[q]) * inv_divisor(fq[q] / double(r), a.vn);
        };
        const T* scj = sc ? sc + ptrdiff_t(j) * a.scale_rs + l * a.scale_ks : nullptr;
        const T* bij = bi ? bi + ptrdiff_t(j) * a.bias_rs + l * a.bias_ks : nullptr;
        if constexpr (std::is_same_v<T, E>) {
            finish<T>(t, lanes, scj, a.scale_ks, bij, a.bias_ks, a.act, t, norm);
            SIMDAX_UNROLL for (int u = 0; u < NV; ++u) st_lane<NV, PARTIAL>(yr, u, tail, V::load(t + size_t(u) * V::N));
        } else {
            finish<T>(t, lanes, scj, a.scale_ks, bij, a.bias_ks, a.act, yr, norm);
        }
    }
}

template <class T>
void mvn_cols(const void* xv, void* yv, size_t r, size_t k, ptrdiff_t xrs, ptrdiff_t yrs,
              const MvnArgs* a) {
    const VecScope scope;
    const T* x = static_cast<const T*>(xv);
    T* y = static_cast<T*>(yv);
    for_lane_blocks<Vec<T>>(k, [&](auto nv, auto partial, size_t l, size_t tail) {
        mvn_cols_block<T, decltype(nv)::value, decltype(partial)::value>(
            x + l, y + l, r, tail, xrs, yrs, *a, l, col_prefetch<Vec<T>>(k, l, decltype(nv)::value, sizeof(T)));
    });
}

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

constexpr size_t kMvnPreconvert = 2048;  // float16/bfloat16 scale/bias converted once per call

template <class E>
struct RowMoments {
    E mh, ml, inv;
    bool wide;  // outside the fast range: normalise with `norm` (kernels/mvn_wide.hpp)
    WideNorm<WideOf<E>> norm;
};

// Sums of e = x - sh and of e^2 over a row, block by block (copy, pfw: as
// shifted_block_sums).
template <class T>
inline void row_sums(const T* x, size_t n, typename Vec<T>::E sh, typename Vec<T>::E& s1,
                     typename Vec<T>::E& s2, const void* pfw = nullptr, size_t pfw_esize = 0,
                     typename Vec<T>::E* copy = nullptr) {
    using V = Vec<T>;
    using R = typename V::R;
    const R vs = V::set1(sh);
    R t1 = V::zero(), t2 = V::zero();
    for (size_t b = 0; b < n; b += kMomentsBlock) {
        const size_t nb = n - b < kMomentsBlock ? n - b : kMomentsBlock;
        const BlockSums<T> bs = shifted_block_sums<T, false>(
            x + b, nb, vs, copy ? copy + b : nullptr,
            pfw ? static_cast<const char*>(pfw) + b * pfw_esize : nullptr, pfw_esize);
        t1 = V::add(t1, bs.s);
        t2 = V::add(t2, bs.q);
    }
    s1 = V::hsum(t1);
    s2 = V::hsum(t2);
}

// copy: as row_sums (float16/bfloat16 rows of at most kMvnPreconvert).
template <class T>
inline RowMoments<typename Vec<T>::E> row_moments(const T* x, size_t n, const MvnArgs& a,
                                                  const void* y, size_t y_esize,
                                                  typename Vec<T>::E* copy) {
    using E = typename Vec<T>::E;
    const E x0 = to_e(x[0]);
    E c1, q;
    row_sums<T>(x, n, x0, c1, q, y, y_esize, copy);
    E s = x0, ml = c1 / E(n);
    double m2;
    if (!one_pass_m2<T>(c1, q, double(n), &m2)) {  // x[0] far from the mean (or NaN): around s
        s = x0 + ml;
        if (copy) row_sums<E>(copy, n, s, c1, q);
        else row_sums<T>(x, n, s, c1, q);
        ml = c1 / E(n);
        m2 = double(q) - double(c1) * double(ml);
    }
    RowMoments<E> m{};
    if (std::isfinite(q) && std::isfinite(c1) &&
        fits_fast_path<E>(double(s) + double(ml), m2, double(n), a.vn)) {
        m.mh = s;
        m.ml = ml;
        m.inv = E(inv_divisor(m2 / double(n), a.vn));
        return m;
    }
    // Huge magnitudes, an infinity or NaN, a variance below E's reach.
    m.wide = true;
    const WideFpScope<WideOf<E>> fp;
    m.norm = wide_norm(wide_moments_n<WideOf<E>>(n, [&](size_t i) { return to_e(x[i]); }), double(n), a.vn);
    return m;
}

// Scale or bias of one row: constant (null or stride 0), contiguous, or
// strided; float16/bfloat16 contiguous values may come pre-converted.
template <class T>
struct AffineRow {
    using E = typename Vec<T>::E;
    const T* p = nullptr;
    const E* pe = nullptr;  // pre-converted (contiguous)
    ptrdiff_t ks = 0;
    E c = 0;
    bool constant = true;
    double value(size_t i) const {
        if (constant) return double(c);
        return pe ? double(pe[i]) : double(to_e(p[ptrdiff_t(i) * ks]));
    }
    typename Vec<T>::R at(size_t i, size_t cnt) const {
        using V = Vec<T>;
        if (pe) return cnt == V::N ? V::load(pe + i) : V::loadn(pe + i, cnt, V::zero());
        return affine_vec(p, ks, i, cnt);
    }
};

template <class T>
inline AffineRow<T> affine_row(const void* base, ptrdiff_t rs, ptrdiff_t ks, size_t g,
                               typename Vec<T>::E absent, const typename Vec<T>::E* pre) {
    AffineRow<T> r;
    if (!base) {
        r.c = absent;
        return r;
    }
    const T* p = static_cast<const T*>(base) + ptrdiff_t(g) * rs;
    if (ks == 0) {
        r.c = to_e(p[0]);
        return r;
    }
    r.constant = false;
    r.p = p;
    r.ks = ks;
    if (pre) r.pe = pre;
    else if (ks == 1 && std::is_same_v<T, typename Vec<T>::E>) r.pe = reinterpret_cast<const typename Vec<T>::E*>(p);
    return r;
}

// One row's output, the scale/bias modes fixed at compile time: 0 constant
// (folded into va, vb: y = fma(x - mh, va, vb)), 1 contiguous compute-type
// values, 2 anything else (AffineRow::at). Otherwise t = fma(x - mh, va, vb)
// is the normalised value and y = fma(t, scale, bias).
template <class T, int SM, int BM, class S>
void mvn_row_out(const S* const xr, T* const yr, const size_t n, bool stream, const typename Vec<T>::R vmh,
                 const typename Vec<T>::R va, const typename Vec<T>::R vb, const AffineRow<T>& sc,
                 const AffineRow<T>& bi, const ActParams& act, typename Vec<T>::E* buf,
                 const T* nx, double mean, double inv) {
    using V = Vec<T>;
    using E = typename V::E;
    using R = typename V::R;
    const R vs = V::set1(sc.c), vbi = V::set1(bi.c);
    const E* const sp = sc.pe;
    const E* const bp = bi.pe;
    auto val = [=, &sc, &bi](size_t i, size_t cnt) {
        const R v = cnt == V::N ? V::load(xr + i) : V::loadn(xr + i, cnt, vmh);
        R t = V::fma(V::sub(v, vmh), va, vb);
        if constexpr (SM != 0 || BM != 0) {
            R s = vs, b = vbi;
            if constexpr (SM == 1) s = cnt == V::N ? V::load(sp + i) : V::loadn(sp + i, cnt, V::zero());
            if constexpr (SM == 2) s = sc.at(i, cnt);
            if constexpr (BM == 1) b = cnt == V::N ? V::load(bp + i) : V::loadn(bp + i, cnt, V::zero());
            if constexpr (BM == 2) b = bi.at(i, cnt);
            t = V::fma(t, s, b);
        }
        return t;
    };
    if (act.type == SIMDAX_ACTIVATION_IDENTITY) {
        // store_run spelled out: the main loop keeps everything in registers.
        constexpr size_t W = V::N * sizeof(T);
        const uintptr_t ya = reinterpret_cast<uintptr_t>(yr);
        if (ya % sizeof(T) != 0) stream = false;
        size_t i = 0;
        if (ya % W != 0 && (stream || n >= 4 * V::N) && ya % sizeof(T) == 0) {
            i = (W - ya % W) / sizeof(T);
            if (i > n) i = n;
            V::storen(yr, val(size_t(0), i), i);
        }
        for (; i + V::N <= n; i += V::N) {
            // The next row's input, as this one is written (the hardware
            // prefetchers stop at each 4 KiB page).
            if (nx) __builtin_prefetch(nx + i, 0, 3);
            R t = V::fma(V::sub(V::load(xr + i), vmh), va, vb);
            if constexpr (SM != 0 || BM != 0) {
                R sv = vs, bv = vbi;
                if constexpr (SM == 1) sv = V::load(sp + i);
                if constexpr (SM == 2) sv = sc.at(i, V::N);
                if constexpr (BM == 1) bv = V::load(bp + i);
                if constexpr (BM == 2) bv = bi.at(i, V::N);
                t = V::fma(t, sv, bv);
            }
            if (stream) V::stream(yr + i, t);
            else V::store(yr + i, t);
        }
        if (i < n) V::storen(yr + i, val(i, n - i), n - i);
        return;
    }
    for (size_t b0 = 0; b0 < n; b0 += kNormBlock) {
        const size_t nb = n - b0 < kNormBlock ? n - b0 : kNormBlock;
        size_t i = 0;
        for (; i + V::N <= nb; i += V::N) V::store(buf + i, val(b0 + i, V::N));
        if (i < nb) V::storen(buf + i, val(b0 + i, nb - i), nb - i);
        const auto pre = [&](size_t q) {
            const size_t e = b0 + q;
            return sc.value(e) * ((double(to_e(xr[e])) - mean) * inv) + bi.value(e);
        };
        if constexpr (std::is_same_v<T, E>) {
            act_map_in_range<E>(act, buf, yr + b0, nb, pre);
        } else {
            act_map_in_range<E>(act, buf, buf, nb, pre);
            convert(buf, yr + b0, nb);
        }
    }
}

template <class T>
void mvn_rows(const void* xv, void* yv, size_t rows, size_t n, ptrdiff_t xrs, ptrdiff_t yrs,
              const MvnArgs* args) {
    const VecScope scope;
    using V = Vec<T>;
    using E = typename V::E;
    using R = typename V::R;
    const MvnArgs& a = *args;
    const T* x = static_cast<const T*>(xv);
    T* y = static_cast<T*>(yv);
    // float16/bfloat16 scale/bias shared by every row: convert once.
    constexpr bool kHalf = !std::is_same_v<T, E>;
    alignas(64) E pre_s[kHalf ? kMvnPreconvert : 1], pre_b[kHalf ? kMvnPreconvert : 1];
    const E* ps = nullptr;
    const E* pb = nullptr;
    if constexpr (kHalf) {
        if (n <= kMvnPreconvert) {
            if (a.scale && a.scale_rs == 0 && a.scale_ks == 1) {
                convert(static_cast<const T*>(a.scale), pre_s, n);
                ps = pre_s;
            }
            if (a.bias && a.bias_rs == 0 && a.bias_ks == 1) {
                convert(static_cast<const T*>(a.bias), pre_b, n);
                pb = pre_b;
            }
        }
    }
    alignas(64) E buf[kNormBlock];
    alignas(64) E xf[kHalf ? kMvnPreconvert : 1];
    // A large output (the executor passes many rows per call) is streamed.
    const bool stream = static_cast<const void*>(x) != static_cast<void*>(y) &&
                        rows * n * sizeof(T) >= kStreamBytes;
    // Rows ahead whose input the output loop prefetches: about 6 KiB ahead.
    const size_t pf_rows = 1 + 6144 / (n * sizeof(T) + 1);
    for (size_t g = 0; g < rows; ++g) {
        const T* xr = x + ptrdiff_t(g) * xrs;
        T* yr = y + ptrdiff_t(g) * yrs;
        // float16/bfloat16: the row converted once, by pass A; pass B and
        // the output read the float copy from L1.
        const bool conv = kHalf && n <= kMvnPreconvert;
        const void* pfw = stream ? nullptr : yr;  // streamed rows need no read for ownership
        const RowMoments<E> mo = row_moments(xr, n, a, pfw, sizeof(T), conv ? xf : nullptr);
        if (mo.wide) {
            const NormArgs na{0, 1,
                              a.scale ? static_cast<const T*>(a.scale) + ptrdiff_t(g) * a.scale_rs : nullptr,
                              a.scale_ks,
                              a.bias ? static_cast<const T*>(a.bias) + ptrdiff_t(g) * a.bias_rs : nullptr,
                              a.bias_ks, a.act, true, mo.norm.mean, mo.norm.inv};
            normalize_wide(xr, yr, n, &na);
            continue;
        }
        const AffineRow<T> sc = affine_row<T>(a.scale, a.scale_rs, a.scale_ks, g, E(1), ps);
        const AffineRow<T> bi = affine_row<T>(a.bias, a.bias_rs, a.bias_ks, g, E(0), pb);
        if (sc.constant && bi.constant &&
            (!std::isfinite(mo.inv * sc.c) || !std::isfinite(mo.ml * (mo.inv * sc.c)))) {
            // Folding would form inv*scale (or mean_lo*inv*scale) beyond E:
            // an infinite Scale (inf * 0 = NaN for the whole row) or one
            // near the top. Normalise first, then scale (per row, rare).
            const T* scp = static_cast<const T*>(a.scale);
            const T* bip = static_cast<const T*>(a.bias);
            const NormArgs na{double(mo.mh) + double(mo.ml), double(mo.inv),
                              scp ? scp + ptrdiff_t(g) * a.scale_rs : nullptr, 0,
                              bip ? bip + ptrdiff_t(g) * a.bias_rs : nullptr, 0, a.act};
            normalize_run(xr, yr, n, &na);
            continue;
        }
        const R vmh = V::set1(mo.mh);
        const double mean = double(mo.mh) + double(mo.ml), inv = double(mo.inv);
        R va, vb;  // y = fma(x - mh, va, vb) when scale and bias are constant
        const bool folded = sc.constant && bi.constant;
        if (folded) {
            const E A = mo.inv * sc.c;
            va = V::set1(A);
            vb = V::set1(bi.c - mo.ml * A);
        } else {
            va = V::set1(mo.inv);
            vb = V::set1(-mo.ml * mo.inv);
        }
        const int sm = sc.constant ? 0 : sc.pe ? 1 : 2, bm = bi.constant ? 0 : bi.pe ? 1 : 2;
        auto run = [&](auto smc, auto bmc) {
            constexpr int SM = decltype(smc)::value, BM = decltype(bmc)::value;
            const T* nx = g + pf_rows < rows ? x + ptrdiff_t(g + pf_rows) * xrs : nullptr;
            if (conv)
                mvn_row_out<T, SM, BM>(static_cast<const E*>(xf), yr, n, stream, vmh, va, vb, sc, bi, a.act, buf, nx, mean, inv);
            else
                mvn_row_out<T, SM, BM>(xr, yr, n, stream, vmh, va, vb, sc, bi, a.act, buf, nx, mean, inv);
        };
        using I0 = std::integral_constant<int, 0>;
        using I1 = std::integral_constant<int, 1>;
        using I2 = std::integral_constant<int, 2>;
        switch (sm * 3 + bm) {
            case 0: run(I0{}, I0{}); break;
            case 1: run(I0{}, I1{}); break;
            case 2: run(I0{}, I2{}); break;
            case 3: run(I1{}, I0{}); break;
            case 4: run(I1{}, I1{}); break;
            case 5: run(I1{}, I2{}); break;
            case 6: run(I2{}, I0{}); break;
            case 7: run(I2{}, I1{}); break;
            default: run(I2{}, I2{}); break;
        }
    }
    if (stream) stream_fence();
}

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
