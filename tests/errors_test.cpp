// One row per bad input of docs/spec.md "Errors": each checks the status, that
// simdax_last_error() names the argument, and that nothing was written
// (a canary-filled output stays bit-identical). Rows start from a valid
// call and break exactly one thing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "simdax/simdax.h"

namespace {

constexpr float kNaNf = std::numeric_limits<float>::quiet_NaN();
constexpr float kInff = std::numeric_limits<float>::infinity();

enum class Kind { Softmax, LogSoftmax, Hardmax, Mvn, MvnEx, HardSigmoid, Activation };

// A valid call of every kind on a [3,4] float32 tensor; rows mutate it.
struct Fixture {
    int64_t in_sizes[16] = {3, 4};
    int64_t out_sizes[16] = {3, 4};
    int64_t sc_sizes[16] = {1, 4};
    int64_t bi_sizes[16] = {3, 1};
    int64_t in_strides[16] = {};
    int64_t out_strides[16] = {};
    simdax_tensor_desc in{SIMDAX_DTYPE_FLOAT32, 2, in_sizes, nullptr};
    simdax_tensor_desc out{SIMDAX_DTYPE_FLOAT32, 2, out_sizes, nullptr};
    simdax_tensor_desc scale{SIMDAX_DTYPE_FLOAT32, 2, sc_sizes, nullptr};
    simdax_tensor_desc bias{SIMDAX_DTYPE_FLOAT32, 2, bi_sizes, nullptr};
    uint32_t axes[16] = {1};
    simdax_axes_op_desc sm{&in, &out, 1, axes};
    simdax_activation_desc fused{SIMDAX_ACTIVATION_RELU, 0.f, 0.f, 0.f};
    simdax_mvn_desc mvn{&in, &scale, &bias, &out, 1, axes, 1, 1e-5f, &fused};
    simdax_mvn_ex_desc mvn_ex{mvn, SIMDAX_EPSILON_ON_STDDEV};
    simdax_hard_sigmoid_desc hs{&in, &out, 0.2f, 0.5f};
    simdax_activation_op_desc act{&in, &out, {SIMDAX_ACTIVATION_TANH, 0.f, 0.f, 0.f}};
    simdax_operator_desc op{SIMDAX_OPERATOR_SOFTMAX, &sm};
    Kind kind = Kind::Softmax;
    // Generous buffers: a wrongly accepted call still stays in bounds.
    alignas(64) float x[512], y[512], s[512], b[512];
    unsigned char y_before[sizeof(y)], x_before[sizeof(x)];

    explicit Fixture(Kind k) : kind(k) {
        for (int i = 0; i < 512; ++i) {
            x[i] = float(i % 13) * 0.25f - 1.f;
            s[i] = 1.5f;
            b[i] = 0.25f;
            const uint32_t canary = 0x7FA5A5A5u;  // signalling NaN, no kernel makes it
            std::memcpy(&y[i], &canary, 4);
        }
        switch (k) {
            case Kind::Softmax: op = {SIMDAX_OPERATOR_SOFTMAX, &sm}; break;
            case Kind::LogSoftmax: op = {SIMDAX_OPERATOR_LOG_SOFTMAX, &sm}; break;
            case Kind::Hardmax: op = {SIMDAX_OPERATOR_HARDMAX, &sm}; break;
            case Kind::Mvn: op = {SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, &mvn}; break;
            case Kind::MvnEx: op = {SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION_EX, &mvn_ex}; break;
            case Kind::HardSigmoid: op = {SIMDAX_OPERATOR_HARD_SIGMOID, &hs}; break;
            case Kind::Activation: op = {SIMDAX_OPERATOR_ACTIVATION, &act}; break;
        }
    }
    Fixture(const Fixture&) = delete;
    void snapshot() {
        std::memcpy(y_before, y, sizeof(y));
        std::memcpy(x_before, x, sizeof(x));
    }
    bool y_untouched() const { return std::memcmp(y_before, y, sizeof(y)) == 0; }
    bool x_untouched() const { return std::memcmp(x_before, x, sizeof(x)) == 0; }

