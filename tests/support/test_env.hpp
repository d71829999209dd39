// What the test binary runs under, for tests that scale their work to it.
#pragma once

#include <cstdlib>

namespace sxt {

// An emulated CPU (qemu; tests/CMakeLists.txt sets SIMDAX_TEST_EMULATED=1),
// where every call costs tens of times more than natively.
inline bool emulated_run() {
    const char* e = std::getenv("SIMDAX_TEST_EMULATED");
    return e && *e == '1';
}

}  // namespace sxt
