// Composes each compiled ISA's table over its parent's, once, and hands
// each ISA's kernels their CPU facts. Only baseline code runs here: the
// per-ISA tables are constant data.
#include "tables.hpp"

#include "cpu_features.hpp"
#include "isa_list.hpp"

namespace simdax {
// SIMDAX_IF_COMPILED(ENUM)(tokens) keeps the tokens when dispatch/CMakeLists.txt
// compiles the ISA in (it defines SIMDAX_HAVE_<ENUM>=1), drops them otherwise.
#define SIMDAX_CAT(a, b) SIMDAX_CAT_(a, b)
#define SIMDAX_CAT_(a, b) a##b
#define SIMDAX_PROBE_1 ~, 1
#define SIMDAX_SECOND(a, b, ...) b
#define SIMDAX_SECOND_OF(...) SIMDAX_SECOND(__VA_ARGS__)
#define SIMDAX_IS_ONE(x) SIMDAX_SECOND_OF(SIMDAX_CAT(SIMDAX_PROBE_, x), 0, ~)
#define SIMDAX_KEEP_1(...) __VA_ARGS__
#define SIMDAX_KEEP_0(...)
#define SIMDAX_IF_COMPILED(ISA) SIMDAX_CAT(SIMDAX_KEEP_, SIMDAX_IS_ONE(SIMDAX_HAVE_##ISA))

namespace kernels {
#define SIMDAX_DECLARE_TABLE(ENUM, name, PARENT, family, flags) \
    SIMDAX_IF_COMPILED(ENUM)(namespace name { extern const IsaKernels kTable; })
SIMDAX_ISA_LIST(SIMDAX_DECLARE_TABLE)
#undef SIMDAX_DECLARE_TABLE
}  // namespace kernels

namespace {

// The ISA's own (partial) table, or nullptr when not compiled in.
const IsaKernels* own_table(simdax_isa isa) {
#define SIMDAX_OWN_TABLE(ENUM, name, PARENT, family, flags) \
    SIMDAX_IF_COMPILED(ENUM)(if (isa == SIMDAX_ISA_##ENUM) return &kernels::name::kTable;)
    SIMDAX_ISA_LIST(SIMDAX_OWN_TABLE)
#undef SIMDAX_OWN_TABLE
    return nullptr;
}

void overlay(DtypeKernels* dst, const DtypeKernels& src){SIMDAX_KERNEL_SLOTS(SIMDAX_SLOT_OVERRIDE, _)}

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
        if (own->facts) {
            own->facts->interleave_streams = cpu_info().interleave_streams;
            own->facts->carry_row_passes = cpu_info().carry_row_passes;
            own->facts->avx512bf16 = cpu_info().avx512bf16;
            g_composed[i].facts = own->facts;  // a child without facts keeps its parent's
        }
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
