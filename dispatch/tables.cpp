// Composes each compiled ISA's table over its parent's, once. Only baseline
// code runs here: the per-ISA tables are constant data.
#include "tables.hpp"

namespace simdax {
namespace kernels {
#define SIMDAX_DECLARE_TABLE(isa) \
    namespace isa {               \
    extern const IsaKernels kTable; \
    }
SIMDAX_DECLARE_TABLE(scalar)
#ifdef SIMDAX_HAVE_AVX2
SIMDAX_DECLARE_TABLE(avx2)
#endif
#ifdef SIMDAX_HAVE_AVX512
SIMDAX_DECLARE_TABLE(avx512)
#endif
#ifdef SIMDAX_HAVE_AVX512FP16
SIMDAX_DECLARE_TABLE(avx512fp16)
#endif
#ifdef SIMDAX_HAVE_NEON
SIMDAX_DECLARE_TABLE(neon)
#endif
#ifdef SIMDAX_HAVE_NEONFP16
SIMDAX_DECLARE_TABLE(neonfp16)
#endif
#undef SIMDAX_DECLARE_TABLE
}  // namespace kernels

namespace {

// The ISA's own (partial) table, or nullptr when not compiled in.
const IsaKernels* own_table(simdax_isa isa) {
    switch (isa) {
        case SIMDAX_ISA_SCALAR: return &kernels::scalar::kTable;
#ifdef SIMDAX_HAVE_AVX2
        case SIMDAX_ISA_AVX2: return &kernels::avx2::kTable;
#endif
#ifdef SIMDAX_HAVE_AVX512
        case SIMDAX_ISA_AVX512: return &kernels::avx512::kTable;
#endif
#ifdef SIMDAX_HAVE_AVX512FP16
        case SIMDAX_ISA_AVX512FP16: return &kernels::avx512fp16::kTable;
#endif
#ifdef SIMDAX_HAVE_NEON
        case SIMDAX_ISA_NEON: return &kernels::neon::kTable;
#endif
#ifdef SIMDAX_HAVE_NEONFP16
        case SIMDAX_ISA_NEONFP16: return &kernels::neonfp16::kTable;
#endif
        default: return nullptr;
    }
}

void overlay(DtypeKernels* dst, const DtypeKernels& src) {
    SIMDAX_KERNEL_SLOTS(SIMDAX_SLOT_OVERRIDE, _)
}

IsaKernels g_composed[SIMDAX_ISA_COUNT];
bool g_present[SIMDAX_ISA_COUNT];
bool compose_all() {
    // Parents come before children in enum order.
    for (int i = 0; i < SIMDAX_ISA_COUNT; ++i) {
        const simdax_isa isa = simdax_isa(i);
        const IsaKernels* own = own_table(isa);
        if (!own) continue;
        const simdax_isa parent = isa_parent(isa);
        if (parent != isa) {
            if (!g_present[parent]) continue;  // a child never runs without its parent
            g_composed[i] = g_composed[parent];
        }
        for (int d = 0; d < kDTypeCount; ++d) overlay(&g_composed[i].dt[d], own->dt[d]);
        g_present[i] = true;
    }
    return true;
}

}  // namespace

const IsaKernels* isa_kernels(simdax_isa isa) {
    const int i = int(isa);
    if (i < 0 || i >= SIMDAX_ISA_COUNT) return nullptr;
    static const bool composed = compose_all();  // thread-safe, once
    (void)composed;
    return g_present[i] ? &g_composed[i] : nullptr;
}

}  // namespace simdax
