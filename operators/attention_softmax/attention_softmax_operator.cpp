// AttentionSoftmax: Softmax or LogSoftmax over the last axis (keys) of
// attention scores, with scale, softcap, mask, causal window, ALiBi, sinks
// and a log-sum-exp output. Its own executor (attention_execute.cpp) walks
// the rows: causal masking needs each row's query index.
#include "attention_softmax/attention_params.hpp"
#include "dtype_name.hpp"
#include "error.hpp"
#include "one_shot.hpp"
#include "text_line.hpp"
#include "validate_rules.hpp"

namespace simdax {
namespace {

bool is_float(simdax_dtype d) {
    return d == SIMDAX_DTYPE_FLOAT32 || d == SIMDAX_DTYPE_FLOAT16 || d == SIMDAX_DTYPE_BFLOAT16;
}

DType dtype_of(simdax_dtype d) {
    switch (d) {
        case SIMDAX_DTYPE_FLOAT32: return DType::f32;
        case SIMDAX_DTYPE_FLOAT16: return DType::f16;
        case SIMDAX_DTYPE_BFLOAT16: return DType::bf16;
        case SIMDAX_DTYPE_FLOAT64: return DType::f64;
        case SIMDAX_DTYPE_UINT8: return DType::u8;
    }
    return DType::f32;
}

// An optional operand of the input's rank: each size the input's or 1
// (stride 0 there); per-row operands (!keys) have a key axis of size 1.
simdax_status check_operand(const char* name, const simdax_tensor_desc* t, const simdax_tensor_desc* in,
                            Problem* p, Operand which, bool keys) {
    simdax_status s;
    if ((s = check_tensor(name, t, false, p->strides[which])) != SIMDAX_OK) return s;
    if (!(is_float(t->dtype) || (keys && t->dtype == SIMDAX_DTYPE_UINT8)))
        return fail(SIMDAX_ERROR_DTYPE_MISMATCH, "%s.dtype: %s is not one of float32, float16, bfloat16%s",
                    name, dtype_name(t->dtype), keys ? ", uint8" : "");
    if (t->rank != in->rank)
        return fail(SIMDAX_ERROR_SHAPE_MISMATCH, "%s.rank: %u differs from input.rank %u", name, t->rank,
                    in->rank);
    const uint32_t key = in->rank - 1;
    if (!keys && t->sizes[key] != 1)
        return fail(SIMDAX_ERROR_SHAPE_MISMATCH,
                    "%s.sizes[%u]: %lld must be 1 (one value per row: the key axis)", name, key,
                    (long long)t->sizes[key]);
    for (uint32_t d = 0; d < in->rank; ++d) {
        if (t->sizes[d] == in->sizes[d] && (keys || d != key)) continue;
        if (t->sizes[d] != 1)
            return fail(SIMDAX_ERROR_SHAPE_MISMATCH,
                        "%s.sizes[%u]: %lld is neither input.sizes[%u] (%lld) nor 1", name, d,
                        (long long)t->sizes[d], d, (long long)in->sizes[d]);
        p->strides[which][d] = 0;
    }
    p->has[which] = true;
    p->dtypes[which] = dtype_of(t->dtype);
    return SIMDAX_OK;
}

// The log-sum-exp output: float32, the input's sizes with a key axis of 1.
simdax_status check_lse(const simdax_tensor_desc* t, const simdax_tensor_desc* in, Problem* p) {
    simdax_status s;
    if ((s = check_tensor("log_sum_exp", t, true, p->strides[kLogSumExp])) != SIMDAX_OK) return s;
    if (t->dtype != SIMDAX_DTYPE_FLOAT32)
        return fail(SIMDAX_ERROR_DTYPE_MISMATCH, "log_sum_exp.dtype: %s must be float32",
                    dtype_name(t->dtype));
    if (t->rank != in->rank)
        return fail(SIMDAX_ERROR_SHAPE_MISMATCH, "log_sum_exp.rank: %u differs from input.rank %u", t->rank,
                    in->rank);
    const uint32_t key = in->rank - 1;
    for (uint32_t d = 0; d < in->rank; ++d) {
        const int64_t want = d == key ? 1 : in->sizes[d];
        if (t->sizes[d] != want)
            return fail(SIMDAX_ERROR_SHAPE_MISMATCH, "log_sum_exp.sizes[%u]: %lld must be %lld (%s)", d,
                        (long long)t->sizes[d], (long long)want,
                        d == key ? "one value per row: the key axis" : "input's");
    }
    p->strides[kLogSumExp][key] = 0;
    p->has[kLogSumExp] = true;
    p->dtypes[kLogSumExp] = DType::f32;
    return SIMDAX_OK;
}

simdax_status check_parameters(const simdax_attention_softmax_desc* d) {
    simdax_status s;
    if ((s = check_finite("scale", d->scale)) != SIMDAX_OK) return s;
    if ((s = check_finite("softcap", d->softcap)) != SIMDAX_OK) return s;
    if (d->softcap < 0.0f)
        return fail(SIMDAX_ERROR_INVALID_ARGUMENT, "softcap: %g must be >= 0 (0: no softcap)",
                    double(d->softcap));
    if (d->causal != SIMDAX_CAUSAL_NONE && d->causal != SIMDAX_CAUSAL_TOP_LEFT &&
        d->causal != SIMDAX_CAUSAL_BOTTOM_RIGHT)
        return fail(SIMDAX_ERROR_INVALID_ARGUMENT, "causal: %d is not a simdax_causal", int(d->causal));
    if (d->window != 0 && d->causal == SIMDAX_CAUSAL_NONE)
        return fail(SIMDAX_ERROR_INVALID_ARGUMENT,
                    "window: %u needs a causal mode (causal is SIMDAX_CAUSAL_NONE)", d->window);
    if (d->log != 0 && d->log != 1)
        return fail(SIMDAX_ERROR_INVALID_ARGUMENT, "log: %d is neither 0 (Softmax) nor 1 (LogSoftmax)",
                    d->log);
    return SIMDAX_OK;
}

simdax_status validate_attention(const void* desc, Problem* p) {
    const auto* d = static_cast<const simdax_attention_softmax_desc*>(desc);
    simdax_status s = check_input_output(d->input, d->output, p);
    if (s != SIMDAX_OK) return s;
    if (!is_float(d->input->dtype))
        return fail(SIMDAX_ERROR_DTYPE_MISMATCH, "input.dtype: %s is not one of float32, float16, bfloat16",
                    dtype_name(d->input->dtype));
    if (d->input->rank < 2)
        return fail(SIMDAX_ERROR_SHAPE_MISMATCH, "input.rank: %u must be >= 2 (queries, keys)",
                    d->input->rank);
    if (d->mask && (s = check_operand("mask", d->mask, d->input, p, kMask, true)) != SIMDAX_OK) return s;
    if (d->alibi_slopes &&
        (s = check_operand("alibi_slopes", d->alibi_slopes, d->input, p, kAlibiSlopes, false)) != SIMDAX_OK)
        return s;
    if (d->sinks && (s = check_operand("sinks", d->sinks, d->input, p, kSinks, false)) != SIMDAX_OK) return s;
    if (d->log_sum_exp && (s = check_lse(d->log_sum_exp, d->input, p)) != SIMDAX_OK) return s;
    if ((s = check_parameters(d)) != SIMDAX_OK) return s;
    p->reduced[p->rank - 1] = true;
    p->in_place_ok = true;
    store_params({d->scale, d->softcap, d->causal, d->window, d->log != 0}, &p->params);
    return SIMDAX_OK;
}

const char* causal_name(simdax_causal c) {
    return c == SIMDAX_CAUSAL_TOP_LEFT       ? "top_left"
           : c == SIMDAX_CAUSAL_BOTTOM_RIGHT ? "bottom_right"
                                             : "none";
}

void describe_attention(const Problem& p, TextLine* l) {
    const AttnParams a = load_params(p.params);
    l->add(" scale=%g softcap=%g causal=%s window=%u log=%d", double(a.scale), double(a.softcap),
           causal_name(a.causal), a.window, int(a.log));
    if (p.has[kMask]) l->add(" mask=%s", dtype_name(public_dtype(p.dtypes[kMask])));
    if (p.has[kAlibiSlopes]) l->add(" alibi");
    if (p.has[kSinks]) l->add(" sinks");
    if (p.has[kLogSumExp]) l->add(" lse");
}

}  // namespace

SIMDAX_CHECK_INFO_LAYOUT(simdax_attention_softmax_create_info);

extern const OperatorDef kAttentionSoftmaxOperator{SIMDAX_OPERATOR_ATTENTION_SOFTMAX,
                                                   "AttentionSoftmax",
                                                   SIMDAX_STRUCTURE_TYPE_ATTENTION_SOFTMAX_CREATE_INFO,
                                                   sizeof(simdax_attention_softmax_create_info),
                                                   validate_attention,
                                                   true,
                                                   false,
                                                   int64_t(1) << 15,
                                                   nullptr,
                                                   execute_attention,
                                                   describe_attention};

}  // namespace simdax

extern "C" simdax_status simdax_attention_softmax(const simdax_attention_softmax_desc* desc,
                                                  const void* input, const void* mask,
                                                  const void* alibi_slopes, const void* sinks, void* output,
                                                  void* log_sum_exp) {
    using namespace simdax;
    const void* at[kOperands] = {};
    at[kX] = input;
    at[kY] = output;
    at[kMask] = mask;
    at[kAlibiSlopes] = alibi_slopes;
    at[kSinks] = sinks;
    at[kLogSumExp] = log_sum_exp;
    return one_shot_operands(SIMDAX_OPERATOR_ATTENTION_SOFTMAX, desc, at);
}
