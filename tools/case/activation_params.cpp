#include "activation_params.hpp"

#include "operators/activation/activation_list.hpp"

namespace simdax_case {
namespace {

using simdax::ActivationParam;
using simdax::ActivationRow;

const ActivationRow* find_row(const std::string& name) {
    for (const ActivationRow& row : simdax::kActivations) {
        if (name == row.name) return &row;
    }
    return nullptr;
}

// The simdax_activation_desc field a parameter sets, with its row entry.
struct ParamSlot {
    const ActivationParam* param;
    float simdax_activation_desc::*field;
};

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

    const ParamSlot slots[] = {{&row->alpha, &simdax_activation_desc::alpha},
                               {&row->beta, &simdax_activation_desc::beta},
                               {&row->gamma, &simdax_activation_desc::gamma}};
    simdax_activation_desc desc = simdax_activation_default(row->type);
    desc.type = row->type;
    for (const auto& item : object.items()) {
        if (item.key() == "type") continue;
        const ParamSlot* slot = nullptr;
        std::string expected;
        for (const ParamSlot& s : slots) {
            if (s.param->name == nullptr) continue;
            if (item.key() == s.param->name) slot = &s;
            expected += std::string(expected.empty() ? "" : ", ") + s.param->name;
        }
        const std::string param_where = JsonFields::join(where, item.key());
        if (slot == nullptr) {
            fields.fail(param_where,
                        "not a parameter of " + type +
                            (expected.empty() ? " (it has none)" : " (it has: " + expected + ")"));
        }
        desc.*(slot->field) = fields.as_float32(item.value(), param_where);
    }
    return desc;
}

}  // namespace simdax_case
