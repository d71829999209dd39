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

}  // namespace

Operator::Operator(simdax_operator* op, TensorSpec input, TensorSpec output, std::optional<TensorSpec> scale,
                   std::optional<TensorSpec> bias)
    : op_(op),
      input_(std::move(input)),
      output_(std::move(output)),
      scale_(std::move(scale)),
      bias_(std::move(bias)) {}

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

void Operator::run(const simdax_bindings& bindings, uint32_t threads) const {
    simdax_parallel parallel{};
    if (threads > 1) parallel = thread_pool(threads);
    simdax_status status;
    std::string message;
    {
        // The arrays stay referenced by this call's arguments meanwhile.
        nb::gil_scoped_release release;
        status = threads > 1 ? simdax_operator_execute_parallel(op_, &bindings, &parallel)
                             : simdax_operator_execute(op_, &bindings);
        if (status != SIMDAX_OK) message = simdax_last_error();
    }
    throw_status(status, std::move(message));
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
