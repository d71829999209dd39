// Units of work, run inline or on the caller's parallel-for. How work is
// cut depends only on the plan, never on the thread count, so every split
// gives bitwise the same output.
#pragma once

#include <algorithm>

#include "fp_env.hpp"
#include "odometer.hpp"

namespace simdax {

// A task may run on any thread of the caller's pool, in whatever
// floating-point environment that thread keeps.
template <class F>
void run_task(void* f, size_t i) {
    KernelFpEnv env;
    (*static_cast<F*>(f))(i);
}

// Runs f(0..units-1): inline, or as contiguous ranges on the pool.
template <class F>
void run_units(const simdax_parallel* par, size_t units, F f) {
    if (!par || units <= 1) {
        for (size_t i = 0; i < units; ++i) f(i);
        return;
    }
    const size_t tasks = std::min<size_t>(units, size_t(par->thread_count) * 4);
    auto task = [&](size_t t) {
        for (size_t i = units * t / tasks, e = units * (t + 1) / tasks; i < e; ++i) f(i);
    };
    par->parallel_for(par->context, tasks, run_task<decltype(task)>, &task);
}

// Runs f(u0, u1) over contiguous ranges covering 0..units-1: all of them in
// one call inline, or one range per task on the pool.
template <class F>
void run_unit_ranges(const simdax_parallel* par, size_t units, F f) {
    if (!par || units <= 1) {
        if (units) f(size_t(0), units);
        return;
    }
    const size_t tasks = std::min<size_t>(units, size_t(par->thread_count) * 4);
    auto task = [&](size_t t) { f(units * t / tasks, units * (t + 1) / tasks); };
    par->parallel_for(par->context, tasks, run_task<decltype(task)>, &task);
}

inline void group_offsets(const Plan& p, int64_t g, int64_t off[kOperands]) {
    Odometer w(p.outer, g);
    for_each_walked(p.outer, [&](int o) { off[o] = w.off[o]; });
}

}  // namespace simdax
