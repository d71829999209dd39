// Randomized comparison with the float64 reference: random ranks 1-8,
// shapes, axis sets, strided/broadcast/offset inputs, strided outputs,
// Scale/Bias broadcasts, every activation and dtype. Fixed seed; every
// failure prints the whole case and its worst element.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "simdax/simdax.h"
#include "support/dtype.hpp"
#include "support/op_runner.hpp"
#include "support/random_case.hpp"

namespace {

using namespace sxt;

const std::vector<simdax_dtype> kDtypes{SIMDAX_DTYPE_FLOAT32, SIMDAX_DTYPE_FLOAT16, SIMDAX_DTYPE_BFLOAT16,
                                        SIMDAX_DTYPE_FLOAT64};

std::string dtype_param_name(const testing::TestParamInfo<simdax_dtype>& i) { return dtype_name(i.param); }

// A test run once per dtype of kDtypes; each dtype draws its own random
// cases from a stream seeded by the test's base and the dtype.
class PerDtype : public testing::TestWithParam<simdax_dtype> {
protected:
    const simdax_dtype dt = GetParam();
    Rng seeded_rng(uint64_t base) const { return Rng(test_seed(base + uint64_t(dt))); }
};
const std::vector<simdax_operator_type> kOps{
    SIMDAX_OPERATOR_LOG_SOFTMAX,  SIMDAX_OPERATOR_SOFTMAX,
    SIMDAX_OPERATOR_HARDMAX,      SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION,
    SIMDAX_OPERATOR_HARD_SIGMOID, SIMDAX_OPERATOR_ACTIVATION};

bool uses_axes(simdax_operator_type op) {
    return op != SIMDAX_OPERATOR_HARD_SIGMOID && op != SIMDAX_OPERATOR_ACTIVATION;
}

// Input values suited to the op: softmax family around 0 or shifted far
// from it, Hardmax sometimes from a small set (ties, -0/+0), MVN with an
// offset, element-wise ops over ranges that reach exp overflow in float32.
std::function<double(int64_t)> value_gen(Rng& rng, simdax_operator_type op) {
    const double u = rng.uniform(0, 1);
    switch (op) {
        case SIMDAX_OPERATOR_HARDMAX:
            if (u < 0.5)
                return [&rng](int64_t) {
                    static const double set[] = {-2, -1, -0.0, 0.0, 1, 2};
                    return set[rng.range(0, 5)];
                };
            [[fallthrough]];
        case SIMDAX_OPERATOR_LOG_SOFTMAX:
        case SIMDAX_OPERATOR_SOFTMAX: {
            const double r = rng.pick(std::vector<double>{1, 8, 40});
            const double c = u < 0.8 ? 0.0 : rng.pick(std::vector<double>{-1000, 1000});
            return [&rng, r, c](int64_t) { return c + rng.uniform(-r, r); };
        }
        case SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION: {
            const double r = rng.pick(std::vector<double>{0.5, 2, 10});
            const double c = rng.pick(std::vector<double>{0, 0, 3, 100});
            return [&rng, r, c](int64_t) { return c + rng.uniform(-r, r); };
        }
        default: {
            const double r = rng.pick(std::vector<double>{1, 4, 12, 100});
            return [&rng, r](int64_t) { return rng.uniform(-r, r); };
        }
    }
}

// Random sizes for a Scale/Bias: each dim the input's or 1.
std::vector<int64_t> broadcast_sizes(Rng& rng, const std::vector<int64_t>& sizes) {
    std::vector<int64_t> s(sizes);
    for (auto& v : s)
        if (rng.chance(0.5)) v = 1;
    return s;
}

// Builds the operands of a random case and fills the inputs.
Operands make_operands(Rng& rng, const OpSpec& spec, simdax_dtype dt, const std::vector<int64_t>& sizes,
                       bool with_scale, bool with_bias) {
    Operands io{make_buffer(dt, sizes, random_layout(rng, sizes, Role::Input), Role::Input), nullptr, nullptr,
                make_buffer(dt, sizes, random_layout(rng, sizes, Role::Output), Role::Output)};
    io.x.fill(value_gen(rng, spec.op));
    if (with_scale) {
        const auto s = broadcast_sizes(rng, sizes);
        io.scale.reset(new TensorBuffer(make_buffer(dt, s, random_layout(rng, s, Role::Input), Role::Input)));
        io.scale->fill([&rng](int64_t) { return rng.uniform(-2, 2); });
    }
    if (with_bias) {
        const auto s = broadcast_sizes(rng, sizes);
        io.bias.reset(new TensorBuffer(make_buffer(dt, s, random_layout(rng, s, Role::Input), Role::Input)));
        io.bias->fill([&rng](int64_t) { return rng.uniform(-1, 1); });
    }
    return io;
}

// Random op parameters (axes, MVN settings, HardSigmoid alpha/beta, activation).
OpSpec random_spec(Rng& rng, simdax_operator_type op, int rank) {
    OpSpec spec;
    spec.op = op;
    if (uses_axes(op)) spec.axes = random_axes(rng, rank);
    if (op == SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION) {
        spec.normalize_variance = rng.chance(0.75);
        spec.epsilon = rng.pick(std::vector<float>{1e-5f, 1e-5f, 1e-3f, 0.1f, 0.f});
        spec.epsilon_placement = random_epsilon_placement(rng);
        spec.has_activation = rng.chance(0.5);
        if (spec.has_activation)
            spec.activation =
                random_activation(rng, simdax_activation_type(rng.range(0, SIMDAX_ACTIVATION_COUNT - 1)));
    }
    if (op == SIMDAX_OPERATOR_HARD_SIGMOID && rng.chance(0.7)) {
        spec.alpha = float(rng.uniform(-2, 2));
        spec.beta = float(rng.uniform(-1.5, 1.5));
    }
    if (op == SIMDAX_OPERATOR_ACTIVATION)
        spec.activation =
            random_activation(rng, simdax_activation_type(rng.range(0, SIMDAX_ACTIVATION_COUNT - 1)));
    return spec;
}

// Counts failures and prints the first few in full.
struct FailureLog {
    int failures = 0, cases = 0;
    void record(int index, const CheckResult& r) {
        ++cases;
        if (r.ok) return;
        if (++failures <= 3) ADD_FAILURE() << "case " << index << ":\n" << r.report;
    }
    ~FailureLog() {
        EXPECT_GT(cases, 0) << "no case ran";
        EXPECT_EQ(failures, 0) << failures << " of " << cases << " cases failed";
    }
};

int64_t random_budget(Rng& rng) {
    const double u = rng.uniform(0, 1);
    return u < 0.3 ? 64 : u < 0.6 ? 256 : u < 0.92 ? 2000 : 20000;
}

using OpDtype = std::tuple<simdax_operator_type, simdax_dtype>;

std::string op_dtype_name(const testing::TestParamInfo<OpDtype>& info) {
    return std::string(op_name(std::get<0>(info.param))) + "_" + dtype_name(std::get<1>(info.param));
}

class RandomCases : public testing::TestWithParam<OpDtype> {};

// Random rank, shape, axes, layouts and parameters.
TEST_P(RandomCases, MatchReference) {
    const auto [op, dt] = GetParam();
    Rng rng(test_seed(uint64_t(op) * 16 + uint64_t(dt)));
    FailureLog log;
    for (int i = 0; i < 80; ++i) {
        const int rank = int(rng.range(1, 8));
        const auto sizes = random_shape(rng, rank, random_budget(rng));
        const OpSpec spec = random_spec(rng, op, rank);
        const bool mvn = op == SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION;
        Operands io = make_operands(rng, spec, dt, sizes, mvn && rng.chance(0.5), mvn && rng.chance(0.5));
        log.record(i, run_and_check(spec, io, /*one_shot=*/i % 4 == 3));
    }
}

INSTANTIATE_TEST_SUITE_P(AllOpsDtypes, RandomCases,
                         testing::Combine(testing::ValuesIn(kOps), testing::ValuesIn(kDtypes)),
                         op_dtype_name);

// Lengths around every vector width and tail: as the contiguous reduced
// row, and as the number of contiguous columns of a strided reduction.
class AwkwardSizes : public testing::TestWithParam<OpDtype> {};

TEST_P(AwkwardSizes, RowsAndColumns) {
    const auto [op, dt] = GetParam();
    Rng rng(test_seed(1000 + uint64_t(op) * 16 + uint64_t(dt)));
    FailureLog log;
    int index = 0;
    for (int64_t n : {1, 3, 7, 15, 17, 31, 33, 63, 65, 1000, 4097}) {
        struct Shape {
            std::vector<int64_t> sizes;
            std::vector<uint32_t> axes;
            bool strided;
        };
        std::vector<Shape> shapes;
        if (uses_axes(op)) {
            shapes = {{{2, n}, {1}, false},                 // n = row length
                      {{n > 1000 ? 2 : 5, n}, {0}, false},  // n = column count
                      {{3, n}, {1}, true},                  // row, strided
                      {{n > 1000 ? 2 : 4, n}, {0}, true}};  // columns, strided
        } else {
            shapes = {{{n}, {}, false}, {{3, n}, {}, true}};
        }
        for (const Shape& sh : shapes) {
            OpSpec spec = random_spec(rng, op, 2);
            spec.axes = sh.axes;
            // Strided: transposed, gapped input inside NaN padding; gapped output.
            // (Built, then moved in: g++ 12 -Wnonnull misreads an
            // initializer-list assignment to an empty vector.)
            std::vector<int64_t> in_strides, out_strides;
            if (sh.strided && sh.sizes.size() == 1) {
                in_strides = std::vector<int64_t>{3};
                out_strides = std::vector<int64_t>{2};
            } else if (sh.strided) {
                in_strides = std::vector<int64_t>{1, sh.sizes[0] + 1};
                out_strides = std::vector<int64_t>{2 * n + 1, 2};
            }
            Operands io{
                TensorBuffer(dt, sh.sizes, in_strides, Role::Input, sh.strided ? 3 : 0, sh.strided ? 5 : 0),
                nullptr, nullptr,
                TensorBuffer(dt, sh.sizes, out_strides, Role::Output, sh.strided ? 1 : 0, 0)};
            io.x.fill(value_gen(rng, op));
            if (op == SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION && rng.chance(0.5)) {
                std::vector<int64_t> s = sh.sizes;
                s[0] = 1;
                io.scale.reset(new TensorBuffer(dt, s, {}, Role::Input));
                io.scale->fill([&rng](int64_t) { return rng.uniform(0.5, 2); });
            }
            log.record(index++, run_and_check(spec, io));
        }
    }
}

INSTANTIATE_TEST_SUITE_P(AllOpsDtypes, AwkwardSizes,
                         testing::Combine(testing::ValuesIn(kOps), testing::ValuesIn(kDtypes)),
                         op_dtype_name);

using ActDtype = std::tuple<int, simdax_dtype>;

std::string act_dtype_name(const testing::TestParamInfo<ActDtype>& info) {
    return std::string(spec_activation_name(simdax_activation_type(std::get<0>(info.param)))) + "_" +
           dtype_name(std::get<1>(info.param));
}

// Every activation on its own and fused into MVN, with random parameters.
class EveryActivation : public testing::TestWithParam<ActDtype> {};

TEST_P(EveryActivation, Standalone) {
    const auto [type, dt] = GetParam();
    Rng rng(test_seed(2000 + uint64_t(type) * 16 + uint64_t(dt)));
    FailureLog log;
    for (int i = 0; i < 12; ++i) {
        OpSpec spec;
        spec.op = SIMDAX_OPERATOR_ACTIVATION;
        spec.activation = random_activation(rng, simdax_activation_type(type));
        const int rank = int(rng.range(1, 4));
        Operands io = make_operands(rng, spec, dt, random_shape(rng, rank, 3000), false, false);
        log.record(i, run_and_check(spec, io, i % 3 == 2));
    }
}

TEST_P(EveryActivation, FusedInMvn) {
    const auto [type, dt] = GetParam();
    Rng rng(test_seed(3000 + uint64_t(type) * 16 + uint64_t(dt)));
    FailureLog log;
    for (int i = 0; i < 8; ++i) {
        const int rank = int(rng.range(1, 4));
        OpSpec spec = random_spec(rng, SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, rank);
        spec.has_activation = true;
        spec.activation = random_activation(rng, simdax_activation_type(type));
        Operands io =
            make_operands(rng, spec, dt, random_shape(rng, rank, 3000), rng.chance(0.5), rng.chance(0.5));
        log.record(i, run_and_check(spec, io));
    }
}

INSTANTIATE_TEST_SUITE_P(AllActivationsDtypes, EveryActivation,
                         testing::Combine(testing::Range(0, SIMDAX_ACTIVATION_COUNT),
                                          testing::ValuesIn(kDtypes)),
                         act_dtype_name);

// Scale/Bias broadcast patterns on an NCHW tensor, with strided and 0-stride
// Scale/Bias views, under the legacy and ONNX axis sets.
class MvnScaleBias : public PerDtype {};

TEST_P(MvnScaleBias, BroadcastShapes) {
    Rng rng = seeded_rng(4000);
    FailureLog log;
    const std::vector<int64_t> sizes{2, 3, 4, 5};
    const std::vector<std::vector<int64_t>> patterns{{1, 3, 1, 1}, {1, 1, 4, 5}, {2, 3, 4, 5},
                                                     {1, 1, 1, 1}, {2, 1, 1, 5}, {2, 3, 1, 1}};
    const std::vector<std::vector<uint32_t>> axis_sets{{2, 3}, {1, 2, 3}, {0, 2, 3}, {3, 1}};
    int index = 0;
    for (const auto& axes : axis_sets)
        for (int presence = 1; presence < 4; ++presence)  // scale only, bias only, both
            for (const auto& pat : patterns) {
                OpSpec spec;
                spec.op = SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION;
                spec.axes = axes;
                spec.normalize_variance = index % 5 != 4;
                Operands io{TensorBuffer(dt, sizes, {}, Role::Input), nullptr, nullptr,
                            make_buffer(dt, sizes, random_layout(rng, sizes, Role::Output), Role::Output)};
                io.x.fill([&rng](int64_t) { return rng.uniform(-3, 3); });
                if (presence & 1) {
                    io.scale.reset(new TensorBuffer(
                        make_buffer(dt, pat, random_layout(rng, pat, Role::Input), Role::Input)));
                    io.scale->fill([&rng](int64_t) { return rng.uniform(-2, 2); });
                }
                if (presence & 2) {
                    io.bias.reset(new TensorBuffer(
                        make_buffer(dt, pat, random_layout(rng, pat, Role::Input), Role::Input)));
                    io.bias->fill([&rng](int64_t) { return rng.uniform(-1, 1); });
                }
                log.record(index++, run_and_check(spec, io));
            }
}

INSTANTIATE_TEST_SUITE_P(AllDtypes, MvnScaleBias, testing::ValuesIn(kDtypes), dtype_param_name);

// Near-constant groups, where the epsilon placements differ widely
// (-0.30 against ONNX's -1.00 on {1, 1.00002, 1, 1.00002} with 1e-9):
// spreads of 1e-4 to 1e-2 around an offset, each placement, small epsilons.
class MvnPlacements : public PerDtype {};

TEST_P(MvnPlacements, NearConstantGroups) {
    Rng rng = seeded_rng(4500);
    FailureLog log;
    for (int i = 0; i < 60; ++i) {
        const int rank = int(rng.range(1, 4));
        const auto sizes = random_shape(rng, rank, 3000);
        OpSpec spec;
        spec.op = SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION;
        spec.axes = random_axes(rng, rank);
        spec.epsilon = rng.pick(std::vector<float>{1e-9f, 1e-7f, 1e-5f, 1e-3f});
        spec.epsilon_placement = i % 2 ? SIMDAX_EPSILON_ON_STDDEV : SIMDAX_EPSILON_ON_VARIANCE;
        Operands io{make_buffer(dt, sizes, random_layout(rng, sizes, Role::Input), Role::Input), nullptr,
                    nullptr, make_buffer(dt, sizes, random_layout(rng, sizes, Role::Output), Role::Output)};
        const double c = rng.pick(std::vector<double>{1, -3, 100}),
                     r = rng.pick(std::vector<double>{1e-4, 1e-3, 1e-2});
        io.x.fill([&rng, c, r](int64_t) { return c + rng.uniform(-r, r); });
        log.record(i, run_and_check(spec, io, /*one_shot=*/i % 4 == 3));
    }
}

INSTANTIATE_TEST_SUITE_P(AllDtypes, MvnPlacements, testing::ValuesIn(kDtypes), dtype_param_name);

// HardSigmoid over chosen alpha/beta pairs (clamp at 0, at 1, both, neither).
class HardSigmoidParams : public PerDtype {};

TEST_P(HardSigmoidParams, AlphaBeta) {
    Rng rng = seeded_rng(5000);
    FailureLog log;
    const std::vector<std::pair<float, float>> params{
        {0.2f, 0.5f}, {1.f, 0.f},  {-0.5f, 0.5f}, {0.f, 0.3f},  {2.5f, -1.f},      {1e-3f, 0.999f},
        {-3.f, -2.f}, {0.f, 1.5f}, {0.f, -0.5f},  {1e4f, 0.5f}, {0.1666667f, 0.5f}};
    int index = 0;
    for (const auto& ab : params) {
        OpSpec spec;
        spec.op = SIMDAX_OPERATOR_HARD_SIGMOID;
        spec.alpha = ab.first;
        spec.beta = ab.second;
        const std::vector<int64_t> sizes{int64_t(rng.range(1, 300))};
        Operands io{make_buffer(dt, sizes, random_layout(rng, sizes, Role::Input), Role::Input), nullptr,
                    nullptr, make_buffer(dt, sizes, random_layout(rng, sizes, Role::Output), Role::Output)};
        io.x.fill([&rng](int64_t) { return rng.uniform(-8, 8); });
        log.record(index, run_and_check(spec, io, /*one_shot=*/index % 2 == 0));
        ++index;
    }
}

INSTANTIATE_TEST_SUITE_P(AllDtypes, HardSigmoidParams, testing::ValuesIn(kDtypes), dtype_param_name);

}  // namespace
