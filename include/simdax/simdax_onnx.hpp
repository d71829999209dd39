// simdax — the C++ wrapper's ONNX helpers: an ONNX node's attributes as
// the options of simdax's operators. Part of the wrapper: include
// "simdax/simdax.hpp".
#ifndef SIMDAX_SIMDAX_ONNX_HPP
#define SIMDAX_SIMDAX_ONNX_HPP

#ifndef SIMDAX_SIMDAX_HPP
#error "include simdax/simdax.hpp"
#endif

namespace simdax::cpp {

// simdax_onnx_softmax_axes: axis = nullopt when the node has no attribute.
inline std::vector<uint32_t> onnx_softmax_axes(int64_t opset, uint32_t rank,
                                               std::optional<int64_t> axis = std::nullopt) {
    std::array<uint32_t, SIMDAX_MAX_RANK> axes{};
    uint32_t count = 0;
    check(simdax_onnx_softmax_axes(opset, rank, axis ? 1 : 0, axis.value_or(0), axes.data(), &count));
    return std::vector<uint32_t>(axes.begin(), axes.begin() + count);
}

// simdax_onnx_mvn_axes: the axes and epsilon of an ONNX MVN node
// (axes = nullopt: ONNX's default {0, 2, 3}).
struct OnnxMvn {
    std::vector<uint32_t> axes;
    float epsilon = 0.0f;
};
inline OnnxMvn onnx_mvn(uint32_t rank, const std::optional<std::vector<int64_t>>& axes = std::nullopt) {
    std::array<uint32_t, SIMDAX_MAX_RANK> out{};
    uint32_t count = 0;
    OnnxMvn r;
    check(simdax_onnx_mvn_axes(rank, axes ? axes->data() : nullptr, axes ? uint32_t(axes->size()) : 0u,
                               out.data(), &count, &r.epsilon));
    r.axes.assign(out.begin(), out.begin() + count);
    return r;
}

// simdax_onnx_hard_sigmoid_params: {alpha, beta}, ONNX defaults for nullopt.
inline std::pair<float, float> onnx_hard_sigmoid_params(std::optional<float> alpha = std::nullopt,
                                                        std::optional<float> beta = std::nullopt) {
    std::pair<float, float> r;
    check(simdax_onnx_hard_sigmoid_params(alpha ? 1 : 0, alpha.value_or(0.0f), beta ? 1 : 0,
                                          beta.value_or(0.0f), &r.first, &r.second));
    return r;
}

// simdax_onnx_layer_normalization_attrs / simdax_onnx_rms_normalization_attrs:
// NormOptions with the node's axis and epsilon (nullopt: the attribute is
// absent, ONNX's default applies); stash_type other than 1 throws.
inline NormOptions onnx_layer_normalization(std::optional<int64_t> axis = std::nullopt,
                                            std::optional<float> epsilon = std::nullopt,
                                            std::optional<int64_t> stash_type = std::nullopt) {
    simdax_layer_normalization_desc d{};
    check(simdax_onnx_layer_normalization_attrs(axis ? 1 : 0, axis.value_or(0), epsilon ? 1 : 0,
                                                epsilon.value_or(0.0f), stash_type ? 1 : 0,
                                                stash_type.value_or(0), &d));
    NormOptions o;
    o.axis = d.axis;
    o.epsilon = d.epsilon;
    return o;
}
// RMSNormalization-23 has LayerNormalization-17's attributes and defaults.
inline NormOptions onnx_rms_normalization(std::optional<int64_t> axis = std::nullopt,
                                          std::optional<float> epsilon = std::nullopt,
                                          std::optional<int64_t> stash_type = std::nullopt) {
    return onnx_layer_normalization(axis, epsilon, stash_type);
}

// simdax_onnx_attention_softmax_attrs: AttentionSoftmaxOptions with the scale,
// softcap and causal mode of an ONNX Attention node (scale = nullopt: ONNX's
// default 1/sqrt(head_size)); set the mask yourself.
inline AttentionSoftmaxOptions onnx_attention_softmax(int64_t head_size,
                                                      std::optional<float> scale = std::nullopt,
                                                      int64_t is_causal = 0, bool has_past_key = false,
                                                      float softcap = 0.0f,
                                                      int64_t qk_matmul_output_mode = 0) {
    simdax_attention_softmax_desc d{};
    check(simdax_onnx_attention_softmax_attrs(head_size, scale ? 1 : 0, scale.value_or(0.0f), is_causal,
                                              has_past_key ? 1 : 0, softcap, qk_matmul_output_mode, &d));
    AttentionSoftmaxOptions o;
    o.scale = d.scale;
    o.softcap = d.softcap;
    o.causal = d.causal;
    return o;
}

}  // namespace simdax::cpp

#endif  // SIMDAX_SIMDAX_ONNX_HPP
