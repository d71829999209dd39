// SIMDAX_VERBOSE: one INFO line per create (level 1) and per execute
// (level 2) through the log callback, describing the operator and its plan.
#pragma once

#include <cstddef>

#include "problem.hpp"

namespace simdax {

// The level from SIMDAX_VERBOSE, read once: unset, empty or not a number
// is 0; numbers above 2 are 2.
int verbose_level();
// Overrides the level (tests).
void set_verbose_level(int level);

// What simdax_operator_describe returns: the operator, dtype, shape, axes,
// parameters, ISA, loop form, passes and work split, as key=value pairs on
// one line. Truncated to size - 1 characters.
void describe_operator(const Problem& p, const Plan& plan, char* out, size_t size);

}  // namespace simdax
