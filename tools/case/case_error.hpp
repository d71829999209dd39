// The one exception type of simdax_case: a one-line message that names the
// file (case.json or a .bin) and what is wrong with it.
#pragma once

#include <stdexcept>
#include <string>

namespace simdax_case {

class CaseError : public std::runtime_error {
public:
    explicit CaseError(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace simdax_case
