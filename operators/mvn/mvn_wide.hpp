// MeanVarianceNormalization outside the fast paths' range, shared by every
// ISA and by the planner: groups holding an infinity, magnitudes whose
// deviations or squares overflow the compute type, variances below its
// reach. Such a group is evaluated in the next wider type (double for the
// float compute type, long double for double: x87 or IEEE quad, both with
// a 15-bit exponent, so (1e308)^2 and (1e-320)^2 stay exact enough).
// Rare and slow on purpose: the fast paths stay free of range checks per
// element.
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>
#include <type_traits>

#include "force_inline.hpp"
#include "kernel_table.hpp"
#include "mvn/mvn_divisor.hpp"

namespace simdax::kernels {

namespace scalar {
// operators/activation/activation_scalar.cpp
template <class Acc>
Acc activate(Acc x, const ActParams& a);
}  // namespace scalar

// Internal linkage: each ISA's translation unit keeps its own copy, built
// with its own flags (no cross-ISA merging by the linker).
namespace {

static_assert(std::numeric_limits<long double>::max_exponent >= 4 * std::numeric_limits<double>::max_exponent,
              "the float64 MVN range fallback needs a long double with a wider exponent than double");

template <class E>
using WideOf = std::conditional_t<(sizeof(E) < sizeof(double)), double, long double>;

template <class W>
struct WideMoments {
    W mean, m2;
};

// Two passes in W over the group, each(f) calling f(W value) for every
// element in order (at least one): shifted sum for the mean, then the
// squared deviations with the residual correction. An infinity or NaN gives
// docs/spec.md's formula in IEEE arithmetic: mean +-inf (NaN for both signs or a
// NaN) and m2 NaN, as (inf - inf)^2 enters it.
template <class W, class Each>
WideMoments<W> wide_moments(Each&& each) {
    W sh = 0, s = 0, n = 0;
    each([&](W v) {
        if (n == 0 && std::isfinite(v)) sh = v;
        s += v - sh;
        n += 1;
    });
    const W m = sh + s / n;
    if (!std::isfinite(m)) return {m, std::numeric_limits<W>::quiet_NaN()};
    W c1 = 0, q = 0;
    each([&](W v) {
        const W d = v - m;
        c1 += d;
        q += d * d;
    });
    const W m2 = q - c1 * (c1 / n);
    return {m + c1 / n, m2 < 0 ? W(0) : m2};  // rounding may go below 0; NaN stays
}

// Over a contiguous or strided array of n >= 1 elements, load(i) as W.
template <class W, class Load>
WideMoments<W> wide_moments_n(size_t n, Load&& load) {
    return wide_moments<W>([&](auto f) {
        for (size_t i = 0; i < n; ++i) f(W(load(i)));
    });
}

// Folds a block's (count, mean, m2) into a running state (Chan et al.). A
// non-finite mean on either side gives their IEEE sum and m2 NaN.
inline void chan_combine(Moments* s, double nb, double mb, double m2b) {
    if (nb == 0.0) return;
    if (s->count == 0.0) {
        *s = Moments{nb, mb, m2b};
        return;
    }
    const double n = s->count + nb;
    if (!std::isfinite(s->mean) || !std::isfinite(mb)) {
        *s = Moments{n, s->mean + mb, std::numeric_limits<double>::quiet_NaN()};
        return;
    }
    const double d = mb - s->mean;
    s->mean += d * (nb / n);
    s->m2 += m2b + d * d * (s->count * nb / n);
    s->count = n;
}

// Whether a group's statistics (mean, m2 over n elements; exact enough in
// double for the float compute type) suit the fast normalisation in E:
// finite; every deviation (at most sqrt(m2)) far from E's overflow; values
// (within |mean| + sqrt(m2)) far from E's subnormal range, where the mean's
// low part and x - mean lose digits (all-zero groups are exact); and the
// divisor (when normalising) within E's reach (divisor_in_range).
// Always inlined: it runs once per row, and GCC called it out of line
// from the float16 rows kernel. var: m2 / n, from the caller (the rows
// kernel multiplies by 1/n: a division less in each row's chain).
template <class E>
SIMDAX_INLINE bool fits_fast_path_var(double mean, double m2, double var, const VarianceNorm& v) {
    constexpr bool f32 = sizeof(E) < sizeof(double);
    const double max_m2 = f32 ? 1e76 : 0x1p1020;
    constexpr double min_mag = f32 ? 0x1p-100 : 0x1p-970;
    if (!std::isfinite(mean) || !(m2 <= max_m2)) return false;
    // Values within min_mag of 0, without a square root (this runs once per
    // row): |mean| and sqrt(m2) each under min_mag. That holds whenever
    // their sum is under it, so no group the sum would send wide stays fast.
    // In double, min_mag^2 is below the subnormals: only m2 = 0 qualifies.
    constexpr double min_mag_sq = f32 ? min_mag * min_mag : 0.0;
    const double m2p = m2 > 0 ? m2 : 0.0;
    if ((mean != 0 || m2p > 0) && std::fabs(mean) < min_mag && m2p <= min_mag_sq) return false;
    return divisor_in_range<E>(var, v);
}

template <class E>
SIMDAX_INLINE bool fits_fast_path(double mean, double m2, double n, const VarianceNorm& v) {
    return fits_fast_path_var<E>(mean, m2, m2 / n, v);
}

// A group's mean and 1 / divisor (operators/mvn/mvn_divisor.hpp) in the wider type.
template <class W>
struct WideNorm {
    W mean, inv;
};

template <class W>
inline WideNorm<W> wide_norm(const WideMoments<W>& w, double n, const VarianceNorm& v) {
    return {w.mean, inv_divisor<W>(w.m2 / W(n), v)};
}

// The group's arguments for the wide evaluation (NormArgs::wide).
template <class W>
inline void set_wide(NormArgs* a, const WideMoments<W>& w, double n, const VarianceNorm& v) {
    const WideNorm<W> wn = wide_norm(w, n, v);
    a->wide = true;
    a->wide_mean = wn.mean;
    a->wide_inv = wn.inv;
}

// Long double arithmetic runs on x87, whose control and status words the
// dispatcher's SSE guard (dispatch/execute/fp_env.hpp) does not cover: a wide
// float64 evaluation computes with round-to-nearest and every exception
// masked, then puts back the caller's control word and exception flags.
// (The register stack's tag word and top stay as the code left them: the
// compiler may hold values there.) Elsewhere long double is software
// arithmetic under the guarded environment.
template <class W>
class WideFpScope {
#if defined(__x86_64__) || defined(__i386__)
    static constexpr bool kX87 = std::is_same_v<W, long double>;
    // fnstenv's 28-byte image: control word at 0, status word at 4.
    struct Env {
        unsigned short cw, r0, sw, r1;
        unsigned char rest[20];
    };

public:
    // active = false: nothing to guard (the fast path).
    explicit WideFpScope(bool active = true) : active_(kX87 && active) {
        if (active_) {
            const unsigned short cw = 0x037F;
            __asm__ volatile("fnstenv %0\n\tfldcw %1" : "=m"(saved_) : "m"(cw) : "memory");
        }
    }
    ~WideFpScope() {
        if (active_) {
            Env now;
            __asm__ volatile("fnstenv %0" : "=m"(now) : : "memory");
            now.cw = saved_.cw;
            now.sw = static_cast<unsigned short>((now.sw & ~0xFFu) | (saved_.sw & 0xFFu));
            __asm__ volatile("fldenv %0" : : "m"(now) : "memory");
        }
    }

private:
    bool active_;
    Env saved_;
#else
public:
    explicit WideFpScope(bool = true) {}
#endif
};

// The activation of a value in double (the portable kernel's): a value
// beyond the compute type that the activation brings back (LINEAR with a
// tiny alpha, gelu(-1e39) = -0) keeps its result.
inline double wide_activate(double v, const ActParams& act) {
    return act.type == SIMDAX_ACTIVATION_IDENTITY ? v : scalar::activate<double>(v, act);
}

// One element of a wide group: the affine map in W, the activation in
// double; the caller rounds to its compute type.
template <class W>
inline double wide_value(W x, const WideNorm<W>& g, W scale, W bias, const ActParams& act) {
    return wide_activate(double(scale * (x - g.mean) * g.inv + bias), act);
}

}  // namespace
}  // namespace simdax::kernels
