// One factory per operator family: Python arguments -> C descriptor ->
// created Operator. The library validates every descriptor and names what
// is wrong; only Python conventions are handled here (negative axes, names
// for dtypes, activations and epsilon placements).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "operator.hpp"

namespace simdax_py {

using Dims = std::vector<int64_t>;
using OptionalIsa = std::optional<std::string>;

// kind: "log_softmax", "softmax" or "hardmax".
Operator* make_axes_operator(const std::string& kind, const TensorSpec& input, const TensorSpec& output,
                             const Dims& axes, const OptionalIsa& isa);

struct ActivationArgs {
    std::string name;                         // simdax_activation_name: "identity", "gelu", ...
    std::optional<float> alpha, beta, gamma;  // absent: DirectML's default
};

Operator* make_mvn_operator(const TensorSpec& input, const TensorSpec& output, const Dims& axes,
                            const std::optional<TensorSpec>& scale, const std::optional<TensorSpec>& bias,
                            bool normalize_variance, float epsilon, const std::string& epsilon_placement,
                            const std::optional<ActivationArgs>& activation, const OptionalIsa& isa);

Operator* make_hard_sigmoid_operator(const TensorSpec& input, const TensorSpec& output, float alpha,
                                     float beta, const OptionalIsa& isa);

Operator* make_activation_operator(const TensorSpec& input, const TensorSpec& output,
                                   const ActivationArgs& activation, const OptionalIsa& isa);

// Cast: the output's dtype is the one converted to.
Operator* make_cast_operator(const TensorSpec& input, const TensorSpec& output, const OptionalIsa& isa);

// Every activation name, in simdax_activation_type order.
std::vector<std::string> activation_names();
// The activation with its defaults and the given overrides; ValueError for
// an unknown name.
simdax_activation_desc activation_desc(const ActivationArgs& args);

}  // namespace simdax_py
