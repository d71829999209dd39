// SIMDAX_VERBOSE: one INFO line per create (level 1) and per execute
// (level 2) through the log callback, describing the operator and its plan.
#pragma once

#include <atomic>
#include <cstddef>

#include "problem.hpp"

namespace simdax {

namespace detail {
extern std::atomic<int> g_verbose_level;  // -1: SIMDAX_VERBOSE not read yet
int read_verbose_level();
}  // namespace detail

// The level from SIMDAX_VERBOSE, read once: unset, empty or not a number
// is 0; numbers above 2 are 2. Inline: every execute asks.
inline int verbose_level() {
    const int v = detail::g_verbose_level.load(std::memory_order_relaxed);
    return v >= 0 ? v : detail::read_verbose_level();
}
// Overrides the level (tests).
void set_verbose_level(int level);

// What simdax_operator_describe returns: the operator, dtype, shape, axes,
// parameters, ISA, loop form, passes and work split, as key=value pairs on
// one line. Truncated to size - 1 characters.
void describe_operator(const Problem& p, const Plan& plan, char* out, size_t size);

}  // namespace simdax
