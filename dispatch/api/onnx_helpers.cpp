// ONNX node attributes -> simdax descriptors (docs/spec.md, the ONNX forms).
#include <algorithm>
#include <cmath>

#include "error.hpp"

namespace {
// The attributes LayerNormalization-17 and RMSNormalization-23 share; nothing
// is written on error.
simdax_status onnx_norm_attrs(int has_axis, int64_t axis, int has_epsilon, float epsilon, int has_stash_type,
                              int64_t stash_type, int32_t* out_axis, float* out_epsilon,
                              int32_t* out_stash_type) {
    using namespace simdax;
    if (!has_axis) axis = -1;
    if (!has_epsilon) epsilon = 1e-5f;
    if (!has_stash_type) stash_type = 1;
    if (axis < -SIMDAX_MAX_RANK || axis >= SIMDAX_MAX_RANK)
        return fail(SIMDAX_ERROR_INVALID_AXES, "axis: %lld is outside [%d, %d] (ranks up to %d)",
                    (long long)axis, -SIMDAX_MAX_RANK, SIMDAX_MAX_RANK - 1, SIMDAX_MAX_RANK);
    if (stash_type != 1)
        return fail(SIMDAX_ERROR_INVALID_ARGUMENT,
                    "stash_type: %lld is not supported; simdax keeps float32 statistics (stash_type 1, "
                    "ONNX's default)",
                    (long long)stash_type);
    *out_axis = int32_t(axis);
    *out_epsilon = epsilon;
    *out_stash_type = int32_t(stash_type);
    return ok();
}
}  // namespace

