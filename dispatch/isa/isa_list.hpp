// The ISA table: one row per ISA, in simdax_isa order, parents before
// children. Everything that names an ISA takes it from here: the names and
// parents (isa.cpp), the kernel tables (tables.cpp), the error texts, and
// the build (cmake/SimdaxIsa.cmake reads the rows for the CPU family and the
// compile flags of kernels/<name>/; keep each row on one line).
//
// X(ENUM, name, PARENT, family, "flags")
//   ENUM    simdax_isa's suffix (SIMDAX_ISA_<ENUM>) and SIMDAX_HAVE_<ENUM>
//   name    simdax_isa_name(), kernels/<name>/, namespace kernels::<name>
//   PARENT  the ISA whose kernels fill the slots this one leaves empty
//   family  any, x86 or aarch64: where cmake compiles it in
//   flags   the compile flags of kernels/<name>/ (space-separated)
//
// Adding an ISA: a row here, its value in simdax_isa (include/simdax/simdax.h),
// its detection in dispatch/isa/cpu_features.cpp, and kernels/<name>/.
#pragma once

#include "simdax/simdax.h"

// clang-format off
#define SIMDAX_ISA_LIST(X) \
    X(SCALAR,     scalar,     SCALAR, any,     "") \
    X(AVX2,       avx2,       SCALAR, x86,     "-mavx2 -mfma -mf16c") \
    X(AVX512,     avx512,     AVX2,   x86,     "-mavx2 -mfma -mf16c -mavx512f -mavx512cd -mavx512bw -mavx512dq -mavx512vl") \
    X(AVX512FP16, avx512fp16, AVX512, x86,     "-mavx2 -mfma -mf16c -mavx512f -mavx512cd -mavx512bw -mavx512dq -mavx512vl -mavx512fp16 -mavx512bf16") \
    X(NEON,       neon,       SCALAR, aarch64, "") \
    X(NEONFP16,   neonfp16,   NEON,   aarch64, "-march=armv8.2-a+fp16")
// clang-format on

namespace simdax::isa_list {

// A row missing from the list, or out of enum order, fails the build here.
#define SIMDAX_ISA_ENUM_VALUE(ENUM, name, PARENT, family, flags) SIMDAX_ISA_##ENUM,
constexpr simdax_isa kInOrder[] = {SIMDAX_ISA_LIST(SIMDAX_ISA_ENUM_VALUE)};
#undef SIMDAX_ISA_ENUM_VALUE
static_assert(sizeof(kInOrder) / sizeof(kInOrder[0]) == SIMDAX_ISA_COUNT,
              "SIMDAX_ISA_LIST needs one row per simdax_isa value");
constexpr bool in_enum_order() {
    for (int i = 0; i < SIMDAX_ISA_COUNT; ++i)
        if (int(kInOrder[i]) != i) return false;
    return true;
}
static_assert(in_enum_order(), "SIMDAX_ISA_LIST's rows must follow simdax_isa's order");

// "scalar, avx2, ...": every ISA name, for error messages (the list's
// leading ", " skipped).
#define SIMDAX_ISA_NAME_ITEM(ENUM, name, PARENT, family, flags) ", " #name
constexpr const char* kNameList = &SIMDAX_ISA_LIST(SIMDAX_ISA_NAME_ITEM)[2];
#undef SIMDAX_ISA_NAME_ITEM

}  // namespace simdax::isa_list
