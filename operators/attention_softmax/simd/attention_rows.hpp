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
float short_row_sum(const AttnRowArgs& a, float* buf, float m) {
    if (m == -__builtin_inff()) return 0.0f;
    if (a.log) return exp_sum<false, DEG>(buf, a.n, m);
    if (folds<DEG>(a, m)) return exp_sum<true, DEG, true>(buf, a.n, m);  // short_row_store divides by it only
    return exp_sum<true, DEG>(buf, a.n, m);
}

// ... and its outputs (and log-sum-exp) from buf, m and that sum s.
template <class T>
void short_row_store(const AttnRowArgs& a, const float* buf, float m, float s) {
    const AttnState fin = attn_state::with_sink(AttnState{m, s}, a.sink);
    if (a.lse) *a.lse = attn_state::log_sum_exp(fin);
    if (m == -__builtin_inff()) {
        const R fv = V::set1(a.log ? -__builtin_inff() : 0.0f);
        return store_row<T>(a, buf, [&](R) { return fv; });
    }
    if (a.log) {
        const R mv = V::set1(fin.m), log_s = V::set1(std::log(fin.s));
        store_row<T>(a, buf, [&](R z) { return V::sub(V::sub(z, mv), log_s); });
    } else {
        // The powers are relative to the row's max; a larger sink moved it.
        const R k = V::set1(fin.m == m ? 1.0f / fin.s : std::exp(m - fin.m) / fin.s);
        store_row<T>(a, buf, [&](R e) { return V::mul(e, k); });
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

// Two rows of at most kPairKeys keys, each pass run for both before the
// next: one row's passes overlap the other's reductions (hmax, hsum, the
// reciprocal), which a lone short row waits for.
constexpr size_t kPairKeys = 1024;
template <class T, class MT, int FL, int DEG>
void keys_row_pair(const AttnRowArgs& a, const AttnRowArgs& b) {
    alignas(64) float buf[2][kPairKeys];
    const float ma =
        logits<FL>(Consts(a), static_cast<const T*>(a.x), static_cast<const MT*>(a.mask), a.n, buf[0]);
    const float mb =
        logits<FL>(Consts(b), static_cast<const T*>(b.x), static_cast<const MT*>(b.mask), b.n, buf[1]);
    const float sa = short_row_sum<DEG>(a, buf[0], ma);
    const float sb = short_row_sum<DEG>(b, buf[1], mb);
    short_row_store<T>(a, buf[0], ma, sa);
    short_row_store<T>(b, buf[1], mb, sb);
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
    }
    if (fused)
        fused_softmax_row<T, MT, FL, DEG>(a);
    else
        keys_row<T, MT, FL, DEG>(a);
}

// Rows of a query block without a causal window, which all take the
// buffer's passes, two at a time (keys_row_pair; the rows are independent,
// so their order is free). A call returns whether it keeps a, so that
// for_each_query writes the next row's arguments elsewhere.
template <class T, class MT, int FL, int DEG>
class PairedRows {
public:
    static bool applies(const AttnQueries& q) {
        const size_t n = size_t(q.keys);
        return q.causal == SIMDAX_CAUSAL_NONE && n <= kPairKeys && !in_registers(q.row.log, n) &&
               !q.row.stream;
    }
    // Every query reaches the call (no causal window: none is empty); the
    // last one, if it finds no partner, computes alone.
    explicit PairedRows(const AttnQueries& q) : left_(q.count) {}
    bool operator()(const AttnRowArgs& a) {
        --left_;
        if (!held_) {
            if (left_ == 0) {
                keys_row<T, MT, FL, DEG>(a);
                return false;
            }
            held_ = &a;
            return true;
        }
        keys_row_pair<T, MT, FL, DEG>(*held_, a);
        held_ = nullptr;
        return false;
    }

private:
    const AttnRowArgs* held_ = nullptr;
    size_t left_;
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
        if (PairedRows<T, MT, FL, DEG>::applies(*q)) {
            // The row after next prefetched: a kept row computes with the next.
            PairedRows<T, MT, FL, DEG> rows(*q);
            attn_state::for_each_query(
                *q, sizeof(T), [&](const AttnRowArgs& r) { return rows(r); }, empty, 2);
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
