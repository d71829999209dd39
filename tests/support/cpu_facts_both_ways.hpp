// Runs a test body with one of the CPU facts the kernels read as dispatch
// decoded it, then flipped on every ISA's table, so that each machine runs
// the kernels' paths for both values. Only for facts that choose between
// equivalent paths (carry_row_passes), never for one that enables
// instructions (avx512bf16).
#pragma once

#include <vector>

#include "kernel_table.hpp"
#include "tables.hpp"

namespace sxt {

template <class F>
void with_fact_both_ways(bool simdax::CpuFacts::*fact, F body) {
    body();
    std::vector<simdax::CpuFacts*> tables;
    for (int i = 0; i < SIMDAX_ISA_COUNT; ++i) {
        const simdax::IsaKernels* k = simdax::isa_kernels(simdax_isa(i));
        if (k && k->facts) tables.push_back(k->facts);
    }
    for (simdax::CpuFacts* c : tables) c->*fact = !(c->*fact);
    body();
    for (simdax::CpuFacts* c : tables) c->*fact = !(c->*fact);
}

}  // namespace sxt
