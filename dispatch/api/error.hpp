// The thread-local message of the last failing call.
#pragma once

#include "simdax/simdax.h"

namespace simdax {

// Records a printf-style message for this thread and returns the status.
simdax_status fail(simdax_status status, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
// This thread's message (error.cpp).
extern thread_local char g_last_error[512];

// Clears the message and returns SIMDAX_OK. Inline: every call that succeeds
// clears it.
inline simdax_status ok() {
    g_last_error[0] = '\0';
    return SIMDAX_OK;
}

}  // namespace simdax
