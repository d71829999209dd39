#include "error.hpp"
#include "log_callback.hpp"

#include <cstdarg>
#include <cstdio>

namespace simdax {
thread_local char g_last_error[512];

simdax_status fail(simdax_status status, const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(g_last_error, sizeof g_last_error, fmt, ap);
    va_end(ap);
    log_message(SIMDAX_LOG_ERROR, g_last_error);
    return status;
}

}  // namespace simdax

extern "C" {

const char* simdax_last_error(void) { return simdax::g_last_error; }

const char* simdax_status_name(simdax_status status) {
    switch (status) {
        case SIMDAX_OK: return "SIMDAX_OK";
        case SIMDAX_ERROR_NULL_POINTER: return "SIMDAX_ERROR_NULL_POINTER";
        case SIMDAX_ERROR_INVALID_ARGUMENT: return "SIMDAX_ERROR_INVALID_ARGUMENT";
        case SIMDAX_ERROR_SHAPE_MISMATCH: return "SIMDAX_ERROR_SHAPE_MISMATCH";
        case SIMDAX_ERROR_DTYPE_MISMATCH: return "SIMDAX_ERROR_DTYPE_MISMATCH";
        case SIMDAX_ERROR_INVALID_AXES: return "SIMDAX_ERROR_INVALID_AXES";
        case SIMDAX_ERROR_OVERFLOW: return "SIMDAX_ERROR_OVERFLOW";
        case SIMDAX_ERROR_OVERLAP: return "SIMDAX_ERROR_OVERLAP";
        case SIMDAX_ERROR_UNSUPPORTED: return "SIMDAX_ERROR_UNSUPPORTED";
        case SIMDAX_ERROR_OUT_OF_MEMORY: return "SIMDAX_ERROR_OUT_OF_MEMORY";
    }
    return "SIMDAX_ERROR_UNKNOWN";
}

const char* simdax_version(void) { return SIMDAX_VERSION_STRING; }

}  // extern "C"
