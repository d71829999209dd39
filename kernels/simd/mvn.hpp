// MeanVarianceNormalization passes.
//   moments: shifted two-pass statistics per L1-sized block. d = x - x[b]
//     (the block's first element), block mean of d in float, then over the
//     block again e = d - mean_d: sum e (corrects the float mean) and sum e^2.
//     Block (count, mean, M2) are folded into the state in double (Chan et
//     al.), so a float32 group with mean 1e4 and std 1 keeps its digits.
//     Float blocks holding |x| > kHugeF32 (whose squared deviations could
//     overflow float) are summed in double instead.
//   normalize: y = act(scale*((x - mean_hi) - mean_lo)*inv_std + bias), the
//     double mean split into two floats (x - mean_hi is exact near the mean).
//   mvn_cols: the same per lane over strided rows (row blocks of kColRows).
// Scale/bias element i (or lane l of row j) is at p[i*stride] (p[j*rs +
// l*ks]); stride 0 and 1 are the fast paths.
#pragma once

#include <cmath>
#include <type_traits>

#include "kernel_table.hpp"
#include "simd/activation.hpp"
#include "simd/lane_blocks.hpp"
#include "simd/map.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

constexpr size_t kMomentsBlock = 2048;
constexpr size_t kNormBlock = 512;
constexpr size_t kMvnColRows = 64;
// Above this magnitude, (x - shift)^2 summed over a block may overflow float.
constexpr float kHugeF32 = 1e17f;

template <class T>
inline bool is_huge(typename Vec<T>::E amax) {
    return sizeof(typename Vec<T>::E) == 4 && amax > typename Vec<T>::E(kHugeF32);
}

inline void chan_combine(Moments* s, double nb, double mb, double m2b) {
    if (s->count == 0.0) {
        s->count = nb;
        s->mean = mb;
        s->m2 = m2b;
        return;
    }
    const double n = s->count + nb, d = mb - s->mean;
    s->mean += d * (nb / n);
    s->m2 += m2b + d * d * (s->count * nb / n);
    s->count = n;
}

