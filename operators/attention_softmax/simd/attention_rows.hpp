// AttentionSoftmax's row kernels over the vector layer, in float32 whatever
// the storage types of scores and mask. The logits stay in natural units and
// each exponential is 2^((z - max) * log2(e)) (exp2_f32.hpp): a difference
// taken before the scaling is exact for nearby logits, where logits folded
// into base 2 lose |z| * 2^-24 each (1e-4 relative error at |z| ~ 1e4, and a
// LogSoftmax of z*ln2 - lse cancels).
//
// A Softmax row of at most kFuseVecs vectors stays in registers
// (attention_fused.hpp). A row of at most kBlock keys: the logits go once into a
// float buffer on the stack with their max, then exp(z - max) replaces them
// with the sum taken alongside, then the output is one multiply (LogSoftmax:
// one subtract): one exp per key. Longer rows and the executor's gathered
// parts: the state block by block (attention_stats), then the output with a
// second exp (attention_out).
#pragma once

#include <cstdint>
#include <type_traits>

#include "attention_softmax/attention_state.hpp"
#include "simd/activation.hpp"
#include "simd/exp2_f32.hpp"
#include "simd/vec.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {
namespace attn {

constexpr size_t kBlock = 4096;  // keys per stack buffer (16 KB)
// Softmax rows up to kFuseVecs vectors stay in registers (attention_fused.hpp).
constexpr size_t kFuseVecs = 8;
struct NoMask {};

using V = VF;
using R = VF::R;

inline R iota() {
    alignas(64) static constexpr float kIota[32] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,
                                                    11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
                                                    22, 23, 24, 25, 26, 27, 28, 29, 30, 31};
    static_assert(V::N <= 32);
    return V::load(kIota);
}

using attn_state::kLog2e;

// The loop-invariant vectors of a row's logits.
struct Consts {
    R scale, cap, linear, log2e, slope, pos, idx;
    explicit Consts(const AttnRowArgs& a)
        : scale(V::set1(a.scale)),
          cap(V::set1(a.softcap)),
          linear(V::set1(a.softcap * attn_state::kSoftcapLinear)),
          log2e(V::set1(kLog2e)),
          slope(V::set1(a.slope)),
          pos(V::set1(a.pos)),
          idx(iota()) {}
};

// 2^t for t <= 0 (NaN stays NaN; -inf gives 0), by a polynomial of degree
// DEG (exp2_f32.hpp: 3 is for float16/bfloat16 Softmax outputs only).
template <int DEG = 5>
SIMDAX_INLINE R pow2(R t) {
    return exp2_nonpos_f32<true, DEG>(t);
}
// exp(z - m) for z <= m.
template <int DEG = 5>
SIMDAX_INLINE R exp_below(R z, R m, R log2e) {
    return pow2<DEG>(V::mul(V::sub(z, m), log2e));
}

// The logits of keys j..j+cnt (cnt < N only when Tail; the lanes past cnt
// are -inf). FL: bit 0 softcap, bit 1 ALiBi (compile-time: no test per
// vector; folding the four variants into two cost softcap rows 21%).
template <bool Tail, int FL, class T, class MT>
SIMDAX_INLINE R logit(const Consts& c, const T* x, const MT* mk, size_t j, size_t cnt) {
    R z = Tail ? V::loadn(x + j, cnt, V::zero()) : V::load(x + j);
    z = V::mul(z, c.scale);
    // Divided, not folded into scale: scale / softcap may underflow to 0
    // (an infinite score then gives NaN instead of +-softcap).
    if constexpr ((FL & 1) != 0)
        z = V::blend(V::lt(V::abs(z), c.linear), V::mul(c.cap, tanh_v<V>(V::div(z, c.cap))), z);
    if constexpr (!std::is_same_v<MT, NoMask> && !std::is_same_v<MT, uint8_t>)
        z = V::add(Tail ? V::loadn(mk + j, cnt, V::zero()) : V::load(mk + j), z);
    if constexpr ((FL & 2) != 0) z = V::fma(c.slope, V::add(c.idx, V::add(c.pos, V::set1(float(j)))), z);
    if constexpr (std::is_same_v<MT, uint8_t>) {
        // Last: masked keys become -inf whatever their score or slope (NaN
        // included). A tail's bytes are copied: N bytes would read past it.
        if (Tail) {
            uint8_t tail[V::N] = {};
            for (size_t l = 0; l < cnt; ++l) tail[l] = mk[j + l];
            z = V::blend(V::zero_bytes(tail), z, V::set1(-__builtin_inff()));
        } else {
            z = V::blend(V::zero_bytes(mk + j), z, V::set1(-__builtin_inff()));
        }
    }
    if (Tail) z = V::blend(V::lanes(cnt), V::set1(-__builtin_inff()), z);
    return z;
}

