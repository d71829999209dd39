// Factories of the transformer operators (AttentionSoftmax, LayerNormalization,
// RMSNormalization): their operands come by simdax_operand index, as the
// Python layer names them, since most of them are optional.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "operator_factories.hpp"

namespace simdax_py {

using OperandSpecs = std::map<int, TensorSpec>;  // simdax_operand -> spec; input and output required

// causal: "none", "top_left" or "bottom_right".
Operator* make_attention_softmax_operator(const OperandSpecs& operands, float scale, float softcap,
                                          const std::string& causal, uint32_t window, bool log,
                                          const OptionalIsa& isa);

// rms: RMSNormalization (no bias, mean or inv_std_dev), else LayerNormalization.
Operator* make_normalization_operator(bool rms, const OperandSpecs& operands, int32_t axis, float epsilon,
                                      const OptionalIsa& isa);

}  // namespace simdax_py
