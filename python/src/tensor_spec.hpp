// A tensor as an operator was created for (dtype, sizes, element strides),
// and the check that an array handed to execute is laid out that way: the
// C API takes bare pointers, so this check is what keeps a Python caller
// from reading or writing outside an array.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nanobind/ndarray.h>

#include "simdax/simdax.h"

namespace simdax_py {

using InputArray = nanobind::ndarray<nanobind::ro, nanobind::device::cpu>;
using OutputArray = nanobind::ndarray<nanobind::device::cpu>;

simdax_dtype dtype_from_name(const std::string& name);  // TypeError for an unknown one
const char* dtype_name(simdax_dtype dtype);

struct TensorSpec {
    simdax_dtype dtype = SIMDAX_DTYPE_FLOAT32;
    std::vector<int64_t> sizes;
    std::vector<int64_t> strides;  // empty: packed row-major

    TensorSpec() = default;
    TensorSpec(simdax_dtype dtype, std::vector<int64_t> sizes, std::optional<std::vector<int64_t>> strides);

    // The C view; valid while this spec lives unchanged.
    simdax_tensor_desc desc() const;
    // The strides in elements, packed ones spelled out.
    std::vector<int64_t> element_strides() const;
};

// Raises TypeError (dtype) or ValueError (rank, shape, strides) naming
// `what` unless the array has the spec's dtype and layout. Strides of
// dimensions of size 1 are not compared: no element is reached through them.
void check_layout(const TensorSpec& spec, const InputArray& array, const char* what);
void check_layout(const TensorSpec& spec, const OutputArray& array, const char* what);

}  // namespace simdax_py
