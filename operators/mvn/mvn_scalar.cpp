// Portable MeanVarianceNormalization: Welford moments in double (no
// cancellation whatever the mean), then one normalise + scale + bias +
// activation pass; groups outside that range in the wider type
// (operators/mvn/mvn_wide.hpp).
#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "mvn/mvn_wide.hpp"
#include "scalar/scalar_kernels.hpp"

namespace simdax::kernels::scalar {
namespace {

struct Welford {
    double c = 0, mean = 0, m2 = 0;
    void add(double v) {
        c += 1.0;
        const double d = v - mean;
        mean += d / c;
        m2 += d * (v - mean);
    }
};
}  // namespace

// A piece's Welford statistics, folded into the state. A piece they do not
// suit (an infinity, squares beyond double) is redone in two passes
// (operators/mvn/mvn_wide.hpp).
template <class T>
void moments(const void* x, size_t n, Moments* s) {
    if (n == 0) return;
    Welford w;
    for (size_t i = 0; i < n; ++i) w.add(double(ld<T>(x, ptrdiff_t(i))));
    if (std::isfinite(w.mean) && std::isfinite(w.m2)) {
        chan_combine(s, w.c, w.mean, w.m2);
        return;
    }
    const auto wm = wide_moments_n<double>(n, [&](size_t i) { return ld<T>(x, ptrdiff_t(i)); });
    chan_combine(s, double(n), double(wm.mean), double(wm.m2));
}

namespace {
// Splits the double mean so float code can subtract it without losing the
// low bits: (x - hi) is exact near the mean, then - lo.
template <class Acc>
inline void split(double m, Acc* hi, Acc* lo) {
    *hi = Acc(m);
    *lo = Acc(m - double(*hi));
}

// One element: the fast form in Acc, the activation following in Acc; or
// (wide) the affine map in the wider type and the activation in double
// (operators/mvn/mvn_wide.hpp).
template <class T>
inline typename Storage<T>::Acc mvn_value(const void* x, ptrdiff_t ix, const void* sc, ptrdiff_t is,
                                          const void* bi, ptrdiff_t ib, const NormArgs& a,
                                          typename Storage<T>::Acc hi, typename Storage<T>::Acc lo,
                                          typename Storage<T>::Acc inv) {
    using Acc = typename Storage<T>::Acc;
    using W = WideOf<Acc>;
    if (a.wide)
        return Acc(wide_value<W>(W(ld<T>(x, ix)), WideNorm<W>{W(a.wide_mean), W(a.wide_inv)},
                                 sc ? W(ld<T>(sc, is)) : W(1), bi ? W(ld<T>(bi, ib)) : W(0), a.act));
    // scale * v + bias rounded once, as the SIMD kernels' FMA does (for
    // float: the product is exact in double). Float64 needs the fma: a
    // product beyond double beside an infinite bias is that infinity.
    using P = std::conditional_t<sizeof(Acc) < 8, double, Acc>;
    P p = P(((ld<T>(x, ix) - hi) - lo) * inv);
    if (sizeof(Acc) >= 8 && sc && bi) {
        p = std::fma(p, P(ld<T>(sc, is)), P(ld<T>(bi, ib)));
    } else {
        if (sc) p *= P(ld<T>(sc, is));
        if (bi) p += P(ld<T>(bi, ib));
    }
    const Acc v = Acc(p);
    if (a.act.type == SIMDAX_ACTIVATION_IDENTITY) return v;
    // Beyond float: the activation in double (see act_map_in_range).
    if (sizeof(Acc) < 8 && std::isinf(v)) return Acc(wide_activate(p, a.act));
    return activate<Acc>(v, a.act);
}

}  // namespace

template <class T>
void normalize(const void* x, void* y, size_t n, const NormArgs* a) {
    using Acc = typename Storage<T>::Acc;
    Acc hi, lo;
    split(a->mean, &hi, &lo);
    const Acc inv = Acc(a->inv_std);
    const WideFpScope<WideOf<Acc>> fp(a->wide);
    for (size_t i = 0; i < n; ++i) {
        const ptrdiff_t k = ptrdiff_t(i);
        st<T>(
            y, k,
            mvn_value<T>(x, k, a->scale, k * a->scale_stride, a->bias, k * a->bias_stride, *a, hi, lo, inv));
    }
}

template <class T>
void mvn_cols(const void* x, void* y, size_t r, size_t k, ptrdiff_t xrs, ptrdiff_t yrs, const MvnArgs* a) {
    using Acc = typename Storage<T>::Acc;
    constexpr size_t kLanes = 64;
    Welford mo[kLanes];
    NormArgs na[kLanes];
    Acc hi[kLanes], lo[kLanes], inv[kLanes];
    const WideFpScope<WideOf<Acc>> fp;  // lanes outside the fast range, if any
    for (size_t l0 = 0; l0 < k; l0 += kLanes) {
        const size_t w = std::min(kLanes, k - l0);
        for (size_t l = 0; l < w; ++l) mo[l] = Welford{};
        for (size_t j = 0; j < r; ++j)
            for (size_t l = 0; l < w; ++l)
                mo[l].add(double(ld<T>(x, ptrdiff_t(j) * xrs + ptrdiff_t(l0 + l))));
        for (size_t l = 0; l < w; ++l) {
            na[l] = NormArgs{};
            na[l].act = a->act;
            if (fits_fast_path<Acc>(mo[l].mean, mo[l].m2, double(r), a->vn)) {
                split(mo[l].mean, &hi[l], &lo[l]);
                inv[l] = Acc(inv_divisor(mo[l].m2 / double(r), a->vn));
            } else {
                const ptrdiff_t lane = ptrdiff_t(l0 + l);
                set_wide(&na[l],
                         wide_moments_n<WideOf<Acc>>(
                             r, [&](size_t j) { return ld<T>(x, ptrdiff_t(j) * xrs + lane); }),
                         double(r), a->vn);
            }
        }
        for (size_t j = 0; j < r; ++j)
            for (size_t l = 0; l < w; ++l) {
                const ptrdiff_t lj = ptrdiff_t(l0 + l);
                st<T>(y, ptrdiff_t(j) * yrs + lj,
                      mvn_value<T>(x, ptrdiff_t(j) * xrs + lj, a->scale,
                                   ptrdiff_t(j) * a->scale_rs + lj * a->scale_ks, a->bias,
                                   ptrdiff_t(j) * a->bias_rs + lj * a->bias_ks, na[l], hi[l], lo[l], inv[l]));
            }
    }
}

template <class T>
void mvn_rows(const void* x, void* y, size_t rows, size_t n, ptrdiff_t xrs, ptrdiff_t yrs, const MvnArgs* a) {
    // Element e of row g takes Scale/Bias at g*rs + e*ks: in the one-lane
    // cols problem, e is the row.
    auto at = [](const void* p, size_t g, ptrdiff_t rs) { return p ? row_at<T>(p, g, rs) : nullptr; };
    for (size_t g = 0; g < rows; ++g) {
        MvnArgs r = *a;
        r.scale = at(a->scale, g, a->scale_rs);
        r.scale_rs = a->scale_ks;
        r.scale_ks = 0;
        r.bias = at(a->bias, g, a->bias_rs);
        r.bias_rs = a->bias_ks;
        r.bias_ks = 0;
        mvn_cols<T>(row_at<T>(x, g, xrs), row_at<T>(y, g, yrs), n, 1, 1, 1, &r);
    }
}

#define SIMDAX_SCALAR_INSTANTIATE_MVN(T) SIMDAX_MVN_SLOTS(SIMDAX_SLOT_INSTANTIATE, T)
SIMDAX_SCALAR_FOR_EACH_DTYPE(SIMDAX_SCALAR_INSTANTIATE_MVN)

}  // namespace simdax::kernels::scalar
