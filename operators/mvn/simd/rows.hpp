// MVN over whole contiguous rows (the mvn_rows slot): statistics per row in
// the compute type (row_moments.hpp), then y = act(scale*((x - s)*inv -
// sum(e)/n*inv) + bias), one FMA after the subtraction when scale and bias
// are constant on the row (folded into it).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "kernel_table.hpp"
#include "mvn/mvn_wide.hpp"
#include "mvn/simd/chunk_normalize.hpp"
#include "mvn/simd/row_moments.hpp"
#include "mvn/simd/row_scale_bias.hpp"
#include "mvn/simd/scale_bias_act.hpp"
#include "simd/stream_span.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

// Float16/bfloat16 rows (and their shared Scale/Bias) up to this length are
// converted once per call and then read from L1.
constexpr size_t kMvnPreconvert = 2048;
// Rows whose statistics are taken together (mvn_rows): up to 6 KiB of
// input in all (a float16/bfloat16 row's float copy stays in L1), so that
// each row's chain from its sums to 1/divisor overlaps the others'.
constexpr size_t kMvnBatch = 4;
// Streamed rows without a float copy from this size on carry the next row's
// pass A in their output (shorter ones measured no faster).
constexpr size_t kCarryRowBytes = 8192;
// A call's output beyond this size is prefetched for writing, row by row.
constexpr size_t kPrefetchOutBytes = size_t(1) << 20;
// The float copies of one batch (mvn_batch: at most 6 KiB of input).
constexpr size_t kMvnCopySet = 3072;
// mvn_rows' work array (float16/bfloat16; the streamed float32 rows' Scale/
// Bias copies too): the converted Scale/Bias and two sets of float16/
// bfloat16 copies, each region with a line (kMvnLineLanes) to spare, by which
// its start moves to the output rows' place in their lines. Longer rows have
// no copies: their shared Scale/Bias are converted into its two halves, up
// to kMvnPreconvertLong.
constexpr size_t kMvnLineLanes = 16;
constexpr size_t kMvnPreRegion = kMvnPreconvert + kMvnLineLanes;
constexpr size_t kMvnWork = 2 * kMvnPreRegion + kMvnCopySet + 512 + kMvnCopySet + kMvnLineLanes;
constexpr size_t kMvnLongHalf = kMvnWork / 2 / kMvnLineLanes * kMvnLineLanes;
constexpr size_t kMvnPreconvertLong = kMvnLongHalf - kMvnLineLanes;
template <class T>
inline size_t mvn_batch(size_t n) {
    if (n > kMvnPreconvert) return 1;
    const size_t b = 6144 / (n * sizeof(T));
    return b < 1 ? 1 : b > kMvnBatch ? kMvnBatch : b;
}

// One row's normalisation: t = fma(x - mh, va, vb), constant scale and bias
// already folded into va, vb. mean and inv in double: for values the affine
// map pushes beyond E (act_map_in_range).
template <class T>
struct RowNorm {
    typename Vec<T>::R vmh, va, vb;
    double mean, inv;
};

// What every row of one call shares.
template <class T>
struct RowsOutput {
    const ActParams& act;
    bool stream;              // streaming stores (a large output)
    typename Vec<T>::E* buf;  // kNormBlock values, for the activation
};

