// Portable AttentionSoftmax: each key's logit in float32, the row's max and
// sum of exp in a first walk, the outputs in a second (two exps per key).
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "attention_softmax/attention_state.hpp"
#include "scalar/scalar_kernels.hpp"

namespace simdax::kernels::scalar {
namespace {

// Key j's logit (attention_softmax_slots.hpp).
float logit_at(const AttnRowArgs& a, float x, size_t j) {
    float z = x * a.scale;
    if (a.softcap != 0.0f && !(std::fabs(z) < a.softcap * attn_state::kSoftcapLinear))
        z = a.softcap * std::tanh(z / a.softcap);
    if (a.mask) {
        switch (a.mask_dtype) {
            case DType::f32: z += ld<float>(a.mask, ptrdiff_t(j)); break;
            case DType::f16: z += ld<Half>(a.mask, ptrdiff_t(j)); break;
            case DType::bf16: z += ld<BFloat>(a.mask, ptrdiff_t(j)); break;
            case DType::u8:
                if (static_cast<const uint8_t*>(a.mask)[j] == 0) return -__builtin_inff();
                break;
            case DType::f64: break;  // refused by validation
        }
    }
    if (a.slope != 0.0f) z += a.slope * (a.pos + float(j));
    return z;
}

template <class T>
void stats_run(const AttnRowArgs& a, AttnState* state) {
    float m = -__builtin_inff();
    bool nan = false;
    for (size_t j = 0; j < a.n; ++j) {
        const float z = logit_at(a, ld<T>(a.x, ptrdiff_t(j)), j);
        nan |= z != z;
        m = z > m ? z : m;
    }
    if (nan) return attn_state::combine(state, __builtin_nanf(""), 0.0f);
    if (!(m > -__builtin_inff())) return;
    float s = 0.0f;
    for (size_t j = 0; j < a.n; ++j) s += std::exp(logit_at(a, ld<T>(a.x, ptrdiff_t(j)), j) - m);
    attn_state::combine(state, m, s);
}

template <class T>
void out_run(const AttnRowArgs& a, const AttnState& fin) {
    // LogSoftmax: (z - m) - log(s), the difference first (z - lse cancels).
    const float inv = 1.0f / fin.s, log_s = std::log(fin.s);
    for (size_t j = 0; j < a.n; ++j) {
        const float z = logit_at(a, ld<T>(a.x, ptrdiff_t(j)), j);
        st<T>(a.y, ptrdiff_t(j), a.log ? (z - fin.m) - log_s : std::exp(z - fin.m) * inv);
    }
}

}  // namespace

template <class T>
void attention_stats(const AttnRowArgs* a, AttnState* state) {
    if constexpr (!std::is_same_v<T, double>) stats_run<T>(*a, state);
}

template <class T>
void attention_out(const AttnRowArgs* a, const AttnState* state) {
    if constexpr (!std::is_same_v<T, double>) out_run<T>(*a, *state);
}

template <class T>
void attention_rows(const AttnQueries* q) {
    if constexpr (!std::is_same_v<T, double>) {
        const float fill = q->row.log ? -__builtin_inff() : 0.0f;
        const auto row = [&](const AttnRowArgs& a) {
            for (size_t j = 0; j < a.before; ++j) st<T>(a.y, -ptrdiff_t(j) - 1, fill);
            for (size_t j = 0; j < a.after; ++j) st<T>(a.y, ptrdiff_t(a.n + j), fill);
            AttnState acc{-__builtin_inff(), 0.0f};
            stats_run<T>(a, &acc);
            const AttnState fin = attn_state::with_sink(acc, a.sink);
            if (a.lse) *a.lse = attn_state::log_sum_exp(fin);
            if (acc.m == -__builtin_inff()) {
                for (size_t j = 0; j < a.n; ++j) st<T>(a.y, ptrdiff_t(j), fill);
                return;
            }
            out_run<T>(a, fin);
        };
        const auto empty = [&](char* y) {
            for (int64_t j = 0; j < q->keys; ++j) st<T>(y, ptrdiff_t(j), fill);
        };
        attn_state::for_each_query(*q, sizeof(T), row, empty);
    }
}

#define SIMDAX_SCALAR_INSTANTIATE_ATTENTION(T) SIMDAX_ATTENTION_SOFTMAX_SLOTS(SIMDAX_SLOT_INSTANTIATE, T)
SIMDAX_SCALAR_FOR_EACH_DTYPE(SIMDAX_SCALAR_INSTANTIATE_ATTENTION)

}  // namespace simdax::kernels::scalar
