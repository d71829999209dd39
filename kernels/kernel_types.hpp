// The types every operator's kernel slots share: storage types, activation
// parameters, and the sizes the kernels and the planner agree on.
#pragma once

#include <cstddef>
#include <cstdint>

#include "simdax/simdax.h"

namespace simdax {

// u8: boolean masks only (AttentionSoftmax); no kernels run on it, so the
// tables hold the first kDTypeCount dtypes.
enum class DType : int { f32 = 0, f16 = 1, bf16 = 2, f64 = 3, u8 = 4 };
constexpr int kDTypeCount = 4;

// An activation, with the parameters of simdax_activation_desc.
struct ActParams {
    simdax_activation_type type;
    float alpha;
    float beta;
    float gamma;
};

}  // namespace simdax

namespace simdax::kernels {
constexpr size_t kMaxLaneRun = 512;  // cols_states/cols_apply: lanes per group at most
// Outputs of at least this many bytes are written with non-temporal stores
// (beyond L2, a store would first read its line for ownership).
constexpr size_t kStreamBytes = size_t(2) << 20;
}  // namespace simdax::kernels