// One row's output; xr (T, or with DEV the row's float copy of deviations
// from mh, row_moments.hpp) to yr. nx: the next rows' input, prefetched as
// this row is written (the hardware prefetchers stop at each 4 KiB page).
// pa: another row's pass A (PassASteps, or rms_rows' sum of squares),
// carried by the output loop as far as it goes (the caller finishes it).
// SA, BA: row_scale_bias.hpp.
template <class T, bool DEV, class S, class SA, class BA, class PA>
void write_row(const S* const xr, T* const yr, const size_t n, const T* const nx, const RowNorm<T>& norm,
               const SA sc, const BA bi, const RowsOutput<T>& out, PA* const pa) {
    using V = Vec<T>;
    using E = typename V::E;
    using R = typename V::R;
    constexpr bool kFolded = SA::kConstant && BA::kConstant;
    const R vmh = norm.vmh, va = norm.va, vb = norm.vb;
    const auto dev = [vmh](R v) { return DEV ? v : V::sub(v, vmh); };
    auto val = [=](size_t i, size_t cnt) {
        const R v = cnt == V::N ? V::load(xr + i) : V::loadn(xr + i, cnt, vmh);
        R t = V::fma(dev(v), va, vb);
        if constexpr (!kFolded) t = V::fma(t, sc.at(i, cnt), bi.at(i, cnt));
        return t;
    };
    if (out.act.type == SIMDAX_ACTIVATION_IDENTITY) {
        // store_run spelled out: the main loop keeps everything in registers.
        // Streamed: only the row's whole cache lines [head, se), the partial
        // ones at its ends with ordinary stores (stream_span.hpp). Else the
        // stores aligned to the vector after a head, unless both Scale and
        // Bias are read per element: the head would misalign their loads
        // too, three loads across lines to spare one store (LayerNorm rows
        // of 384 off the line: up to 1.2x slower with it on AVX-512).
        constexpr bool kAlignStores = SA::kConstant || BA::kConstant;
        constexpr size_t W = V::N * sizeof(T);
        const uintptr_t ya = reinterpret_cast<uintptr_t>(yr);
        const StreamSpan span = out.stream ? stream_span(yr, n) : StreamSpan{};
        const bool stream = span.end > span.begin;
        const auto yo = result_ptr(yr);
        size_t head = stream ? span.begin : 0, se = stream ? span.end : n;
        if (kAlignStores && !stream && ya % W != 0 && n >= 4 * V::N && ya % sizeof(T) == 0)
            head = std::min(n, (W - ya % W) / sizeof(T));
        const auto full = [&](size_t j) __attribute__((always_inline)) {
            if (nx) __builtin_prefetch(nx + j, 0, 3);
            R t = V::fma(dev(V::load(xr + j)), va, vb);
            if constexpr (!kFolded) t = V::fma(t, sc.at(j, V::N), bi.at(j, V::N));
            return t;
        };
        // A partial vector of an unstreamed row: one whole vector over it,
        // inside the row (the elements stored twice get the same value
        // twice). AVX2 would move a partial one through general registers
        // (tail_load), twice per row at +16. Not in place (rms_rows writes
        // its rows over their input): the second store would read what the
        // first wrote.
        const bool overlap =
            !stream && n >= V::N && static_cast<const void*>(xr) != static_cast<const void*>(yr);
        // [i, end) with ordinary stores.
        const auto plain = [&](size_t i, size_t end) __attribute__((always_inline)) {
            for (; i + V::N <= end; i += V::N) V::store(yo + i, full(i));
            if (i < end && overlap) {
                const size_t s = std::min(i, n - V::N);
                V::store(yo + s, full(s));
            } else if (i < end) {
                V::storen(yo + i, val(i, end - i), end - i);
            }
        };
        // With another row's pass A carried (float16/bfloat16 rows), no pass
        // without stores follows this row's to hide the fetch of its last,
        // partial line: it is fetched first, as store_run does (map.hpp).
        // (Without a carried pass A, measured no better.)
        if (!std::is_same_v<T, E> && stream && pa && se < n) __builtin_prefetch(yr + se, 1, 3);
        plain(0, head);
        size_t i = head;
        // Two vectors per store: one narrowing for both (store_pair). A
        // carried pass A steps once per four vectors written.
        if (pa) {
            PA p = pa->copied();
            for (; i + 4 * V::N <= se; i += 4 * V::N) {
                p.step();
                store_pair<V>(yo + i, full(i), full(i + V::N), stream);
                store_pair<V>(yo + i + 2 * V::N, full(i + 2 * V::N), full(i + 3 * V::N), stream);
            }
            pa->put_back(p);
        }
        for (; i + 2 * V::N <= se; i += 2 * V::N) {
            const R t0 = full(i), t1 = full(i + V::N);
            store_pair<V>(yo + i, t0, t1, stream);
        }
        for (; i + V::N <= se; i += V::N) {
            if (stream)
                V::stream(yo + i, full(i));
            else
                V::store(yo + i, full(i));
        }
        plain(i, n);
        return;
    }
    E* const buf = out.buf;
    for (size_t b0 = 0; b0 < n; b0 += kNormBlock) {
        const size_t nb = n - b0 < kNormBlock ? n - b0 : kNormBlock;
        size_t i = 0;
        for (; i + V::N <= nb; i += V::N) V::store(buf + i, val(b0 + i, V::N));
        if (i < nb) V::storen(buf + i, val(b0 + i, nb - i), nb - i);
        // By value: a reference to sc or bi that escapes into the
        // out-of-line activation would keep them in memory, where every
        // (may-alias) vector store of the loops above forces a reload.
        const auto pre = [sc, bi, xr, b0, mean = norm.mean, inv = norm.inv](size_t q) {
            const size_t e = b0 + q;
            return sc.value(e) * ((double(to_e(xr[e])) - mean) * inv) + bi.value(e);
        };
        if constexpr (std::is_same_v<T, E>) {
            act_map_in_range<E>(out.act, buf, yr + b0, nb, pre);
        } else {
            act_map_in_range<E>(out.act, buf, buf, nb, pre);
            convert(buf, yr + b0, nb);
        }
    }
}

