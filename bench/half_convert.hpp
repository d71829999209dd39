// float -> IEEE binary16 / bfloat16 bit patterns, round to nearest even.
#pragma once

#include <cstdint>

namespace simdax_bench {

uint16_t float_to_half(float value);
uint16_t float_to_bfloat16(float value);

}  // namespace simdax_bench
