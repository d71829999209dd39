// The README pass rule: every output element against the reference file.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <simdax/simdax.h>

#include "case_model.hpp"
#include "case_runner.hpp"

namespace simdax_case {

// The rule for one element. got: the library's value (a value of dtype);
// ref: the reference as stored (any precision).
//  1. ref NaN -> got NaN.
//  2. ref rounded to dtype is +-inf -> got is that infinity.
//  3. else got finite and |got - ref| <= atol + rtol*|ref|, or (ulps > 0)
//     got within ulps steps of ref rounded to dtype.
// atol = rtol = ulps = 0 is exact equality; -0 equals +0.
bool element_passes(double got, double ref, simdax_dtype dtype, const Tolerance& tol);

struct Mismatch {
    std::uint64_t index = 0;           // row-major position in the output
    std::vector<std::int64_t> coords;  // the same, per dimension
    double got = 0;
    double ref = 0;
    double allowed = 0;  // atol + rtol*|ref|
};

struct CheckResult {
    std::string tensor = "Y";  // the output checked (its role)
    std::uint64_t elements = 0;
    std::uint64_t failures = 0;
    std::optional<Mismatch> worst;  // the failing element furthest out of bounds
    bool passed() const { return failures == 0; }
};

// Applies the rule to every element of `got` (packed, in the case's dtype).
CheckResult check_output(const Case& c, const ByteBuffer& got);
// The same for one reference tensor (an output beside Y, Case::extra_outputs).
CheckResult check_tensor(const Case& c, const Tensor& ref, const ByteBuffer& got);
// Every output of an executed run: Y, then each output beside it; the
// result of the first that fails (else Y's).
CheckResult check_run(const Case& c, const OperatorRun& run);

// "3 of 60 elements fail; worst at index 17 [0,3,2]: got ..., ref ...,
// tolerance ..." — one line; an output other than Y is named first
// ("LogSumExp: 1 of 6 elements fail; ...").
std::string describe_failure(const Case& c, const CheckResult& result);

// A value as the shortest text that reads back to the same value of dtype.
std::string format_value(double value, simdax_dtype dtype);

}  // namespace simdax_case
