#include "activation_params.hpp"


namespace simdax_case {
namespace {

enum class Slot { Alpha, Beta, Gamma };

struct ParamName {
    const char* name;  // as in the docs/spec.md table
    Slot slot;         // the simdax_activation_desc field it sets
};

struct ActivationRow {
    const char* name;
    simdax_activation_type type;
    ParamName params[2];
    int param_count;
};

// The docs/spec.md "Fused activations" table. softplus' steepness and shrink's
// bias/threshold live in alpha/beta, as simdax.h documents.
const ActivationRow kActivations[] = {
    {"identity", SIMDAX_ACTIVATION_IDENTITY, {}, 0},
    {"linear", SIMDAX_ACTIVATION_LINEAR, {{"alpha", Slot::Alpha}, {"beta", Slot::Beta}}, 2},
    {"relu", SIMDAX_ACTIVATION_RELU, {}, 0},
    {"leaky_relu", SIMDAX_ACTIVATION_LEAKY_RELU, {{"alpha", Slot::Alpha}}, 1},
    {"elu", SIMDAX_ACTIVATION_ELU, {{"alpha", Slot::Alpha}}, 1},
    {"celu", SIMDAX_ACTIVATION_CELU, {{"alpha", Slot::Alpha}}, 1},
    {"scaled_elu", SIMDAX_ACTIVATION_SCALED_ELU, {{"alpha", Slot::Alpha}, {"gamma", Slot::Gamma}}, 2},
    {"sigmoid", SIMDAX_ACTIVATION_SIGMOID, {}, 0},
    {"hard_sigmoid", SIMDAX_ACTIVATION_HARD_SIGMOID, {{"alpha", Slot::Alpha}, {"beta", Slot::Beta}}, 2},
    {"tanh", SIMDAX_ACTIVATION_TANH, {}, 0},
    {"scaled_tanh", SIMDAX_ACTIVATION_SCALED_TANH, {{"alpha", Slot::Alpha}, {"beta", Slot::Beta}}, 2},
    {"softplus", SIMDAX_ACTIVATION_SOFTPLUS, {{"steepness", Slot::Alpha}}, 1},
    {"parametric_softplus", SIMDAX_ACTIVATION_PARAMETRIC_SOFTPLUS,
     {{"alpha", Slot::Alpha}, {"beta", Slot::Beta}}, 2},
    {"softsign", SIMDAX_ACTIVATION_SOFTSIGN, {}, 0},
    {"thresholded_relu", SIMDAX_ACTIVATION_THRESHOLDED_RELU, {{"alpha", Slot::Alpha}}, 1},
    {"shrink", SIMDAX_ACTIVATION_SHRINK, {{"bias", Slot::Alpha}, {"threshold", Slot::Beta}}, 2},
    {"gelu", SIMDAX_ACTIVATION_GELU, {}, 0},
};

const ActivationRow* find_row(const std::string& name) {
    for (const ActivationRow& row : kActivations) {
        if (name == row.name) return &row;
    }
    return nullptr;
}

}  // namespace

std::optional<simdax_activation_type> activation_from_spec_name(const std::string& name) {
    const ActivationRow* row = find_row(name);
    if (row == nullptr) return std::nullopt;
    return row->type;
}

simdax_activation_desc parse_activation(const JsonFields& fields, const nlohmann::json& object,
                                        const std::string& where) {
    fields.require_object(object, where);
    const std::string type_where = JsonFields::join(where, "type");
    const std::string type = fields.as_string(fields.required(object, where, "type"), type_where);
    const ActivationRow* row = find_row(type);
    if (row == nullptr) fields.fail(type_where, "unknown activation '" + type + "'");

    simdax_activation_desc desc = simdax_activation_default(row->type);
    desc.type = row->type;
    for (const auto& item : object.items()) {
        if (item.key() == "type") continue;
        const ParamName* param = nullptr;
        for (int i = 0; i < row->param_count; ++i) {
            if (item.key() == row->params[i].name) param = &row->params[i];
        }
        const std::string param_where = JsonFields::join(where, item.key());
        if (param == nullptr) {
            std::string expected;
            for (int i = 0; i < row->param_count; ++i) {
                expected += std::string(i == 0 ? "" : ", ") + row->params[i].name;
            }
            fields.fail(param_where, "not a parameter of " + type +
                                         (expected.empty() ? " (it has none)"
                                                           : " (it has: " + expected + ")"));
        }
        const float value = fields.as_float32(item.value(), param_where);
        switch (param->slot) {
        case Slot::Alpha: desc.alpha = value; break;
        case Slot::Beta: desc.beta = value; break;
        case Slot::Gamma: desc.gamma = value; break;
        }
    }
    return desc;
}

}  // namespace simdax_case
