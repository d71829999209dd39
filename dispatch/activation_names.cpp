// Activation names (docs/spec.md spelling), the parameters each reads, and
// DirectML's documented defaults.
#include "activation_fields.hpp"

namespace simdax {

unsigned activation_fields(simdax_activation_type type) {
    switch (type) {
        case SIMDAX_ACTIVATION_LINEAR:
        case SIMDAX_ACTIVATION_HARD_SIGMOID:
        case SIMDAX_ACTIVATION_SCALED_TANH:
        case SIMDAX_ACTIVATION_PARAMETRIC_SOFTPLUS:
        case SIMDAX_ACTIVATION_SHRINK: return kAlpha | kBeta;
        case SIMDAX_ACTIVATION_LEAKY_RELU:
        case SIMDAX_ACTIVATION_ELU:
        case SIMDAX_ACTIVATION_CELU:
        case SIMDAX_ACTIVATION_SOFTPLUS:
        case SIMDAX_ACTIVATION_THRESHOLDED_RELU: return kAlpha;
        case SIMDAX_ACTIVATION_SCALED_ELU: return kAlpha | kGamma;
        default: return 0;
    }
}

}  // namespace simdax

extern "C" {

const char* simdax_activation_name(simdax_activation_type type) {
    static const char* const kNames[SIMDAX_ACTIVATION_COUNT] = {
        "identity", "linear", "relu", "leaky_relu", "elu", "celu",
        "scaled_elu", "sigmoid", "hard_sigmoid", "tanh", "scaled_tanh",
        "softplus", "parametric_softplus", "softsign", "thresholded_relu", "shrink", "gelu"};
    const int i = int(type);
    return (i >= 0 && i < SIMDAX_ACTIVATION_COUNT) ? kNames[i] : nullptr;
}

simdax_activation_desc simdax_activation_default(simdax_activation_type type) {
    simdax_activation_desc d{type, 0.0f, 0.0f, 0.0f};
    switch (type) {
        case SIMDAX_ACTIVATION_LINEAR: d.alpha = 1.0f; break;
        case SIMDAX_ACTIVATION_LEAKY_RELU: d.alpha = 0.01f; break;
        case SIMDAX_ACTIVATION_ELU:
        case SIMDAX_ACTIVATION_CELU:
        case SIMDAX_ACTIVATION_SOFTPLUS:
        case SIMDAX_ACTIVATION_THRESHOLDED_RELU: d.alpha = 1.0f; break;
        case SIMDAX_ACTIVATION_SCALED_ELU: d.alpha = 1.67326319f; d.gamma = 1.05070102f; break;
        case SIMDAX_ACTIVATION_HARD_SIGMOID: d.alpha = 0.2f; d.beta = 0.5f; break;
        case SIMDAX_ACTIVATION_SCALED_TANH:
        case SIMDAX_ACTIVATION_PARAMETRIC_SOFTPLUS: d.alpha = 1.0f; d.beta = 1.0f; break;
        case SIMDAX_ACTIVATION_SHRINK: d.alpha = 0.0f; d.beta = 0.5f; break;
        default: break;
    }
    return d;
}

}  // extern "C"