    simdax_status one_shot() {
        switch (kind) {
            case Kind::Softmax: return simdax_softmax(&sm, x, y);
            case Kind::LogSoftmax: return simdax_log_softmax(&sm, x, y);
            case Kind::Hardmax: return simdax_hardmax(&sm, x, y);
            case Kind::Mvn: return simdax_mean_variance_normalization(&mvn, x, s, b, y);
            case Kind::MvnEx: return simdax_mean_variance_normalization_ex(&mvn_ex, x, s, b, y);
            case Kind::HardSigmoid: return simdax_hard_sigmoid(&hs, x, y);
            case Kind::Activation: return simdax_activation(&act, x, y);
        }
        return SIMDAX_OK;
    }
    simdax_bindings bindings() { return {x, s, b, y}; }
};

bool message_names(const std::vector<std::string>& keys, std::string* msg) {
    *msg = simdax_last_error();
    std::string lower = *msg;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    for (const auto& k : keys)
        if (lower.find(k) != std::string::npos) return true;
    return false;
}

std::string keys_string(const std::vector<std::string>& keys) {
    std::string s;
    for (const auto& k : keys) s += (s.empty() ? "\"" : " or \"") + k + "\"";
    return s;
}

// ------------------------------------------------ errors found by create
struct CreateRow {
    const char* name;
    Kind kind;
    simdax_status expected;
    std::vector<std::string> keys;  // the message must contain one (lowercase)
    std::function<void(Fixture&)> mutate;
    bool one_shot = true;  // false where a wrongly accepted call would run off the buffers
};

void PrintTo(const CreateRow& r, std::ostream* os) { *os << r.name; }

// A mutation giving the [rows, cols] output these strides.
std::function<void(Fixture&)> output_strides(int64_t rows, int64_t cols) {
    return [rows, cols](Fixture& f) {
        f.out_strides[0] = rows;
        f.out_strides[1] = cols;
        f.out.strides = f.out_strides;
    };
}

std::vector<CreateRow> create_rows() {
    using F = Fixture;
    const int64_t big32 = int64_t(1) << 32, big31 = int64_t(1) << 31;
    return {
        {"NullOperatorDescPointer",
         Kind::Softmax,
         SIMDAX_ERROR_NULL_POINTER,
         {"desc"},
         [](F& f) { f.op.desc = nullptr; },
         false},
        {"NullInputDesc",
         Kind::Softmax,
         SIMDAX_ERROR_NULL_POINTER,
         {"input"},
         [](F& f) { f.sm.input = nullptr; }},
        {"NullOutputDesc",
         Kind::Softmax,
         SIMDAX_ERROR_NULL_POINTER,
         {"output"},
         [](F& f) { f.sm.output = nullptr; }},
        {"NullSizes",
         Kind::Softmax,
         SIMDAX_ERROR_NULL_POINTER,
         {"sizes"},
         [](F& f) { f.in.sizes = nullptr; }},
        {"MvnNullInputDesc",
         Kind::Mvn,
         SIMDAX_ERROR_NULL_POINTER,
         {"input"},
         [](F& f) { f.mvn.input = nullptr; }},
        {"MvnNullOutputDesc",
         Kind::Mvn,
         SIMDAX_ERROR_NULL_POINTER,
         {"output"},
         [](F& f) { f.mvn.output = nullptr; }},
        {"HardSigmoidNullInputDesc",
         Kind::HardSigmoid,
         SIMDAX_ERROR_NULL_POINTER,
         {"input"},
         [](F& f) { f.hs.input = nullptr; }},
        {"ActivationNullOutputDesc",
         Kind::Activation,
         SIMDAX_ERROR_NULL_POINTER,
         {"output"},
         [](F& f) { f.act.output = nullptr; }},
        {"Rank0",
         Kind::Softmax,
         SIMDAX_ERROR_INVALID_ARGUMENT,
         {"rank"},
         [](F& f) { f.in.rank = f.out.rank = 0; }},
        {"Rank9",
         Kind::Softmax,
         SIMDAX_ERROR_INVALID_ARGUMENT,
         {"rank"},
         [](F& f) {
             for (int d = 0; d < 9; ++d) f.in_sizes[d] = f.out_sizes[d] = 1;
             f.in.rank = f.out.rank = 9;
         }},
        {"NegativeSize",
         Kind::Softmax,
         SIMDAX_ERROR_INVALID_ARGUMENT,
         {"size"},
         [](F& f) { f.in_sizes[0] = f.out_sizes[0] = -3; },
         false},
        {"ElementCountOverflow",
         Kind::Softmax,
         SIMDAX_ERROR_OVERFLOW,
         {"size", "count", "input"},
         [=](F& f) { f.in_sizes[0] = f.out_sizes[0] = f.in_sizes[1] = f.out_sizes[1] = big32; },
         false},
        {"ElementCountOverflowRank3",
         Kind::Softmax,
         SIMDAX_ERROR_OVERFLOW,
         {"size", "count", "input"},
         [=](F& f) {
             f.in.rank = f.out.rank = 3;
             f.in_sizes[0] = f.out_sizes[0] = 3;
             f.in_sizes[1] = f.out_sizes[1] = big32;
             f.in_sizes[2] = f.out_sizes[2] = big32 / 2;
         },
         false},
        {"ByteSizeOverflow",
         Kind::Softmax,
         SIMDAX_ERROR_OVERFLOW,
         {"size", "byte", "input"},
         // 2^62 elements fit in int64; 2^62 * 4 bytes do not.
         [=](F& f) { f.in_sizes[0] = f.out_sizes[0] = f.in_sizes[1] = f.out_sizes[1] = big31; },
         false},
        {"StrideOffsetOverflow",
         Kind::Softmax,
         SIMDAX_ERROR_OVERFLOW,
         {"stride", "input", "offset"},
         [](F& f) {
             f.in_strides[0] = int64_t(1) << 62;
             f.in_strides[1] = 1;
             f.in.strides = f.in_strides;
         },
         false},
        {"RankMismatch",
         Kind::Softmax,
         SIMDAX_ERROR_SHAPE_MISMATCH,
         {"output", "rank"},
         [](F& f) {
             f.out.rank = 3;
             f.out_sizes[2] = 1;
         }},
        {"SizeMismatch",
         Kind::Softmax,
         SIMDAX_ERROR_SHAPE_MISMATCH,
         {"output", "size"},
         [](F& f) { f.out_sizes[1] = 5; }},
        {"DtypeMismatch",
         Kind::Softmax,
         SIMDAX_ERROR_DTYPE_MISMATCH,
         {"output", "dtype"},
         [](F& f) { f.out.dtype = SIMDAX_DTYPE_FLOAT16; }},
        {"HardSigmoidDtypeMismatch",
         Kind::HardSigmoid,
         SIMDAX_ERROR_DTYPE_MISMATCH,
         {"output", "dtype"},
         [](F& f) { f.out.dtype = SIMDAX_DTYPE_FLOAT64; }},
        {"UnknownInputDtype",
         Kind::Softmax,
         SIMDAX_ERROR_INVALID_ARGUMENT,
         {"dtype"},
         [](F& f) { f.in.dtype = f.out.dtype = simdax_dtype(0); }},
        {"UnknownDtype99",
         Kind::Activation,
         SIMDAX_ERROR_INVALID_ARGUMENT,
         {"dtype"},
         [](F& f) { f.in.dtype = f.out.dtype = simdax_dtype(99); }},
        {"EmptyAxes",
         Kind::Softmax,
         SIMDAX_ERROR_INVALID_AXES,
         {"axes", "axis"},
         [](F& f) { f.sm.axis_count = 0; }},
        {"NullAxes", Kind::Softmax, SIMDAX_ERROR_NULL_POINTER, {"axes"}, [](F& f) { f.sm.axes = nullptr; }},
        {"RepeatedAxis",
         Kind::Softmax,
         SIMDAX_ERROR_INVALID_AXES,
         {"axes", "axis"},
         [](F& f) {
             f.axes[0] = f.axes[1] = 1;
             f.sm.axis_count = 2;
         }},
        {"OutOfRangeAxis",
         Kind::Softmax,
         SIMDAX_ERROR_INVALID_AXES,
         {"axes", "axis"},
         [](F& f) { f.axes[0] = 2; }},
        {"HugeAxis",
         Kind::Softmax,
         SIMDAX_ERROR_INVALID_AXES,
         {"axes", "axis"},
         [](F& f) { f.axes[0] = 0xFFFFFFFFu; }},
        {"MoreAxesThanRank",
         Kind::Softmax,
         SIMDAX_ERROR_INVALID_AXES,
         {"axes", "axis"},
         [](F& f) {
             f.axes[0] = 0;
             f.axes[1] = 1;
             f.axes[2] = 0;
             f.sm.axis_count = 3;
         }},
        {"LogSoftmaxOutOfRangeAxis",
         Kind::LogSoftmax,
         SIMDAX_ERROR_INVALID_AXES,
         {"axes", "axis"},
         [](F& f) { f.axes[0] = 5; }},
        {"HardmaxRepeatedAxis",
         Kind::Hardmax,
         SIMDAX_ERROR_INVALID_AXES,
         {"axes", "axis"},
         [](F& f) {
             f.axes[0] = 0;
             f.axes[1] = 1;
             f.axes[2] = 0;
             f.sm.axis_count = 3;
             f.in.rank = f.out.rank = 3;
             f.in_sizes[2] = f.out_sizes[2] = 1;
         }},
        {"MvnEmptyAxes",
         Kind::Mvn,
         SIMDAX_ERROR_INVALID_AXES,
         {"axes", "axis"},
         [](F& f) { f.mvn.axis_count = 0; }},
        {"MvnOutOfRangeAxis",
         Kind::Mvn,
         SIMDAX_ERROR_INVALID_AXES,
         {"axes", "axis"},
         [](F& f) { f.axes[0] = 7; }},
        {"ScaleSizeNeitherInputNorOne",
         Kind::Mvn,
         SIMDAX_ERROR_SHAPE_MISMATCH,
         {"scale"},
         [](F& f) { f.sc_sizes[1] = 2; }},
        {"BiasSizeNeitherInputNorOne",
         Kind::Mvn,
         SIMDAX_ERROR_SHAPE_MISMATCH,
         {"bias"},
         [](F& f) { f.bi_sizes[0] = 2; }},
        {"ScaleSizeZero", Kind::Mvn, SIMDAX_ERROR_SHAPE_MISMATCH, {"scale"}, [](F& f) { f.sc_sizes[1] = 0; }},
        {"ScaleRankMismatch",
         Kind::Mvn,
         SIMDAX_ERROR_SHAPE_MISMATCH,
         {"scale"},
         [](F& f) {
             f.scale.rank = 3;
             f.sc_sizes[2] = 1;
         }},
        {"BiasRankMismatch", Kind::Mvn, SIMDAX_ERROR_SHAPE_MISMATCH, {"bias"}, [](F& f) { f.bias.rank = 1; }},
        {"ScaleDtypeMismatch",
         Kind::Mvn,
         SIMDAX_ERROR_DTYPE_MISMATCH,
         {"scale"},
         [](F& f) { f.scale.dtype = SIMDAX_DTYPE_FLOAT16; }},
        {"BiasDtypeMismatch",
         Kind::Mvn,
         SIMDAX_ERROR_DTYPE_MISMATCH,
         {"bias"},
         [](F& f) { f.bias.dtype = SIMDAX_DTYPE_FLOAT64; }},
        {"ScaleUnknownDtype",
         Kind::Mvn,
         SIMDAX_ERROR_INVALID_ARGUMENT,
         {"scale"},
         [](F& f) { f.scale.dtype = simdax_dtype(42); }},
        {"NegativeEpsilon",
         Kind::Mvn,
         SIMDAX_ERROR_INVALID_ARGUMENT,
         {"epsilon"},
         [](F& f) { f.mvn.epsilon = -1e-3f; }},
        {"NanEpsilon",
         Kind::Mvn,
         SIMDAX_ERROR_INVALID_ARGUMENT,
         {"epsilon"},
         [](F& f) { f.mvn.epsilon = kNaNf; }},
        {"InfEpsilon",
         Kind::Mvn,
         SIMDAX_ERROR_INVALID_ARGUMENT,
         {"epsilon"},
         [](F& f) { f.mvn.epsilon = kInff; }},
        {"MinusInfEpsilon",
         Kind::Mvn,
         SIMDAX_ERROR_INVALID_ARGUMENT,
         {"epsilon"},
         [](F& f) { f.mvn.epsilon = -kInff; }},
        {"MvnExUnknownEpsilonPlacement",
         Kind::MvnEx,
         SIMDAX_ERROR_INVALID_ARGUMENT,
         {"epsilon_placement"},
         [](F& f) { f.mvn_ex.epsilon_placement = simdax_epsilon_placement(2); }},
        {"MvnExNegativeEpsilonPlacement",
         Kind::MvnEx,
         SIMDAX_ERROR_INVALID_ARGUMENT,
         {"epsilon_placement"},
         [](F& f) { f.mvn_ex.epsilon_placement = simdax_epsilon_placement(-1); }},
        {"MvnExNegativeEpsilon",
         Kind::MvnEx,
         SIMDAX_ERROR_INVALID_ARGUMENT,
         {"epsilon"},
         [](F& f) { f.mvn_ex.mvn.epsilon = -1e-3f; }},
        {"MvnExBadNormalizeVariance",
         Kind::MvnEx,
         SIMDAX_ERROR_INVALID_ARGUMENT,
         {"normalize_variance"},
         [](F& f) { f.mvn_ex.mvn.normalize_variance = 2; }},
        {"MvnExNullInputDesc",
         Kind::MvnEx,
         SIMDAX_ERROR_NULL_POINTER,
         {"input"},
         [](F& f) { f.mvn_ex.mvn.input = nullptr; }},
        {"MvnUnknownFusedActivation",
         Kind::Mvn,
         SIMDAX_ERROR_INVALID_ARGUMENT,
         {"activation"},
         [](F& f) { f.fused.type = simdax_activation_type(SIMDAX_ACTIVATION_COUNT); }},
        {"MvnNegativeFusedActivation",
         Kind::Mvn,
         SIMDAX_ERROR_INVALID_ARGUMENT,
         {"activation"},
         [](F& f) { f.fused.type = simdax_activation_type(-1); }},
        {"UnknownActivation",
         Kind::Activation,
         SIMDAX_ERROR_INVALID_ARGUMENT,
         {"activation", "type"},
         [](F& f) { f.act.activation.type = simdax_activation_type(SIMDAX_ACTIVATION_COUNT); }},
        {"UnknownActivation1000",
         Kind::Activation,
         SIMDAX_ERROR_INVALID_ARGUMENT,
         {"activation", "type"},
         [](F& f) { f.act.activation.type = simdax_activation_type(1000); }},
        {"UnknownOperatorType",
         Kind::Softmax,
         SIMDAX_ERROR_INVALID_ARGUMENT,
         {"type", "operator"},
         [](F& f) { f.op.type = simdax_operator_type(0); },
         false},
        {"UnknownOperatorType99",
         Kind::Softmax,
         SIMDAX_ERROR_INVALID_ARGUMENT,
         {"type", "operator"},
         [](F& f) { f.op.type = simdax_operator_type(99); },
         false},
        {"HardSigmoidNanAlpha",
         Kind::HardSigmoid,
         SIMDAX_ERROR_INVALID_ARGUMENT,
         {"alpha"},
         [](F& f) { f.hs.alpha = kNaNf; }},
        {"HardSigmoidInfAlpha",
         Kind::HardSigmoid,
         SIMDAX_ERROR_INVALID_ARGUMENT,
         {"alpha"},
         [](F& f) { f.hs.alpha = kInff; }},
        {"HardSigmoidNanBeta",
         Kind::HardSigmoid,
         SIMDAX_ERROR_INVALID_ARGUMENT,
         {"beta"},
         [](F& f) { f.hs.beta = kNaNf; }},
        {"HardSigmoidMinusInfBeta",
         Kind::HardSigmoid,
         SIMDAX_ERROR_INVALID_ARGUMENT,
         {"beta"},
         [](F& f) { f.hs.beta = -kInff; }},
        {"OutputStrideZero", Kind::Softmax, SIMDAX_ERROR_OVERLAP, {"output"}, output_strides(4, 0)},
        {"OutputRowsOverlap",
         Kind::Softmax,
         SIMDAX_ERROR_OVERLAP,
         {"output"},
         output_strides(2, 1)},  // rows of 4 elements, 2 apart
        {"OutputDiagonalOverlap", Kind::HardSigmoid, SIMDAX_ERROR_OVERLAP, {"output"}, output_strides(1, 1)},
        {"OutputNegativeStrideOverlap",
         Kind::Activation,
         SIMDAX_ERROR_OVERLAP,
         {"output"},
         // (0,2) and (1,0)..: offsets {0,-1,-2,-3} and {2,1,0,-1} meet.
         output_strides(2, -1)},
        {"MvnOutputStrideZero", Kind::Mvn, SIMDAX_ERROR_OVERLAP, {"output"}, output_strides(0, 1)},
        {"OutputTransposedOverlap3d",
         Kind::LogSoftmax,
         SIMDAX_ERROR_OVERLAP,
         {"output"},
         // [3,4,2]: dim 2 steps 1, dim 1 steps 2, dim 0 steps 4 < 4*2.
         [](F& f) {
             f.in.rank = f.out.rank = 3;
             f.in_sizes[2] = f.out_sizes[2] = 2;
             f.out_strides[0] = 4;
             f.out_strides[1] = 2;
             f.out_strides[2] = 1;
             f.out.strides = f.out_strides;
         }},
    };
}

// The unmutated fixture is valid for every kind, so each row fails for the
// one thing it breaks.
TEST(ErrorsFixture, BaselineIsValid) {
    for (Kind k : {Kind::Softmax, Kind::LogSoftmax, Kind::Hardmax, Kind::Mvn, Kind::MvnEx, Kind::HardSigmoid,
                   Kind::Activation}) {
        Fixture f(k);
        f.snapshot();
        simdax_operator* op = nullptr;
        ASSERT_EQ(simdax_operator_create(&f.op, &op), SIMDAX_OK) << int(k) << " " << simdax_last_error();
        const simdax_bindings b = f.bindings();
        EXPECT_EQ(simdax_operator_execute(op, &b), SIMDAX_OK) << int(k) << " " << simdax_last_error();
        simdax_operator_destroy(op);
        EXPECT_FALSE(f.y_untouched()) << int(k) << " wrote nothing";
        EXPECT_EQ(f.one_shot(), SIMDAX_OK) << int(k) << " " << simdax_last_error();
    }
}

class CreateErrors : public testing::TestWithParam<CreateRow> {};

TEST_P(CreateErrors, RejectedWithMessageAndNoWrite) {
    const CreateRow& row = GetParam();
    Fixture f(row.kind);
    row.mutate(f);
    f.snapshot();
    simdax_operator* op = nullptr;
    const simdax_status st = simdax_operator_create(&f.op, &op);
    std::string msg;
    EXPECT_EQ(st, row.expected) << "create returned " << simdax_status_name(st) << ": "
                                << simdax_last_error();
    EXPECT_TRUE(op == nullptr) << "create failed but handed out an operator";
    EXPECT_TRUE(message_names(row.keys, &msg))
        << "message \"" << msg << "\" should name " << keys_string(row.keys);
    if (st == SIMDAX_OK) simdax_operator_destroy(op);
    if (!row.one_shot || st == SIMDAX_OK) return;  // never run a call the library accepted wrongly
    const simdax_status st1 = f.one_shot();
    EXPECT_EQ(st1, row.expected) << "one-shot returned " << simdax_status_name(st1);
    EXPECT_TRUE(message_names(row.keys, &msg))
        << "one-shot message \"" << msg << "\" should name " << keys_string(row.keys);
    EXPECT_TRUE(f.y_untouched()) << "the output was written by a failing call";
    EXPECT_TRUE(f.x_untouched()) << "the input was written";
}

INSTANTIATE_TEST_SUITE_P(Rows, CreateErrors, testing::ValuesIn(create_rows()),
                         [](const testing::TestParamInfo<CreateRow>& i) {
                             return std::string(i.param.name);
                         });

// ----------------------------------------------- call-level null pointers
TEST(CallErrors, NullDescriptorToCreate) {
    simdax_operator* op = nullptr;
    EXPECT_EQ(simdax_operator_create(nullptr, &op), SIMDAX_ERROR_NULL_POINTER);
    EXPECT_TRUE(op == nullptr);
    std::string msg;
    EXPECT_TRUE(message_names({"desc"}, &msg)) << msg;
}

TEST(CallErrors, NullOperatorOutPointer) {
    Fixture f(Kind::Softmax);
    EXPECT_EQ(simdax_operator_create(&f.op, nullptr), SIMDAX_ERROR_NULL_POINTER);
    std::string msg;
    EXPECT_TRUE(message_names({"op"}, &msg)) << msg;
}

TEST(CallErrors, NullDescriptorToOneShot) {
    Fixture f(Kind::Softmax);
    f.snapshot();
    std::string msg;
    EXPECT_EQ(simdax_softmax(nullptr, f.x, f.y), SIMDAX_ERROR_NULL_POINTER);
    EXPECT_TRUE(message_names({"desc"}, &msg)) << msg;
    EXPECT_EQ(simdax_log_softmax(nullptr, f.x, f.y), SIMDAX_ERROR_NULL_POINTER);
    EXPECT_EQ(simdax_hardmax(nullptr, f.x, f.y), SIMDAX_ERROR_NULL_POINTER);
    EXPECT_EQ(simdax_mean_variance_normalization(nullptr, f.x, f.s, f.b, f.y), SIMDAX_ERROR_NULL_POINTER);
    EXPECT_EQ(simdax_hard_sigmoid(nullptr, f.x, f.y), SIMDAX_ERROR_NULL_POINTER);
    EXPECT_EQ(simdax_activation(nullptr, f.x, f.y), SIMDAX_ERROR_NULL_POINTER);
    EXPECT_TRUE(f.y_untouched());
}

// ----------------------------------------------- errors found by execute
struct ExecRow {
    const char* name;
    Kind kind;
    simdax_status expected;
    std::vector<std::string> keys;
    std::function<void(Fixture&)> mutate;  // before create (e.g. strides)
    std::function<simdax_status(Fixture&, const simdax_operator*)> call;
    bool check_x = false;  // the output is the input buffer: x must stay intact
};

void PrintTo(const ExecRow& r, std::ostream* os) { *os << r.name; }

std::vector<ExecRow> exec_rows() {
    using F = Fixture;
    auto none = [](F&) {};
    // Execute with the fixture's bindings changed by `change`.
    auto with_bindings = [](auto change) {
        return [change](F& f, const simdax_operator* op) {
            simdax_bindings b = f.bindings();
            change(f, b);
            return simdax_operator_execute(op, &b);
        };
    };
    return {
        {"NullBindings",
         Kind::Softmax,
         SIMDAX_ERROR_NULL_POINTER,
         {"bindings"},
         none,
         [](F&, const simdax_operator* op) { return simdax_operator_execute(op, nullptr); }},
        {"NullOperator",
         Kind::Softmax,
         SIMDAX_ERROR_NULL_POINTER,
         {"op"},
         none,
         [](F& f, const simdax_operator*) {
             const simdax_bindings b = f.bindings();
             return simdax_operator_execute(nullptr, &b);
         }},
        {"NullInputBuffer",
         Kind::Softmax,
         SIMDAX_ERROR_NULL_POINTER,
         {"input"},
         none,
         with_bindings([](F&, simdax_bindings& b) { b.input = nullptr; })},
        {"NullOutputBuffer",
         Kind::Softmax,
         SIMDAX_ERROR_NULL_POINTER,
         {"output"},
         none,
         with_bindings([](F&, simdax_bindings& b) { b.output = nullptr; })},
        {"HardSigmoidNullInputBuffer",
         Kind::HardSigmoid,
         SIMDAX_ERROR_NULL_POINTER,
         {"input"},
         none,
         with_bindings([](F&, simdax_bindings& b) { b.input = nullptr; })},
        {"MvnNullScaleBuffer",
         Kind::Mvn,
         SIMDAX_ERROR_NULL_POINTER,
         {"scale"},
         none,
         with_bindings([](F&, simdax_bindings& b) { b.scale = nullptr; })},
        {"MvnNullBiasBuffer",
         Kind::Mvn,
         SIMDAX_ERROR_NULL_POINTER,
         {"bias"},
         none,
         with_bindings([](F&, simdax_bindings& b) { b.bias = nullptr; })},
        // An address off the element size: refused, not read as float.
        {"MisalignedInput",
         Kind::Softmax,
         SIMDAX_ERROR_INVALID_ARGUMENT,
         {"input", "element size"},
         none,
         with_bindings([](F& f, simdax_bindings& b) { b.input = reinterpret_cast<const char*>(f.x) + 1; })},
        {"MisalignedOutput",
         Kind::HardSigmoid,
         SIMDAX_ERROR_INVALID_ARGUMENT,
         {"output", "element size"},
         none,
         with_bindings([](F& f, simdax_bindings& b) { b.output = reinterpret_cast<char*>(f.y) + 2; })},
        {"MvnMisalignedScale",
         Kind::Mvn,
         SIMDAX_ERROR_INVALID_ARGUMENT,
         {"scale", "element size"},
         none,
         with_bindings([](F& f, simdax_bindings& b) { b.scale = reinterpret_cast<const char*>(f.s) + 3; })},
        {"MvnMisalignedBias",
         Kind::MvnEx,
         SIMDAX_ERROR_INVALID_ARGUMENT,
         {"bias", "element size"},
         none,
         with_bindings([](F& f, simdax_bindings& b) { b.bias = reinterpret_cast<const char*>(f.b) + 1; })},
        {"SoftmaxOutputShiftedIntoInput",
         Kind::Softmax,
         SIMDAX_ERROR_OVERLAP,
         {"output", "overlap"},
         none,
         with_bindings([](F& f, simdax_bindings& b) { b.output = f.x + 1; }),
         true},
        {"SoftmaxInputShiftedIntoOutput",
         Kind::Softmax,
         SIMDAX_ERROR_OVERLAP,
         {"output", "overlap"},
         none,
         with_bindings([](F& f, simdax_bindings& b) {
             b.input = f.x + 11;  // last input element = first output element
             b.output = f.x + 22;
         }),
         true},
        {"SoftmaxShiftedAlias",
         Kind::Softmax,
         SIMDAX_ERROR_OVERLAP,
         {"output", "overlap", "alias"},
         none,
         with_bindings([](F& f, simdax_bindings& b) { b.output = f.x + 1; }),
         true},
        {"LogSoftmaxShiftedAlias",
         Kind::LogSoftmax,
         SIMDAX_ERROR_OVERLAP,
         {"output", "overlap", "alias"},
         none,
         with_bindings([](F& f, simdax_bindings& b) { b.output = f.x + 1; }),
         true},
        {"MvnExactAlias",
         Kind::Mvn,
         SIMDAX_ERROR_OVERLAP,
         {"output", "overlap", "alias"},
         none,
         with_bindings([](F& f, simdax_bindings& b) { b.output = f.x; }),
         true},
        {"HardSigmoidShiftedAlias",
         Kind::HardSigmoid,
         SIMDAX_ERROR_OVERLAP,
         {"output", "overlap"},
         none,
         with_bindings([](F& f, simdax_bindings& b) { b.output = f.x + 1; }),
         true},
        {"HardSigmoidAliasWithOtherStrides",
         Kind::HardSigmoid,
         SIMDAX_ERROR_OVERLAP,
         {"output", "overlap"},
         output_strides(1, 3),  // output transposed: same pointer, different element mapping
         with_bindings([](F& f, simdax_bindings& b) { b.output = f.x; }),
         true},
        {"ActivationShiftedAlias",
         Kind::Activation,
         SIMDAX_ERROR_OVERLAP,
         {"output", "overlap"},
         none,
         with_bindings([](F& f, simdax_bindings& b) { b.output = f.x + 5; }),
         true},
    };
}

class ExecuteErrors : public testing::TestWithParam<ExecRow> {};

TEST_P(ExecuteErrors, RejectedWithMessageAndNoWrite) {
    const ExecRow& row = GetParam();
    Fixture f(row.kind);
    row.mutate(f);
    simdax_operator* op = nullptr;
    ASSERT_EQ(simdax_operator_create(&f.op, &op), SIMDAX_OK) << simdax_last_error();
    f.snapshot();
    const simdax_status st = row.call(f, op);
    std::string msg;
    EXPECT_EQ(st, row.expected) << "execute returned " << simdax_status_name(st);
    EXPECT_TRUE(message_names(row.keys, &msg))
        << "message \"" << msg << "\" should name " << keys_string(row.keys);
    EXPECT_TRUE(f.y_untouched()) << "the output buffer was written by a failing call";
    if (row.check_x) {
        EXPECT_TRUE(f.x_untouched()) << "the aliased input/output buffer was written by a failing call";
    }
    simdax_operator_destroy(op);
}

INSTANTIATE_TEST_SUITE_P(Rows, ExecuteErrors, testing::ValuesIn(exec_rows()),
                         [](const testing::TestParamInfo<ExecRow>& i) { return std::string(i.param.name); });

// The one-shot entry point applies the same overlap rule (the exact alias
// runs in place: softmax_in_place_test.cpp).
TEST(CallErrors, OneShotSoftmaxShiftedAliasRejected) {
    Fixture f(Kind::Softmax);
    f.snapshot();
    EXPECT_EQ(simdax_softmax(&f.sm, f.x, f.x + 3), SIMDAX_ERROR_OVERLAP);
    EXPECT_TRUE(f.x_untouched());
}

// MVN Scale/Bias are inputs too: the output must not overlap them.
TEST(CallErrors, MvnOutputOverlappingScale) {
    Fixture f(Kind::Mvn);
    f.snapshot();
    const unsigned char* sb = reinterpret_cast<const unsigned char*>(f.s);
    std::vector<unsigned char> before(sb, sb + sizeof(f.s));
    EXPECT_EQ(simdax_mean_variance_normalization(&f.mvn, f.x, f.s, f.b, f.s), SIMDAX_ERROR_OVERLAP);
    EXPECT_EQ(std::memcmp(before.data(), f.s, sizeof(f.s)), 0) << "scale buffer written";
}

// ------------------------------------------------------------------ ISA
TEST(IsaErrors, SetMaxIsaTheCpuLacks) {
#if defined(__x86_64__) || defined(_M_X64) || defined(__i386__)
    const simdax_isa foreign = SIMDAX_ISA_NEON;
#else
    const simdax_isa foreign = SIMDAX_ISA_AVX2;
#endif
    const simdax_isa before = simdax_active_isa();
    EXPECT_EQ(simdax_isa_supported(foreign), 0);
    EXPECT_EQ(simdax_set_max_isa(foreign), SIMDAX_ERROR_UNSUPPORTED);
    EXPECT_STRNE(simdax_last_error(), "");
    EXPECT_EQ(simdax_active_isa(), before) << "a failed set_max_isa changed the active ISA";
    EXPECT_NE(simdax_set_max_isa(simdax_isa(77)), SIMDAX_OK);
    EXPECT_STRNE(simdax_last_error(), "");
    EXPECT_EQ(simdax_active_isa(), before);
}

TEST(IsaErrors, IsaFromBogusName) {
    simdax_isa isa = SIMDAX_ISA_SCALAR;
    EXPECT_EQ(simdax_isa_from_name("bogus", &isa), SIMDAX_ERROR_INVALID_ARGUMENT);
    EXPECT_STRNE(simdax_last_error(), "");
    EXPECT_EQ(simdax_isa_from_name("", &isa), SIMDAX_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(simdax_isa_from_name("avx2 ", &isa), SIMDAX_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(simdax_isa_from_name(nullptr, &isa), SIMDAX_OK);
    EXPECT_NE(simdax_isa_from_name("avx2", nullptr), SIMDAX_OK);
}

}  // namespace
