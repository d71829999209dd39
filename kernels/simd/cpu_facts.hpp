// The CPU facts this ISA's kernels read (kernel_table.hpp); its table hands
// dispatch this object to fill when it composes the table. x86 only.
#pragma once

#include "kernel_table.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

inline CpuFacts cpu_facts{};

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
