#include "spec_rules.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace fuzz {
namespace {

bool valid_dtype(simdax_dtype d) { return d >= SIMDAX_DTYPE_FLOAT32 && d <= SIMDAX_DTYPE_FLOAT64; }

bool uses_axes(const Case& c) {
    return c.op == SIMDAX_OPERATOR_LOG_SOFTMAX || c.op == SIMDAX_OPERATOR_SOFTMAX ||
           c.op == SIMDAX_OPERATOR_HARDMAX || is_mvn(c);
}

// The element offset of every index tuple of a (small) tensor, sorted;
// exact, as strides may be near 2^63.
std::vector<__int128> element_offsets(const simdax_tensor_desc& t) {
    const std::vector<int64_t> s = strides_of(t);
    std::vector<__int128> offs{0};
    for (uint32_t d = 0; d < t.rank; ++d) {
        std::vector<__int128> next;
        for (__int128 o : offs)
            for (int64_t i = 0; i < t.sizes[d]; ++i) next.push_back(o + __int128(i) * s[d]);
        offs.swap(next);
    }
    std::sort(offs.begin(), offs.end());
    return offs;
}

// True if two index tuples of the (small) tensor share an address.
bool self_overlaps(const simdax_tensor_desc& t) {
    const std::vector<__int128> offs = element_offsets(t);
    return std::adjacent_find(offs.begin(), offs.end()) != offs.end();
}

// The parameters a type reads (simdax.h's list) must be finite; the others
// are ignored, whatever they hold.
bool finite_params(const simdax_activation_desc& a) {
    bool alpha = false, beta = false, gamma = false;
    switch (a.type) {
        case SIMDAX_ACTIVATION_LINEAR:
        case SIMDAX_ACTIVATION_HARD_SIGMOID:
        case SIMDAX_ACTIVATION_SCALED_TANH:
        case SIMDAX_ACTIVATION_PARAMETRIC_SOFTPLUS:
        case SIMDAX_ACTIVATION_SHRINK: alpha = beta = true; break;
        case SIMDAX_ACTIVATION_LEAKY_RELU:
        case SIMDAX_ACTIVATION_ELU:
        case SIMDAX_ACTIVATION_CELU:
        case SIMDAX_ACTIVATION_SOFTPLUS:
        case SIMDAX_ACTIVATION_THRESHOLDED_RELU: alpha = true; break;
        case SIMDAX_ACTIVATION_SCALED_ELU: alpha = gamma = true; break;
        default: break;
    }
    return (!alpha || std::isfinite(a.alpha)) && (!beta || std::isfinite(a.beta)) &&
           (!gamma || std::isfinite(a.gamma));
}

}  // namespace

bool is_mvn(const Case& c) {
    return c.op == SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION ||
           c.op == SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION_EX;
}
bool is_elementwise(const Case& c) {
    return c.op == SIMDAX_OPERATOR_HARD_SIGMOID || c.op == SIMDAX_OPERATOR_ACTIVATION;
}
bool runs_in_place(const Case& c) {
    return is_elementwise(c) || c.op == SIMDAX_OPERATOR_SOFTMAX || c.op == SIMDAX_OPERATOR_LOG_SOFTMAX;
}
bool tensor_used(const Case& c, int k) { return k < 2 || (is_mvn(c) && c.present[k]); }

// Element count, or -1 if it overflows / a size is negative.
int64_t count_of(const simdax_tensor_desc& t) {
    int64_t n = 1;
    for (uint32_t d = 0; d < t.rank; ++d) {
        if (t.sizes[d] < 0) return -1;
        if (t.sizes[d] == 0) n = 0;
    }
    if (n == 0) return 0;
    for (uint32_t d = 0; d < t.rank; ++d)
        if (__builtin_mul_overflow(n, t.sizes[d], &n)) return -1;
    return n;
}

// The resolved strides of a descriptor.
std::vector<int64_t> strides_of(const simdax_tensor_desc& t) {
    std::vector<int64_t> s(t.rank);
    if (t.strides) {
        std::copy(t.strides, t.strides + t.rank, s.begin());
        return s;
    }
    int64_t step = 1;  // saturates (only empty tensors get that far)
    for (uint32_t d = t.rank; d-- > 0;) {
        s[d] = step;
        if (__builtin_mul_overflow(step, std::max<int64_t>(t.sizes[d], 1), &step))
            step = std::numeric_limits<int64_t>::max();
    }
    return s;
}

// Lowest and highest element offsets; false if they overflow or exceed
// what this harness allocates.
bool span_of(const simdax_tensor_desc& t, int64_t* lo, int64_t* hi) {
    *lo = *hi = 0;
    if (count_of(t) == 0) return true;
    const std::vector<int64_t> s = strides_of(t);
    for (uint32_t d = 0; d < t.rank; ++d) {
        if (t.sizes[d] <= 1) continue;
        if (s[d] > kMaxSpan || s[d] < -kMaxSpan || t.sizes[d] > kMaxSpan) return false;
        const int64_t reach = s[d] * (t.sizes[d] - 1);
        (reach < 0 ? *lo : *hi) += reach;
        if (*hi - *lo >= kMaxSpan) return false;
    }
    return true;
}

