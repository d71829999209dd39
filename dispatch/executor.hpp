// Runs a plan. No allocation, no locks: only the plan (read-only) and the stack.
#pragma once

#include "plan.hpp"

namespace simdax {

struct Buffers {
    const char* x;
    char* y;
    const char* scale;
    const char* bias;
};

void execute_plan(const Plan& plan, const Buffers& b);

}  // namespace simdax
