// The native-float16 levels (neonfp16, avx512fp16) fill only these float16
// slots; every other entry is inherited from the level below (the base ISA,
// where float16 computes in float), and so are the float16 cases a native
// kernel hands back (columns taller than float16 row numbers, activations
// that round).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "kernel_table.hpp"

#if defined(__aarch64__)
#define SIMDAX_F16_BASE_ISA neon
#else
#define SIMDAX_F16_BASE_ISA avx512
#endif

namespace simdax::kernels {

namespace SIMDAX_F16_BASE_ISA {
struct F16;
SIMDAX_KERNEL_SLOTS(SIMDAX_SLOT_DECLARE, _)
}  // namespace SIMDAX_F16_BASE_ISA

// In kernel_slots.hpp's form; each kernel is name_f16, declared with its
// slot's own type.
#define SIMDAX_NATIVE_F16_SLOTS(X, A) \
    X(A, argmax, _) X(A, hardmax_cols, _) X(A, hardmax_rows, _) X(A, activation, _)

namespace SIMDAX_KERNEL_ISA {
namespace f16_base = ::simdax::kernels::SIMDAX_F16_BASE_ISA;

#define SIMDAX_NATIVE_F16_DECLARE(A, name, params) \
    std::remove_pointer_t<decltype(DtypeKernels::name)> name##_f16;
SIMDAX_NATIVE_F16_SLOTS(SIMDAX_NATIVE_F16_DECLARE, _)
#undef SIMDAX_NATIVE_F16_DECLARE

// The float16 entries of the table, each slot its own name_f16.
#define SIMDAX_NATIVE_F16_SLOT(A, name, params) k.name = &name##_f16;
constexpr DtypeKernels native_f16_kernels() {
    DtypeKernels k{};
    SIMDAX_NATIVE_F16_SLOTS(SIMDAX_NATIVE_F16_SLOT, _)
    return k;
}
#undef SIMDAX_NATIVE_F16_SLOT
}  // namespace SIMDAX_KERNEL_ISA

}  // namespace simdax::kernels
