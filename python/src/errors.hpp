// How a failing simdax call reaches Python: the library's own message
// (simdax_last_error), as the exception type a Python caller expects.
#pragma once

#include <string>

#include "simdax/simdax.h"

namespace simdax_py {

// Throws for any status but SIMDAX_OK: TypeError for a dtype mismatch,
// MemoryError for an allocation failure, ValueError for everything else.
// message is taken by value because a later simdax call would overwrite
// the thread's last error.
void throw_status(simdax_status status, std::string message);

// throw_status with this thread's simdax_last_error().
void check(simdax_status status);

}  // namespace simdax_py
