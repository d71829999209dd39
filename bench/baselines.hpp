// The baselines a workload's time is divided by, and their names:
//   memcpy/<dtype>/<shape>          a copy of the input's bytes (reads N,
//                                   writes N), median of its repetitions;
//   memcpy_fastest/<dtype>/<shape>  the same copy, the fastest of several
//                                   timed samples interleaved over buffer
//                                   pairs at different addresses: the
//                                   divisor of the rows
//                                   whose input and output fit in L2 together
//                                   (see ratio_baseline_name);
//   read/<dtype>/<shape>            read_pass over the input's bytes: the
//                                   read floor of the "x read" column.
#pragma once

#include <string>

#include "workloads.hpp"

namespace simdax_bench {

std::string memcpy_fastest_name(const Workload& w);
std::string read_name(const Workload& w);

// Bytes of this core's L2 cache (sysconf; 1 MiB when it does not say).
long l2_bytes();

// True when input + output of w fit in L2 together. Such a copy is over in
// microseconds and its median moves with every interruption and with how
// the two buffers share the cache's sets, so these rows divide by the
// fastest sample over several buffer pairs (the copy undisturbed, its
// buffers well placed), not the median.
bool cache_sized(const Workload& w);

// The baseline the "x memcpy" ratio of w divides by: memcpy_fastest_name for
// cache_sized rows, memcpy_name otherwise.
std::string ratio_baseline_name(const Workload& w);

}  // namespace simdax_bench
