// AttentionSoftmax against the float64 reference (support/attention_reference):
// random shapes and ranks, every mask dtype and broadcast, each causal mode
// and window, ALiBi, sinks, softcap, LogSoftmax, log-sum-exp, fully masked
// rows, NaN/inf, in place, negative/zero/padded strides, odd key lengths,
// 2-thread determinism. ctest runs this at every ISA (SIMDAX_MAX_ISA).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "support/attention_case.hpp"

namespace sxt {
namespace {

constexpr simdax_dtype kDtypes[] = {SIMDAX_DTYPE_FLOAT32, SIMDAX_DTYPE_FLOAT16, SIMDAX_DTYPE_BFLOAT16};
constexpr simdax_dtype kMaskDtypes[] = {SIMDAX_DTYPE_FLOAT32, SIMDAX_DTYPE_FLOAT16, SIMDAX_DTYPE_BFLOAT16,
                                        SIMDAX_DTYPE_UINT8};
constexpr int64_t kLengths[] = {1, 7, 8, 9, 15, 16, 17, 127, 128, 129, 1000};

TEST(AttentionSoftmax, OddLengthsEveryDtypeAndMaskDtype) {
    uint32_t seed = 1;
    for (simdax_dtype dt : kDtypes)
        for (int64_t n : kLengths)
            for (int m = -1; m < 4; ++m) {
                Case c;
                c.dt = dt;
                c.shape = {2, 3, n < 100 ? 5 : 2, n};
                c.mask = m >= 0;
                if (c.mask) c.mask_dt = kMaskDtypes[m];
                c.mask_bcast = {false, true, m == 1, false};
                c.scale = 0.125f;
                c.seed = seed++;
                run_attention_case(c);
            }
}

// The fast forms of rows without lse or sink: pairs held in registers (8
// vectors: 64 keys with AVX2, 128 with AVX-512), batches through the stack
// buffer (longer rows), with ALiBi, softcap, each mask dtype, a scale that
// lets x * scale + mask be one FMA and one that does not, and an odd count
// of queries per head (a row left over).
TEST(AttentionSoftmax, RowFormsWithoutLseOrSink) {
    uint32_t seed = 900;
    for (simdax_dtype dt : kDtypes)
        for (int64_t n : {64, 128, 256})
            for (int opt = 0; opt < 6; ++opt) {
                Case c;
                c.dt = dt;
                c.shape = {2, 3, 5, n};
                c.mask = true;
                c.mask_dt = kMaskDtypes[opt % 4];
                c.mask_bcast = {false, true, true, false};
                c.slopes = opt & 1;
                c.softcap = opt == 2 ? 5.0f : 0.0f;
                c.scale = opt >= 4 ? 1.5f : 0.125f;
                c.seed = seed++;
                run_attention_case(c);
            }
}

TEST(AttentionSoftmax, CausalModesWindowsAlibiSinksSoftcapLogLse) {
    uint32_t seed = 100;
    const int64_t shapes[][2] = {{1, 1}, {5, 5}, {3, 17}, {17, 3}, {9, 129}, {1, 1000}, {64, 64}};
    for (const auto& sh : shapes)
        for (int causal = 0; causal < 3; ++causal)
            for (uint32_t window : {0u, 1u, 4u, 100u})
                for (int opt = 0; opt < 4; ++opt) {
                    if (causal == 0 && window) continue;
                    Case c;
                    c.dt = kDtypes[opt % 3];
                    c.shape = {2, sh[0], sh[1]};
                    c.causal = simdax_causal(causal);
                    c.window = window;
                    c.slopes = opt & 1;
                    c.sinks = opt >= 2;
                    c.softcap = opt == 3 ? 5.0f : 0.0f;
                    c.log = opt & 2 ? opt == 2 : false;
                    c.lse = true;
                    c.mask = opt == 1;
                    c.mask_dt = SIMDAX_DTYPE_UINT8;
                    c.mask_bcast = {true, false, false};
                    c.seed = seed++;
                    run_attention_case(c);
                    c.log = !c.log;
                    c.seed = seed++;
                    run_attention_case(c);
                }
}

TEST(AttentionSoftmax, StridesInPlaceAndBroadcasts) {
    uint32_t seed = 500;
    for (Layout l : {Layout::packed, Layout::padded, Layout::negative, Layout::key_strided})
        for (int64_t n : {1, 9, 17, 129, 600})
            for (simdax_dtype dt : kDtypes)
                for (int variant = 0; variant < 3; ++variant) {
                    Case c;
                    c.dt = dt;
                    c.shape = {2, 2, 3, n};
                    c.layout = l;
                    c.mask = true;
                    c.mask_dt = kMaskDtypes[(seed + variant) % 4];
                    c.mask_bcast = variant == 0   ? std::vector<bool>{false, true, true, false}
                                   : variant == 1 ? std::vector<bool>{true, true, false, false}
                                                  : std::vector<bool>{false, false, false, true};
                    c.mask_zero_strides = variant == 2;
                    c.in_place = variant == 1;
                    c.causal = SIMDAX_CAUSAL_BOTTOM_RIGHT;
                    c.window = variant == 0 ? 5 : 0;
                    c.slopes = c.sinks = c.lse = true;
                    c.per_query = variant == 1;
                    c.log = variant == 2;
                    c.seed = seed++;
                    run_attention_case(c);
                }
}

TEST(AttentionSoftmax, RanksAndLongRows) {
    uint32_t seed = 900;
    const std::vector<std::vector<int64_t>> shapes = {
        {3, 5}, {2, 1, 4, 7}, {1, 2, 1, 2, 3, 9}, {2, 5000}, {1, 2, 3, 4100}};
    for (const auto& sh : shapes)
        for (simdax_dtype dt : kDtypes)
            for (int causal = 0; causal < 3; ++causal) {
                Case c;
                c.dt = dt;
                c.shape = sh;
                c.causal = simdax_causal(causal);
                c.mask = true;
                c.mask_dt = SIMDAX_DTYPE_FLOAT16;
                c.mask_bcast.assign(sh.size(), true);
                c.mask_bcast.back() = false;
                c.sinks = c.lse = causal == 2;
                c.log = causal == 1;
                c.layout = causal == 2 ? Layout::key_strided : Layout::packed;
                c.seed = seed++;
                run_attention_case(c);
            }
}

// Outputs of 16 MB and more are written with non-temporal stores, the
// causally excluded keys in the same pass (each row has both edges of its
// window somewhere in a vector).
TEST(AttentionSoftmax, StreamedOutputBeyondTheCaches) {
    for (simdax_dtype dt : {SIMDAX_DTYPE_FLOAT32, SIMDAX_DTYPE_BFLOAT16}) {
        Case c;
        c.dt = dt;
        c.shape = {dt == SIMDAX_DTYPE_FLOAT32 ? 4 : 8, 1024, 1030};
        c.causal = dt == SIMDAX_DTYPE_FLOAT32 ? SIMDAX_CAUSAL_BOTTOM_RIGHT : SIMDAX_CAUSAL_TOP_LEFT;
        c.window = 300;
        c.log = dt == SIMDAX_DTYPE_BFLOAT16;
        c.lse = true;
        c.seed = 1100 + uint32_t(dt);
        run_attention_case(c);
    }
    // Softmax rows short enough to stay in registers, streamed from there:
    // rows of 128 (AVX-512) or 64 keys (AVX2) each at a cache line,
    // and rows of 100 keys, most of them off it (the buffer passes instead).
    for (int64_t keys : {128, 64, 100}) {
        Case c;
        c.y_gaps = 0;
        c.shape = {8, 4200 * 128 / keys, keys};
        c.mask = true;
        c.mask_bcast = {false, true, false};
        c.scale = 0.125f;
        c.seed = 1110 + uint32_t(keys);
        run_attention_case(c);
    }
}

TEST(AttentionSoftmax, FullyMaskedRowsNanAndInf) {
    uint32_t seed = 1200;
    for (simdax_dtype dt : kDtypes)
        for (int64_t n : {1, 8, 17, 129, 5000})
            for (int kind = 0; kind < 4; ++kind) {
                Case c;
                c.dt = dt;
                c.shape = {3, 4, n};
                c.mask = true;
                c.mask_dt = kind == 1 ? SIMDAX_DTYPE_UINT8 : SIMDAX_DTYPE_FLOAT32;
                c.mask_bcast = {false, false, false};
                c.neg_inf_mask_rate = kind < 2 ? 0.95 : 0.1;  // many rows fully masked
                c.nan_rate = kind == 2 ? 0.002 : 0;
                c.inf_rate = kind == 3 ? 0.01 : 0;
                c.lse = true;
                c.log = n % 2 == 1;
                c.sinks = kind == 0 && n == 8;
                c.layout = n == 17 ? Layout::key_strided : Layout::packed;
                c.seed = seed++;
                run_attention_case(c);
            }
}

TEST(AttentionSoftmax, OneShot) {
    Case c;
    c.shape = {2, 3, 4, 33};
    c.mask = c.slopes = c.sinks = c.lse = true;
    c.mask_dt = SIMDAX_DTYPE_BFLOAT16;
    c.mask_bcast = {false, true, true, false};
    c.causal = SIMDAX_CAUSAL_TOP_LEFT;
    run_attention_case(c, true);
}

}  // namespace
}  // namespace sxt