// Row g's chunk arguments, for the rows the fast row output does not suit.
template <class T>
inline NormArgs row_norm_args(const MvnArgs& a, size_t g, double mean, double inv) {
    const T* sc = static_cast<const T*>(a.scale);
    const T* bi = static_cast<const T*>(a.bias);
    return NormArgs{mean,
                    inv,
                    sc ? sc + ptrdiff_t(g) * a.scale_rs : nullptr,
                    a.scale_ks,
                    bi ? bi + ptrdiff_t(g) * a.bias_rs : nullptr,
                    a.bias_ks,
                    a.act,
                    false,
                    0,
                    0};
}

// LONG: streamed rows of kCarryRowBytes and more without a float copy, whose
// pass A is carried too. Its own instance: in code that may carry, short float
// rows ran slower. MAX_BATCH 1: rows one at a time, in an instance of their
// own too (streamed float rows ran slower in the batching one).
template <class T, bool LONG, size_t MAX_BATCH>
void mvn_rows_of(const void* xv, void* yv, size_t rows, size_t n, ptrdiff_t xrs, ptrdiff_t yrs,
                 const MvnArgs* args, bool stream) {
    using V = Vec<T>;
    using E = typename V::E;
    const MvnArgs& a = *args;
    const T* x = static_cast<const T*>(xv);
    T* y = static_cast<T*>(yv);
    constexpr bool kHalf = !std::is_same_v<T, E>;
    // float16/bfloat16, rows of up to kMvnPreconvert: each row converted
    // once, by pass A; pass B and the output read the float copy from L1.
    // Two sets of a batch's copies: the next batch's pass A fills one while
    // this batch's output reads the other. The second starts 2 KiB (mod
    // 4 KiB) past the first, so that stores to one set never share their
    // low 12 address bits with loads of the other a few steps on (4K
    // aliasing).
    // Streamed float32 rows (MAX_BATCH 1) of 64-byte vectors use it for
    // Scale/Bias copies (below).
    constexpr bool kWork = kHalf || (std::is_same_v<T, float> && MAX_BATCH == 1 && V::N * sizeof(E) == 64);
    alignas(64) E work[kWork ? kMvnWork : 1];
    const bool conv = kHalf && n <= kMvnPreconvert;
    // The float arrays start where their element i is on a line exactly
    // when y's row element i is: a streamed output then loads them whole
    // from its first streamed line on (off the line, element 0 was, and
    // every load of all three straddled two lines).
    const size_t lead = kWork && stream && rows_share_phase<T>(rows, yrs) ? before_boundary<64>(y) : 0;
    const size_t shift = (kMvnLineLanes - lead % kMvnLineLanes) % kMvnLineLanes;
    E* const pre_s = work + shift;
    E* const pre_b = !kWork ? work : work + shift + (conv ? kMvnPreRegion : kMvnLongHalf);
    E* const xf = kHalf ? work + 2 * kMvnPreRegion + shift : work;
    const E* ps = nullptr;
    const E* pb = nullptr;
    // Shared contiguous Scale/Bias: float16/bfloat16 converted; float32
    // copied where a streamed row would load it across lines (with 64-byte
    // vectors every load straddles then; with AVX2's 32-byte vectors half
    // of them do, and the copy did not pay).
    const auto shared = [&](const void* p, ptrdiff_t rs, ptrdiff_t ks) {
        if (!p || rs != 0 || ks != 1 || n > kMvnPreconvertLong) return false;
        return kHalf || (lead != 0 && before_boundary<64>(static_cast<const T*>(p)) != lead);
    };
    if constexpr (kWork) {
        if (shared(a.scale, a.scale_rs, a.scale_ks)) {
            convert(static_cast<const T*>(a.scale), pre_s, n);
            ps = pre_s;
        }
        if (shared(a.bias, a.bias_rs, a.bias_ks)) {
            convert(static_cast<const T*>(a.bias), pre_b, n);
            pb = pre_b;
        }
    }
    alignas(64) E buf[kNormBlock];
    const auto copy_of = [&](size_t set, size_t r) {
        return conv ? xf + set * (kMvnCopySet + 512) + r * n : nullptr;
    };
    const RowsOutput<T> out{a.act, stream, buf};
    // Rows ahead whose input the output loop prefetches: about 6 KiB ahead.
    const size_t pf_rows = 1 + 6144 / (n * sizeof(T) + 1);
    const size_t batch = std::min(mvn_batch<T>(n), MAX_BATCH);
    // Row g's output, from its moments (copy: its float copy, or null).
    // pa: another row's pass A for the output loop to carry (or null).
    const auto write = [&](size_t g, const RowMoments<E>& mo, const E* copy, PassASteps<T>* pa) {
        const T* xr = x + ptrdiff_t(g) * xrs;
        T* yr = y + ptrdiff_t(g) * yrs;
        if (mo.wide) {
            NormArgs na = row_norm_args<T>(a, g, 0, 1);
            na.wide = true;
            na.wide_mean = mo.norm.mean;
            na.wide_inv = mo.norm.inv;
            normalize_wide(xr, yr, n, &na);
            return;
        }
        const RowScaleBias<T> sc = row_scale_bias<T>(a.scale, a.scale_rs, a.scale_ks, g, E(1), ps);
        const RowScaleBias<T> bi = row_scale_bias<T>(a.bias, a.bias_rs, a.bias_ks, g, E(0), pb);
        const bool folded = sc.access == RowAccess::constant && bi.access == RowAccess::constant;
        // Folded, y = (x - mh)*A + (bias - ml*A) with A = inv*scale.
        const E A = mo.inv * sc.c, B = bi.c - mo.ml * A;
        if (folded && (!std::isfinite(A) || !std::isfinite(B))) {
            // Folding would go beyond E where scale*z + bias need not: an
            // infinite Scale (inf * 0 = NaN for the whole row), one near
            // the top, or a Bias near the top that ml*A pushes over (+inf
            // where y is finite). Normalise first, then scale (per row,
            // rare).
            NormArgs na = row_norm_args<T>(a, g, double(mo.mh) + double(mo.ml), double(mo.inv));
            na.scale_stride = 0;
            na.bias_stride = 0;
            normalize_run(xr, yr, n, &na);
            return;
        }
        // The mean in double, relative to what the output reads.
        const double mean = copy ? double(mo.ml) : double(mo.mh) + double(mo.ml);
        RowNorm<T> norm{V::set1(mo.mh), {}, {}, mean, double(mo.inv)};
        if (folded) {
            norm.va = V::set1(A);
            norm.vb = V::set1(B);
        } else {
            norm.va = V::set1(mo.inv);
            norm.vb = V::set1(-mo.ml * mo.inv);
        }
        // A carried pass A reads the rows ahead itself.
        const T* nx = !pa && g + pf_rows < rows ? x + ptrdiff_t(g + pf_rows) * xrs : nullptr;
        // Inlined, as a switch in place would be: no extra calls per row.
        with_access(
            sc, [&](auto sa) __attribute__((always_inline)) {
                with_access(
                    bi, [&](auto ba) __attribute__((always_inline)) {
                        if (copy)
                            write_row<T, true>(copy, yr, n, nx, norm, sa, ba, out, pa);
                        else
                            write_row<T, false>(xr, yr, n, nx, norm, sa, ba, out, pa);
                    });
            });
    };
    // Rows in batches: every row's pass A, then every row's moments, then
    // every row's output. The scalar chain from a row's sums to 1/divisor
    // (divisions, a square root: about a hundred cycles) then overlaps
    // the other rows' chains instead of stalling each row's output. A
    // streamed output of rows with float copies, or of LONG rows, runs the
    // next batch's pass A inside this batch's output loops (PassASteps).
    const double inv_n = 1.0 / double(n);
    // Each row's output prefetched for writing by its pass A: not when
    // streamed (no read for ownership), nor when the call's output is small
    // enough to stay in L2 from the last call.
    const bool prefetch_out = !stream && rows * n * sizeof(T) > kPrefetchOutBytes;
    const auto out_row = [&](size_t g) -> const char* {
        return prefetch_out ? reinterpret_cast<const char*>(y + ptrdiff_t(g) * yrs) : nullptr;
    };
    const auto steps = [&](size_t g, size_t set, size_t r) {
        return PassASteps<T>{x + ptrdiff_t(g) * xrs, copy_of(set, r), out_row(g), n};
    };
    // Carried only into streamed output (in cache, with ordinary stores,
    // the mixed loop is slower than the two apart) and rows of at least
    // four steps. A row without a float copy sums x unshifted there (x0 =
    // 0): one_pass_m2 sends a row far from 0 to pass B, which reads it again.
    const bool carry = (conv || LONG) && stream && n >= 4 * PassASteps<T>::kStep;
    RowSums<E> sums[MAX_BATCH]{};
    RowMoments<E> mos[MAX_BATCH];
    if (carry)
        for (size_t r = 0; r < batch && r < rows; ++r) sums[r] = steps(r, 0, r).finish();
    size_t set = 0;
    for (size_t g0 = 0; g0 < rows; g0 += batch, set ^= size_t(carry)) {
        const size_t nb = rows - g0 < batch ? rows - g0 : batch;
        const size_t g1 = g0 + nb, nb1 = rows - g1 < batch ? rows - g1 : batch;
        if (!carry)
            for (size_t r = 0; r < nb; ++r)
                sums[r] = conv ? steps(g0 + r, set, r).finish()
                               : row_pass_a(x + ptrdiff_t(g0 + r) * xrs, n, out_row(g0 + r), sizeof(T));
        for (size_t r = 0; r < nb; ++r)
            mos[r] = row_moments<T>(x + ptrdiff_t(g0 + r) * xrs, n, inv_n, a, sums[r], copy_of(set, r));
        for (size_t r = 0; r < nb; ++r) {
            if (carry && r < nb1) {
                PassASteps<T> pa = steps(g1 + r, set ^ 1, r);
                write(g0 + r, mos[r], copy_of(set, r), &pa);
                sums[r] = pa.finish();
            } else {
                write(g0 + r, mos[r], copy_of(set, r), nullptr);
            }
        }
    }
    if (stream) stream_fence();
}

