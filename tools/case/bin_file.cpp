#include "bin_file.hpp"

#include <fstream>

#include "case_error.hpp"

namespace simdax_case {

ByteBuffer read_exact_file(const std::filesystem::path& file, std::uint64_t expected_bytes,
                           const std::string& expectation) {
    std::error_code ec;
    const auto status = std::filesystem::status(file, ec);
    if (!std::filesystem::exists(status)) throw CaseError(file.string() + ": no such file");
    if (!std::filesystem::is_regular_file(status)) {
        throw CaseError(file.string() + ": not a regular file");
    }
    const std::uintmax_t actual = std::filesystem::file_size(file, ec);
    if (ec) throw CaseError(file.string() + ": cannot get its size: " + ec.message());
    if (actual != expected_bytes) {
        throw CaseError(file.string() + ": " + std::to_string(actual) + " bytes, expected " +
                        std::to_string(expected_bytes) + " for " + expectation);
    }
    if (expected_bytes > SIZE_MAX / 2) throw CaseError(file.string() + ": too large to load");

    ByteBuffer buffer(static_cast<std::size_t>(expected_bytes));
    std::ifstream in(file, std::ios::binary);
    if (!in) throw CaseError(file.string() + ": cannot be opened for reading");
    in.read(static_cast<char*>(buffer.data()), static_cast<std::streamsize>(expected_bytes));
    if (static_cast<std::uint64_t>(in.gcount()) != expected_bytes) {
        throw CaseError(file.string() + ": read only " + std::to_string(in.gcount()) + " of " +
                        std::to_string(expected_bytes) + " bytes");
    }
    return buffer;
}

void write_file(const std::filesystem::path& file, const void* data, std::size_t bytes) {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    if (!out) throw CaseError(file.string() + ": cannot be opened for writing");
    out.write(static_cast<const char*>(data), static_cast<std::streamsize>(bytes));
    out.close();
    if (!out) throw CaseError(file.string() + ": write failed");
}

}  // namespace simdax_case
