// The avx512fp16 kernel table. Every entry is inherited from avx512:
//  - the avx512 kernels already store bfloat16 with VCVTNEPS2BF16 where the
//    CPU has it (a CPU fact), its flushed subnormal lanes redone exactly;
//  - float16 arithmetic rounds alpha/beta to half precision, so HardSigmoid
//    or the activations computed in fp16 miss the 1-ulp bound near
//    cancellation (alpha*x ~ -beta). Only exact operations could move here.
#include "kernel_table.hpp"

namespace simdax::kernels::avx512fp16 {

extern const IsaKernels kTable;
const IsaKernels kTable = {};

}  // namespace simdax::kernels::avx512fp16
