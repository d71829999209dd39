// float64 reference: docs/spec.md formulas, evaluated literally so that IEEE
// special values (inf - inf, exp(-inf), NaN) fall out as docs/spec.md says.
// Sums use Neumaier compensation so the reference's own rounding stays far
// below the float64 tolerance (1e-12) even for 20000-element groups.
#include "support/reference.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sxt {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Compensated running sum.
template <class F>
struct BasicSum {
    F s = 0, c = 0;
    void add(F x) {
        const F t = s + x;
        if (std::isfinite(t)) c += std::fabs(s) >= std::fabs(x) ? (s - t) + x : (x - t) + s;
        s = t;
    }
    F value() const { return std::isfinite(s) ? s + c : s; }
};
using Sum = BasicSum<double>;

// Offsets of all index combinations over `dims` (taken in the listed,
// increasing order; row-major, so the last dim varies fastest).
std::vector<int64_t> offsets_over(const std::vector<int>& dims, const std::vector<int64_t>& sizes,
                                  const std::vector<int64_t>& strides) {
    std::vector<int64_t> out{0};
    for (int d : dims) {
        std::vector<int64_t> next;
        next.reserve(out.size() * size_t(std::max<int64_t>(sizes[d], 0)));
        for (int64_t o : out)
            for (int64_t i = 0; i < sizes[d]; ++i) next.push_back(o + i * strides[d]);
        out.swap(next);
    }
    return out;
}

// The split of a tensor into groups: element j of group g sits at
// outer[g] + inner[j] (in the view's strides), and at packed index
// outer_packed[g] + inner_packed[j].
struct Groups {
    std::vector<int64_t> outer, inner, outer_packed, inner_packed;
};

void split_dims(size_t rank, const std::vector<uint32_t>& axes, std::vector<int>* kept,
                std::vector<int>* reduced) {
    std::vector<bool> is_reduced(rank, false);
    for (uint32_t a : axes) is_reduced[a] = true;
    for (size_t d = 0; d < rank; ++d) (is_reduced[d] ? reduced : kept)->push_back(int(d));
}

Groups make_groups(const std::vector<int64_t>& sizes, const std::vector<int64_t>& strides,
                   const std::vector<uint32_t>& axes) {
    std::vector<int> kept, reduced;
    split_dims(sizes.size(), axes, &kept, &reduced);
    const std::vector<int64_t> packed = packed_strides(sizes);
    Groups g;
    g.outer = offsets_over(kept, sizes, strides);
    g.inner = offsets_over(reduced, sizes, strides);
    g.outer_packed = offsets_over(kept, sizes, packed);
    g.inner_packed = offsets_over(reduced, sizes, packed);
    return g;
}

// Strides that read a Scale/Bias view at the input's indices (size-1 dims
// broadcast).
std::vector<int64_t> broadcast_strides(const StridedView& v) {
    std::vector<int64_t> s(v.sizes.size());
    for (size_t d = 0; d < s.size(); ++d) s[d] = v.sizes[d] == 1 ? 0 : v.strides[d];
    return s;
}

// Shared driver of LogSoftmax/Softmax: m = max(G) (NaN if G holds NaN),
// s = sum exp(g - m), then out(x, m, s) per element.
template <class Out>
std::vector<double> softmax_family(const StridedView& x, const std::vector<uint32_t>& axes, Out out) {
    std::vector<double> y(size_t(element_count(x.sizes)));
    if (y.empty()) return y;
    const Groups g = make_groups(x.sizes, x.strides, axes);
    for (size_t o = 0; o < g.outer.size(); ++o) {
        const double* b = x.base + g.outer[o];
        double m = -std::numeric_limits<double>::infinity();
        for (int64_t off : g.inner) m = std::isnan(b[off]) || std::isnan(m) ? kNaN : std::max(m, b[off]);
        Sum s;
        for (int64_t off : g.inner) s.add(std::exp(b[off] - m));
        const double sum = s.value();
        for (size_t j = 0; j < g.inner.size(); ++j)
            y[size_t(g.outer_packed[o] + g.inner_packed[j])] = out(b[g.inner[j]], m, sum);
    }
    return y;
}

