// An independent reading of the docs/spec.md rules for a decoded case: which
// tensors it uses, their layouts, and whether create must accept it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_case.hpp"

namespace fuzz {

bool is_mvn(const Case& c);
bool is_elementwise(const Case& c);
// The operator accepts the exact alias (output = input, same strides).
bool runs_in_place(const Case& c);
// Input and output always; Scale/Bias when an MVN case has them.
bool tensor_used(const Case& c, int k);

// Element count, or -1 if it overflows / a size is negative.
int64_t count_of(const simdax_tensor_desc& t);
// The resolved strides of a descriptor.
std::vector<int64_t> strides_of(const simdax_tensor_desc& t);
// Lowest and highest element offsets; false if they overflow or exceed
// what this harness allocates.
bool span_of(const simdax_tensor_desc& t, int64_t* lo, int64_t* hi);
// True if an element of y, based `shift` elements after x's base, is also
// an element of x.
bool shares_an_element(const simdax_tensor_desc& x, const simdax_tensor_desc& y, int64_t shift);

enum class Verdict { must_reject, must_accept, either };
// What docs/spec.md requires of create for this case. `why` names the rule.
Verdict judge(const Case& c, std::string* why);

}  // namespace fuzz
