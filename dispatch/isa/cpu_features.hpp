// CPU detection: which simdax ISA levels this CPU *and* OS can run.
// Detection runs once (first call) and is cached; later calls are a load.
#pragma once

#include <cstdint>

#include "simdax/simdax.h"

namespace simdax {

struct CpuInfo {
    bool isa_ok[SIMDAX_ISA_COUNT];  // CPU + OS support, regardless of what is compiled in
    char vendor[32];
    char brand[96];
    char features[512];  // space-separated
    // Kernels spread non-temporal stores over four pages at once
    // (CpuFacts in kernel_table.hpp): Intel only.
    bool interleave_streams;
    // Long streamed rows carry the next row's first pass (CpuFacts):
    // Intel only.
    bool carry_row_passes;
    bool avx512bf16;  // AVX512-BF16 usable (CPU and OS), for CpuFacts
};

// Detected once, thread-safe; never calls anything that changes thread affinity.
const CpuInfo& cpu_info();

#if defined(__x86_64__) || defined(_M_X64)
// The raw bits the x86 decision is made from; separated so tests can feed
// synthetic CPUs (Zen 4, OS-masked AVX-512, no OSXSAVE).
struct X86CpuidBits {
    uint32_t max_basic_leaf;
    uint32_t vendor_ebx, vendor_edx, vendor_ecx;  // leaf 0: the vendor string in this order
    uint32_t leaf1_ecx, leaf1_edx;
    uint32_t leaf7_0_eax;                      // leaf 7 subleaf 0: highest valid subleaf
    uint32_t leaf7_ebx, leaf7_ecx, leaf7_edx;  // leaf 7 subleaf 0
    uint32_t leaf7_1_eax;                      // leaf 7 subleaf 1 (ignored if leaf7_0_eax < 1)
    uint64_t xcr0;                             // only meaningful when OSXSAVE (leaf1 ecx bit 27) is set
};
// Fills isa_ok[], features, interleave_streams and carry_row_passes from the bits
// (vendor/brand untouched).
void decode_x86(const X86CpuidBits& bits, CpuInfo* out);
#endif

}  // namespace simdax
