// Raw .bin files of the case format: read with an exact size check (before
// anything is allocated from the case's numbers), and written.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

#include "case_model.hpp"

namespace simdax_case {

// The whole file, which must be exactly `expected_bytes` long. `expectation`
// says where that number comes from, for the error message
// ("60 float32 elements (inputs[0].buffer_elements)").
ByteBuffer read_exact_file(const std::filesystem::path& file, std::uint64_t expected_bytes,
                           const std::string& expectation);

void write_file(const std::filesystem::path& file, const void* data, std::size_t bytes);

}  // namespace simdax_case
