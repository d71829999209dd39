// A created simdax operator as a Python object: the tensors it was created
// for, and execute, which checks the arrays against them and runs with the
// GIL released.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tensor_spec.hpp"

namespace simdax_py {

class Operator {
public:
    // Takes ownership of op. scale/bias: the MVN tensors it was created with.
    Operator(simdax_operator* op, TensorSpec input, TensorSpec output, std::optional<TensorSpec> scale,
             std::optional<TensorSpec> bias);
    // Takes ownership of op, created with these operands (simdax_operand
    // indices) beyond input and output.
    Operator(simdax_operator* op, TensorSpec input, TensorSpec output,
             const std::map<int, TensorSpec>& operands);
    Operator(const Operator&) = delete;
    Operator& operator=(const Operator&) = delete;
    ~Operator();

    // threads <= 1: the calling thread; more: the shared built-in pool of
    // that size (thread_pools.hpp).
    void execute(const InputArray& input, const OutputArray& output, const std::optional<InputArray>& scale,
                 const std::optional<InputArray>& bias, uint32_t threads) const;

    // As execute, on bare addresses of element (0,...,0): for callers that
    // have checked the operands' dtype, shape and strides against the specs
    // themselves (the package does so for torch tensors, whose DLPack
    // export costs more than a small kernel's run).
    void execute_addresses(uintptr_t input, uintptr_t output, std::optional<uintptr_t> scale,
                           std::optional<uintptr_t> bias, uint32_t threads) const;

    // Any operands by simdax_operand index: inputs only read, outputs
    // written. Every operand the operator was created with must be given,
    // and no other.
    void execute_operands(const std::map<int, InputArray>& inputs, const std::map<int, OutputArray>& outputs,
                          uint32_t threads) const;
    // As execute_addresses, by operand index.
    void execute_operand_addresses(const std::map<int, uintptr_t>& addresses, uint32_t threads) const;

    std::string describe() const;
    std::string isa() const;
    bool has_scale() const { return scale_.has_value(); }
    bool has_bias() const { return bias_.has_value(); }

private:
    void run(const simdax_bindings& bindings, uint32_t threads) const;
    void run(const simdax_operand_bindings& bindings, uint32_t threads) const;

    simdax_operator* op_;
    TensorSpec input_, output_;
    std::optional<TensorSpec> scale_, bias_;
    std::map<int, TensorSpec> operands_;  // every operand by index, input and output included
};

}  // namespace simdax_py
