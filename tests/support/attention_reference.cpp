// AttentionSoftmax in float64: per row, the visible keys' logits
// softcap(x*scale) + mask + slope*(j - i'), then softmax with the sink in
// the denominator only; 0 (LogSoftmax: -inf) where the causal window or a
// boolean mask excludes a key, and over a row with no finite logit. The
// logits are float32 values, as documented (docs/attention_softmax.md):
// each step of their formula rounds to float32, so a product beyond
// float32's range is an infinity here too.
#include "support/attention_reference.hpp"

#include <cmath>
#include <limits>

namespace sxt {
namespace {

double at(const StridedView& v, const std::vector<int64_t>& idx) {
    int64_t off = 0;
    for (size_t d = 0; d < idx.size(); ++d) off += (v.sizes[d] == 1 ? 0 : idx[d]) * v.strides[d];
    return v.base[off];
}

}  // namespace

AttnRef ref_attention_softmax(const AttnRefArgs& a) {
    const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
    const std::vector<int64_t>& sz = a.x->sizes;
    const size_t r = sz.size();
    const int64_t sq = sz[r - 2], skv = sz[r - 1];
    const int64_t rows = element_count(sz) / (skv ? skv : 1);
    AttnRef out;
    out.y.assign(size_t(element_count(sz)), 0.0);
    out.lse.assign(size_t(rows), 0.0);
    std::vector<int64_t> idx(r, 0);
    std::vector<double> z(static_cast<size_t>(skv));
    std::vector<bool> vis(static_cast<size_t>(skv));
    for (int64_t g = 0; g < rows; ++g) {
        for (int64_t t = g, d = int64_t(r) - 2; d >= 0; --d) {
            idx[size_t(d)] = t % sz[size_t(d)];
            t /= sz[size_t(d)];
        }
        const int64_t i = idx[r - 2];
        const int64_t ip = a.causal == SIMDAX_CAUSAL_BOTTOM_RIGHT ? i + skv - sq : i;
        idx[r - 1] = 0;
        const double slope = a.slopes ? at(*a.slopes, idx) : 0.0;
        const double sink = a.sinks ? at(*a.sinks, idx) : -inf;
        double m = -inf;
        bool has_nan = false;
        for (int64_t j = 0; j < skv; ++j) {
            idx[r - 1] = j;
            bool v =
                a.causal == SIMDAX_CAUSAL_NONE || (j <= ip && (a.window == 0 || j > ip - int64_t(a.window)));
            if (v && a.mask && a.mask_bool && at(*a.mask, idx) == 0.0) v = false;
            vis[size_t(j)] = v;
            if (!v) continue;
            const auto f32 = [](double v) { return double(float(v)); };
            double s = f32(at(*a.x, idx) * a.scale);
            if (a.softcap != 0) s = f32(a.softcap * std::tanh(s / a.softcap));
            if (a.mask && !a.mask_bool) s = f32(s + at(*a.mask, idx));
            s = f32(s +
                    slope * double(j - ip));  // the product is exact: one rounding, as a fused multiply-add
            z[size_t(j)] = s;
            if (std::isnan(s))
                has_nan = true;
            else if (s > m)
                m = s;
        }
        const double fill = a.log ? -inf : 0.0;
        double* y = out.y.data() + g * skv;
        if (!has_nan && m == -inf) {  // no finite logit: the sink alone (if any)
            for (int64_t j = 0; j < skv; ++j) y[j] = fill;
            out.lse[size_t(g)] = sink;
            continue;
        }
        const double mm = has_nan || std::isnan(sink) ? nan : std::max(m, sink);
        double s = sink == -inf ? 0.0 : std::exp(sink - mm);
        for (int64_t j = 0; j < skv; ++j)
            if (vis[size_t(j)]) s += std::exp(z[size_t(j)] - mm);
        for (int64_t j = 0; j < skv; ++j) {
            if (!vis[size_t(j)]) {
                // Boolean-masked keys inside the window take the formula's
                // value at -inf (NaN in a NaN row); causal ones are written.
                const bool in_window = a.causal == SIMDAX_CAUSAL_NONE ||
                                       (j <= ip && (a.window == 0 || j > ip - int64_t(a.window)));
                y[j] = in_window && (has_nan || std::isnan(s)) ? nan : fill;
                continue;
            }
            y[j] = a.log ? z[size_t(j)] - mm - std::log(s) : std::exp(z[size_t(j)] - mm) / s;
        }
        out.lse[size_t(g)] = mm + std::log(s);
    }
    return out;
}

}  // namespace sxt
