// Fused activations of case.json ({"type": "elu", "alpha": 0.5}): docs/spec.md
// names and parameter names mapped onto simdax_activation_desc.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>
#include <simdax/simdax.h>

#include "json_fields.hpp"

namespace simdax_case {

// docs/spec.md name ("scaled_elu") -> type; nullopt for an unknown name.
std::optional<simdax_activation_type> activation_from_spec_name(const std::string& name);

// Reads an activation object. Parameters the object leaves out take the
// values of simdax_activation_default(); unknown types and parameter names
// that the type does not have are errors.
simdax_activation_desc parse_activation(const JsonFields& fields, const nlohmann::json& object,
                                        const std::string& where);

}  // namespace simdax_case