template <class T>
void moments(const void* xv, size_t n, Moments* st) {
    using V = Vec<T>;
    using E = typename V::E;
    using R = typename V::R;
    const T* x = static_cast<const T*>(xv);
    for (size_t b = 0; b < n; b += kMomentsBlock) {
        const size_t nb = n - b < kMomentsBlock ? n - b : kMomentsBlock;
        const T* xb = x + b;
        const E shift = to_e(xb[0]);
        const R sh = V::set1(shift);
        R s0 = V::zero(), s1 = V::zero(), s2 = V::zero(), s3 = V::zero(), am = V::zero();
        size_t i = 0;
        for (; i + 4 * V::N <= nb; i += 4 * V::N) {
            const R v0 = V::load(xb + i), v1 = V::load(xb + i + V::N);
            const R v2 = V::load(xb + i + 2 * V::N), v3 = V::load(xb + i + 3 * V::N);
            am = V::max(V::max(am, V::abs(v0)), V::max(V::abs(v1), V::max(V::abs(v2), V::abs(v3))));
            s0 = V::add(s0, V::sub(v0, sh));
            s1 = V::add(s1, V::sub(v1, sh));
            s2 = V::add(s2, V::sub(v2, sh));
            s3 = V::add(s3, V::sub(v3, sh));
        }
        for (; i < nb; i += V::N) {  // missing lanes read the shift: d = 0
            const R v = i + V::N <= nb ? V::load(xb + i) : V::loadn(xb + i, nb - i, sh);
            am = V::max(am, V::abs(v));
            s0 = V::add(s0, V::sub(v, sh));
        }
        if (is_huge<T>(V::hmax(am))) {
            double ds = 0, c1 = 0, c2 = 0;
            const double dsh = double(shift);
            for (size_t q = 0; q < nb; ++q) ds += double(to_e(xb[q])) - dsh;
            const double ddm = ds / double(nb);
            for (size_t q = 0; q < nb; ++q) {
                const double e = (double(to_e(xb[q])) - dsh) - ddm;
                c1 += e;
                c2 += e * e;
            }
            chan_combine(st, double(nb), dsh + (ddm + c1 / double(nb)), c2 - c1 * c1 / double(nb));
            continue;
        }
        const E dm = V::hsum(V::add(V::add(s0, s1), V::add(s2, s3))) / E(nb);
        const R vdm = V::set1(dm);
        R a0 = V::zero(), a1 = V::zero(), q0 = V::zero(), q1 = V::zero();
        i = 0;
        for (; i + 2 * V::N <= nb; i += 2 * V::N) {
            const R e0 = V::sub(V::sub(V::load(xb + i), sh), vdm);
            const R e1 = V::sub(V::sub(V::load(xb + i + V::N), sh), vdm);
            a0 = V::add(a0, e0);
            a1 = V::add(a1, e1);
            q0 = V::fma(e0, e0, q0);
            q1 = V::fma(e1, e1, q1);
        }
        for (; i < nb; i += V::N) {
            R e = V::sub(V::sub(i + V::N <= nb ? V::load(xb + i) : V::loadn(xb + i, nb - i, sh), sh), vdm);
            e = V::blend(V::lanes(nb - i), V::zero(), e);
            a0 = V::add(a0, e);
            q0 = V::fma(e, e, q0);
        }
        const double c1 = double(V::hsum(V::add(a0, a1)));
        const double c2 = double(V::hsum(V::add(q0, q1)));
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

// t[0..n) holds normalised values; y = act(t*scale + bias), stored as T.
// t may be y itself when T is the compute type.
template <class T>
void finish(typename Vec<T>::E* t, size_t n, const T* sc, ptrdiff_t ss, const T* bi, ptrdiff_t bs,
            const ActParams& act, T* y) {
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
    act_map<E>(act, t, t, n);
    if constexpr (!std::is_same_v<T, E>) convert(t, y, n);
}

template <class T>
void normalize(const void* xv, void* yv, size_t n, const NormArgs* a) {
    using V = Vec<T>;
    using E = typename V::E;
    using R = typename V::R;
    const T* x = static_cast<const T*>(xv);
    T* y = static_cast<T*>(yv);
    const E mh = E(a->mean);
    const R vmh = V::set1(mh), vml = V::set1(E(a->mean - double(mh))), inv = V::set1(E(a->inv_std));
    const T* sc = static_cast<const T*>(a->scale);
    const T* bi = static_cast<const T*>(a->bias);
    alignas(64) E buf[std::is_same_v<T, E> ? 1 : kNormBlock];
    for (size_t b = 0; b < n; b += kNormBlock) {
        const size_t nb = n - b < kNormBlock ? n - b : kNormBlock;
        E* t;
        if constexpr (std::is_same_v<T, E>)
            t = y + b;
        else
            t = buf;
        size_t i = 0;
        for (; i + V::N <= nb; i += V::N)
            V::store(t + i, V::mul(V::sub(V::sub(V::load(x + b + i), vmh), vml), inv));
        if (i < nb)
            V::storen(t + i, V::mul(V::sub(V::sub(V::loadn(x + b + i, nb - i, vmh), vmh), vml), inv), nb - i);
        finish<T>(t, nb, sc ? sc + ptrdiff_t(b) * a->scale_stride : nullptr, a->scale_stride,
                  bi ? bi + ptrdiff_t(b) * a->bias_stride : nullptr, a->bias_stride, a->act, y + b);
    }
}

template <class T, int NV, bool PARTIAL>
void mvn_cols_block(const T* x, T* y, size_t r, size_t tail, ptrdiff_t xrs, ptrdiff_t yrs,
                    const MvnArgs& a, size_t l0) {
    using V = Vec<T>;
    using E = typename V::E;
    using R = typename V::R;
    using W = Wide<V>;
    constexpr auto dadd = [](VD::R p, VD::R q) { return VD::add(p, q); };
    constexpr auto dsub = [](VD::R p, VD::R q) { return VD::sub(p, q); };
    constexpr auto dmul = [](VD::R p, VD::R q) { return VD::mul(p, q); };
    R sh[NV];
    W mean[NV], m2[NV];
    for (int u = 0; u < NV; ++u) {
        sh[u] = ld_lane<NV, PARTIAL>(x, u, tail, V::zero());
        mean[u] = wsplat<V>(0.0);
        m2[u] = wsplat<V>(0.0);
    }
    double cnt = 0;
    bool huge = false;
    for (size_t j0 = 0; j0 < r && !huge; j0 += kMvnColRows) {
        const size_t j1 = r - j0 < kMvnColRows ? r : j0 + kMvnColRows;
        const double nb = double(j1 - j0);
        R s[NV], a1[NV], a2[NV], am = V::zero();
        for (int u = 0; u < NV; ++u) s[u] = a1[u] = a2[u] = V::zero();
        for (size_t j = j0; j < j1; ++j) {
            const T* row = x + ptrdiff_t(j) * xrs;
            for (int u = 0; u < NV; ++u) {
                const R v = ld_lane<NV, PARTIAL>(row, u, tail, V::zero());
                am = V::max(am, V::abs(v));
                s[u] = V::add(s[u], V::sub(v, sh[u]));
            }
        }
        if (is_huge<T>(V::hmax(am))) {
            huge = true;
            break;
        }
        const R rn = V::set1(E(1) / E(j1 - j0));
        for (int u = 0; u < NV; ++u) s[u] = V::mul(s[u], rn);  // block mean of d
        for (size_t j = j0; j < j1; ++j) {
            const T* row = x + ptrdiff_t(j) * xrs;
            for (int u = 0; u < NV; ++u) {
                const R e = V::sub(V::sub(ld_lane<NV, PARTIAL>(row, u, tail, V::zero()), sh[u]), s[u]);
                a1[u] = V::add(a1[u], e);
                a2[u] = V::fma(e, e, a2[u]);
            }
        }
        const double tot = cnt + nb;
        const W wf = wsplat<V>(nb / tot), wg = wsplat<V>(cnt * nb / tot), winv = wsplat<V>(1.0 / nb);
        for (int u = 0; u < NV; ++u) {
            const W c1 = W::from(a1[u]);
            const W mb = wmap<V>(W::from(s[u]), wmap<V>(c1, winv, dmul), dadd);
            const W m2b = wmap<V>(W::from(a2[u]), wmap<V>(wmap<V>(c1, c1, dmul), winv, dmul), dsub);
            const W d = wmap<V>(mb, mean[u], dsub);
            mean[u] = wmap<V>(mean[u], wmap<V>(d, wf, dmul), dadd);
            m2[u] = wmap<V>(wmap<V>(m2[u], m2b, dadd), wmap<V>(wmap<V>(d, d, dmul), wg, dmul), dadd);
        }
        cnt = tot;
    }
    // Per lane: mean split in two, 1/sqrt(var + eps), in double then rounded.
    R mh[NV], ml[NV], inv[NV];
    const W weps = wsplat<V>(a.epsilon), wr = wsplat<V>(1.0 / double(r));
    const size_t lanes = size_t(NV - 1) * V::N + tail;
    if (huge) {  // |x| beyond float squares: per-lane two-pass statistics in double
        alignas(64) double dm[NV * V::N] = {}, dq[NV * V::N] = {};
        for (size_t l = 0; l < lanes; ++l) {
            double acc = 0;
            for (size_t j = 0; j < r; ++j) acc += double(to_e(x[ptrdiff_t(j) * xrs + ptrdiff_t(l)]));
            dm[l] = acc / double(r);
            double q = 0;
            for (size_t j = 0; j < r; ++j) {
                const double e = double(to_e(x[ptrdiff_t(j) * xrs + ptrdiff_t(l)])) - dm[l];
                q += e * e;
            }
            dq[l] = q;
        }
        for (int u = 0; u < NV; ++u) {
            for (int h = 0; h < W::H; ++h) {
                mean[u].h[h] = VD::load(dm + size_t(u) * V::N + size_t(h) * VD::N);
                m2[u].h[h] = VD::load(dq + size_t(u) * V::N + size_t(h) * VD::N);
            }
            sh[u] = V::zero();  // the mean is already absolute
        }
    }
    for (int u = 0; u < NV; ++u) {
        const W full = wmap<V>(W::from(sh[u]), mean[u], dadd);
        mh[u] = full.narrow();
        ml[u] = wmap<V>(full, W::from(mh[u]), dsub).narrow();
        if (a.normalize_variance) {
            const W var = wmap<V>(wmap<V>(m2[u], wr, dmul), weps, dadd);
            inv[u] = wmap<V>(var, [](VD::R v) { return VD::div(VD::set1(1.0), VD::sqrt(v)); }).narrow();
        } else {
            inv[u] = V::set1(E(1));
        }
    }
    const T* sc = static_cast<const T*>(a.scale);
    const T* bi = static_cast<const T*>(a.bias);
    alignas(64) E t[NV * V::N];
    for (size_t j = 0; j < r; ++j) {
        const T* xr = x + ptrdiff_t(j) * xrs;
        T* yr = y + ptrdiff_t(j) * yrs;
        for (int u = 0; u < NV; ++u)
            V::store(t + size_t(u) * V::N,
                     V::mul(V::sub(V::sub(ld_lane<NV, PARTIAL>(xr, u, tail, V::zero()), mh[u]), ml[u]), inv[u]));
        const bool plain = !sc && !bi && a.act.type == SIMDAX_ACTIVATION_IDENTITY;
        if (plain) {
            for (int u = 0; u < NV; ++u) st_lane<NV, PARTIAL>(yr, u, tail, V::load(t + size_t(u) * V::N));
            continue;
        }
        const ptrdiff_t l = ptrdiff_t(l0);
        if constexpr (std::is_same_v<T, E>) {
            finish<T>(t, lanes, sc ? sc + ptrdiff_t(j) * a.scale_rs + l * a.scale_ks : nullptr, a.scale_ks,
                      bi ? bi + ptrdiff_t(j) * a.bias_rs + l * a.bias_ks : nullptr, a.bias_ks, a.act, t);
            for (int u = 0; u < NV; ++u) st_lane<NV, PARTIAL>(yr, u, tail, V::load(t + size_t(u) * V::N));
        } else {
            finish<T>(t, lanes, sc ? sc + ptrdiff_t(j) * a.scale_rs + l * a.scale_ks : nullptr, a.scale_ks,
                      bi ? bi + ptrdiff_t(j) * a.bias_rs + l * a.bias_ks : nullptr, a.bias_ks, a.act, yr);
        }
    }
}

template <class T>
void mvn_cols(const void* xv, void* yv, size_t r, size_t k, ptrdiff_t xrs, ptrdiff_t yrs,
              const MvnArgs* a) {
    const T* x = static_cast<const T*>(xv);
    T* y = static_cast<T*>(yv);
    for_lane_blocks<Vec<T>>(k, [&](auto nv, auto partial, size_t l, size_t tail) {
        mvn_cols_block<T, decltype(nv)::value, decltype(partial)::value>(x + l, y + l, r, tail, xrs, yrs,
                                                                         *a, l);
    });
}

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
