#include "transformer_factories.hpp"

#include <nanobind/nanobind.h>

#include "isa_cap.hpp"

namespace nb = nanobind;

namespace simdax_py {
namespace {

// The specs' C views, NULL for an operand not given; valid while specs lives.
class OperandDescs {
public:
    explicit OperandDescs(const OperandSpecs& specs) : specs_(specs) {
        for (const auto& [o, spec] : specs) descs_[o] = spec.desc();
        if (!specs.count(SIMDAX_OPERAND_INPUT) || !specs.count(SIMDAX_OPERAND_OUTPUT))
            throw nb::value_error("input and output: both are required");
    }
    const simdax_tensor_desc* operator[](int o) const {
        const auto found = descs_.find(o);
        return found == descs_.end() ? nullptr : &found->second;
    }
    Operator* create(const simdax_operator_desc& desc, const OptionalIsa& isa) const {
        OperandSpecs rest = specs_;
        const TensorSpec input = rest.at(SIMDAX_OPERAND_INPUT), output = rest.at(SIMDAX_OPERAND_OUTPUT);
        rest.erase(SIMDAX_OPERAND_INPUT);
        rest.erase(SIMDAX_OPERAND_OUTPUT);
        return new Operator(create_operator(desc, isa), input, output, rest);
    }

private:
    const OperandSpecs& specs_;
    std::map<int, simdax_tensor_desc> descs_;
};

simdax_causal causal_from_name(const std::string& name) {
    if (name == "none") return SIMDAX_CAUSAL_NONE;
    if (name == "top_left") return SIMDAX_CAUSAL_TOP_LEFT;
    if (name == "bottom_right") return SIMDAX_CAUSAL_BOTTOM_RIGHT;
    throw nb::value_error(("causal '" + name + "' is none of 'none', 'top_left' and 'bottom_right'").c_str());
}

}  // namespace

Operator* make_attention_softmax_operator(const OperandSpecs& operands, float scale, float softcap,
                                          const std::string& causal, uint32_t window, bool log,
                                          const OptionalIsa& isa) {
    const OperandDescs d(operands);
    const simdax_attention_softmax_desc desc{d[SIMDAX_OPERAND_INPUT],
                                             d[SIMDAX_OPERAND_MASK],
                                             d[SIMDAX_OPERAND_ALIBI_SLOPES],
                                             d[SIMDAX_OPERAND_SINKS],
                                             d[SIMDAX_OPERAND_OUTPUT],
                                             d[SIMDAX_OPERAND_LOG_SUM_EXP],
                                             scale,
                                             softcap,
                                             causal_from_name(causal),
                                             window,
                                             log ? 1 : 0};
    return d.create({SIMDAX_OPERATOR_ATTENTION_SOFTMAX, &desc}, isa);
}

Operator* make_normalization_operator(bool rms, const OperandSpecs& operands, int32_t axis, float epsilon,
                                      const OptionalIsa& isa) {
    const OperandDescs d(operands);
    if (rms) {
        const simdax_rms_normalization_desc desc{
            d[SIMDAX_OPERAND_INPUT], d[SIMDAX_OPERAND_SCALE],     d[SIMDAX_OPERAND_OUTPUT],  axis, epsilon, 1,
            d[SIMDAX_OPERAND_SKIP],  d[SIMDAX_OPERAND_SKIP_BIAS], d[SIMDAX_OPERAND_SKIP_SUM]};
        return d.create({SIMDAX_OPERATOR_RMS_NORMALIZATION, &desc}, isa);
    }
    const simdax_layer_normalization_desc desc{d[SIMDAX_OPERAND_INPUT],
                                               d[SIMDAX_OPERAND_SCALE],
                                               d[SIMDAX_OPERAND_BIAS],
                                               d[SIMDAX_OPERAND_OUTPUT],
                                               axis,
                                               epsilon,
                                               1,
                                               d[SIMDAX_OPERAND_SKIP],
                                               d[SIMDAX_OPERAND_SKIP_BIAS],
                                               d[SIMDAX_OPERAND_SKIP_SUM],
                                               d[SIMDAX_OPERAND_MEAN],
                                               d[SIMDAX_OPERAND_INV_STD_DEV]};
    return d.create({SIMDAX_OPERATOR_LAYER_NORMALIZATION, &desc}, isa);
}

}  // namespace simdax_py