template <class T>
void mvn_rows(const void* x, void* y, size_t rows, size_t n, ptrdiff_t xrs, ptrdiff_t yrs,
              const MvnArgs* args) {
    const VecScope scope;
    // A large output (the executor passes many rows per call) is streamed;
    // float16/bfloat16 rows only where each starts on a cache line, or
    // (rows without float copies) where all start at one place in a line,
    // which their converted Scale/Bias then share (mvn_rows_of). Rows with
    // copies, streamed off the line, took up to twice the time of ordinary
    // stores on AVX-512 (copies and Scale/Bias moved to the rows' place in
    // the line, too; why is open).
    const bool stream =
        x != static_cast<const void*>(y) && rows * n * sizeof(T) >= kStreamBytes &&
        (std::is_same_v<T, typename Vec<T>::E> || rows_on_lines(static_cast<const T*>(y), rows, yrs) ||
         (n > kMvnPreconvert && rows_share_phase<T>(rows, yrs)));
    if (stream && carry_row_passes() && (std::is_same_v<T, typename Vec<T>::E> || n > kMvnPreconvert) &&
        n * sizeof(T) >= kCarryRowBytes)
        mvn_rows_of<T, true, 1>(x, y, rows, n, xrs, yrs, args, true);
    else if (stream && std::is_same_v<T, typename Vec<T>::E>)
        mvn_rows_of<T, false, 1>(x, y, rows, n, xrs, yrs, args, true);  // the output waits on memory
    else
        mvn_rows_of<T, false, kMvnBatch>(x, y, rows, n, xrs, yrs, args, stream);
}

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
