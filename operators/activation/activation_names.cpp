// Activation names, the parameters each reads, and DirectML's documented
// defaults: all from the activation table (activation_list.hpp).
#include "activation_fields.hpp"
#include "activation_list.hpp"

namespace simdax {

unsigned activation_fields(simdax_activation_type type) {
    const ActivationRow* row = activation_row(type);
    if (!row) return 0;
    return (row->alpha.name ? kAlpha : 0u) | (row->beta.name ? kBeta : 0u) | (row->gamma.name ? kGamma : 0u);
}

}  // namespace simdax

extern "C" {

const char* simdax_activation_name(simdax_activation_type type) {
    const simdax::ActivationRow* row = simdax::activation_row(type);
    return row ? row->name : nullptr;
}

simdax_activation_desc simdax_activation_default(simdax_activation_type type) {
    const simdax::ActivationRow* row = simdax::activation_row(type);
    if (!row) return simdax_activation_desc{type, 0.0f, 0.0f, 0.0f};
    return simdax_activation_desc{type, row->alpha.fallback, row->beta.fallback, row->gamma.fallback};
}

}  // extern "C"
