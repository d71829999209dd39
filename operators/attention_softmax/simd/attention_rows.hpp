// AttentionSoftmax's row kernels over the vector layer, in float32 whatever
// the storage types of scores and mask. The logits stay in natural units and
// each exponential is 2^((z - max) * log2(e)) (exp2_f32.hpp): a difference
// taken before the scaling is exact for nearby logits, where logits folded
// into base 2 lose |z| * 2^-24 each (1e-4 relative error at |z| ~ 1e4, and a
// LogSoftmax of z*ln2 - lse cancels). Softmax rows whose normalized powers
// are all that is wanted (no lse, no sink) fold, by one FMA:
// 2^(z*log2e - hi) carries a common factor that the division cancels.
//
// A Softmax row of at most kFuseVecs vectors stays in registers
// (attention_fused.hpp). A row of at most kBlock keys: the logits go once into a
// float buffer on the stack with their max, then exp(z - max) replaces them
// with the sum taken alongside, then the output is one multiply (LogSoftmax:
// one subtract): one exp per key. Longer rows and the executor's gathered
// parts: the state block by block (attention_stats), then the output with a
// second exp (attention_out).
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "attention_softmax/simd/attention_logits.hpp"
#include "attention_softmax/simd/attention_store.hpp"
#include "simd/lane_blocks.hpp"
#include "softmax/simd/smx_math.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {
namespace attn {

template <class T, class MT, int FL>
void stats(const AttnRowArgs& a, AttnState* st) {
    const Consts c(a);
    alignas(64) float buf[kBlock];
    const T* x = static_cast<const T*>(a.x);
    const MT* mk = static_cast<const MT*>(a.mask);
    for (size_t b = 0; b < a.n; b += kBlock) {
        const size_t nb = a.n - b < kBlock ? a.n - b : kBlock;
        const MT* mb = mk;
        if constexpr (!std::is_same_v<MT, NoMask>) mb += b;
        const float m = logits<FL>(c, x + b, mb, nb, buf);
        if (m > -__builtin_inff())
            attn_state::combine(st, m, exp_sum<false>(buf, nb, m));
        else if (m != m)
            attn_state::combine(st, m, m);
    }
}

// The outputs from a finished state (row max > -inf or NaN).
template <class T, class MT, int FL>
void out(const AttnRowArgs& a, const AttnState& st) {
    const Consts c(a);
    auto* y = result_ptr(static_cast<T*>(a.y));
    const T* x = static_cast<const T*>(a.x);
    const MT* mk = static_cast<const MT*>(a.mask);
    // LogSoftmax: (z - m) - log(s), the difference first (z - lse cancels).
    const R mv = V::set1(st.m), inv = V::set1(1.0f / st.s), log_s = V::set1(std::log(st.s));
    size_t j = 0;
    auto f = [&](R z) {
        return a.log ? V::sub(V::sub(z, mv), log_s) : V::mul(exp_below(z, mv, c.log2e), inv);
    };
    for (; j + V::N <= a.n; j += V::N) V::store(y + j, f(logit<false, FL>(c, x, mk, j, V::N)));
    if (j < a.n) V::storen(y + j, f(logit<true, FL>(c, x, mk, j, a.n - j)), a.n - j);
}

template <class T, class MT, int FL, int DEG>
void fused_softmax_row(const AttnRowArgs& a);  // attention_fused.hpp
template <class T, class MT, int FL, int DEG>
struct RegisterPairs;  // attention_fused.hpp

// Row i's pointers in a query block without a causal window (every key
// visible), as values: the row kernels load through them at once, and
// pointers written into an AttnRowArgs and read back delay those loads.
template <class T, class MT>
struct WholeRow {
    const T* x;
    T* y;
    const MT* mask;  // nullptr: none
    float* lse;      // nullptr: not wanted
    WholeRow(const AttnQueries& q, size_t i)
        : x(reinterpret_cast<const T*>(q.x + ptrdiff_t(i) * q.x_step)),
          y(reinterpret_cast<T*>(q.y + ptrdiff_t(i) * q.y_step)),
          mask(q.mask ? reinterpret_cast<const MT*>(q.mask + ptrdiff_t(i) * q.mask_step) : nullptr),
          lse(q.lse ? q.lse + ptrdiff_t(i) * q.lse_step : nullptr) {}
};

// Row i's ALiBi position (AttnRowArgs::pos).
inline float row_pos(const AttnQueries& q, size_t i) { return float(-(q.first + int64_t(i))); }

// ... as the AttnRowArgs of the general kernels.
inline void whole_row(const AttnQueries& q, size_t i, AttnRowArgs* a) {
    const WholeRow<char, char> w(q, i);
    a->x = w.x;
    a->y = w.y;
    a->mask = w.mask;
    a->lse = w.lse;
    a->pos = row_pos(q, i);
}

// A row of at most kBlock keys whose logits (max m) are in buf: the sum of
// their exponentials (Softmax: buf becomes the powers), 0 when m is -inf.
// Whether a Softmax row of max m may fold its exponent: nothing but the
// normalized powers is wanted (no lse, no sink) and m is within the fold's
// range (smx_math.hpp).
template <int DEG>
bool folds(const AttnRowArgs& a, float m) {
    return !a.lse && a.sink == -__builtin_inff() && SmxMath<V>::template foldable<DEG>(m);  // NaN: a sink
}

template <int DEG>
SIMDAX_INLINE float short_row_sum(const AttnRowArgs& a, float* buf, float m) {
    if (m == -__builtin_inff()) return 0.0f;
    if (a.log) return exp_sum<false, DEG>(buf, a.n, m);
    if (folds<DEG>(a, m)) return exp_sum<true, DEG, true>(buf, a.n, m);  // short_row_store divides by it only
    return exp_sum<true, DEG>(buf, a.n, m);
}

// ... and its outputs (and log-sum-exp) from buf, m and that sum s.
template <class T>
SIMDAX_INLINE void short_row_store(const AttnRowArgs& a, const float* buf, float m, float s) {
    const AttnState fin = attn_state::with_sink(AttnState{m, s}, a.sink);
    if (a.lse) *a.lse = attn_state::log_sum_exp(fin);
    if (m == -__builtin_inff()) {
        const R fv = V::set1(a.log ? -__builtin_inff() : 0.0f);
        return store_row_or_short<T>(a, buf, [&](R) { return fv; });
    }
    if (a.log) {
        const R mv = V::set1(fin.m), log_s = V::set1(std::log(fin.s));
        store_row_or_short<T>(a, buf, [&](R z) { return V::sub(V::sub(z, mv), log_s); });
    } else {
        // The powers are relative to the row's max; a larger sink moved it.
        const R k = V::set1(fin.m == m ? 1.0f / fin.s : std::exp(m - fin.m) / fin.s);
        store_row_or_short<T>(a, buf, [&](R e) { return V::mul(e, k); });
    }
}

// The visible keys of a row, in the buffer's passes (or, beyond kBlock,
// its state and then the outputs).
template <class T, class MT, int FL, int DEG>
void keys_row(const AttnRowArgs& a) {
    T* y = static_cast<T*>(a.y);
    if (a.n > kBlock) {
        AttnState st{-__builtin_inff(), 0.0f};
        stats<T, MT, FL>(a, &st);
        const AttnState fin = attn_state::with_sink(st, a.sink);
        if (a.lse) *a.lse = attn_state::log_sum_exp(fin);
        if (st.m == -__builtin_inff())
            fill(y, a.n, a.log);
        else
            out<T, MT, FL>(a, fin);
        return;
    }
    alignas(64) float buf[kBlock];
    const float m =
        logits<FL>(Consts(a), static_cast<const T*>(a.x), static_cast<const MT*>(a.mask), a.n, buf);
    short_row_store<T>(a, buf, m, short_row_sum<DEG>(a, buf, m));
}

// Whether a row of n keys may be held in registers (attention_fused.hpp).
inline bool in_registers(bool log, size_t n) { return !log && n <= kFuseVecs * V::N; }

template <class T, class MT, int FL, int DEG>
void row(const AttnRowArgs& a) {
    T* y = static_cast<T*>(a.y);
    // Streamed, a row is held in registers when whole and made of whole
    // cache lines (its vectors all streamed); other streamed rows take the
    // buffer's passes, whose output pass writes the excluded keys too
    // (store_row).
    const bool fused =
        in_registers(a.log, a.n) &&
        (!a.stream || (a.before == 0 && a.after == 0 && reinterpret_cast<uintptr_t>(y) % kLineBytes == 0 &&
                       a.n * sizeof(T) % kLineBytes == 0));
    if (!a.stream || a.n > kBlock) {
        if (a.before) fill(y - a.before, a.before, a.log);
        if (a.after) fill(y + a.n, a.after, a.log);
    } else if (!fused) {
        fill_outside_lines<T>(a);
    }
    if (fused)
        fused_softmax_row<T, MT, FL, DEG>(a);
    else
        keys_row<T, MT, FL, DEG>(a);
}

// The rows of a query block without a causal window that take the
// buffer's passes (none held in registers, none streamed), in batches of
// about kBatchKeys keys, kBatchRows rows at most and two at least: each
// pass runs over every row of the batch before the next, so that one row's
// reductions (hmax, hsum, the reciprocal) overlap the other rows' passes,
// and a row costs only its pointers besides (row i sees every key: its
// ALiBi position is -(first + i)). Larger batches wait longer on the rows
// they load from memory.
constexpr size_t kBatchKeys = 1024;
constexpr size_t kBatchRows = 8;
template <class T, class MT, int FL, int DEG>
struct BatchedRows {
    static bool applies(const AttnQueries& q) {
        const size_t n = size_t(q.keys);
        return q.causal == SIMDAX_CAUSAL_NONE && n <= kBatchKeys && !in_registers(q.row.log, n) &&
               !q.row.stream;
    }
    static void run(const AttnQueries& q) {
        const size_t n = size_t(q.keys), esize = sizeof(T);
        const size_t fit = kBatchKeys / n < 2 ? 2 : kBatchKeys / n;
        const size_t batch = fit < kBatchRows ? fit : kBatchRows;
        alignas(64) float buf[2 * kBatchKeys];
        float m[kBatchRows], s[kBatchRows];
        AttnRowArgs a = q.row;
        a.n = n;
        a.before = a.after = 0;
        a.lse = q.lse;  // folds() asks whether there is one
        const Consts c0(a);
        for (size_t i0 = 0; i0 < q.count; i0 += batch) {
            const size_t b = q.count - i0 < batch ? q.count - i0 : batch;
            for (size_t r = 0; r < b; ++r) {
                const size_t i = i0 + r;
                const WholeRow<T, MT> w(q, i);
                // The next batch's rows into L1 while this one computes,
                // whatever the tensor's size (as Softmax's batched rows):
                // otherwise the logits pass waits on their loads.
                if (i + b < q.count)
                    prefetch_row(reinterpret_cast<const char*>(w.x) + ptrdiff_t(b) * q.x_step, n * esize,
                                 false);
                // Built anew for a row's ALiBi position, not copied and changed:
                // GCC copies in halves, which the loop's whole-vector loads of
                // the copy wait for (a store-forwarding stall per row).
                if constexpr ((FL & 2) != 0) {
                    a.pos = row_pos(q, i);
                    m[r] = logits<FL>(Consts(a), w.x, w.mask, n, buf + r * n);
                } else {
                    m[r] = logits<FL>(c0, w.x, w.mask, n, buf + r * n);
                }
            }
            for (size_t r = 0; r < b; ++r) s[r] = short_row_sum<DEG>(a, buf + r * n, m[r]);
            for (size_t r = 0; r < b; ++r) {
                const WholeRow<T, MT> w(q, i0 + r);
                a.y = w.y;
                a.lse = w.lse;
                short_row_store<T>(a, buf + r * n, m[r], s[r]);
            }
        }
    }
};

// The kernel F<T, MT, FL> for the row's softcap and ALiBi, and kFmaMask
// where it may (attention_logits.hpp).
template <template <class, class, int> class F, class T, class MT, class... Args>
void with_flags(const AttnRowArgs& a, Args... args) {
    const int fl = (a.softcap != 0.0f ? 1 : 0) | (a.slope != 0.0f ? 2 : 0);
    if constexpr (kFloatMask<MT>)
        if (fl != 1 && fl != 3 && std::fabs(a.scale) <= 1.0f)
            return fl == 0 ? F<T, MT, kFmaMask>::run(a, args...) : F<T, MT, kFmaMask | 2>::run(a, args...);
    switch (fl) {
        case 0: return F<T, MT, 0>::run(a, args...);
        case 1: return F<T, MT, 1>::run(a, args...);
        case 2: return F<T, MT, 2>::run(a, args...);
        default: return F<T, MT, 3>::run(a, args...);
    }
}

// ... and for the row's mask dtype.
template <template <class, class, int> class F, class T, class... Args>
void with_mask(const AttnRowArgs& a, Args... args) {
    if (!a.mask) return with_flags<F, T, NoMask>(a, args...);
    switch (a.mask_dtype) {
        case DType::f32: return with_flags<F, T, float>(a, args...);
        case DType::f16: return with_flags<F, T, F16>(a, args...);
        case DType::bf16: return with_flags<F, T, BF16>(a, args...);
        case DType::u8: return with_flags<F, T, uint8_t>(a, args...);
        case DType::f64: return;  // refused by validation
    }
}

template <class T, class MT, int FL>
struct RowsK {
    template <int DEG>
    static void with_degree(const AttnRowArgs& a, const AttnQueries* q) {
        const auto empty = [&](char* y) { fill(reinterpret_cast<T*>(y), size_t(q->keys), a.log); };
        if (BatchedRows<T, MT, FL, DEG>::applies(*q)) {
            BatchedRows<T, MT, FL, DEG>::run(*q);
        } else if (RegisterPairs<T, MT, FL, DEG>::applies(*q)) {
            RegisterPairs<T, MT, FL, DEG>::run(*q);
        } else {
            attn_state::for_each_query(
                *q, sizeof(T), [](const AttnRowArgs& r) { row<T, MT, FL, DEG>(r); }, empty);
        }
        // Once per call, not per row: a fence drains the write-combining
        // buffers (a row of 128 keys took 3x as long with one each).
        if (a.stream) stream_fence();
    }
    static void run(const AttnRowArgs& a, const AttnQueries* q) {
        // Degree 3 where its error stays below the output's rounding (as
        // Softmax's float16/bfloat16 rows); a float32 lse keeps degree 5.
        if constexpr (sizeof(T) == 2)
            if (!a.log && !q->lse) return with_degree<3>(a, q);
        with_degree<5>(a, q);
    }
};
template <class T, class MT, int FL>
struct StatsK {
    static void run(const AttnRowArgs& a, AttnState* st) { stats<T, MT, FL>(a, st); }
};
template <class T, class MT, int FL>
struct OutK {
    static void run(const AttnRowArgs& a, const AttnState* st) { out<T, MT, FL>(a, *st); }
};

}  // namespace attn

// Float64 scores are refused by validation (the kernels compute in float32).
template <class T>
void attention_rows(const AttnQueries* q) {
    if constexpr (!std::is_same_v<T, double>) attn::with_mask<attn::RowsK, T>(q->row, q);
}
template <class T>
void attention_stats(const AttnRowArgs* a, AttnState* state) {
    if constexpr (!std::is_same_v<T, double>) attn::with_mask<attn::StatsK, T>(*a, state);
}
template <class T>
void attention_out(const AttnRowArgs* a, const AttnState* state) {
    if constexpr (!std::is_same_v<T, double>) attn::with_mask<attn::OutK, T>(*a, state);
}

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
