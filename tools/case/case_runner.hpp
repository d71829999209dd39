// Runs a loaded case through the simdax C API: builds the descriptors from
// `params`, creates the operator once, and executes it on the case's buffers.
// simdax_case does not link simdax itself; the consumer links either the
// shared or the static library.
#pragma once

#include <simdax/simdax.h>

#include <utility>
#include <vector>

#include "case_model.hpp"

namespace simdax_case {

// Holds a reference to the Case: the Case must outlive the run.
class OperatorRun {
public:
    // Creates the operator; a rejected descriptor is a CaseError naming the
    // case.json and the library's message.
    explicit OperatorRun(const Case& c);
    ~OperatorRun();
    OperatorRun(const OperatorRun&) = delete;
    OperatorRun& operator=(const OperatorRun&) = delete;

    // One execution into output(), which is first filled with a poison
    // pattern so that elements the library skips cannot pass the check.
    // A failing status is a CaseError.
    void execute();
    // The bare execute call, without the poisoning: for timing.
    void execute_only();

    // The output tensor: packed row-major, in the case's dtype.
    const ByteBuffer& output() const { return output_; }
    std::size_t output_bytes() const { return output_.size(); }
    // Output i of Case::extra_outputs (Mean, InvStdDev, LogSumExp).
    const ByteBuffer& extra_output(std::size_t i) const { return extra_[i]; }

    // The ISA the operator was planned for.
    simdax_isa isa() const;

private:
    const Case& case_;
    simdax_operator* op_ = nullptr;
    ByteBuffer output_;
    simdax_bindings bindings_{};
    // Mask, AlibiSlopes, Sinks: operand and element (0, ..., 0).
    std::vector<std::pair<simdax_operand, const void*>> input_operand_;
    std::vector<ByteBuffer> extra_;
    std::vector<simdax_operand> extra_operand_;
};

}  // namespace simdax_case