// E[G]. With only finite values: shifted by the first element (exact for
// a constant group, where a plain sum/n may miss by an ulp and turn 0/0 into
// +-1); otherwise the literal sum so infinities behave as in the formula.
// The group's mean in long double (x87 extended or IEEE quad): float64
// groups whose sums or squared deviations leave double's range (1e300,
// 1e-320) stay exact. A compensated sum of the values themselves (no shift
// rounds away a small value beside a huge one: {3e38, -3e38, -1} has mean
// -1/3), then one correction by the mean of the residuals x - m, each taken
// exactly as a pair (TwoSum), so that a constant group's mean is its value.
long double group_mean(const double* b, const std::vector<int64_t>& inner) {
    const long double n = (long double)(inner.size());
    BasicSum<long double> sum;
    for (int64_t off : inner) sum.add(b[off]);
    const long double m = sum.value() / n;
    if (!std::isfinite(m)) return m;
    BasicSum<long double> res;
    for (int64_t off : inner) {
        // a + (-m) = d + e exactly (Knuth's TwoSum).
        const long double a = b[off], d = a - m, bb = d - a;
        const long double e = (a - (d - bb)) + (-m - bb);
        res.add(d);
        res.add(e);
    }
    return m + res.value() / n;
}

}  // namespace

int64_t element_count(const std::vector<int64_t>& sizes) {
    int64_t n = 1;
    for (int64_t s : sizes) n *= s;
    return n;
}

std::vector<int64_t> packed_strides(const std::vector<int64_t>& sizes) {
    std::vector<int64_t> s(sizes.size());
    int64_t step = 1;
    for (size_t d = sizes.size(); d-- > 0;) {
        s[d] = step;
        step *= std::max<int64_t>(sizes[d], 1);
    }
    return s;
}

std::vector<double> ref_log_softmax(const StridedView& x, const std::vector<uint32_t>& axes) {
    return softmax_family(x, axes, [](double v, double m, double s) { return v - m - std::log(s); });
}

std::vector<double> ref_softmax(const StridedView& x, const std::vector<uint32_t>& axes) {
    return softmax_family(x, axes, [](double v, double m, double s) { return std::exp(v - m) / s; });
}

std::vector<double> ref_hardmax(const StridedView& x, const std::vector<uint32_t>& axes) {
    std::vector<double> y(size_t(element_count(x.sizes)), 0.0);
    if (y.empty()) return y;
    const Groups g = make_groups(x.sizes, x.strides, axes);
    for (size_t o = 0; o < g.outer.size(); ++o) {
        const double* b = x.base + g.outer[o];
        // NaN beats every number and the first NaN wins; otherwise the first
        // strictly greater value moves the winner (so -0 and +0 tie).
        size_t best = 0;
        for (size_t j = 1; j < g.inner.size(); ++j) {
            const double cur = b[g.inner[best]], v = b[g.inner[j]];
            if (std::isnan(cur)) break;
            if (std::isnan(v) || v > cur) best = j;
        }
        y[size_t(g.outer_packed[o] + g.inner_packed[best])] = 1.0;
    }
    return y;
}

double ref_activation(double x, const simdax_activation_desc& act) {
    if (std::isnan(x)) return kNaN;  // docs/spec.md: NaN in, NaN out, for every activation
    const double a = act.alpha, b = act.beta, c = act.gamma;
    switch (act.type) {
        case SIMDAX_ACTIVATION_IDENTITY: return x;
        case SIMDAX_ACTIVATION_LINEAR: return a * x + b;
        case SIMDAX_ACTIVATION_RELU: return std::max(0.0, x);
        case SIMDAX_ACTIVATION_LEAKY_RELU: return x >= 0 ? x : a * x;
        // expm1/erfc/log1p are the same formulas, just more accurate in double.
        case SIMDAX_ACTIVATION_ELU: return x >= 0 ? x : a * std::expm1(x);
        case SIMDAX_ACTIVATION_CELU: {
            // alpha < 0: a * expm1(t) as (a * e) * (e + 2), e = expm1(t / 2),
            // finite wherever the product is (float64 inputs near the top).
            const double e = std::expm1(x / a * (a < 0 ? 0.5 : 1.0));
            return std::max(0.0, x) + std::min(0.0, a < 0 ? a * e * (e + 2) : a * e);
        }
        case SIMDAX_ACTIVATION_SCALED_ELU: return x > 0 ? c * x : c * a * std::expm1(x);
        case SIMDAX_ACTIVATION_SIGMOID: return 1.0 / (1.0 + std::exp(-x));
        case SIMDAX_ACTIVATION_HARD_SIGMOID: return ref_hard_sigmoid(x, a, b);
        case SIMDAX_ACTIVATION_TANH: return std::tanh(x);
        case SIMDAX_ACTIVATION_SCALED_TANH: return a * std::tanh(b * x);
        case SIMDAX_ACTIVATION_SOFTPLUS:
        case SIMDAX_ACTIVATION_PARAMETRIC_SOFTPLUS: {
            // ln(1 + exp(t)) = max(t, 0) + ln(1 + exp(-|t|)), max(t, 0) scaled
            // back as x or a*b*x: no overflow where t does (float64 inputs).
            const bool sp = act.type == SIMDAX_ACTIVATION_SOFTPLUS;
            const double t = sp ? a * x : b * x;
            const double l = std::log1p(std::exp(-std::fabs(t)));
            if (sp) return (t > 0 ? x : 0.0) + l / a;
            return (t > 0 ? a * b * x : 0.0) + a * l;
        }
        case SIMDAX_ACTIVATION_SOFTSIGN: return x / (1.0 + std::fabs(x));
        case SIMDAX_ACTIVATION_THRESHOLDED_RELU: return x > a ? x : 0.0;
        case SIMDAX_ACTIVATION_SHRINK: return x > b ? x - a : (x < -b ? x + a : 0.0);
        case SIMDAX_ACTIVATION_GELU: return 0.5 * x * std::erfc(-x / std::sqrt(2.0));
    }
    return kNaN;
}

