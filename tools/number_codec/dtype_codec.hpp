// Element types of the case format (tools/case) and of the benchmarks'
// inputs (bench/): names, sizes, and exact conversions between stored bit
// patterns and double, written once for both. The double -> narrow conversions
// round once, to nearest-even, straight from float64 (the README pass rule
// forbids the double rounding that going through float32 would cause).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include <simdax/simdax.h>

namespace simdax_case {

// "float32" -> SIMDAX_DTYPE_FLOAT32 etc.; nullopt for any other name.
std::optional<simdax_dtype> dtype_from_name(const std::string& name);
const char* dtype_name(simdax_dtype dtype);
std::size_t dtype_bytes(simdax_dtype dtype);

// Bit patterns of binary16 / bfloat16 / binary32 nearest to x (ties to even);
// overflow gives the infinity of x's sign, NaN a quiet NaN.
std::uint16_t double_to_float16_bits(double x);
std::uint16_t double_to_bfloat16_bits(double x);
std::uint32_t double_to_float32_bits(double x);

double float16_bits_to_double(std::uint16_t bits);
double bfloat16_bits_to_double(std::uint16_t bits);

// x rounded to dtype and widened back to double.
double round_to_dtype(double x, simdax_dtype dtype);

// The value of element `index` of a packed array of dtype at `data`.
double load_element(const void* data, std::size_t index, simdax_dtype dtype);

// Number of representable steps of dtype between a and b, both of which must
// be finite values of that dtype; +0 and -0 are the same point.
std::uint64_t ulp_distance(double a, double b, simdax_dtype dtype);

}  // namespace simdax_case
