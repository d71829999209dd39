// Kernel tables per ISA, composed once: a child ISA starts as a copy of its
// parent's table and overrides every entry its own table fills in.
#pragma once

#include "kernel_table.hpp"

namespace simdax {

// The composed table of an ISA, or nullptr if the ISA is not compiled in.
// Does not check CPU support (kernel tests combine it with cpu_info()).
const IsaKernels* isa_kernels(simdax_isa isa);

// The parent ISA whose entries a table inherits (scalar has none: returns itself).
simdax_isa isa_parent(simdax_isa isa);

}  // namespace simdax
