#include "tensor_layout.hpp"

#include <limits>

namespace simdax_case {

std::optional<std::uint64_t> element_count(const std::vector<std::int64_t>& shape) {
    for (std::int64_t size : shape) {
        if (size < 0) return std::nullopt;
    }
    for (std::int64_t size : shape) {
        if (size == 0) return 0;  // then no product of the other sizes matters
    }
    std::int64_t count = 1;
    for (std::int64_t size : shape) {
        if (__builtin_mul_overflow(count, size, &count)) return std::nullopt;
    }
    return static_cast<std::uint64_t>(count);
}

std::vector<std::int64_t> packed_strides(const std::vector<std::int64_t>& shape) {
    std::vector<std::int64_t> strides(shape.size(), 1);
    for (std::size_t k = shape.size(); k > 1; --k) {
        strides[k - 2] = strides[k - 1] * (shape[k - 1] == 0 ? 1 : shape[k - 1]);
    }
    return strides;
}

std::string view_problem(const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& strides,
                         std::int64_t offset, std::int64_t buffer_elements) {
    if (strides.size() != shape.size()) {
        return "strides has " + std::to_string(strides.size()) + " entries for rank " +
               std::to_string(shape.size());
    }
    if (offset < 0) return "offset " + std::to_string(offset) + " is negative";
    const auto count = element_count(shape);
    if (!count) return "a size is negative or the element count overflows 64 bits";
    if (*count == 0) {
        // Nothing is read, but the base pointer must still point into (or
        // just past) the buffer.
        if (offset > buffer_elements) {
            return "offset " + std::to_string(offset) + " is beyond the buffer of " +
                   std::to_string(buffer_elements) + " elements";
        }
        return {};
    }
    // The lowest and highest element reached: negative strides pull the
    // lowest one below the offset.
    std::int64_t lowest = offset;
    std::int64_t highest = offset;
    for (std::size_t k = 0; k < shape.size(); ++k) {
        std::int64_t span = 0;
        if (__builtin_mul_overflow(strides[k], shape[k] - 1, &span) ||
            __builtin_add_overflow(span < 0 ? lowest : highest, span, span < 0 ? &lowest : &highest)) {
            return "offset + index * strides overflows 64 bits";
        }
    }
    if (lowest < 0) {
        return "the view reaches element " + std::to_string(lowest) + ", before the buffer start";
    }
    if (highest >= buffer_elements) {
        return "the view reaches element " + std::to_string(highest) + " but the buffer has " +
               std::to_string(buffer_elements) + " elements";
    }
    return {};
}

std::vector<std::int64_t> unravel_index(std::uint64_t index, const std::vector<std::int64_t>& shape) {
    std::vector<std::int64_t> coords(shape.size(), 0);
    for (std::size_t k = shape.size(); k > 0; --k) {
        const auto size = static_cast<std::uint64_t>(shape[k - 1]);
        if (size == 0) break;
        coords[k - 1] = static_cast<std::int64_t>(index % size);
        index /= size;
    }
    return coords;
}

}  // namespace simdax_case
