// Runs one operator call through the C API on TensorBuffers and checks every
// output element against the float64 reference with the pass rule, plus the
// canaries (no stray writes, no element left unwritten, input untouched).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "simdax/simdax.h"
#include "support/dtype.hpp"
#include "support/tensor_buffer.hpp"

namespace sxt {

struct OpSpec {
    simdax_operator_type op = SIMDAX_OPERATOR_SOFTMAX;
    std::vector<uint32_t> axes;      // softmax family, MVN (as passed, any order)
    bool normalize_variance = true;  // MVN
    float epsilon = 1e-5f;           // MVN
    // MVN: set = created from a simdax_mvn_ex_desc with this placement;
    // unset = from a simdax_mvn_desc (epsilon on the variance).
    std::optional<simdax_epsilon_placement> epsilon_placement;
    bool has_activation = false;  // MVN fused activation (ACTIVATION op: always used)
    simdax_activation_desc activation{SIMDAX_ACTIVATION_IDENTITY, 0.f, 0.f, 0.f};
    float alpha = 0.2f, beta = 0.5f;  // HardSigmoid
};

// The spec of `op` over `axes` with every other field at its default.
inline OpSpec op_spec(simdax_operator_type op, std::vector<uint32_t> axes = {}) {
    OpSpec s;
    s.op = op;
    s.axes = std::move(axes);
    return s;
}

struct Operands {
    TensorBuffer x;
    std::unique_ptr<TensorBuffer> scale, bias;  // MVN, optional
    TensorBuffer y;
};

const char* op_name(simdax_operator_type op);
std::string describe(const OpSpec& spec, const Operands& io);

// Keeps the descriptor structs alive while the library reads them.
struct DescStorage {
    simdax_tensor_desc x{}, y{}, scale{}, bias{};
    simdax_axes_op_desc axes_desc{};
    simdax_mvn_desc mvn{};
    simdax_mvn_ex_desc mvn_ex{};
    simdax_hard_sigmoid_desc hs{};
    simdax_activation_op_desc act{};
    simdax_cast_desc cast{};
    simdax_attention_softmax_desc attn{};  // plain: Softmax over the last axis
    simdax_operator_desc op{};
};
// The operator type the spec creates (MVN: plain or _EX).
simdax_operator_type created_type(const OpSpec& spec);
// Fills `st` and returns &st->op for simdax_operator_create.
const simdax_operator_desc* build_desc(const OpSpec& spec, const Operands& io, DescStorage* st);

// Runs the operator (create + execute, or the one-shot entry point) on
// io.x/scale/bias into io.y. Returns the status; message in *error.
simdax_status execute(const OpSpec& spec, Operands& io, bool one_shot, std::string* error);

// The packed float64 reference of the call; ranges (optional) receives what
// the pass rule accepts per element (MVN: docs/mvn_range.md; every other
// operator: the reference value itself).
std::vector<double> reference(const OpSpec& spec, const Operands& io,
                              std::vector<RefRange>* ranges = nullptr);

struct CheckResult {
    bool ok = true;
    std::string report;  // the case and the worst element, when !ok
};

// Compares io.y with the reference (pass rule), and the canaries.
CheckResult check_output(const OpSpec& spec, const Operands& io);

// execute + check_output; a non-OK status is a failure.
CheckResult run_and_check(const OpSpec& spec, Operands& io, bool one_shot = false);

}  // namespace sxt
