// LayerNormalization (ONNX opset 17) and RMSNormalization (ONNX opset 23),
// each with ONNX Runtime's fused residual add (SkipLayerNormalization,
// SkipSimplifiedLayerNormalization): their definitions, descriptions and
// one-shot calls. Validation: layer_norm_validate.cpp; execution:
// layer_norm_execute.cpp; kernels: simd/, layer_norm_scalar.cpp.
#include "dtype_name.hpp"
#include "layer_norm/layer_norm_operator.hpp"
#include "one_shot.hpp"
#include "text_line.hpp"

namespace simdax {
namespace {

simdax_status validate_layer_norm(const void* desc, Problem* p) {
    const auto* d = static_cast<const simdax_layer_normalization_desc*>(desc);
    return validate_norm({d->input, d->scale, d->bias, d->output, d->axis, d->epsilon, d->stash_type, d->skip,
                          d->skip_bias, d->skip_sum, d->mean, d->inv_std_dev},
                         p);
}

simdax_status validate_rms_norm(const void* desc, Problem* p) {
    const auto* d = static_cast<const simdax_rms_normalization_desc*>(desc);
    return validate_norm({d->input, d->scale, nullptr, d->output, d->axis, d->epsilon, d->stash_type, d->skip,
                          d->skip_bias, d->skip_sum, nullptr, nullptr},
                         p);
}

void describe_norm(const Problem& p, TextLine* l) {
    uint32_t axis = 0;
    while (axis < p.rank && !p.reduced[axis]) ++axis;
    l->add(" axis=%u epsilon=%g", axis, p.vn.epsilon);
    const char* names[] = {"scale", "bias", "skip", "skip_bias", "skip_sum", "mean", "inv_std_dev"};
    const int ops[] = {kScale, kBias, kSkip, kSkipBias, kSkipSum, kMean, kInvStdDev};
    for (int i = 0; i < 7; ++i)
        if (p.has[ops[i]]) l->add(" %s=%s", names[i], dtype_name(public_dtype(p.dtypes[ops[i]])));
}

constexpr OperatorDef norm_def(simdax_operator_type type, const char* name, simdax_structure_type info,
                               size_t info_size, simdax_status (*validate)(const void*, Problem*)) {
    return {type,    name,         info,         info_size, validate, true, false, int64_t(1) << 15,
            nullptr, execute_norm, describe_norm};
}

}  // namespace

SIMDAX_CHECK_INFO_LAYOUT(simdax_layer_normalization_create_info);
SIMDAX_CHECK_INFO_LAYOUT(simdax_rms_normalization_create_info);

extern const OperatorDef kLayerNormOperator =
    norm_def(SIMDAX_OPERATOR_LAYER_NORMALIZATION, "LayerNormalization",
             SIMDAX_STRUCTURE_TYPE_LAYER_NORMALIZATION_CREATE_INFO,
             sizeof(simdax_layer_normalization_create_info), validate_layer_norm);
extern const OperatorDef kRmsNormOperator =
    norm_def(SIMDAX_OPERATOR_RMS_NORMALIZATION, "RMSNormalization",
             SIMDAX_STRUCTURE_TYPE_RMS_NORMALIZATION_CREATE_INFO,
             sizeof(simdax_rms_normalization_create_info), validate_rms_norm);

}  // namespace simdax

extern "C" simdax_status simdax_layer_normalization(const simdax_layer_normalization_desc* desc,
                                                    const void* input, const void* scale, const void* bias,
                                                    void* output) {
    return simdax::one_shot(SIMDAX_OPERATOR_LAYER_NORMALIZATION, desc, {input, scale, bias, output});
}

extern "C" simdax_status simdax_rms_normalization(const simdax_rms_normalization_desc* desc,
                                                  const void* input, const void* scale, void* output) {
    return simdax::one_shot(SIMDAX_OPERATOR_RMS_NORMALIZATION, desc, {input, scale, nullptr, output});
}
