// The rules of the LayerNormalization and RMSNormalization descriptors.
// Every message names the argument and the rule it breaks; nothing is
// written on a refusal.
#include <cmath>

#include "dtype_name.hpp"
#include "error.hpp"
#include "layer_norm/layer_norm_operator.hpp"
#include "validate_rules.hpp"

namespace simdax {
namespace {

DType dtype_of(simdax_dtype d) {
    return d == SIMDAX_DTYPE_FLOAT16 ? DType::f16 : d == SIMDAX_DTYPE_BFLOAT16 ? DType::bf16 : DType::f32;
}

// Scale, bias, skip bias: numpy broadcast, right-aligned, to the input; the
// input's dtype, or float32 for float16/bfloat16 data.
simdax_status check_param(const char* name, const simdax_tensor_desc* t, const simdax_tensor_desc* in,
                          Problem* p, Operand which) {
    int64_t own[SIMDAX_MAX_RANK];
    simdax_status s;
    if ((s = check_tensor(name, t, false, own)) != SIMDAX_OK) return s;
    const bool half = in->dtype != SIMDAX_DTYPE_FLOAT32;
    if (t->dtype != in->dtype && !(half && t->dtype == SIMDAX_DTYPE_FLOAT32))
        return fail(SIMDAX_ERROR_DTYPE_MISMATCH, "%s.dtype: %s is neither input.dtype %s%s", name,
                    dtype_name(t->dtype), dtype_name(in->dtype), half ? " nor float32" : "");
    if (t->rank > in->rank)
        return fail(SIMDAX_ERROR_SHAPE_MISMATCH,
                    "%s.rank: %u exceeds input.rank %u (broadcast is right-aligned)", name, t->rank,
                    in->rank);
    const uint32_t lead = in->rank - t->rank;
    for (uint32_t d = 0; d < in->rank; ++d) p->strides[which][d] = 0;
    for (uint32_t d = 0; d < t->rank; ++d) {
        const int64_t ts = t->sizes[d], is = in->sizes[lead + d];
        if (ts != is && ts != 1)
            return fail(SIMDAX_ERROR_SHAPE_MISMATCH,
                        "%s.sizes[%u]: %lld is neither input.sizes[%u] (%lld) nor 1 (broadcast is "
                        "right-aligned)",
                        name, d, (long long)ts, lead + d, (long long)is);
        p->strides[which][lead + d] = ts == is ? own[d] : 0;
    }
    p->has[which] = true;
    p->dtypes[which] = dtype_of(t->dtype);
    return SIMDAX_OK;
}

// Skip and the skip sum: the input's dtype and sizes.
simdax_status check_like_input(const char* name, const simdax_tensor_desc* t, const simdax_tensor_desc* in,
                               bool is_output, Problem* p, Operand which) {
    simdax_status s;
    if ((s = check_tensor(name, t, is_output, p->strides[which])) != SIMDAX_OK) return s;
    if ((s = check_same(name, t, in)) != SIMDAX_OK) return s;
    p->has[which] = true;
    p->dtypes[which] = p->dtype;
    return SIMDAX_OK;
}

// Mean, InvStdDev: float32, the input's sizes with the normalized dims 1.
simdax_status check_stat(const char* name, const simdax_tensor_desc* t, const simdax_tensor_desc* in,
                         uint32_t axis, Problem* p, Operand which) {
    simdax_status s;
    if ((s = check_tensor(name, t, true, p->strides[which])) != SIMDAX_OK) return s;
    if (t->dtype != SIMDAX_DTYPE_FLOAT32)
        return fail(SIMDAX_ERROR_DTYPE_MISMATCH, "%s.dtype: %s is not float32 (stash_type 1)", name,
                    dtype_name(t->dtype));
    if (t->rank != in->rank)
        return fail(SIMDAX_ERROR_SHAPE_MISMATCH, "%s.rank: %u differs from input.rank %u", name, t->rank,
                    in->rank);
    for (uint32_t d = 0; d < in->rank; ++d) {
        const int64_t want = d >= axis ? 1 : in->sizes[d];
        if (t->sizes[d] != want)
            return fail(SIMDAX_ERROR_SHAPE_MISMATCH,
                        "%s.sizes[%u]: %lld is not %lld (the input's sizes, 1 from axis %u on)", name, d,
                        (long long)t->sizes[d], (long long)want, axis);
        if (d >= axis) p->strides[which][d] = 0;
    }
    p->has[which] = true;
    p->dtypes[which] = DType::f32;
    return SIMDAX_OK;
}

}  // namespace

simdax_status validate_norm(const NormDescView& d, Problem* p) {
    simdax_status s;
    if ((s = check_input_output(d.input, d.output, p)) != SIMDAX_OK) return s;
    if (d.input->dtype == SIMDAX_DTYPE_FLOAT64)
        return fail(SIMDAX_ERROR_DTYPE_MISMATCH,
                    "input.dtype: float64 is not supported (float32, float16, bfloat16)");
    const int32_t rank = int32_t(p->rank);
    if (d.axis < -rank || d.axis >= rank)
        return fail(SIMDAX_ERROR_INVALID_AXES, "axis: %d is outside [%d, %d]", d.axis, -rank, rank - 1);
    const uint32_t axis = uint32_t(d.axis < 0 ? d.axis + rank : d.axis);
    for (uint32_t i = 0; i < p->rank; ++i) p->reduced[i] = i >= axis;
    if (!d.scale) return fail(SIMDAX_ERROR_NULL_POINTER, "scale: is NULL (Scale is required)");
    if ((s = check_param("scale", d.scale, d.input, p, kScale)) != SIMDAX_OK) return s;
    if (d.bias && (s = check_param("bias", d.bias, d.input, p, kBias)) != SIMDAX_OK) return s;
    if (!std::isfinite(d.epsilon) || d.epsilon < 0.0f)
        return fail(SIMDAX_ERROR_INVALID_ARGUMENT, "epsilon: %g must be finite and >= 0", double(d.epsilon));
    if (d.stash_type != 1)
        return fail(SIMDAX_ERROR_INVALID_ARGUMENT,
                    "stash_type: %d is not 1 (float32, the only one supported)", d.stash_type);
    if (!d.skip && d.skip_bias) return fail(SIMDAX_ERROR_INVALID_ARGUMENT, "skip_bias: given without skip");
    if (!d.skip && d.skip_sum) return fail(SIMDAX_ERROR_INVALID_ARGUMENT, "skip_sum: given without skip");
    if (d.skip && (s = check_like_input("skip", d.skip, d.input, false, p, kSkip)) != SIMDAX_OK) return s;
    if (d.skip_bias && (s = check_param("skip_bias", d.skip_bias, d.input, p, kSkipBias)) != SIMDAX_OK)
        return s;
    if (d.skip_sum && (s = check_like_input("skip_sum", d.skip_sum, d.input, true, p, kSkipSum)) != SIMDAX_OK)
        return s;
    if (d.mean && (s = check_stat("mean", d.mean, d.input, axis, p, kMean)) != SIMDAX_OK) return s;
    if (d.inv_std_dev &&
        (s = check_stat("inv_std_dev", d.inv_std_dev, d.input, axis, p, kInvStdDev)) != SIMDAX_OK)
        return s;
    p->vn = VarianceNorm{true, false, double(d.epsilon)};
    p->in_place_ok = false;
    return SIMDAX_OK;
}

}  // namespace simdax
