// The portable kernel table: complete for every dtype; every other ISA
// inherits from it what it does not override.
#include "scalar_kernels.hpp"

namespace simdax::kernels::scalar {

#define SIMDAX_SCALAR_ENTRY(T, sfx)                                                    \
    DtypeKernels{maxsum_##sfx,           log_softmax_out_##sfx, softmax_out_##sfx,    \
                 argmax_##sfx,           moments_##sfx,         normalize_##sfx,      \
                 activation_##sfx,       log_softmax_cols_##sfx, softmax_cols_##sfx,  \
                 hardmax_cols_##sfx,     mvn_cols_##sfx},

const IsaKernels kTable = {{SIMDAX_SCALAR_FOR_EACH_DTYPE(SIMDAX_SCALAR_ENTRY)}};

}  // namespace simdax::kernels::scalar
