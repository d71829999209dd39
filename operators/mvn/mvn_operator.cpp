// MeanVarianceNormalization over any axis set, with optional Scale and Bias
// (broadcast) and a fused activation; epsilon on the variance (DirectML,
// and the _EX type's default) or on the standard deviation (ONNX). A
// group's state is (count, mean, m2), combined by Chan's rule.
#include <cmath>

#include "error.hpp"
#include "mvn/mvn_group_norm.hpp"
#include "run_plan.hpp"
#include "text_line.hpp"
#include "validate_rules.hpp"

namespace simdax {
namespace {

struct MvnPasses {
    static constexpr bool kReduces = true, kLaneGroups = false;
    static constexpr unsigned kExtra = (1u << kScale) | (1u << kBias);
    using State = Moments;
    using Final = NormArgs;

    static State empty() { return {0, 0, 0}; }
    static void reduce(const Plan& p, const Piece& c, State* s) { p.k.moments(c.at[kX], c.n, s); }
    static void combine(State* s, const State& next) {
        kernels::chan_combine(s, next.count, next.mean, next.m2);
    }
    template <class VisitGroup>
    static NormArgs finish(const Plan& p, const State& s, VisitGroup&& visit_group) {
        return kernels::group_norm_args(s, p.dtype, p.vn, p.act, [&](auto values) {
            visit_group([&](const Piece& c) { values(c.at[kX], c.n); });
        });
    }
    static void output(const Plan& p, const Piece& c, const NormArgs& fin) {
        NormArgs a = fin;
        a.scale = c.at[kScale];
        a.scale_stride = c.stride[kScale];
        a.bias = c.at[kBias];
        a.bias_stride = c.stride[kBias];
        p.k.normalize(c.at[kX], c.at[kY], c.n, &a);
    }
    // Lane l of row j reads scale[j * row stride + l * lane stride].
    static void cols(const Plan& p, char* const* at, size_t r, size_t k, bool) {
        MvnArgs a{p.vn,
                  at[kScale],
                  p.inner.stride[kScale][0],
                  p.lane_stride[kScale],
                  at[kBias],
                  p.inner.stride[kBias][0],
                  p.lane_stride[kBias],
                  p.act};
        p.k.mvn_cols(at[kX], at[kY], r, k, p.inner.stride[kX][0], p.inner.stride[kY][0], &a);
    }
    static void rows(const Plan& p, char* const* at, size_t rows, const ptrdiff_t* rs) {
        MvnArgs a{p.vn,      at[kScale], rs[kScale],          p.run_stride[kScale],
                  at[kBias], rs[kBias],  p.run_stride[kBias], p.act};
        p.k.mvn_rows(at[kX], at[kY], rows, size_t(p.run), rs[kX], rs[kY], &a);
    }
};

simdax_status validate_mvn(const simdax_mvn_desc* d, simdax_epsilon_placement placement, Problem* p) {
    simdax_status s;
    if ((s = check_input_output(d->input, d->output, p)) != SIMDAX_OK) return s;
    if ((s = check_axes(d->axis_count, d->axes, p)) != SIMDAX_OK) return s;
    if (d->scale && (s = check_broadcast("scale", d->scale, d->input, p, kScale)) != SIMDAX_OK) return s;
    if (d->bias && (s = check_broadcast("bias", d->bias, d->input, p, kBias)) != SIMDAX_OK) return s;
    if (d->normalize_variance != 0 && d->normalize_variance != 1)
        return fail(SIMDAX_ERROR_INVALID_ARGUMENT, "normalize_variance: %d is neither 0 nor 1",
                    d->normalize_variance);
    if (!std::isfinite(d->epsilon) || d->epsilon < 0.0f)
        return fail(SIMDAX_ERROR_INVALID_ARGUMENT, "epsilon: %g must be finite and >= 0", double(d->epsilon));
    if (placement != SIMDAX_EPSILON_ON_VARIANCE && placement != SIMDAX_EPSILON_ON_STDDEV)
        return fail(SIMDAX_ERROR_INVALID_ARGUMENT, "epsilon_placement: %d is not a simdax_epsilon_placement",
                    int(placement));
    p->vn =
        VarianceNorm{d->normalize_variance == 1, placement == SIMDAX_EPSILON_ON_STDDEV, double(d->epsilon)};
    if (d->fused_activation) return check_activation("fused_activation", *d->fused_activation, &p->act);
    return SIMDAX_OK;
}

simdax_status validate_mvn_on_variance(const void* desc, Problem* p) {
    return validate_mvn(static_cast<const simdax_mvn_desc*>(desc), SIMDAX_EPSILON_ON_VARIANCE, p);
}

simdax_status validate_mvn_ex(const void* desc, Problem* p) {
    const auto* d = static_cast<const simdax_mvn_ex_desc*>(desc);
    return validate_mvn(&d->mvn, d->epsilon_placement, p);
}

void describe_mvn(const Problem& p, TextLine* l) {
    for (int o : {int(kScale), int(kBias)}) {
        const char* name = o == kScale ? "scale" : "bias";
        if (!p.has[o]) {
            l->add(" %s=none", name);
            continue;
        }
        int64_t sizes[SIMDAX_MAX_RANK];  // 1 where broadcast
        for (uint32_t d = 0; d < p.rank; ++d)
            sizes[d] = p.strides[o][d] == 0 && p.sizes[d] > 1 ? 1 : p.sizes[d];
        add_list(l, name, sizes, p.rank, 'x');
    }
    l->add(" normalize_variance=%d epsilon=%g epsilon_placement=%s", int(p.vn.normalize_variance),
           p.vn.epsilon, p.vn.epsilon_on_stddev ? "stddev" : "variance");
    if (p.act.type != SIMDAX_ACTIVATION_IDENTITY) add_activation(l, "activation", p.act);
}

// MVN and MVN_EX differ in their descriptor only.
constexpr OperatorDef mvn_def(simdax_operator_type type, const char* name, simdax_structure_type info,
                              size_t info_size, simdax_status (*validate)(const void*, Problem*)) {
    return {type,        name,
            info,        info_size,
            validate,    true,
            false,       int64_t(1) << 15,
            nullptr,     run_plan<MvnPasses>,
            describe_mvn};
}

}  // namespace

SIMDAX_CHECK_INFO_LAYOUT(simdax_mvn_create_info);

extern const OperatorDef kMvnOperator =
    mvn_def(SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, "MeanVarianceNormalization",
            simdax_structure_type(0), 0, validate_mvn_on_variance);
extern const OperatorDef kMvnExOperator =
    mvn_def(SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION_EX, "MeanVarianceNormalizationEx",
            SIMDAX_STRUCTURE_TYPE_MVN_CREATE_INFO, sizeof(simdax_mvn_create_info), validate_mvn_ex);
}  // namespace simdax
