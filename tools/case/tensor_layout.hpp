// Arithmetic on tensor shapes and strided views, checked against 64-bit
// overflow: a case file may carry any integers, and the reader must reject
// a view that reaches outside its buffer before anything reads through it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace simdax_case {

// prod(shape); nullopt if it does not fit in int64.
std::optional<std::uint64_t> element_count(const std::vector<std::int64_t>& shape);

// Row-major strides of a packed tensor, in elements.
std::vector<std::int64_t> packed_strides(const std::vector<std::int64_t>& shape);

// Empty if every element of the view (shape, strides, offset) lies in
// [0, buffer_elements); otherwise the problem, as a phrase.
std::string view_problem(const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& strides,
                         std::int64_t offset, std::int64_t buffer_elements);

// Coordinates of the element at row-major position `index` in shape.
std::vector<std::int64_t> unravel_index(std::uint64_t index, const std::vector<std::int64_t>& shape);

}  // namespace simdax_case