double ref_hard_sigmoid(double x, double alpha, double beta) {
    if (std::isnan(x)) return kNaN;
    // docs/spec.md's formula in IEEE arithmetic: alpha = 0 on +-inf gives 0*inf = NaN,
    // and the clamp propagates it (std::max/min would turn it into 0).
    const double v = alpha * x + beta;
    if (std::isnan(v)) return kNaN;
    return std::max(0.0, std::min(v, 1.0));
}

namespace {

// Where an activation turns or jumps: its value at each point inside an
// interval (both sides at a jump) joins the interval's ends in the hull of
// what it takes there. Between these points every activation is monotone.
std::vector<double> turning_points(const simdax_activation_desc& act) {
    const double a = act.alpha, b = act.beta;
    const double inf = std::numeric_limits<double>::infinity();
    auto both_sides = [&](double t) {
        return std::vector<double>{std::nextafter(t, -inf), t, std::nextafter(t, inf)};
    };
    switch (act.type) {
        case SIMDAX_ACTIVATION_GELU: return {-0.75179107561};  // its minimum
        case SIMDAX_ACTIVATION_THRESHOLDED_RELU: return both_sides(a);
        case SIMDAX_ACTIVATION_SHRINK: {
            std::vector<double> t = both_sides(b), u = both_sides(-b);
            t.insert(t.end(), u.begin(), u.end());
            return t;
        }
        default: return {0.0};  // relu, leaky/elu/celu/scaled_elu (any alpha sign)
    }
}

// What act takes over the doubles in [lo, hi] (ends possibly infinite):
// the hull of its values at the ends and turning points, NaN if it takes it.
RefRange activation_range(double lo, double hi, const simdax_activation_desc* act) {
    RefRange r;
    if (!act || act->type == SIMDAX_ACTIVATION_IDENTITY) {
        r.lo[0] = lo;
        r.hi[0] = hi;
        return r;
    }
    std::vector<double> at = turning_points(*act);
    at.erase(std::remove_if(at.begin(), at.end(), [&](double t) { return !(lo < t && t < hi); }), at.end());
    at.push_back(lo);
    at.push_back(hi);
    // An infinite end: the finite values next to it as well (softsign and
    // gelu are NaN at the infinity itself, not near it).
    const double big = std::numeric_limits<double>::max();
    if (lo < -big && hi >= -big) at.push_back(-big);
    if (hi > big && lo <= big) at.push_back(big);
    r.lo[0] = std::numeric_limits<double>::infinity();
    r.hi[0] = -r.lo[0];
    for (double w : at) {
        const double y = ref_activation(w, *act);
        if (std::isnan(y)) {
            r.nan = true;
            continue;
        }
        r.lo[0] = std::min(r.lo[0], y);
        r.hi[0] = std::max(r.hi[0], y);
    }
    return r;
}

}  // namespace

