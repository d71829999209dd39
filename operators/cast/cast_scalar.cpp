// Portable Cast: each element through its compute type (exact for float16
// and bfloat16); float64 narrowed once (kernels/round_to_odd.hpp).
#include <type_traits>

#include "round_to_odd.hpp"
#include "scalar/scalar_kernels.hpp"

namespace simdax::kernels::scalar {
namespace {

template <class T, class U>
void cast_run(const void* x, void* y, size_t n) {
    constexpr bool narrow_twice =
        std::is_same_v<T, double> && !std::is_same_v<U, float> && !std::is_same_v<U, double>;
    for (size_t i = 0; i < n; ++i) {
        if constexpr (narrow_twice)
            st<U>(y, ptrdiff_t(i), round_to_odd(ld<T>(x, ptrdiff_t(i))));
        else
            st<U>(y, ptrdiff_t(i), typename Storage<U>::Acc(ld<T>(x, ptrdiff_t(i))));
    }
}

}  // namespace

SIMDAX_DEFINE_CAST_KERNELS(Half, BFloat)

#define SIMDAX_SCALAR_INSTANTIATE_CAST(T) SIMDAX_CAST_SLOTS(SIMDAX_SLOT_INSTANTIATE, T)
SIMDAX_SCALAR_FOR_EACH_DTYPE(SIMDAX_SCALAR_INSTANTIATE_CAST)

}  // namespace simdax::kernels::scalar
