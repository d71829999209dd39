// MVN down one lane block (cols.hpp says how): its per-lane statistics
// from row blocks of kMvnColRows, in the wider type when out of the fast
// range, and its output. Apart from the cols walks (cols.hpp) so that each
// file holds one step.
#pragma once

#include <type_traits>

#include "kernel_table.hpp"
#include "mvn/mvn_wide.hpp"
#include "row_offsets.hpp"
#include "simd/lane_blocks.hpp"
#include "mvn/simd/block_sums.hpp"
#include "mvn/simd/scale_bias_act.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

constexpr size_t kMvnColRows = 64;
// Lanes of the widest lane block (for_lane_blocks' default of 4 vectors).
template <class T>
constexpr size_t kMaxColLanes = 4 * Vec<T>::N;

// A lane block outside the fast range (huge magnitudes, an infinity, a
// variance below E's reach): every lane in the wider type
// (operators/mvn/mvn_wide.hpp).
template <class T>
void cols_block_wide(const T* x, T* y, size_t r, size_t lanes, ptrdiff_t xrs, ptrdiff_t yrs, const MvnArgs& a,
                     size_t l0) {
    using E = typename Vec<T>::E;
    using WT = WideOf<E>;
    const WideFpScope<WT> fp;
    const T* sc = static_cast<const T*>(a.scale);
    const T* bi = static_cast<const T*>(a.bias);
    const ptrdiff_t l = ptrdiff_t(l0);
    alignas(64) E t[kMaxColLanes<T>];
    WideNorm<WT> g[kMaxColLanes<T>];
    for (size_t q = 0; q < lanes; ++q)
        g[q] = wide_norm(
            wide_moments_n<WT>(r, [&](size_t j) { return to_e(x[ptrdiff_t(j) * xrs + ptrdiff_t(q)]); }),
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
}

// No Scale, no Bias, no activation: the normalised values are the output.
inline bool is_plain(const MvnArgs& a) {
    return !a.scale && !a.bias && a.act.type == SIMDAX_ACTIVATION_IDENTITY;
}

// A lane block's statistics, in E for the output pass (mean split in two,
// 1 / divisor) and in double for the rare re-evaluation (act_map_in_range).
template <class V, int NV>
struct ColStats {
    typename V::R mh[NV], ml[NV], inv[NV];
    alignas(64) double fm[NV * V::N], fq[NV * V::N];  // mean, m2 per lane
};

// Per lane statistics from row blocks of kMvnColRows. False when the block
// belongs in the wider type (cols_block_wide).
template <class T, int NV, bool PARTIAL>
bool mvn_cols_stats(const T* x, size_t r, size_t tail, ptrdiff_t xrs, const MvnArgs& a, const ColPrefetch& pf,
                    ColStats<Vec<T>, NV>& st) {
    using V = Vec<T>;
    using E = typename V::E;
    using R = typename V::R;
    using DL = Wide<V>;  // V's lanes as double vectors
    static_assert(NV * V::N <= kMaxColLanes<T>, "cols_block_wide holds one lane block");
    constexpr auto dadd = [](VD::R p, VD::R q) { return VD::add(p, q); };
    constexpr auto dsub = [](VD::R p, VD::R q) { return VD::sub(p, q); };
    constexpr auto dmul = [](VD::R p, VD::R q) { return VD::mul(p, q); };
    const size_t pf_bytes = (size_t(NV - 1) * V::N + tail) * sizeof(T);
    R sh[NV];
    DL mean[NV], m2[NV];
    SIMDAX_UNROLL for (int u = 0; u < NV; ++u) {
        sh[u] = ld_lane<NV, PARTIAL>(x, u, tail, V::zero());
        mean[u] = wsplat<V>(0.0);
        m2[u] = wsplat<V>(0.0);
    }
    double cnt = 0;
    for (size_t j0 = 0; j0 < r; j0 += kMvnColRows) {
        const size_t j1 = r - j0 < kMvnColRows ? r : j0 + kMvnColRows;
        const double nb = double(j1 - j0);
        R s[NV], a1[NV], a2[NV], am = V::zero();
        SIMDAX_UNROLL for (int u = 0; u < NV; ++u) s[u] = a1[u] = a2[u] = V::zero();
        for (size_t j = j0; j < j1; ++j) {
            const T* row = x + ptrdiff_t(j) * xrs;
            if (pf.ahead && j + kColPrefetch < r)
                prefetch_row(row + ptrdiff_t(kColPrefetch) * xrs, pf_bytes, false);
            if (pf.next_bytes && j0 == 0) prefetch_row(row + pf.next, pf.next_bytes, false);
            SIMDAX_UNROLL for (int u = 0; u < NV; ++u) {
                const R v = ld_lane<NV, PARTIAL>(row, u, tail, V::zero());
                am = V::max(am, V::abs(v));
                s[u] = V::add(s[u], V::sub(v, sh[u]));
            }
        }
        if (is_huge<T>(V::hmax(am))) return false;
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
        const DL wf = wsplat<V>(nb / tot), wg = wsplat<V>(cnt * nb / tot), winv = wsplat<V>(1.0 / nb);
        SIMDAX_UNROLL for (int u = 0; u < NV; ++u) {
            const DL c1 = DL::from(a1[u]);
            const DL mb = wmap<V>(DL::from(s[u]), wmap<V>(c1, winv, dmul), dadd);
            const DL m2b = wmap<V>(DL::from(a2[u]), wmap<V>(wmap<V>(c1, c1, dmul), winv, dmul), dsub);
            const DL d = wmap<V>(mb, mean[u], dsub);
            mean[u] = wmap<V>(mean[u], wmap<V>(d, wf, dmul), dadd);
            m2[u] = wmap<V>(wmap<V>(m2[u], m2b, dadd), wmap<V>(wmap<V>(d, d, dmul), wg, dmul), dadd);
        }
        cnt = tot;
    }
    // Every lane's statistics must suit the fast normalisation in E.
    const size_t lanes = size_t(NV - 1) * V::N + tail;
    SIMDAX_UNROLL for (int u = 0; u < NV; ++u) {
        const DL full = wmap<V>(DL::from(sh[u]), mean[u], dadd);
        for (int h = 0; h < DL::H; ++h) {
            VD::store(st.fm + size_t(u) * V::N + size_t(h) * VD::N, full.h[h]);
            VD::store(st.fq + size_t(u) * V::N + size_t(h) * VD::N, m2[u].h[h]);
        }
    }
    for (size_t l = 0; l < lanes; ++l)
        if (!fits_fast_path<E>(st.fm[l], st.fq[l], double(r), a.vn)) return false;
    // Per lane: mean split in two, 1 / divisor, in double then rounded.
    const DL wr = wsplat<V>(1.0 / double(r));
    const VD::R veps = VD::set1(a.vn.epsilon), one = VD::set1(1.0);
    const bool on_sd = a.vn.epsilon_on_stddev;
    SIMDAX_UNROLL for (int u = 0; u < NV; ++u) {
        const DL full = wmap<V>(DL::from(sh[u]), mean[u], dadd);
        st.mh[u] = full.narrow();
        st.ml[u] = wmap<V>(full, DL::from(st.mh[u]), dsub).narrow();
        if (a.vn.normalize_variance) {
            const DL var = wmap<V>(m2[u], wr, dmul);
            st.inv[u] =
                wmap<V>(var, [&](VD::R v) { return VD::div(one, mvn_divisor<VD>(v, veps, on_sd)); }).narrow();
        } else {
            st.inv[u] = V::set1(E(1));
        }
    }
    return true;
}

template <class T, int NV, bool PARTIAL>
void mvn_cols_block(const T* x, T* y, size_t r, size_t tail, ptrdiff_t xrs, ptrdiff_t yrs, const MvnArgs& a,
                    size_t l0, const ColPrefetch& pf) {
    using V = Vec<T>;
    using E = typename V::E;
    ColStats<V, NV> st;
    const size_t lanes = size_t(NV - 1) * V::N + tail;
    if (!mvn_cols_stats<T, NV, PARTIAL>(x, r, tail, xrs, a, pf, st)) {
        cols_block_wide<T>(x, y, r, lanes, xrs, yrs, a, l0);
        return;
    }
    const size_t pf_bytes = lanes * sizeof(T);
    const T* sc = static_cast<const T*>(a.scale);
    const T* bi = static_cast<const T*>(a.bias);
    alignas(64) E t[NV * V::N];
    const ptrdiff_t l = ptrdiff_t(l0);
    const bool plain = is_plain(a);
    for (size_t j = 0; j < r; ++j) {
        const T* xr = x + ptrdiff_t(j) * xrs;
        T* yr = y + ptrdiff_t(j) * yrs;
        if (j + kColPrefetch < r) prefetch_row(yr + ptrdiff_t(kColPrefetch) * yrs, pf_bytes, true);
        SIMDAX_UNROLL for (int u = 0; u < NV; ++u)
            V::store(t + size_t(u) * V::N,
                     V::mul(V::sub(V::sub(ld_lane<NV, PARTIAL>(xr, u, tail, V::zero()), st.mh[u]), st.ml[u]),
                            st.inv[u]));
        if (plain) {
            SIMDAX_UNROLL for (int u = 0; u < NV; ++u)
                st_lane<NV, PARTIAL>(yr, u, tail, V::load(t + size_t(u) * V::N));
            continue;
        }
        const auto norm = [&](size_t q) {  // rare (act_map_in_range): the divisor here
            return (double(to_e(xr[q])) - st.fm[q]) * inv_divisor(st.fq[q] / double(r), a.vn);
        };
        const T* scj = sc ? sc + ptrdiff_t(j) * a.scale_rs + l * a.scale_ks : nullptr;
        const T* bij = bi ? bi + ptrdiff_t(j) * a.bias_rs + l * a.bias_ks : nullptr;
        if constexpr (std::is_same_v<T, E>) {
            scale_bias_act<T>(t, lanes, scj, a.scale_ks, bij, a.bias_ks, a.act, t, norm);
            SIMDAX_UNROLL for (int u = 0; u < NV; ++u)
                st_lane<NV, PARTIAL>(yr, u, tail, V::load(t + size_t(u) * V::N));
        } else {
            scale_bias_act<T>(t, lanes, scj, a.scale_ks, bij, a.bias_ks, a.act, yr, norm);
        }
    }
}

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
