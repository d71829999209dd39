// LayerNormalization and RMSNormalization (operators/layer_norm/) against
// the float64 reference of tests/support/norm_runner.cpp: random shapes,
// axes, broadcasts, strides and optional operands; row lengths around the
// vector widths and the chunk sizes; special values; refusals; threads.
// Runs once per ISA (tests/CMakeLists.txt: SIMDAX_MAX_ISA).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "simdax/simdax.hpp"
#include "support/cpu_facts_both_ways.hpp"
#include "support/norm_runner.hpp"
#include "support/random_case.hpp"

namespace sxt {
namespace {

const simdax_dtype kDtypes[] = {SIMDAX_DTYPE_FLOAT32, SIMDAX_DTYPE_FLOAT16, SIMDAX_DTYPE_BFLOAT16};

bool half(simdax_dtype dt) { return dt != SIMDAX_DTYPE_FLOAT32; }

// Dims laid out in a random order, some with gaps, some reversed; a zero
// stride (broadcast) only where allowed (inputs).
std::vector<int64_t> random_strides(const std::vector<int64_t>& sizes, Rng& rng, bool allow_zero) {
    const size_t r = sizes.size();
    std::vector<size_t> order(r);
    for (size_t i = 0; i < r; ++i) order[i] = r - 1 - i;  // innermost first
    if (rng.chance(0.5))
        for (size_t i = r; i > 1; --i) std::swap(order[i - 1], order[size_t(rng.range(0, int64_t(i) - 1))]);
    std::vector<int64_t> st(r);
    int64_t s = 1;
    for (size_t d : order) {
        st[d] = s * (rng.chance(0.25) ? 2 : 1);
        s = st[d] * sizes[d];
        if (rng.chance(0.25)) st[d] = -st[d];
        if (allow_zero && rng.chance(0.1)) st[d] = 0;
    }
    return st;
}

std::vector<int64_t> maybe_strided(const std::vector<int64_t>& sizes, Rng& rng, bool allow_zero) {
    return rng.chance(0.4) ? std::vector<int64_t>{} : random_strides(sizes, rng, allow_zero);
}

// A right-aligned broadcast of the input's sizes: trailing dims from the
// normalized ones up to the full rank, some set to 1.
std::vector<int64_t> param_sizes(const std::vector<int64_t>& sizes, size_t axis, Rng& rng) {
    const size_t r = sizes.size();
    const size_t from = rng.chance(0.3) ? size_t(rng.range(0, int64_t(axis))) : axis;
    std::vector<int64_t> out(sizes.begin() + int64_t(from), sizes.end());
    for (int64_t& s : out)
        if (rng.chance(0.15)) s = 1;
    if (out.empty() || (rng.chance(0.1) && r > 0))
        out.insert(out.begin(), 1);  // a leading 1 is still right-aligned
    if (out.size() > r) out.erase(out.begin());
    return out;
}

NormCase random_case(Rng& rng, simdax_dtype dt, simdax_operator_type op) {
    NormCase c;
    c.op = op;
    c.dt = dt;
    const size_t rank = size_t(rng.range(1, 4));
    static const std::vector<int64_t> dims = {1, 2, 3, 5, 7, 8, 9, 16, 17, 33, 64};
    int64_t count = 1;
    for (size_t d = 0; d < rank; ++d) {
        const int64_t n = count * rng.pick(dims) > 20000 ? 1 : rng.pick(dims);
        c.x.sizes.push_back(n);
        count *= n;
    }
    const size_t axis = size_t(rng.range(0, int64_t(rank) - 1));
    c.axis = rng.chance(0.5) ? int32_t(axis) - int32_t(rank) : int32_t(axis);
    c.epsilon = rng.pick(std::vector<float>{1e-5f, 1e-3f, 0.1f});
    c.x.strides = maybe_strided(c.x.sizes, rng, true);
    c.y = {c.x.sizes, maybe_strided(c.x.sizes, rng, false)};
    c.param_dt = half(dt) && rng.chance(0.5) ? SIMDAX_DTYPE_FLOAT32 : dt;
    c.scale.sizes = param_sizes(c.x.sizes, axis, rng);
    c.scale.strides = maybe_strided(c.scale.sizes, rng, true);
    if (op == SIMDAX_OPERATOR_LAYER_NORMALIZATION && rng.chance(0.6)) {
        c.has_bias = true;
        c.bias.sizes = param_sizes(c.x.sizes, axis, rng);
        c.bias.strides = maybe_strided(c.bias.sizes, rng, true);
    }
    if (rng.chance(0.5)) {
        c.has_skip = true;
        c.skip = {c.x.sizes, maybe_strided(c.x.sizes, rng, true)};
        c.has_skip_bias = rng.chance(0.5);
        if (c.has_skip_bias) c.skip_bias.sizes = param_sizes(c.x.sizes, axis, rng);
        c.has_sum = rng.chance(0.6);
        if (c.has_sum) c.sum = {c.x.sizes, maybe_strided(c.x.sizes, rng, false)};
    }
    if (op == SIMDAX_OPERATOR_LAYER_NORMALIZATION) {
        const std::vector<int64_t> st = stat_sizes(c.x.sizes, c.axis);
        c.has_mean = rng.chance(0.5);
        c.has_inv = rng.chance(0.5);
        c.mean = {st, {}};
        c.inv = {st, rng.chance(0.3) ? random_strides(st, rng, false) : std::vector<int64_t>{}};
    }
    return c;
}

void fill_values(NormIo& io, Rng& rng, double offset) {
    fill_norm_io(io, [&](int k, int64_t) {
        switch (k) {
            case 0: return offset + rng.uniform(-3, 3);
            case 1: return rng.uniform(-1, 1);
            case 2: return rng.uniform(-1.5, 1.5);
            default: return rng.uniform(-1, 1);
        }
    });
}

void run_and_check(const NormCase& c, NormIo& io, const simdax_parallel* par = nullptr,
                   bool via_info = false) {
    std::string err;
    ASSERT_EQ(run_norm(c, io, par, &err, via_info), SIMDAX_OK) << c.describe() << ": " << err;
    const std::string bad = check_norm(c, io);
    EXPECT_TRUE(bad.empty()) << bad;
}

TEST(LayerNorm, RandomCases) {
    Rng rng(test_seed(0x4c4e));
    for (simdax_dtype dt : kDtypes)
        for (simdax_operator_type op :
             {SIMDAX_OPERATOR_LAYER_NORMALIZATION, SIMDAX_OPERATOR_RMS_NORMALIZATION})
            for (int i = 0; i < 60; ++i) {
                const NormCase c = random_case(rng, dt, op);
                NormIo io = make_norm_io(c);
                fill_values(io, rng, rng.pick(std::vector<double>{0, 0, 5, 100}));
                run_and_check(c, io, nullptr, i % 2 == 1);
                if (HasFailure()) return;
            }
}

// Rows of every length around the vector widths, the 1024-element tiles,
// the 8192-element row chunks and the limits of the float16/bfloat16 row
// copies (2048) and of the converted Scale/Bias (5376); contiguous, and
// strided (tiles).
TEST(LayerNorm, RowLengths) {
    Rng rng(test_seed(0x4c4f));
    const int64_t lengths[] = {1,   7,   8,    9,    15,   16,   17,   31,   33,   127,  128,
                               129, 384, 1000, 1025, 2048, 2049, 4096, 5376, 5377, 8193, 20000};
    for (simdax_dtype dt : kDtypes)
        for (int64_t n : lengths)
            for (int variant = 0; variant < 4; ++variant) {
                NormCase c;
                c.op = variant % 2 ? SIMDAX_OPERATOR_RMS_NORMALIZATION : SIMDAX_OPERATOR_LAYER_NORMALIZATION;
                c.dt = dt;
                c.x.sizes = {3, n};
                c.y.sizes = c.x.sizes;
                c.param_dt = half(dt) && variant >= 2 ? SIMDAX_DTYPE_FLOAT32 : dt;
                c.scale.sizes = {n};
                if (variant >= 2) {  // every optional operand; strided input
                    c.x.strides = {-(n + 3), 1};
                    if (n > 1000) c.x.strides = {1, 3};
                    c.has_skip = c.has_skip_bias = c.has_sum = true;
                    c.skip.sizes = c.sum.sizes = c.x.sizes;
                    c.skip_bias.sizes = {n};
                }
                if (c.op == SIMDAX_OPERATOR_LAYER_NORMALIZATION) {
                    c.has_bias = true;
                    c.bias.sizes = {n};
                    c.has_mean = c.has_inv = variant >= 2;
                    c.mean.sizes = c.inv.sizes = {3, 1};
                }
                NormIo io = make_norm_io(c);
                fill_values(io, rng, 1.0);
                run_and_check(c, io);
                if (HasFailure()) return;
            }
}

// op in dt over sizes, a Scale of the last dim; LayerNormalization with a
// Bias too.
NormCase scaled_case(simdax_operator_type op, simdax_dtype dt, const std::vector<int64_t>& sizes) {
    NormCase c;
    c.op = op;
    c.dt = dt;
    c.x.sizes = c.y.sizes = sizes;
    c.scale.sizes = c.bias.sizes = {sizes.back()};
    c.has_bias = op == SIMDAX_OPERATOR_LAYER_NORMALIZATION;
    return c;
}

// Outputs of 2 MiB and more are written with non-temporal stores after a
// partial first vector; rows starting at every alignment (row stride 4103),
// or all at one place off the line (4128 and 5408: float16/bfloat16 rows
// move their converted Scale/Bias there; rows of 5368 elements, near the
// longest that have them, nearly fill the kernel's work array). Where the
// CPU fact says so (and here in turn either way) their pass A runs inside
// the row before's output and sums x unshifted: rows far from 0 take the
// second pass around their mean. Scale/Bias in the data's type, then in
// float32 and at another place in the line than the rows (float32 rows
// copy them to the rows' place). RMSNormalization with rows of 4060
// (stride 4096), whose float16/bfloat16 rows have float copies.
TEST(LayerNorm, StreamedOutput) {
    Rng rng(test_seed(0x5757));
    with_fact_both_ways(&simdax::CpuFacts::carry_row_passes, [&] {
        for (simdax_dtype dt : kDtypes)
            for (const auto& [n, stride] :
                 {std::pair<int64_t, int64_t>{4100, 4103}, {4100, 4128}, {5368, 5408}, {4060, 4096}})
                for (double offset : {0.0, 3000.0}) {
                    const bool rms = stride == 4096;
                    const int64_t rows = (half(dt) ? 2 : 1) * ((int64_t(1) << 19) / n + 3);
                    NormCase c = scaled_case(
                        rms ? SIMDAX_OPERATOR_RMS_NORMALIZATION : SIMDAX_OPERATOR_LAYER_NORMALIZATION, dt,
                        {rows, n});
                    c.param_dt = offset == 0.0 ? dt : SIMDAX_DTYPE_FLOAT32;
                    c.y.strides = {stride, 1};
                    c.y.pad_back = offset == 0.0 || rms ? 0 : 4;
                    NormIo io = make_norm_io(c);
                    if (uintptr_t(io.y->data()) % 64 == 0) ADD_FAILURE() << "rows meant off the line";
                    fill_values(io, rng, offset);
                    run_and_check(c, io);
                    if (HasFailure()) return;
                }
    });
}

// rows x n, epsilon eps; LayerNormalization with its Mean and InvStdDev
// outputs too.
NormCase statistics_case(simdax_operator_type op, simdax_dtype dt, float eps, int64_t rows, int64_t n) {
    NormCase c = scaled_case(op, dt, {rows, n});
    c.epsilon = eps;
    c.has_mean = c.has_inv = c.has_bias;
    c.mean.sizes = c.inv.sizes = {rows, 1};
    return c;
}

// Constant rows (variance 0), NaN and infinity, huge and tiny magnitudes.
TEST(LayerNorm, SpecialValues) {
    for (simdax_dtype dt : kDtypes)
        for (simdax_operator_type op :
             {SIMDAX_OPERATOR_LAYER_NORMALIZATION, SIMDAX_OPERATOR_RMS_NORMALIZATION})
            for (float eps : {0.0f, 1e-5f})
                for (int64_t n : {int64_t(1), int64_t(17), int64_t(384)}) {
                    const double big = dt == SIMDAX_DTYPE_FLOAT16 ? 3e4 : 1e30;
                    const double tiny = dt == SIMDAX_DTYPE_FLOAT16 ? 1e-4 : 1e-30;
                    NormCase c = statistics_case(op, dt, eps, 6, n);
                    NormIo io = make_norm_io(c);
                    Rng rng(test_seed(uint64_t(n)));
                    fill_norm_io(io, [&](int k, int64_t i) {
                        if (k != 0) return rng.uniform(0.5, 1.5);
                        const int64_t row = i / n, e = i % n;
                        switch (row) {
                            case 0: return 2.5;  // constant
                            case 1: return e == n / 2 ? NAN : 1.0;
                            case 2: return e == 0 ? INFINITY : 1.0;
                            case 3: return big * rng.uniform(-1, 1);
                            case 4: return tiny * rng.uniform(-1, 1);
                            default: return big + (e % 2 ? big / 64 : 0.0);
                        }
                    });
                    run_and_check(c, io);
                    if (HasFailure()) return;
                }
}

// The ends of each dtype's range: deviations from the mean beyond float's
// range (a row of +-max), subnormal rows, a Scale near the dtype's max
// on a row of small variance (inv * scale beyond float, the output not),
// and a row far from 0 whose elements are a few ulps apart (the squares of
// their deviations beyond float: the fuzzer's [-7.5e37, +2 ulps, +2 ulps]).
TEST(LayerNorm, ExtremeRanges) {
    for (simdax_dtype dt : kDtypes)
        for (simdax_operator_type op :
             {SIMDAX_OPERATOR_LAYER_NORMALIZATION, SIMDAX_OPERATOR_RMS_NORMALIZATION})
            for (int variant = 0; variant < 4; ++variant)
                for (int64_t n : {int64_t(3), int64_t(17), int64_t(384)}) {
                    const bool f16 = dt == SIMDAX_DTYPE_FLOAT16;
                    const double max = f16 ? 6e4 : 3e38, subnormal = f16 ? 3e-6 : 1e-39;
                    const bool huge_scale = variant & 1, skip = variant & 2;
                    const double ulp = dt == SIMDAX_DTYPE_FLOAT32 ? 0x1p-23 : f16 ? 0x1p-10 : 0x1p-7;
                    NormCase c = statistics_case(op, dt, variant == 1 ? 0.0f : 1e-5f, 6, n);
                    c.x.strides = {n + 2, 1};
                    c.has_skip = c.has_skip_bias = skip;
                    c.skip.sizes = c.x.sizes;
                    c.skip_bias.sizes = {n};
                    NormIo io = make_norm_io(c);
                    Rng rng(test_seed(uint64_t(n * 8 + variant)));
                    fill_norm_io(io, [&](int k, int64_t i) {
                        if (k == 2 && huge_scale) return (i % 2 ? -0.5 : 0.5) * max;
                        if (k != 0) return rng.uniform(-1, 1);
                        const int64_t row = i / n, e = i % n;
                        switch (row) {
                            case 0: return e == 0 ? max : -max;  // deviation ~2 max
                            case 1: return e % 2 ? max : -max;
                            case 2: return subnormal * rng.uniform(-1, 1);
                            case 3: return 1.0 + 1e-3 * double(e % 5);  // small variance
                            case 4: return -max / 4 * (e % 3 ? 1 - 2 * ulp : 1.0);
                            default: return rng.uniform(-3, 3);
                        }
                    });
                    run_and_check(c, io);
                    if (HasFailure()) return;
                }
}

// One call on two threads gives bitwise the calling thread's output.
TEST(LayerNormConcurrency, TwoThreadsBitwise) {
    const TwoThreadPool threads;
    ASSERT_EQ(threads.status, SIMDAX_OK);
    for (simdax_dtype dt : kDtypes)
        for (simdax_operator_type op :
             {SIMDAX_OPERATOR_LAYER_NORMALIZATION, SIMDAX_OPERATOR_RMS_NORMALIZATION}) {
            NormCase c;
            c.op = op;
            c.dt = dt;
            c.x.sizes = c.y.sizes = {64, 3, 384};
            c.scale.sizes = {384};
            c.has_skip = c.has_sum = true;
            c.skip.sizes = c.sum.sizes = c.x.sizes;
            NormIo one = make_norm_io(c), two = make_norm_io(c);
            Rng again(test_seed(0x2223));
            Rng again2(test_seed(0x2223));
            fill_values(one, again, 0.0);
            fill_values(two, again2, 0.0);
            std::string err;
            ASSERT_EQ(run_norm(c, one, nullptr, &err), SIMDAX_OK) << err;
            ASSERT_EQ(run_norm(c, two, &threads.par, &err), SIMDAX_OK) << err;
            const std::string diff = bitwise_difference(one.y->read(), two.y->read());
            ASSERT_TRUE(diff.empty()) << c.describe() << diff;
            EXPECT_EQ(one.sum->read(), two.sum->read());
        }
}

// Each refusal names its argument; a refused execute writes nothing.
TEST(LayerNorm, Refusals) {
    const int64_t sizes[] = {2, 3, 8}, stat[] = {2, 1, 1}, bad_stat[] = {2, 3, 1}, big[] = {2, 2, 3, 8};
    const int64_t sc[] = {8}, wrong[] = {5};
    auto t = [](simdax_dtype dt, uint32_t rank, const int64_t* sz) {
        return simdax_tensor_desc{dt, rank, sz, nullptr};
    };
    const simdax_tensor_desc x = t(SIMDAX_DTYPE_FLOAT16, 3, sizes), y = x, g = t(SIMDAX_DTYPE_FLOAT32, 1, sc);
    const simdax_tensor_desc g_bad = t(SIMDAX_DTYPE_FLOAT32, 1, wrong),
                             g_rank = t(SIMDAX_DTYPE_FLOAT32, 4, big);
    const simdax_tensor_desc g_dt = t(SIMDAX_DTYPE_BFLOAT16, 1, sc), g64 = t(SIMDAX_DTYPE_FLOAT64, 1, sc);
    const simdax_tensor_desc m = t(SIMDAX_DTYPE_FLOAT32, 3, stat),
                             m_bad = t(SIMDAX_DTYPE_FLOAT32, 3, bad_stat);
    const simdax_tensor_desc m_dt = t(SIMDAX_DTYPE_FLOAT16, 3, stat), sk_bad = t(SIMDAX_DTYPE_FLOAT16, 1, sc);
    const simdax_tensor_desc x64 = t(SIMDAX_DTYPE_FLOAT64, 3, sizes), g64b = t(SIMDAX_DTYPE_FLOAT64, 1, sc);
    const simdax_layer_normalization_desc ok{&x, &g,      nullptr, &y,      -2, 1e-5f,
                                             1,  nullptr, nullptr, nullptr, &m, &m};
    struct Bad {
        simdax_layer_normalization_desc d;
        simdax_status want;
        const char* names;
    };
    auto with = [&](auto f) {
        simdax_layer_normalization_desc d = ok;
        f(d);
        return d;
    };
    const Bad bad[] = {
        {with([](auto& d) { d.axis = 3; }), SIMDAX_ERROR_INVALID_AXES, "axis"},
        {with([](auto& d) { d.axis = -4; }), SIMDAX_ERROR_INVALID_AXES, "axis"},
        {with([](auto& d) { d.scale = nullptr; }), SIMDAX_ERROR_NULL_POINTER, "scale"},
        {with([&](auto& d) { d.scale = &g_bad; }), SIMDAX_ERROR_SHAPE_MISMATCH, "scale.sizes[0]"},
        {with([&](auto& d) { d.scale = &g_rank; }), SIMDAX_ERROR_SHAPE_MISMATCH, "scale.rank"},
        {with([&](auto& d) { d.scale = &g_dt; }), SIMDAX_ERROR_DTYPE_MISMATCH, "scale.dtype"},
        {with([&](auto& d) { d.bias = &g64; }), SIMDAX_ERROR_DTYPE_MISMATCH, "bias.dtype"},
        {with([](auto& d) { d.epsilon = -1; }), SIMDAX_ERROR_INVALID_ARGUMENT, "epsilon"},
        {with([](auto& d) { d.epsilon = NAN; }), SIMDAX_ERROR_INVALID_ARGUMENT, "epsilon"},
        {with([](auto& d) { d.stash_type = 0; }), SIMDAX_ERROR_INVALID_ARGUMENT, "stash_type"},
        {with([&](auto& d) { d.skip_bias = &g; }), SIMDAX_ERROR_INVALID_ARGUMENT, "skip_bias"},
        {with([&](auto& d) { d.skip_sum = &y; }), SIMDAX_ERROR_INVALID_ARGUMENT, "skip_sum"},
        {with([&](auto& d) { d.skip = &sk_bad; }), SIMDAX_ERROR_SHAPE_MISMATCH, "skip.rank"},
        {with([&](auto& d) { d.mean = &m_bad; }), SIMDAX_ERROR_SHAPE_MISMATCH, "mean.sizes[1]"},
        {with([&](auto& d) { d.inv_std_dev = &m_dt; }), SIMDAX_ERROR_DTYPE_MISMATCH, "inv_std_dev.dtype"},
        {with([&](auto& d) { d.input = &x64, d.output = &x64, d.scale = &g64b; }),
         SIMDAX_ERROR_DTYPE_MISMATCH, "input.dtype"},
    };
    for (const Bad& b : bad) {
        simdax_operator* op = nullptr;
        const simdax_operator_desc od{SIMDAX_OPERATOR_LAYER_NORMALIZATION, &b.d};
        EXPECT_EQ(simdax_operator_create(&od, &op), b.want) << b.names;
        EXPECT_EQ(op, nullptr);
        EXPECT_NE(std::string(simdax_last_error()).find(b.names), std::string::npos)
            << b.names << ": " << simdax_last_error();
    }
    // At execute: the skip sum on the input's bytes, and an unbound skip.
    NormCase c;
    c.dt = SIMDAX_DTYPE_FLOAT16;
    c.x.sizes = c.y.sizes = {2, 3, 8};
    c.scale.sizes = {8};
    c.has_skip = c.has_sum = true;
    c.skip.sizes = c.sum.sizes = c.x.sizes;
    Rng rng(test_seed(3));
    // skip_sum is bound to the skip's buffer: overlap.
    NormIo alias = make_norm_io(c);
    fill_values(alias, rng, 0.0);
    simdax_tensor_desc d[5] = {alias.x->desc(), alias.y->desc(), alias.scale->desc(), alias.skip->desc(),
                               alias.sum->desc()};
    simdax_layer_normalization_desc ld{&d[0], &d[2], nullptr, &d[1], -1,      1e-5f,
                                       1,     &d[3], nullptr, &d[4], nullptr, nullptr};
    simdax_operator* op = nullptr;
    const simdax_operator_desc od{SIMDAX_OPERATOR_LAYER_NORMALIZATION, &ld};
    ASSERT_EQ(simdax_operator_create(&od, &op), SIMDAX_OK) << simdax_last_error();
    simdax_buffer_binding bb[SIMDAX_OPERAND_COUNT] = {};
    bb[SIMDAX_OPERAND_INPUT].data = alias.x->data();
    bb[SIMDAX_OPERAND_OUTPUT].data = alias.y->data();
    bb[SIMDAX_OPERAND_SCALE].data = alias.scale->data();
    bb[SIMDAX_OPERAND_SKIP].data = alias.skip->data();
    bb[SIMDAX_OPERAND_SKIP_SUM].data = alias.skip->data();
    const simdax_operand_bindings b{
        SIMDAX_HEADER(simdax_operand_bindings, SIMDAX_STRUCTURE_TYPE_OPERAND_BINDINGS), SIMDAX_OPERAND_COUNT,
        bb};
    EXPECT_EQ(simdax_operator_execute_bound(op, &b, nullptr), SIMDAX_ERROR_OVERLAP);
    EXPECT_NE(std::string(simdax_last_error()).find("skip_sum"), std::string::npos) << simdax_last_error();
    bb[SIMDAX_OPERAND_SKIP_SUM].data = alias.sum->data();
    bb[SIMDAX_OPERAND_SKIP].data = nullptr;
    EXPECT_EQ(simdax_operator_execute_bound(op, &b, nullptr), SIMDAX_ERROR_NULL_POINTER);
    EXPECT_NE(std::string(simdax_last_error()).find("skip"), std::string::npos) << simdax_last_error();
    EXPECT_EQ(alias.y->unwritten(), alias.y->count());
    EXPECT_EQ(alias.sum->unwritten(), alias.sum->count());
    EXPECT_FALSE(alias.skip->input_modified());
    simdax_operator_destroy(op);
}

TEST(LayerNorm, OneShot) {
    for (simdax_operator_type op : {SIMDAX_OPERATOR_LAYER_NORMALIZATION, SIMDAX_OPERATOR_RMS_NORMALIZATION}) {
        const NormCase c = scaled_case(op, SIMDAX_DTYPE_FLOAT32, {4, 128, 384});
        NormIo io = make_norm_io(c);
        Rng rng(test_seed(7));
        fill_values(io, rng, 0.0);
        const simdax_tensor_desc x = io.x->desc(), y = io.y->desc(), g = io.scale->desc();
        simdax_tensor_desc b{};
        if (io.bias) b = io.bias->desc();
        simdax_status s;
        if (op == SIMDAX_OPERATOR_LAYER_NORMALIZATION) {
            const simdax_layer_normalization_desc d{&x, &g,      &b,      &y,      -1,      c.epsilon,
                                                    1,  nullptr, nullptr, nullptr, nullptr, nullptr};
            s = simdax_layer_normalization(&d, io.x->data(), io.scale->data(), io.bias->data(), io.y->data());
        } else {
            const simdax_rms_normalization_desc d{&x, &g, &y, -1, c.epsilon, 1, nullptr, nullptr, nullptr};
            s = simdax_rms_normalization(&d, io.x->data(), io.scale->data(), io.y->data());
        }
        ASSERT_EQ(s, SIMDAX_OK) << simdax_last_error();
        const std::string bad = check_norm(c, io);
        EXPECT_TRUE(bad.empty()) << bad;
    }
}

// The C++ wrapper's factories (simdax_factories.hpp) make the same operators.
TEST(LayerNorm, CppWrapper) {
    namespace sx = simdax::cpp;
    for (simdax_operator_type op : {SIMDAX_OPERATOR_LAYER_NORMALIZATION, SIMDAX_OPERATOR_RMS_NORMALIZATION}) {
        const NormCase c = scaled_case(op, SIMDAX_DTYPE_BFLOAT16, {5, 7, 129});
        NormIo io = make_norm_io(c);
        Rng rng(test_seed(11));
        fill_values(io, rng, 0.0);
        const sx::Operator o = op == SIMDAX_OPERATOR_LAYER_NORMALIZATION
                                   ? sx::layer_normalization(c.x.sizes, c.dt, SIMDAX_DTYPE_FLOAT32)
                                   : sx::rms_normalization(c.x.sizes, c.dt, SIMDAX_DTYPE_FLOAT32);
        EXPECT_EQ(o.type(), op);
        std::vector<simdax_buffer_binding> b(SIMDAX_OPERAND_COUNT);
        b[SIMDAX_OPERAND_INPUT].data = io.x->data();
        b[SIMDAX_OPERAND_OUTPUT].data = io.y->data();
        b[SIMDAX_OPERAND_SCALE].data = io.scale->data();
        if (io.bias) b[SIMDAX_OPERAND_BIAS].data = io.bias->data();
        o.execute_bound(b);
        const std::string bad = check_norm(c, io);
        EXPECT_TRUE(bad.empty()) << bad;
    }
}

}  // namespace
}  // namespace sxt
