// Runs a plan. No allocation, no locks: only the plan (read-only) and the
// stack; work is optionally spread over the caller's parallel-for.
#pragma once

#include "plan.hpp"

namespace simdax {

struct Buffers {
    const char* x;
    char* y;
    const char* scale;
    const char* bias;
};

// par may be null (calling thread only).
void execute_plan(const Plan& plan, const Buffers& b, const simdax_parallel* par);

}  // namespace simdax
