// Portable LayerNormalization / RMSNormalization kernels: the row in the
// compute type, its moments in double (two passes: the mean, then the
// squared deviations from it), one output pass.
#include <cmath>
#include <type_traits>

#include "mvn/mvn_wide.hpp"
#include "scalar/scalar_kernels.hpp"

namespace simdax::kernels::scalar {
namespace {

template <class T>
using AccOf = typename Storage<T>::Acc;

// A parameter of the data's dtype T or float32 (a float16/bfloat16 row may
// take float32 scale, bias and skip bias).
template <class T>
inline AccOf<T> param(const void* p, bool f32, size_t i) {
    if constexpr (!std::is_same_v<T, double>)
        if (f32) return ld<float>(p, ptrdiff_t(i));
    return ld<T>(p, ptrdiff_t(i));
}

}  // namespace

template <class T>
void norm_load(const void* x, const void* skip, const void* skip_bias, bool skip_bias_f32, void* sum,
               void* buf, size_t n) {
    using Acc = AccOf<T>;
    Acc* b = static_cast<Acc*>(buf);
    for (size_t i = 0; i < n; ++i) {
        Acc v = ld<T>(x, ptrdiff_t(i));
        if (skip) v += ld<T>(skip, ptrdiff_t(i));
        if (skip_bias) v += param<T>(skip_bias, skip_bias_f32, i);
        // The sum as the data's dtype holds it: the output normalizes the
        // value the sum output shows.
        v = Storage<T>::load(Storage<T>::store(v));
        if (sum) st<T>(sum, ptrdiff_t(i), v);
        b[i] = v;
    }
}

// Element i of a row: buf's compute-type value, or the input's (stored).
template <class T>
struct RowOf {
    const void* p;
    bool stored;
    AccOf<T> operator[](size_t i) const {
        return stored ? ld<T>(p, ptrdiff_t(i)) : static_cast<const AccOf<T>*>(p)[i];
    }
};

template <class T>
void norm_moments(const void* row, bool stored, size_t n, bool rms, NormMoments* out) {
    const RowOf<T> b{row, stored};
    if (rms) {
        double q = 0;
        for (size_t i = 0; i < n; ++i) q += double(b[i]) * double(b[i]);
        *out = {double(n), 0.0, q};
        return;
    }
    double s = 0;
    for (size_t i = 0; i < n; ++i) s += double(b[i]);
    const double m = s / double(n);
    if (!std::isfinite(m)) {  // an infinity or NaN in the row
        *out = {double(n), m, m - m};
        return;
    }
    double d1 = 0, d2 = 0;
    for (size_t i = 0; i < n; ++i) {
        const double d = double(b[i]) - m;
        d1 += d;
        d2 += d * d;
    }
    *out = {double(n), m + d1 / double(n), d2 - d1 * d1 / double(n)};
}

template <class T>
void norm_apply(const void* row, void* y, size_t n, const NormApply* a) {
    using Acc = AccOf<T>;
    const RowOf<T> b{row, a->row_stored};
    if (a->wide) {
        for (size_t i = 0; i < n; ++i) {
            double v = (double(b[i]) - a->mean) * a->inv * double(param<T>(a->scale, a->scale_f32, i));
            if (a->bias) v += double(param<T>(a->bias, a->bias_f32, i));
            st<T>(y, ptrdiff_t(i), Acc(v));
        }
        return;
    }
    // The mean as hi + lo: (v - hi) is exact near the mean, then - lo.
    const Acc mh = Acc(a->mean), ml = Acc(a->mean - double(mh)), inv = Acc(a->inv);
    for (size_t i = 0; i < n; ++i) {
        // The normalized value first: inv * scale may overflow where the
        // output does not.
        const Acc d = (b[i] - mh) - ml;
        Acc v = (d * inv) * param<T>(a->scale, a->scale_f32, i);
        if (a->bias) v += param<T>(a->bias, a->bias_f32, i);
        st<T>(y, ptrdiff_t(i), v);
    }
}

// Row by row as the per-row path (norm_moments, then norm_apply): the sum
// of squares in the wider type, the output in the compute type unless the
// row is outside its comfortable range (then in the wider type).
template <class T>
void rms_rows(const void* x, void* y, size_t rows, size_t n, ptrdiff_t xrs, ptrdiff_t yrs,
              const RmsRowsArgs* a) {
    using Acc = AccOf<T>;
    using W = WideOf<Acc>;
    const VarianceNorm vn{true, false, a->epsilon};
    const bool f32 = a->scale_f32 && !std::is_same_v<T, double>;
    const WideFpScope<W> fp;
    for (size_t g = 0; g < rows; ++g) {
        const void* xr = row_at<T>(x, g, xrs);
        void* yr = row_at<T>(y, g, yrs);
        const char* sc = static_cast<const char*>(a->scale) +
                         ptrdiff_t(g) * a->scale_rs * ptrdiff_t(f32 ? sizeof(float) : sizeof(T));
        W q = 0;
        for (size_t i = 0; i < n; ++i) {
            const W v = W(ld<T>(xr, ptrdiff_t(i)));
            q += v * v;
        }
        const W var = q / W(n);
        const W inv = W(1) / std::sqrt(var + W(a->epsilon));
        const bool wide = !fits_fast_path_var<Acc>(0.0, double(q), double(var), vn);
        const Acc inv_acc = Acc(inv);
        for (size_t i = 0; i < n; ++i) {
            const ptrdiff_t k = ptrdiff_t(i) * a->scale_ks;
            const Acc s = f32 ? Acc(ld<float>(sc, k)) : Acc(ld<T>(sc, k));
            const Acc v = ld<T>(xr, ptrdiff_t(i));
            st<T>(yr, ptrdiff_t(i), wide ? Acc(W(v) * inv * W(s)) : (v * inv_acc) * s);
        }
    }
}

#define SIMDAX_SCALAR_INSTANTIATE_LAYER_NORM(T) SIMDAX_LAYER_NORM_SLOTS(SIMDAX_SLOT_INSTANTIATE, T)
SIMDAX_SCALAR_FOR_EACH_DTYPE(SIMDAX_SCALAR_INSTANTIATE_LAYER_NORM)

}  // namespace simdax::kernels::scalar