// True if an element of y, based `shift` elements after x's base, is also
// an element of x (same dtype, so elements share bytes only when they
// coincide). Interleaved views that never meet are not overlap (simdax.h).
bool shares_an_element(const simdax_tensor_desc& x, const simdax_tensor_desc& y, int64_t shift) {
    const std::vector<__int128> xo = element_offsets(x);
    for (__int128 o : element_offsets(y))
        if (std::binary_search(xo.begin(), xo.end(), o + shift)) return true;
    return false;
}

// What docs/spec.md requires of create for this case. `why` names the rule.
Verdict judge(const Case& c, std::string* why) {
    auto reject = [&](const char* w) {
        *why = w;
        return Verdict::must_reject;
    };
    if (c.null_desc || c.null_inner || c.null_op_out) return reject("a NULL pointer");
    if (c.op_raw < 1 || c.op_raw > 7) return reject("unknown operator type");
    for (int k = 0; k < 4; ++k) {
        if (!tensor_used(c, k)) continue;
        if (!c.present[k]) return reject("a NULL tensor descriptor");
        if (!valid_dtype(c.t[k].dtype)) return reject("unknown dtype");
        if (c.t[k].rank < 1 || c.t[k].rank > 8) return reject("rank outside 1..8");
        if (!c.t[k].sizes) return reject("NULL sizes");
        for (uint32_t d = 0; d < c.t[k].rank; ++d)
            if (c.t[k].sizes[d] < 0) return reject("negative size");
        if (count_of(c.t[k]) < 0) return reject("element count overflows");
    }
    const simdax_tensor_desc &x = c.t[0], &y = c.t[1];
    if (x.dtype != y.dtype) return reject("output dtype differs");
    if (x.rank != y.rank) return reject("output rank differs");
    for (uint32_t d = 0; d < x.rank; ++d)
        if (x.sizes[d] != y.sizes[d]) return reject("output size differs");
    const int64_t n = count_of(x);
    if (n > 0 && n <= kMaxElements && y.strides && self_overlaps(y)) return reject("output overlaps itself");
    if (uses_axes(c)) {
        if (c.axis_count == 0) return reject("empty axis set");
        if (c.null_axes) return reject("NULL axes");
        if (c.axis_count > x.rank) return reject("more axes than dimensions");
        bool seen[kSlots + 1] = {};
        for (uint32_t i = 0; i < c.axis_count; ++i) {
            if (c.axes[i] >= x.rank) return reject("axis out of range");
            if (seen[c.axes[i]]) return reject("repeated axis");
            seen[c.axes[i]] = true;
        }
    }
    const bool act_used = c.op == SIMDAX_OPERATOR_ACTIVATION || (is_mvn(c) && c.has_activation);
    if (act_used) {
        if (c.act.type < 0 || c.act.type >= SIMDAX_ACTIVATION_COUNT) return reject("unknown activation");
        if (!finite_params(c.act)) return reject("non-finite activation parameter");
        if ((c.act.type == SIMDAX_ACTIVATION_CELU || c.act.type == SIMDAX_ACTIVATION_SOFTPLUS) &&
            c.act.alpha == 0.0f)
            return reject("celu/softplus alpha 0");
    }
    if (c.op == SIMDAX_OPERATOR_HARD_SIGMOID && (!std::isfinite(c.hs_alpha) || !std::isfinite(c.hs_beta)))
        return reject("non-finite HardSigmoid alpha/beta");
    if (is_mvn(c)) {
        if (c.normalize_variance != 0 && c.normalize_variance != 1)
            return reject("normalize_variance not 0/1");
        if (!std::isfinite(c.epsilon) || c.epsilon < 0) return reject("epsilon negative or not finite");
        if (c.placement_raw != 0 && c.placement_raw != 1) return reject("unknown epsilon placement");
        for (int k = 2; k < 4; ++k) {
            if (!c.present[k]) continue;
            if (c.t[k].dtype != x.dtype) return reject("scale/bias dtype differs");
            if (c.t[k].rank != x.rank) return reject("scale/bias rank differs");
            for (uint32_t d = 0; d < x.rank; ++d)
                if (c.t[k].sizes[d] != x.sizes[d] && c.t[k].sizes[d] != 1)
                    return reject("scale/bias size neither the input's nor 1");
        }
    }
    // Plainly valid: small sizes, every span small (no overflow question),
    // an output with NULL strides (the self-overlap rule is the library's).
    for (int k = 0; k < 4; ++k) {
        if (!tensor_used(c, k)) continue;
        int64_t lo, hi;
        if (!span_of(c.t[k], &lo, &hi)) return Verdict::either;
    }
    if (y.strides) return Verdict::either;
    *why = "a valid descriptor";
    return Verdict::must_accept;
}
}  // namespace fuzz
