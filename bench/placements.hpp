// simdax_bench --placements: every workload on every ISA with its input and
// output at several byte offsets from a 64-byte boundary, and the slowest
// placement against the fastest. Where the buffers sit must not decide the
// speed (users' buffers come from malloc, std::vector, numpy).
#pragma once

#include <string>
#include <vector>

#include <simdax/simdax.h>

namespace simdax_bench {

// Placements whose slowest run is more than this over the fastest are
// marked in the table.
constexpr double kPlacementSpread = 1.10;

// Prints the placement table for the workloads whose id matches `filter`
// (a regular expression; empty: all). Returns 1 if an operator failed.
int run_placements(const std::vector<simdax_isa>& isas, const std::string& filter);

}  // namespace simdax_bench
