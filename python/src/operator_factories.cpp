#include "operator_factories.hpp"

#include <nanobind/nanobind.h>

#include "isa_cap.hpp"

namespace nb = nanobind;

namespace simdax_py {
namespace {

// Negative axes count from the end, as in numpy; any other value goes to
// the library as it is, which names it when it is out of range.
std::vector<uint32_t> canonical_axes(const Dims& axes, size_t rank) {
    std::vector<uint32_t> out;
    for (int64_t axis : axes) {
        const int64_t canonical = axis < 0 ? axis + int64_t(rank) : axis;
        if (canonical < 0 || canonical > int64_t(UINT32_MAX))
            throw nb::value_error(
                ("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank))
                    .c_str());
        out.push_back(uint32_t(canonical));
    }
    return out;
}

// Creates the operator; the specs are copied into it, the descriptor (which
// points into the caller's specs) is needed only during the create.
Operator* create(const simdax_operator_desc& desc, const OptionalIsa& isa, const TensorSpec& input,
                 const TensorSpec& output, const std::optional<TensorSpec>& scale = {},
                 const std::optional<TensorSpec>& bias = {}) {
    simdax_operator* op = create_operator(desc, isa);
    return new Operator(op, input, output, scale, bias);
}

simdax_epsilon_placement placement_from_name(const std::string& name) {
    if (name == "directml" || name == "variance") return SIMDAX_EPSILON_ON_VARIANCE;
    if (name == "onnx" || name == "stddev") return SIMDAX_EPSILON_ON_STDDEV;
    throw nb::value_error(("epsilon_placement '" + name +
                           "' is none of 'directml' (on the variance) and 'onnx' (on the "
                           "standard deviation)")
                              .c_str());
}

}  // namespace

std::vector<std::string> activation_names() {
    std::vector<std::string> names;
    for (int i = 0; i < SIMDAX_ACTIVATION_COUNT; ++i)
        names.emplace_back(simdax_activation_name(simdax_activation_type(i)));
    return names;
}

simdax_activation_desc activation_desc(const ActivationArgs& args) {
    for (int i = 0; i < SIMDAX_ACTIVATION_COUNT; ++i) {
        const auto type = simdax_activation_type(i);
        if (args.name != simdax_activation_name(type)) continue;
        simdax_activation_desc desc = simdax_activation_default(type);
        if (args.alpha) desc.alpha = *args.alpha;
        if (args.beta) desc.beta = *args.beta;
        if (args.gamma) desc.gamma = *args.gamma;
        return desc;
    }
    throw nb::value_error(("simdax has no activation '" + args.name + "'").c_str());
}

Operator* make_axes_operator(const std::string& kind, const TensorSpec& input, const TensorSpec& output,
                             const Dims& axes, const OptionalIsa& isa) {
    simdax_operator_type type;
    if (kind == "log_softmax")
        type = SIMDAX_OPERATOR_LOG_SOFTMAX;
    else if (kind == "softmax")
        type = SIMDAX_OPERATOR_SOFTMAX;
    else if (kind == "hardmax")
        type = SIMDAX_OPERATOR_HARDMAX;
    else
        throw nb::value_error(("no axes operator '" + kind + "'").c_str());
    const std::vector<uint32_t> axis_list = canonical_axes(axes, input.sizes.size());
    const simdax_tensor_desc in = input.desc(), out = output.desc();
    simdax_axes_op_desc desc{&in, &out, uint32_t(axis_list.size()), axis_list.data()};
    return create({type, &desc}, isa, input, output);
}

Operator* make_mvn_operator(const TensorSpec& input, const TensorSpec& output, const Dims& axes,
                            const std::optional<TensorSpec>& scale, const std::optional<TensorSpec>& bias,
                            bool normalize_variance, float epsilon, const std::string& epsilon_placement,
                            const std::optional<ActivationArgs>& activation, const OptionalIsa& isa) {
    const std::vector<uint32_t> axis_list = canonical_axes(axes, input.sizes.size());
    const simdax_tensor_desc in = input.desc(), out = output.desc();
    simdax_tensor_desc scale_desc{}, bias_desc{};
    if (scale) scale_desc = scale->desc();
    if (bias) bias_desc = bias->desc();
    simdax_activation_desc fused{};
    if (activation) fused = activation_desc(*activation);
    simdax_mvn_ex_desc desc{
        {&in, scale ? &scale_desc : nullptr, bias ? &bias_desc : nullptr, &out, uint32_t(axis_list.size()),
         axis_list.data(), normalize_variance ? 1 : 0, epsilon, activation ? &fused : nullptr},
        placement_from_name(epsilon_placement)};
    return create({SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION_EX, &desc}, isa, input, output, scale, bias);
}

Operator* make_hard_sigmoid_operator(const TensorSpec& input, const TensorSpec& output, float alpha,
                                     float beta, const OptionalIsa& isa) {
    const simdax_tensor_desc in = input.desc(), out = output.desc();
    simdax_hard_sigmoid_desc desc{&in, &out, alpha, beta};
    return create({SIMDAX_OPERATOR_HARD_SIGMOID, &desc}, isa, input, output);
}

Operator* make_activation_operator(const TensorSpec& input, const TensorSpec& output,
                                   const ActivationArgs& activation, const OptionalIsa& isa) {
    const simdax_tensor_desc in = input.desc(), out = output.desc();
    simdax_activation_op_desc desc{&in, &out, activation_desc(activation)};
    return create({SIMDAX_OPERATOR_ACTIVATION, &desc}, isa, input, output);
}

Operator* make_cast_operator(const TensorSpec& input, const TensorSpec& output, const OptionalIsa& isa) {
    const simdax_tensor_desc in = input.desc(), out = output.desc();
    simdax_cast_desc desc{&in, &out};
    return create({SIMDAX_OPERATOR_CAST, &desc}, isa, input, output);
}

}  // namespace simdax_py
