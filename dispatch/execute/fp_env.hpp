// Kernels run in the default floating-point environment, whatever the
// caller set: round to nearest, no flush-to-zero / denormals-are-zero. The
// accuracy bounds of docs/spec.md are proven there only, a pool's workers and the
// calling thread must compute bit for bit alike, and the caller's sticky
// exception flags must not pick up what the kernels raise. The guard saves
// the control/status state, installs the default and puts the saved state
// back, flags included.
#pragma once

#if defined(__x86_64__) || defined(_M_X64) || defined(__i386__)
#include <immintrin.h>
#else
#include <cfenv>
#endif

namespace simdax {

#if defined(__x86_64__) || defined(_M_X64) || defined(__i386__)
// SSE only: the kernels never touch the x87 unit. 0x1F80 = all exceptions
// masked, round to nearest, FTZ and DAZ off, no flags.
class KernelFpEnv {
public:
    // The caller's sticky flags do not change a result, and nearly every
    // caller has some raised: only other control bits need LDMXCSR, which
    // costs more than a row of a few elements.
    KernelFpEnv() : saved_(_mm_getcsr()) {
        if ((saved_ & ~kFlags) != kDefault) _mm_setcsr(kDefault);
    }
    ~KernelFpEnv() {
        if (_mm_getcsr() != saved_) _mm_setcsr(saved_);
    }
    KernelFpEnv(const KernelFpEnv&) = delete;
    KernelFpEnv& operator=(const KernelFpEnv&) = delete;

private:
    static constexpr unsigned kDefault = 0x1F80u;
    static constexpr unsigned kFlags = 0x3Fu;
    unsigned saved_;
};
#else
class KernelFpEnv {
public:
    KernelFpEnv() {
        std::fegetenv(&saved_);
        std::fesetenv(FE_DFL_ENV);
    }
    ~KernelFpEnv() { std::fesetenv(&saved_); }
    KernelFpEnv(const KernelFpEnv&) = delete;
    KernelFpEnv& operator=(const KernelFpEnv&) = delete;

private:
    std::fenv_t saved_;
};
#endif

}  // namespace simdax
