#include "operator.hpp"

#include <nanobind/nanobind.h>

#include "errors.hpp"
#include "thread_pools.hpp"

namespace nb = nanobind;

namespace simdax_py {
namespace {

// An optional operand must be given exactly when the operator has it: the
// library would otherwise ignore a stray buffer, or refuse a missing one
// with a message about pointers a Python caller never saw.
const void* operand_data(const std::optional<TensorSpec>& spec, const std::optional<InputArray>& array,
                         const char* what) {
    if (spec.has_value() != array.has_value())
        throw nb::value_error((std::string(what) + (spec ? ": the operator was created with one, "
                                                           "pass it"
                                                         : ": the operator was created without "
                                                           "one, pass None"))
                                  .c_str());
    if (!spec) return nullptr;
    check_layout(*spec, *array, what);
    return array->data();
}

// simdax_operand names, as the library's messages spell them.
const char* const kOperandNames[SIMDAX_OPERAND_COUNT] = {
    "input",       "output", "scale",     "bias", "mask",        "alibi_slopes", "sinks",
    "log_sum_exp", "skip",   "skip_bias", "mean", "inv_std_dev", "skip_sum"};

bool is_output(int o) {
    return o == SIMDAX_OPERAND_OUTPUT || o == SIMDAX_OPERAND_LOG_SUM_EXP || o == SIMDAX_OPERAND_MEAN ||
           o == SIMDAX_OPERAND_INV_STD_DEV || o == SIMDAX_OPERAND_SKIP_SUM;
}

std::string operand_name(int o) {
    if (o < 0 || o >= SIMDAX_OPERAND_COUNT)
        throw nb::value_error(("operand " + std::to_string(o) + " is not a simdax operand").c_str());
    return kOperandNames[o];
}

}  // namespace

Operator::Operator(simdax_operator* op, TensorSpec input, TensorSpec output, std::optional<TensorSpec> scale,
                   std::optional<TensorSpec> bias)
    : op_(op),
      input_(std::move(input)),
      output_(std::move(output)),
      scale_(std::move(scale)),
      bias_(std::move(bias)) {
    operands_.emplace(SIMDAX_OPERAND_INPUT, input_);
    operands_.emplace(SIMDAX_OPERAND_OUTPUT, output_);
    if (scale_) operands_.emplace(SIMDAX_OPERAND_SCALE, *scale_);
    if (bias_) operands_.emplace(SIMDAX_OPERAND_BIAS, *bias_);
}

Operator::Operator(simdax_operator* op, TensorSpec input, TensorSpec output,
                   const std::map<int, TensorSpec>& operands)
    : Operator(op, std::move(input), std::move(output), std::nullopt, std::nullopt) {
    for (const auto& [o, spec] : operands) operands_[o] = spec;
    const auto scale = operands.find(SIMDAX_OPERAND_SCALE), bias = operands.find(SIMDAX_OPERAND_BIAS);
    if (scale != operands.end()) scale_ = scale->second;
    if (bias != operands.end()) bias_ = bias->second;
}

Operator::~Operator() { simdax_operator_destroy(op_); }

void Operator::execute(const InputArray& input, const OutputArray& output,
                       const std::optional<InputArray>& scale, const std::optional<InputArray>& bias,
                       uint32_t threads) const {
    check_layout(input_, input, "input");
    check_layout(output_, output, "output");
    run({input.data(), operand_data(scale_, scale, "scale"), operand_data(bias_, bias, "bias"),
         output.data()},
        threads);
}

void Operator::execute_addresses(uintptr_t input, uintptr_t output, std::optional<uintptr_t> scale,
                                 std::optional<uintptr_t> bias, uint32_t threads) const {
    if (scale_.has_value() != scale.has_value() || bias_.has_value() != bias.has_value())
        throw nb::value_error("scale/bias: pass exactly those the operator was created with");
    run({reinterpret_cast<const void*>(input), scale ? reinterpret_cast<const void*>(*scale) : nullptr,
         bias ? reinterpret_cast<const void*>(*bias) : nullptr, reinterpret_cast<void*>(output)},
        threads);
}

void Operator::execute_operands(const std::map<int, InputArray>& inputs,
                                const std::map<int, OutputArray>& outputs, uint32_t threads) const {
    simdax_buffer_binding at[SIMDAX_OPERAND_COUNT] = {};
    const auto bind = [&](int o, const auto& array, bool output) {
        const std::string name = operand_name(o);
        if (is_output(o) != output)
            throw nb::value_error(
                (name + (output ? ": is an input, not an output" : ": is an output, not an input")).c_str());
        const auto spec = operands_.find(o);
        if (spec == operands_.end())
            throw nb::value_error((name + ": the operator was created without one, pass none").c_str());
        check_layout(spec->second, array, name.c_str());
        at[o].data = const_cast<void*>(static_cast<const void*>(array.data()));
    };
    for (const auto& [o, array] : inputs) bind(o, array, false);
    for (const auto& [o, array] : outputs) bind(o, array, true);
    for (const auto& entry : operands_)
        if (!at[entry.first].data)
            throw nb::value_error(
                (operand_name(entry.first) + ": the operator was created with one, pass it").c_str());
    run({{SIMDAX_STRUCTURE_TYPE_OPERAND_BINDINGS, sizeof(simdax_operand_bindings)}, SIMDAX_OPERAND_COUNT, at},
        threads);
}

void Operator::execute_operand_addresses(const std::map<int, uintptr_t>& addresses, uint32_t threads) const {
    simdax_buffer_binding at[SIMDAX_OPERAND_COUNT] = {};
    for (const auto& [o, address] : addresses) {
        const std::string name = operand_name(o);
        if (!operands_.count(o))
            throw nb::value_error((name + ": the operator was created without one, pass none").c_str());
        at[o].data = reinterpret_cast<void*>(address);
    }
    run({{SIMDAX_STRUCTURE_TYPE_OPERAND_BINDINGS, sizeof(simdax_operand_bindings)}, SIMDAX_OPERAND_COUNT, at},
        threads);
}

void Operator::run(const simdax_operand_bindings& bindings, uint32_t threads) const {
    simdax_parallel parallel{};
    if (threads > 1) parallel = thread_pool(threads);
    simdax_status status;
    std::string message;
    {
        nb::gil_scoped_release release;  // the arrays stay referenced by the caller's arguments
        status = simdax_operator_execute_bound(op_, &bindings, threads > 1 ? &parallel : nullptr);
        if (status != SIMDAX_OK) message = simdax_last_error();
    }
    throw_status(status, std::move(message));
}

void Operator::run(const simdax_bindings& bindings, uint32_t threads) const {
    simdax_buffer_binding at[SIMDAX_OPERAND_COUNT] = {};
    at[SIMDAX_OPERAND_INPUT].data = const_cast<void*>(bindings.input);
    at[SIMDAX_OPERAND_OUTPUT].data = bindings.output;
    at[SIMDAX_OPERAND_SCALE].data = const_cast<void*>(bindings.scale);
    at[SIMDAX_OPERAND_BIAS].data = const_cast<void*>(bindings.bias);
    run({{SIMDAX_STRUCTURE_TYPE_OPERAND_BINDINGS, sizeof(simdax_operand_bindings)}, SIMDAX_OPERAND_COUNT, at},
        threads);
}

std::string Operator::describe() const {
    const size_t length = simdax_operator_describe(op_, nullptr, 0);
    std::string text(length + 1, '\0');
    simdax_operator_describe(op_, text.data(), text.size());
    text.resize(length);
    return text;
}

std::string Operator::isa() const { return simdax_isa_name(simdax_operator_isa(op_)); }

}  // namespace simdax_py