std::vector<double> ref_mvn(const StridedView& x, const std::vector<uint32_t>& axes, const MvnParams& p,
                            std::vector<RefRange>* ranges) {
    std::vector<double> y(size_t(element_count(x.sizes)));
    if (ranges) ranges->assign(y.size(), RefRange{});
    if (y.empty()) return y;
    const Groups g = make_groups(x.sizes, x.strides, axes);
    Groups gs, gb;
    if (p.scale) gs = make_groups(x.sizes, broadcast_strides(*p.scale), axes);
    if (p.bias) gb = make_groups(x.sizes, broadcast_strides(*p.bias), axes);
    const long double n = (long double)(g.inner.size());
    const long double u = p.compute_eps;
    const long double inf = std::numeric_limits<long double>::infinity();
    for (size_t o = 0; o < g.outer.size(); ++o) {
        const double* b = x.base + g.outer[o];
        const long double mean = group_mean(b, g.inner);
        BasicSum<long double> sq, abs_sum;
        long double max_dev = 0;
        for (int64_t off : g.inner) {
            const long double d = b[off] - mean;
            sq.add(d * d);
            abs_sum.add(std::fabs((long double)(b[off])));
            max_dev = std::max(max_dev, std::fabs(d));
        }
        const long double var = sq.value() / n;
        const long double divisor =
            p.epsilon_on_stddev ? std::sqrt(var) + p.epsilon : std::sqrt(var + p.epsilon);
        const long double inv = p.normalize_variance ? 1.0L / divisor : 1.0L;
        // The mean's allowance delta (docs/mvn_range.md): none for a group
        // holding an infinity or NaN (IEEE arithmetic, exact).
        const bool finite_group = std::isfinite(mean) && std::isfinite(var);
        // eta: a double mean misses by up to half the smallest subnormal
        // ({0, 4.9e-324} has mean 2.5e-324); groups with var + eps below
        // 2^-802 (divisor squared) keep theirs in a wider type.
        const long double eta = divisor * divisor >= 0x1p-802L || !p.normalize_variance ? 0x1p-1074L : 0.0L;
        const long double delta =
            finite_group ? 32 * 0x1p-53L * (abs_sum.value() / n) + 16 * u * max_dev + eta : 0.0L;
        for (size_t j = 0; j < g.inner.size(); ++j) {
            const double sc = p.scale ? p.scale->base[gs.outer[o] + gs.inner[j]] : 1.0;
            const double bi = p.bias ? p.bias->base[gb.outer[o] + gb.inner[j]] : 0.0;
            const long double d = b[g.inner[j]] - mean;
            const long double v = sc * d * inv + bi;
            const size_t at = size_t(g.outer_packed[o] + g.inner_packed[j]);
            y[at] = p.act ? ref_activation(double(v), *p.act) : double(v);
            if (!ranges) continue;
            const long double reach = delta + 16 * u * std::fabs(d);
            RefRange& r = (*ranges)[at];
            if (finite_group && std::isinf(sc) && std::fabs(d) <= reach) {
                // An infinite Scale on a deviation within the mean's
                // allowance: the deviation may come out 0 or of either
                // sign, so NaN or the activation of +-inf + Bias.
                const double up_v = double(inf + bi), down_v = double(-inf + bi);
                const RefRange up = activation_range(up_v, up_v, p.act);
                const RefRange down = activation_range(down_v, down_v, p.act);
                r.lo[0] = up.lo[0];
                r.hi[0] = up.hi[0];
                r.lo[1] = down.lo[0];
                r.hi[1] = down.hi[0];
                r.nan = true;
                continue;
            }
            // Rounding the pre-activation interval to double puts a real
            // value beyond double's range at the infinity of its sign.
            long double w = 0;
            if (finite_group && std::isfinite(v))
                w = std::fabs(sc) * inv * reach + 16 * u * std::fabs((long double)bi);
            r = activation_range(double(v - w), double(v + w), p.act);
            if (std::isnan(v)) r = point_range(y[at]);
        }
    }
    return y;
}

namespace {
template <class F>
std::vector<double> elementwise(const StridedView& x, F f) {
    const std::vector<int> all = [&] {
        std::vector<int> d(x.sizes.size());
        for (size_t i = 0; i < d.size(); ++i) d[i] = int(i);
        return d;
    }();
    const std::vector<int64_t> offs = offsets_over(all, x.sizes, x.strides);
    std::vector<double> y(offs.size());
    for (size_t i = 0; i < offs.size(); ++i) y[i] = f(x.base[offs[i]]);
    return y;
}
}  // namespace

std::vector<double> ref_activation_op(const StridedView& x, const simdax_activation_desc& act) {
    return elementwise(x, [&](double v) { return ref_activation(v, act); });
}

std::vector<double> ref_hard_sigmoid_op(const StridedView& x, double alpha, double beta) {
    return elementwise(x, [&](double v) { return ref_hard_sigmoid(v, alpha, beta); });
}

}  // namespace sxt
