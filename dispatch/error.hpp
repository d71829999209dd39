// The thread-local message of the last failing call.
#pragma once

#include "simdax/simdax.h"

namespace simdax {

// Records a printf-style message for this thread and returns the status.
simdax_status fail(simdax_status status, const char* fmt, ...)
    __attribute__((format(printf, 2, 3)));
// Clears the message and returns SIMDAX_OK.
simdax_status ok();

}  // namespace simdax