// Logits of keys [0, n) into buf (n <= kBlock); returns their max, NaN when
// one is NaN and the others -inf (hmax may miss a NaN; the sum will not).
template <int FL, class T, class MT>
float logits(const Consts& c, const T* x, const MT* mk, size_t n, float* buf) {
    R m0 = V::set1(-__builtin_inff()), m1 = m0;
    size_t j = 0;
    for (; j + 2 * V::N <= n; j += 2 * V::N) {
        const R z0 = logit<false, FL>(c, x, mk, j, V::N), z1 = logit<false, FL>(c, x, mk, j + V::N, V::N);
        V::store(buf + j, z0);
        V::store(buf + j + V::N, z1);
        m0 = V::max(m0, z0);
        m1 = V::max(m1, z1);
    }
    for (; j + V::N <= n; j += V::N) {
        const R z = logit<false, FL>(c, x, mk, j, V::N);
        V::store(buf + j, z);
        m0 = V::max(m0, z);
    }
    if (j < n) {
        const R z = logit<true, FL>(c, x, mk, j, n - j);
        V::storen(buf + j, z, n - j);
        m1 = V::max(m1, z);
    }
    float m = V::hmax(V::max(m0, m1));
    if (!(m > -__builtin_inff()))
        for (size_t i = 0; i < n; ++i)
            if (buf[i] != buf[i]) m = buf[i];
    return m;
}

// Sum of exp(buf[j] - m) over [0, n); Store: buf[j] becomes the power.
// One accumulator: a second one spilled on AVX2 (16 registers, the
// polynomial's constants held), a dependency through memory per pair.
template <bool Store, int DEG = 5>
float exp_sum(float* buf, size_t n, float m) {
    const R mv = V::set1(m), log2e = V::set1(kLog2e);
    R s = V::zero();
    size_t j = 0;
    for (; j + 2 * V::N <= n; j += 2 * V::N) {
        const R e0 = exp_below<DEG>(V::load(buf + j), mv, log2e);
        const R e1 = exp_below<DEG>(V::load(buf + j + V::N), mv, log2e);
        if (Store) {
            V::store(buf + j, e0);
            V::store(buf + j + V::N, e1);
        }
        s = V::add(s, V::add(e0, e1));
    }
    for (; j < n; j += V::N) {
        const size_t r = n - j < V::N ? n - j : V::N;
        const R e = exp_below<DEG>(V::loadn(buf + j, r, V::set1(-__builtin_inff())), mv, log2e);
        if (Store) V::storen(buf + j, e, r);
        s = V::add(s, e);
    }
    return V::hsum(s);
}

// y[j..j+c) = g(j, c) for the vectors of [0, n), stored as T; stream: those
// at y's vector alignment with non-temporal stores (the caller fences), the
// edges partial.
template <class T, class G>
SIMDAX_INLINE void store_each(T* y, size_t n, G g, bool stream) {
    size_t j = 0;
    if (stream) {
        constexpr size_t kVecBytes = V::N * sizeof(T);
        const size_t head = (kVecBytes - reinterpret_cast<uintptr_t>(y) % kVecBytes) % kVecBytes / sizeof(T);
        j = head < n ? head : n;
        if (j) V::storen(y, g(size_t(0), j), j);
        for (; j + V::N <= n; j += V::N) V::stream(y + j, g(j, V::N));
    }
    for (; j + V::N <= n; j += V::N) V::store(y + j, g(j, V::N));
    if (j < n) V::storen(y + j, g(j, n - j), n - j);
}

// y[j] = f(buf[j]) over [0, n).
template <class T, class F>
SIMDAX_INLINE void store_map(const float* buf, T* y, size_t n, F f) {
    store_each(
        y, n,
        [&](size_t j, size_t c) { return f(c == V::N ? V::load(buf + j) : V::loadn(buf + j, c, V::zero())); },
        false);
}

