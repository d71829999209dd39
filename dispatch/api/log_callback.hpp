// The user's log callback (simdax_set_log_callback). The library never
// prints: every message goes here, and nowhere if no callback is set.
#pragma once

#include "simdax/simdax.h"

namespace simdax {

// Passes message to the installed callback, if any. Lock-free; a call made
// from inside the callback on the same thread is dropped (no recursion).
void log_message(simdax_log_level level, const char* message);

// A callback is installed: a message formatted for it would be delivered
// (on this thread, outside a callback). Lets callers skip the formatting.
bool log_enabled();

}  // namespace simdax
