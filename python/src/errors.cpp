#include "errors.hpp"

#include <new>

#include <nanobind/nanobind.h>

namespace nb = nanobind;

namespace simdax_py {

void throw_status(simdax_status status, std::string message) {
    if (status == SIMDAX_OK) return;
    std::string text = std::string(simdax_status_name(status)) + ": " + message;
    switch (status) {
        case SIMDAX_ERROR_DTYPE_MISMATCH: throw nb::type_error(text.c_str());
        case SIMDAX_ERROR_OUT_OF_MEMORY: throw std::bad_alloc();
        default: throw nb::value_error(text.c_str());
    }
}

void check(simdax_status status) {
    if (status != SIMDAX_OK) throw_status(status, simdax_last_error());
}

}  // namespace simdax_py