// Softmax: 0 everywhere; LogSoftmax: -inf (a row with no finite logit, the
// keys the causal window excludes).
template <class T>
void fill(T* y, size_t n, bool log) {
    const R v = V::set1(log ? -__builtin_inff() : 0.0f);
    store_each(
        y, n, [&](size_t, size_t) { return v; }, false);
}

// A row's output from buf (its n visible keys; f maps a vector of buf to
// outputs). Streamed: the excluded keys around them in the same pass, so
// that no partial (masked) store falls between streamed lines.
template <class T, class F>
void store_row(const AttnRowArgs& a, const float* buf, F f) {
    auto* y = result_ptr(static_cast<T*>(a.y));
    if (!a.stream) return store_map(buf, y, a.n, f);
    const float fill_value = a.log ? -__builtin_inff() : 0.0f;
    const R fv = V::set1(fill_value);
    const size_t lo = a.before, hi = a.before + a.n;
    const auto g = [&](size_t j, size_t c) {
        if (j >= lo && j + c <= hi)
            return f(c == V::N ? V::load(buf + (j - lo)) : V::loadn(buf + (j - lo), c, V::zero()));
        if (j + c <= lo || j >= hi) return fv;
        alignas(64) float t[V::N];  // a vector across an edge of the window
        for (size_t l = 0; l < V::N; ++l) t[l] = j + l >= lo && j + l < hi ? buf[j + l - lo] : 0.0f;
        V::store(t, f(V::load(t)));
        for (size_t l = 0; l < V::N; ++l)
            if (j + l < lo || j + l >= hi) t[l] = fill_value;
        return V::load(t);
    };
    store_each(y - lo, hi + a.after, g, true);
}

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
    const Consts c(a);
    alignas(64) float buf[kBlock];
    const float m = logits<FL>(c, static_cast<const T*>(a.x), static_cast<const MT*>(a.mask), a.n, buf);
    AttnState st{m, 0.0f};
    if (m == -__builtin_inff()) {
        const AttnState fin = attn_state::with_sink(st, a.sink);
        if (a.lse) *a.lse = attn_state::log_sum_exp(fin);
        const R fv = V::set1(a.log ? -__builtin_inff() : 0.0f);
        return store_row<T>(a, buf, [&](R) { return fv; });
    }
    st.s = a.log ? exp_sum<false, DEG>(buf, a.n, m) : exp_sum<true, DEG>(buf, a.n, m);
    const AttnState fin = attn_state::with_sink(st, a.sink);
    if (a.lse) *a.lse = attn_state::log_sum_exp(fin);
    if (a.log) {
        const R mv = V::set1(fin.m), log_s = V::set1(std::log(fin.s));
        store_row<T>(a, buf, [&](R z) { return V::sub(V::sub(z, mv), log_s); });
    } else {
        // The powers are relative to the row's max; a larger sink moved it.
        const R k = V::set1(fin.m == m ? 1.0f / fin.s : std::exp(m - fin.m) / fin.s);
        store_row<T>(a, buf, [&](R e) { return V::mul(e, k); });
    }
}

template <class T, class MT, int FL, int DEG>
void row(const AttnRowArgs& a) {
    T* y = static_cast<T*>(a.y);
    // Streamed, a row is held in registers when whole and at y's vector
    // alignment; other streamed rows take the buffer's passes, whose output
    // pass writes the excluded keys too (store_row).
    const bool fused = !a.log && a.n <= kFuseVecs * V::N &&
                       (!a.stream || (a.before == 0 && a.after == 0 &&
                                      reinterpret_cast<uintptr_t>(y) % (V::N * sizeof(T)) == 0));
    if (!a.stream || a.n > kBlock) {
        if (a.before) fill(y - a.before, a.before, a.log);
        if (a.after) fill(y + a.n, a.after, a.log);
    }
    if (fused)
        fused_softmax_row<T, MT, FL, DEG>(a);
    else
        keys_row<T, MT, FL, DEG>(a);
}

// The kernel F<T, MT, FL> for the row's softcap and ALiBi.
template <template <class, class, int> class F, class T, class MT, class... Args>
void with_flags(const AttnRowArgs& a, Args... args) {
    const int fl = (a.softcap != 0.0f ? 1 : 0) | (a.slope != 0.0f ? 2 : 0);
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
        attn_state::for_each_query(
            *q, sizeof(T), [](const AttnRowArgs& r) { row<T, MT, FL, DEG>(r); },
            [&](char* y) { fill(reinterpret_cast<T*>(y), size_t(q->keys), a.log); });
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
