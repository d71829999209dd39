// simdax — the C++ wrapper's operator factories. Part of the wrapper:
// include "simdax/simdax.hpp".
#ifndef SIMDAX_SIMDAX_FACTORIES_HPP
#define SIMDAX_SIMDAX_FACTORIES_HPP

#ifndef SIMDAX_SIMDAX_HPP
#error "include simdax/simdax.hpp"
#endif

namespace simdax::cpp {

// ---------------------------------------------------------------- factories
inline Operator axes_op(simdax_operator_type type, const TensorDesc& input, const TensorDesc& output,
                        const std::vector<uint32_t>& axes) {
    const simdax_tensor_desc in = input.c(), out = output.c();
    const simdax_axes_op_desc d{&in, &out, uint32_t(axes.size()), axes.data()};
    return Operator(simdax_operator_desc{type, &d});
}
inline Operator log_softmax(const std::vector<int64_t>& shape, const std::vector<uint32_t>& axes,
                            simdax_dtype dtype = SIMDAX_DTYPE_FLOAT32) {
    const TensorDesc t(shape, dtype);
    return axes_op(SIMDAX_OPERATOR_LOG_SOFTMAX, t, t, axes);
}
inline Operator softmax(const std::vector<int64_t>& shape, const std::vector<uint32_t>& axes,
                        simdax_dtype dtype = SIMDAX_DTYPE_FLOAT32) {
    const TensorDesc t(shape, dtype);
    return axes_op(SIMDAX_OPERATOR_SOFTMAX, t, t, axes);
}
inline Operator hardmax(const std::vector<int64_t>& shape, const std::vector<uint32_t>& axes,
                        simdax_dtype dtype = SIMDAX_DTYPE_FLOAT32) {
    const TensorDesc t(shape, dtype);
    return axes_op(SIMDAX_OPERATOR_HARDMAX, t, t, axes);
}

// MVN options; absent scale/bias/activation as in simdax_mvn_desc.
// SIMDAX_EPSILON_ON_STDDEV (ONNX) creates the operator from a simdax_mvn_ex_desc.
struct MvnOptions {
    std::optional<TensorDesc> scale, bias;
    bool normalize_variance = true;
    float epsilon = 1e-5f;
    std::optional<simdax_activation_desc> activation;
    simdax_epsilon_placement epsilon_placement = SIMDAX_EPSILON_ON_VARIANCE;
};
inline Operator mvn(const TensorDesc& input, const TensorDesc& output, const std::vector<uint32_t>& axes,
                    const MvnOptions& o = {}) {
    const simdax_tensor_desc in = input.c(), out = output.c();
    simdax_tensor_desc scale{}, bias{};
    if (o.scale) scale = o.scale->c();
    if (o.bias) bias = o.bias->c();
    const simdax_mvn_desc d{&in,
                            o.scale ? &scale : nullptr,
                            o.bias ? &bias : nullptr,
                            &out,
                            uint32_t(axes.size()),
                            axes.data(),
                            o.normalize_variance ? 1 : 0,
                            o.epsilon,
                            o.activation ? &*o.activation : nullptr};
    if (o.epsilon_placement == SIMDAX_EPSILON_ON_VARIANCE)
        return Operator(simdax_operator_desc{SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, &d});
    const simdax_mvn_ex_desc ex{d, o.epsilon_placement};
    return Operator(simdax_operator_desc{SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION_EX, &ex});
}
// Packed input and output of `dtype`; Scale and Bias (their sizes and
// strides from o) take that dtype too.
inline Operator mvn(const std::vector<int64_t>& shape, const std::vector<uint32_t>& axes,
                    simdax_dtype dtype = SIMDAX_DTYPE_FLOAT32, const MvnOptions& o = {}) {
    const TensorDesc t(shape, dtype);
    MvnOptions typed = o;
    if (typed.scale) typed.scale->dtype = dtype;
    if (typed.bias) typed.bias->dtype = dtype;
    return mvn(t, t, axes, typed);
}

// HardSigmoid over any views (in place: the same TensorDesc and buffer).
inline Operator hard_sigmoid(const TensorDesc& input, const TensorDesc& output, float alpha = 0.2f,
                             float beta = 0.5f) {
    const simdax_tensor_desc in = input.c(), out = output.c();
    const simdax_hard_sigmoid_desc d{&in, &out, alpha, beta};
    return Operator(simdax_operator_desc{SIMDAX_OPERATOR_HARD_SIGMOID, &d});
}

// An ONNX MeanVarianceNormalization node (simdax_onnx_mvn_desc): onnx_axes
// as in the node (negative allowed), nullopt for the default {0,2,3}.
inline Operator onnx_mvn(const std::vector<int64_t>& shape,
                         const std::optional<std::vector<int64_t>>& onnx_axes = std::nullopt,
                         simdax_dtype dtype = SIMDAX_DTYPE_FLOAT32) {
    const TensorDesc t(shape, dtype);
    const simdax_tensor_desc c = t.c();
    uint32_t axes[SIMDAX_MAX_RANK];
    simdax_mvn_ex_desc d;
    check(simdax_onnx_mvn_desc(&c, &c, onnx_axes ? onnx_axes->data() : nullptr,
                               onnx_axes ? uint32_t(onnx_axes->size()) : 0, axes, &d));
    return Operator(simdax_operator_desc{SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION_EX, &d});
}

inline Operator hard_sigmoid(const std::vector<int64_t>& shape, simdax_dtype dtype = SIMDAX_DTYPE_FLOAT32,
                             float alpha = 0.2f, float beta = 0.5f) {
    const TensorDesc t(shape, dtype);
    return hard_sigmoid(t, t, alpha, beta);
}

// Any activation standalone over any views, with explicit parameters or
// DirectML's defaults.
inline Operator activation(const TensorDesc& input, const TensorDesc& output,
                           const simdax_activation_desc& act) {
    const simdax_tensor_desc in = input.c(), out = output.c();
    const simdax_activation_op_desc d{&in, &out, act};
    return Operator(simdax_operator_desc{SIMDAX_OPERATOR_ACTIVATION, &d});
}
inline Operator activation(const TensorDesc& input, const TensorDesc& output, simdax_activation_type type) {
    return activation(input, output, simdax_activation_default(type));
}
inline Operator activation(const std::vector<int64_t>& shape, const simdax_activation_desc& act,
                           simdax_dtype dtype = SIMDAX_DTYPE_FLOAT32) {
    const TensorDesc t(shape, dtype);
    return activation(t, t, act);
}
inline Operator activation(const std::vector<int64_t>& shape, simdax_activation_type type,
                           simdax_dtype dtype = SIMDAX_DTYPE_FLOAT32) {
    return activation(shape, simdax_activation_default(type), dtype);
}

// AttentionSoftmax options; absent tensors as NULL in
// simdax_attention_softmax_desc. Execute with execute_bound (mask, slopes,
// sinks and log-sum-exp are bound by simdax_operand).
struct AttentionSoftmaxOptions {
    std::optional<TensorDesc> mask, alibi_slopes, sinks, log_sum_exp;
    float scale = 1.0f;
    float softcap = 0.0f;
    simdax_causal causal = SIMDAX_CAUSAL_NONE;
    uint32_t window = 0;
    bool log = false;
};
inline Operator attention_softmax(const TensorDesc& input, const TensorDesc& output,
                                  const AttentionSoftmaxOptions& o = {}) {
    const simdax_tensor_desc in = input.c(), out = output.c();
    simdax_tensor_desc mask{}, slopes{}, sinks{}, lse{};
    if (o.mask) mask = o.mask->c();
    if (o.alibi_slopes) slopes = o.alibi_slopes->c();
    if (o.sinks) sinks = o.sinks->c();
    if (o.log_sum_exp) lse = o.log_sum_exp->c();
    const simdax_attention_softmax_desc d{&in,
                                          o.mask ? &mask : nullptr,
                                          o.alibi_slopes ? &slopes : nullptr,
                                          o.sinks ? &sinks : nullptr,
                                          &out,
                                          o.log_sum_exp ? &lse : nullptr,
                                          o.scale,
                                          o.softcap,
                                          o.causal,
                                          o.window,
                                          o.log ? 1 : 0};
    return Operator(simdax_operator_desc{SIMDAX_OPERATOR_ATTENTION_SOFTMAX, &d});
}
// Packed scores of `dtype`, the output in place or beside.
inline Operator attention_softmax(const std::vector<int64_t>& shape,
                                  simdax_dtype dtype = SIMDAX_DTYPE_FLOAT32,
                                  const AttentionSoftmaxOptions& o = {}) {
    const TensorDesc t(shape, dtype);
    return attention_softmax(t, t, o);
}

// LayerNormalization / RMSNormalization options (docs/layer_normalization.md):
// the optional tensors absent unless set; bias, mean and inv_std_dev are
// LayerNormalization's only. Bind skip, skip_bias and the outputs beside
// the output with Operator::execute_bound.
struct NormOptions {
    int32_t axis = -1;
    float epsilon = 1e-5f;
    std::optional<TensorDesc> bias, skip, skip_bias, skip_sum, mean, inv_std_dev;
};
namespace detail {
inline NormOptions norm_options(float epsilon, std::optional<TensorDesc> bias = std::nullopt) {
    NormOptions o;
    o.epsilon = epsilon;
    o.bias = std::move(bias);
    return o;
}
}  // namespace detail
inline Operator layer_normalization(const TensorDesc& input, const TensorDesc& scale,
                                    const TensorDesc& output, const NormOptions& o = {}) {
    const simdax_tensor_desc in = input.c(), g = scale.c(), out = output.c();
    simdax_tensor_desc t[6]{};
    const std::optional<TensorDesc>* opt[6] = {&o.bias,     &o.skip, &o.skip_bias,
                                               &o.skip_sum, &o.mean, &o.inv_std_dev};
    const simdax_tensor_desc* p[6];
    for (int i = 0; i < 6; ++i) {
        if (*opt[i]) t[i] = (*opt[i])->c();
        p[i] = *opt[i] ? &t[i] : nullptr;
    }
    const simdax_layer_normalization_desc d{&in, &g,   p[0], &out, o.axis, o.epsilon,
                                            1,   p[1], p[2], p[3], p[4],   p[5]};
    return Operator(simdax_operator_desc{SIMDAX_OPERATOR_LAYER_NORMALIZATION, &d});
}
inline Operator rms_normalization(const TensorDesc& input, const TensorDesc& scale, const TensorDesc& output,
                                  const NormOptions& o = {}) {
    const simdax_tensor_desc in = input.c(), g = scale.c(), out = output.c();
    simdax_tensor_desc t[3]{};
    const std::optional<TensorDesc>* opt[3] = {&o.skip, &o.skip_bias, &o.skip_sum};
    const simdax_tensor_desc* p[3];
    for (int i = 0; i < 3; ++i) {
        if (*opt[i]) t[i] = (*opt[i])->c();
        p[i] = *opt[i] ? &t[i] : nullptr;
    }
    const simdax_rms_normalization_desc d{&in, &g, &out, o.axis, o.epsilon, 1, p[0], p[1], p[2]};
    return Operator(simdax_operator_desc{SIMDAX_OPERATOR_RMS_NORMALIZATION, &d});
}
// Packed input and output of `dtype` normalized over the last dim, with a
// Scale (and, for LayerNormalization, a Bias) of that dim's size, of
// `param_dtype` (float32 on float16/bfloat16 data is PyTorch's mixed precision).
inline Operator layer_normalization(const std::vector<int64_t>& shape,
                                    simdax_dtype dtype = SIMDAX_DTYPE_FLOAT32,
                                    simdax_dtype param_dtype = SIMDAX_DTYPE_FLOAT32, float epsilon = 1e-5f) {
    const TensorDesc t(shape, dtype), g({shape.back()}, param_dtype);
    return layer_normalization(t, g, t, detail::norm_options(epsilon, g));
}
inline Operator rms_normalization(const std::vector<int64_t>& shape,
                                  simdax_dtype dtype = SIMDAX_DTYPE_FLOAT32,
                                  simdax_dtype param_dtype = SIMDAX_DTYPE_FLOAT32, float epsilon = 1e-5f) {
    const TensorDesc t(shape, dtype), g({shape.back()}, param_dtype);
    return rms_normalization(t, g, t, detail::norm_options(epsilon));
}

}  // namespace simdax::cpp

#endif  // SIMDAX_SIMDAX_FACTORIES_HPP
