// Portable MeanVarianceNormalization: Welford moments in double (no
// cancellation whatever the mean), then one normalise + scale + bias +
// activation pass.
#include <algorithm>
#include <cmath>
#include <limits>

#include "scalar_kernels.hpp"

namespace simdax::kernels::scalar {
namespace {

template <class T>
void moments(const void* x, size_t n, Moments* s) {
    double c = s->count, mean = s->mean, m2 = s->m2;
    for (size_t i = 0; i < n; ++i) {
        const double v = double(ld<T>(x, ptrdiff_t(i)));
        c += 1.0;
        const double d = v - mean;
        mean += d / c;
        m2 += d * (v - mean);
    }
    s->count = c;
    s->mean = mean;
    s->m2 = m2;
}

// Splits the double mean so float code can subtract it without losing the
// low bits: (x - hi) is exact near the mean, then - lo.
template <class Acc>
inline void split(double m, Acc* hi, Acc* lo) {
    *hi = Acc(m);
    *lo = Acc(m - double(*hi));
}

// An inv_std finite but beyond float (epsilon 0, variance below ~1e-77):
// the float kernels take (x - mean) * inv_std in double.
template <class Acc>
inline bool is_wide(double inv_std) {
    return sizeof(Acc) == 4 && inv_std > double(std::numeric_limits<float>::max()) &&
           inv_std <= std::numeric_limits<double>::max();
}

template <class Acc, class T>
inline Acc normalized(T x, Acc hi, Acc lo, Acc is, bool wide, double mean, double inv_std) {
    return wide ? Acc((double(x) - mean) * inv_std) : ((x - hi) - lo) * is;
}

template <class T>
void normalize(const void* x, void* y, size_t n, const NormArgs* a) {
    using Acc = typename Storage<T>::Acc;
    Acc hi, lo;
    split(a->mean, &hi, &lo);
    const Acc is = Acc(a->inv_std);
    const bool wide = is_wide<Acc>(a->inv_std);
    const bool identity = a->act.type == SIMDAX_ACTIVATION_IDENTITY;
    for (size_t i = 0; i < n; ++i) {
        Acc v = normalized(ld<T>(x, ptrdiff_t(i)), hi, lo, is, wide, a->mean, a->inv_std);
        if (a->scale) v *= ld<T>(a->scale, ptrdiff_t(i) * a->scale_stride);
        if (a->bias) v += ld<T>(a->bias, ptrdiff_t(i) * a->bias_stride);
        st<T>(y, ptrdiff_t(i), identity ? v : activate<Acc>(v, a->act));
    }
}

template <class T>
void mvn_cols(const void* x, void* y, size_t r, size_t k, ptrdiff_t xrs, ptrdiff_t yrs,
              const MvnArgs* a) {
    using Acc = typename Storage<T>::Acc;
    constexpr size_t kLanes = 64;
    Moments mo[kLanes];
    Acc hi[kLanes], lo[kLanes], is[kLanes];
    double inv[kLanes];
    bool wide[kLanes];
    const bool identity = a->act.type == SIMDAX_ACTIVATION_IDENTITY;
    for (size_t l0 = 0; l0 < k; l0 += kLanes) {
        const size_t w = std::min(kLanes, k - l0);
        for (size_t l = 0; l < w; ++l) mo[l] = Moments{0, 0, 0};
        for (size_t j = 0; j < r; ++j)
            for (size_t l = 0; l < w; ++l)
                moments<T>(static_cast<const T*>(x) + ptrdiff_t(j) * xrs + ptrdiff_t(l0 + l), 1,
                           &mo[l]);
        for (size_t l = 0; l < w; ++l) {
            split(mo[l].mean, &hi[l], &lo[l]);
            const double var = mo[l].m2 / mo[l].count;
            inv[l] = a->normalize_variance ? 1.0 / std::sqrt(var + a->epsilon) : 1.0;
            is[l] = Acc(inv[l]);
            wide[l] = is_wide<Acc>(inv[l]);
        }
        for (size_t j = 0; j < r; ++j) {
            for (size_t l = 0; l < w; ++l) {
                const ptrdiff_t lj = ptrdiff_t(l0 + l);
                Acc v = normalized(ld<T>(x, ptrdiff_t(j) * xrs + lj), hi[l], lo[l], is[l], wide[l],
                                   mo[l].mean, inv[l]);
                if (a->scale) v *= ld<T>(a->scale, ptrdiff_t(j) * a->scale_rs + lj * a->scale_ks);
                if (a->bias) v += ld<T>(a->bias, ptrdiff_t(j) * a->bias_rs + lj * a->bias_ks);
                st<T>(y, ptrdiff_t(j) * yrs + lj, identity ? v : activate<Acc>(v, a->act));
            }
        }
    }
}

}  // namespace

#define SIMDAX_SCALAR_MVN(T, sfx)                                                          \
    void moments_##sfx(const void* x, size_t n, Moments* s) { moments<T>(x, n, s); }       \
    void normalize_##sfx(const void* x, void* y, size_t n, const NormArgs* a) {            \
        normalize<T>(x, y, n, a);                                                          \
    }                                                                                      \
    void mvn_cols_##sfx(const void* x, void* y, size_t r, size_t k, ptrdiff_t xrs,         \
                        ptrdiff_t yrs, const MvnArgs* a) {                             \
        mvn_cols<T>(x, y, r, k, xrs, yrs, a);                                              \
    }
SIMDAX_SCALAR_FOR_EACH_DTYPE(SIMDAX_SCALAR_MVN)

}  // namespace simdax::kernels::scalar