extern "C" {

simdax_status simdax_onnx_softmax_axes(int64_t opset, uint32_t rank, int has_axis, int64_t axis,
                                       uint32_t* axes, uint32_t* axis_count) {
    using namespace simdax;
    if (!axes) return fail(SIMDAX_ERROR_NULL_POINTER, "axes: is NULL");
    if (!axis_count) return fail(SIMDAX_ERROR_NULL_POINTER, "axis_count: is NULL");
    if (rank < 1 || rank > SIMDAX_MAX_RANK)
        return fail(SIMDAX_ERROR_INVALID_ARGUMENT, "rank: %u is outside 1..%d", rank, SIMDAX_MAX_RANK);
    if (opset < 1) return fail(SIMDAX_ERROR_INVALID_ARGUMENT, "opset: %lld < 1", (long long)opset);
    const bool coerce = opset < 13;
    if (!has_axis) axis = coerce ? 1 : -1;
    const int64_t r = int64_t(rank);
    if ((axis < -r || axis >= r) && !has_axis)
        return fail(SIMDAX_ERROR_INVALID_AXES,
                    "axis: absent, and opset %lld's default %lld is outside [%lld, %lld] for "
                    "rank %u",
                    (long long)opset, (long long)axis, (long long)-r, (long long)(r - 1), rank);
    if (axis < -r || axis >= r)
        return fail(SIMDAX_ERROR_INVALID_AXES, "axis: %lld is outside [%lld, %lld]", (long long)axis,
                    (long long)-r, (long long)(r - 1));
    if (axis < 0) axis += r;
    uint32_t n = 0;
    for (int64_t a = axis; a < (coerce ? r : axis + 1); ++a) axes[n++] = uint32_t(a);
    *axis_count = n;
    return ok();
}

simdax_status simdax_onnx_mvn_axes(uint32_t rank, const int64_t* onnx_axes, uint32_t onnx_axis_count,
                                   uint32_t* axes, uint32_t* axis_count, float* epsilon) {
    using namespace simdax;
    if (!axes) return fail(SIMDAX_ERROR_NULL_POINTER, "axes: is NULL");
    if (!axis_count) return fail(SIMDAX_ERROR_NULL_POINTER, "axis_count: is NULL");
    if (!epsilon) return fail(SIMDAX_ERROR_NULL_POINTER, "epsilon: is NULL");
    if (rank < 1 || rank > SIMDAX_MAX_RANK)
        return fail(SIMDAX_ERROR_INVALID_ARGUMENT, "rank: %u is outside 1..%d", rank, SIMDAX_MAX_RANK);
    static const int64_t kDefault[3] = {0, 2, 3};
    if (!onnx_axes) {
        // The default names axis 3: an input of rank < 4 needs explicit axes.
        if (rank < 4)
            return fail(SIMDAX_ERROR_INVALID_AXES,
                        "onnx_axes: NULL selects ONNX's default axes {0, 2, 3}, which need rank "
                        ">= 4; the rank is %u",
                        rank);
        onnx_axes = kDefault;
        onnx_axis_count = 3;
    }
    if (onnx_axis_count == 0 || onnx_axis_count > rank)
        return fail(SIMDAX_ERROR_INVALID_AXES, "onnx_axis_count: %u axes for rank %u", onnx_axis_count, rank);
    uint32_t resolved[SIMDAX_MAX_RANK];  // nothing is written on error
    bool seen[SIMDAX_MAX_RANK] = {};
    for (uint32_t i = 0; i < onnx_axis_count; ++i) {
        int64_t a = onnx_axes[i];
        if (a < -int64_t(rank) || a >= int64_t(rank))
            return fail(SIMDAX_ERROR_INVALID_AXES, "onnx_axes[%u]: %lld is outside [%d, %u]", i, (long long)a,
                        -int(rank), rank - 1);
        if (a < 0) a += rank;
        if (seen[a])
            return fail(SIMDAX_ERROR_INVALID_AXES, "onnx_axes[%u]: axis %lld is repeated", i, (long long)a);
        seen[a] = true;
        resolved[i] = uint32_t(a);
    }
    std::copy(resolved, resolved + onnx_axis_count, axes);
    *axis_count = onnx_axis_count;
    *epsilon = 1e-9f;
    return ok();
}

simdax_status simdax_onnx_mvn_desc(const simdax_tensor_desc* input, const simdax_tensor_desc* output,
                                   const int64_t* onnx_axes, uint32_t onnx_axis_count, uint32_t* axes,
                                   simdax_mvn_ex_desc* desc) {
    using namespace simdax;
    if (!input) return fail(SIMDAX_ERROR_NULL_POINTER, "input: tensor descriptor is NULL");
    if (!desc) return fail(SIMDAX_ERROR_NULL_POINTER, "desc: is NULL");
    uint32_t count = 0;
    float epsilon = 0;
    const simdax_status s =
        simdax_onnx_mvn_axes(input->rank, onnx_axes, onnx_axis_count, axes, &count, &epsilon);
    if (s != SIMDAX_OK) return s;
    *desc =
        simdax_mvn_ex_desc{simdax_mvn_desc{input, nullptr, nullptr, output, count, axes, 1, epsilon, nullptr},
                           SIMDAX_EPSILON_ON_STDDEV};
    return ok();
}

simdax_status simdax_onnx_hard_sigmoid_params(int has_alpha, float alpha, int has_beta, float beta,
                                              float* out_alpha, float* out_beta) {
    using namespace simdax;
    if (!out_alpha) return fail(SIMDAX_ERROR_NULL_POINTER, "out_alpha: is NULL");
    if (!out_beta) return fail(SIMDAX_ERROR_NULL_POINTER, "out_beta: is NULL");
    *out_alpha = has_alpha ? alpha : 0.2f;
    *out_beta = has_beta ? beta : 0.5f;
    return ok();
}

simdax_status simdax_onnx_layer_normalization_attrs(int has_axis, int64_t axis, int has_epsilon,
                                                    float epsilon, int has_stash_type, int64_t stash_type,
                                                    simdax_layer_normalization_desc* desc) {
    using namespace simdax;
    if (!desc) return fail(SIMDAX_ERROR_NULL_POINTER, "desc: is NULL");
    return onnx_norm_attrs(has_axis, axis, has_epsilon, epsilon, has_stash_type, stash_type, &desc->axis,
                           &desc->epsilon, &desc->stash_type);
}

simdax_status simdax_onnx_rms_normalization_attrs(int has_axis, int64_t axis, int has_epsilon, float epsilon,
                                                  int has_stash_type, int64_t stash_type,
                                                  simdax_rms_normalization_desc* desc) {
    using namespace simdax;
    if (!desc) return fail(SIMDAX_ERROR_NULL_POINTER, "desc: is NULL");
    return onnx_norm_attrs(has_axis, axis, has_epsilon, epsilon, has_stash_type, stash_type, &desc->axis,
                           &desc->epsilon, &desc->stash_type);
}

simdax_status simdax_onnx_attention_softmax_attrs(int64_t head_size, int has_scale, float scale,
                                                  int64_t is_causal, int has_past_key, float softcap,
                                                  int64_t qk_matmul_output_mode,
                                                  simdax_attention_softmax_desc* desc) {
    using namespace simdax;
    if (!desc) return fail(SIMDAX_ERROR_NULL_POINTER, "desc: is NULL");
    if (!has_scale && head_size < 1)
        return fail(SIMDAX_ERROR_INVALID_ARGUMENT,
                    "head_size: %lld < 1, and scale is absent (ONNX's default 1/sqrt(head_size))",
                    (long long)head_size);
    if (is_causal != 0 && is_causal != 1)
        return fail(SIMDAX_ERROR_INVALID_ARGUMENT, "is_causal: %lld is neither 0 nor 1",
                    (long long)is_causal);
    if (!(softcap >= 0))
        return fail(SIMDAX_ERROR_INVALID_ARGUMENT,
                    "softcap: %g is not >= 0 (0, ONNX's default, turns it off)", double(softcap));
    if (qk_matmul_output_mode != 0)
        return fail(SIMDAX_ERROR_INVALID_ARGUMENT,
                    "qk_matmul_output_mode: %lld is not supported; only 0 (ONNX's default)",
                    (long long)qk_matmul_output_mode);
    desc->scale = has_scale ? scale : float(1.0 / std::sqrt(double(head_size)));
    desc->softcap = softcap;
    desc->causal = !is_causal     ? SIMDAX_CAUSAL_NONE
                   : has_past_key ? SIMDAX_CAUSAL_BOTTOM_RIGHT
                                  : SIMDAX_CAUSAL_TOP_LEFT;
    return ok();
}

}  // extern "C"
