// Portable activations (docs/spec.md "Fused activations"), used standalone and fused
// into MVN. Stable forms where the literal formula overflows or cancels.
#include <cmath>

#include "scalar/scalar_kernels.hpp"

namespace simdax::kernels::scalar {

namespace {
// ln(1 + exp(z)) - max(z, 0). The callers add max(z, 0) (scaled) as x or
// alpha*beta*x, chosen by the sign of z: nothing overflows where z = s*x does.
template <class Acc>
Acc softplus_tail(Acc z) {
    return std::log1p(std::exp(-std::fabs(z)));
}

// alpha*expm1(x/alpha) + ...: with alpha < 0 and x < 0, t = x/alpha > 0 and
// expm1(t) may overflow where alpha*expm1(t) does not; (alpha*e)*(e + 2),
// e = expm1(t/2), is the same value and stays finite.
template <class Acc>
Acc celu_neg(Acc x, Acc alpha) {
    if (alpha > Acc(0)) return std::fmin(Acc(0), alpha * std::expm1(x / alpha));
    const Acc e = std::expm1(x / alpha * Acc(0.5));
    return std::fmin(Acc(0), alpha * e * (e + Acc(2)));
}
}  // namespace

template <class Acc>
Acc activate(Acc x, const ActParams& a) {
    const Acc alpha = Acc(a.alpha), beta = Acc(a.beta), gamma = Acc(a.gamma);
    switch (a.type) {
        case SIMDAX_ACTIVATION_IDENTITY: return x;
        case SIMDAX_ACTIVATION_LINEAR:
            // Fused (as the SIMD kernels): alpha*x beyond the range with
            // beta bringing it back is still finite.
            return std::fma(alpha, x, beta);
        case SIMDAX_ACTIVATION_RELU: return x < Acc(0) ? Acc(0) : x;
        case SIMDAX_ACTIVATION_LEAKY_RELU: return x >= Acc(0) ? x : alpha * x;
        case SIMDAX_ACTIVATION_ELU: return x >= Acc(0) ? x : alpha * std::expm1(x);
        case SIMDAX_ACTIVATION_CELU:
            if (std::isnan(x)) return x;  // fmin would drop it
            return (x > Acc(0) ? x : Acc(0)) + celu_neg(x, alpha);
        case SIMDAX_ACTIVATION_SCALED_ELU:
            // gamma*(alpha*expm1(x)): gamma*alpha may overflow where the
            // result does not (x = 0, alpha = gamma = 1e30).
            return x > Acc(0) ? gamma * x : gamma * (alpha * std::expm1(x));
        case SIMDAX_ACTIVATION_SIGMOID: return Acc(1) / (Acc(1) + std::exp(-x));
        case SIMDAX_ACTIVATION_HARD_SIGMOID: {
            const Acc v = alpha * x + beta;
            if (std::isnan(v)) return v;
            return v < Acc(0) ? Acc(0) : (v > Acc(1) ? Acc(1) : v);
        }
        case SIMDAX_ACTIVATION_TANH: return std::tanh(x);
        case SIMDAX_ACTIVATION_SCALED_TANH: return alpha * std::tanh(beta * x);
        case SIMDAX_ACTIVATION_SOFTPLUS: {
            const Acc t = alpha * x;
            return (t > Acc(0) ? x : Acc(0)) + softplus_tail(t) / alpha;
        }
        case SIMDAX_ACTIVATION_PARAMETRIC_SOFTPLUS: {
            const double ab_exact = double(a.alpha) * double(a.beta);
            const Acc t = beta * x, ab = Acc(ab_exact);
            // ab beyond Acc, or underflowed to 0 (0*inf is NaN): alpha*t (t
            // overflows only where the result does).
            const Acc lin = std::isfinite(ab) && (ab != Acc(0) || ab_exact == 0.0) ? ab * x : alpha * t;
            return (t > Acc(0) ? lin : Acc(0)) + alpha * softplus_tail(t);
        }
        case SIMDAX_ACTIVATION_SOFTSIGN: return x / (Acc(1) + std::fabs(x));
        case SIMDAX_ACTIVATION_THRESHOLDED_RELU: return x > alpha ? x : (std::isnan(x) ? x : Acc(0));
        case SIMDAX_ACTIVATION_SHRINK:
            if (std::isnan(x)) return x;
            return x > beta ? x - alpha : (x < -beta ? x + alpha : Acc(0));
        case SIMDAX_ACTIVATION_GELU:
            return Acc(0.5) * x * (Acc(1) + std::erf(x * Acc(0.70710678118654752440)));
    }
    return x;
}
template float activate<float>(float, const ActParams&);
template double activate<double>(double, const ActParams&);

namespace {
template <class T, class F>
void map(const void* x, void* y, size_t n, F f) {
    for (size_t i = 0; i < n; ++i) st<T>(y, ptrdiff_t(i), f(ld<T>(x, ptrdiff_t(i))));
}
}  // namespace

// One switch per call, not per element.
template <class T>
void activation(const void* x, void* y, size_t n, const ActParams* a) {
    using Acc = typename Storage<T>::Acc;
    const ActParams p = *a;
    switch (p.type) {
        case SIMDAX_ACTIVATION_IDENTITY: return map<T>(x, y, n, [](Acc v) { return v; });
        case SIMDAX_ACTIVATION_RELU: return map<T>(x, y, n, [](Acc v) { return v < Acc(0) ? Acc(0) : v; });
        case SIMDAX_ACTIVATION_HARD_SIGMOID: {
            const Acc al = Acc(p.alpha), be = Acc(p.beta);
            return map<T>(x, y, n, [al, be](Acc v) {
                const Acc t = al * v + be;
                return t < Acc(0) ? Acc(0) : (t > Acc(1) ? Acc(1) : t);  // NaN passes through
            });
        }
        default: return map<T>(x, y, n, [&p](Acc v) { return activate<Acc>(v, p); });
    }
}
#define SIMDAX_SCALAR_INSTANTIATE_ACTIVATION(T) SIMDAX_ACTIVATION_SLOTS(SIMDAX_SLOT_INSTANTIATE, T)
SIMDAX_SCALAR_FOR_EACH_DTYPE(SIMDAX_SCALAR_INSTANTIATE_ACTIVATION)

}  // namespace simdax::kernels::scalar
