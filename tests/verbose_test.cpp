// SIMDAX_VERBOSE and simdax_operator_describe (issue 17, item 10): one INFO
// line per create (level 1) and per execute (level 2) through the log
// callback, and the same description from the C function.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "simdax/simdax.h"
#include "verbose.hpp"  // internal: set_verbose_level (the level is read once from the environment)

namespace {

struct Lines {
    std::vector<std::pair<simdax_log_level, std::string>> v;
};
void capture(void* user, simdax_log_level level, const char* message) {
    static_cast<Lines*>(user)->v.emplace_back(level, message);
}

// Installs the capture and a verbose level; restores both.
struct Verbose {
    int before = simdax::verbose_level();
    Verbose(Lines* lines, int level) {
        simdax::set_verbose_level(level);
        simdax_set_log_callback(capture, lines);
    }
    ~Verbose() {
        simdax_set_log_callback(nullptr, nullptr);
        simdax::set_verbose_level(before);
    }
};

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

std::string describe(const simdax_operator* op) {
    const size_t n = simdax_operator_describe(op, nullptr, 0);
    std::string s(n, '\0');
    std::vector<char> buf(n + 1);
    EXPECT_EQ(simdax_operator_describe(op, buf.data(), buf.size()), n);
    return std::string(buf.data());
}

simdax_operator* log_softmax_128x1000() {
    static const int64_t sizes[2] = {128, 1000};
    static const simdax_tensor_desc t{SIMDAX_DTYPE_FLOAT32, 2, sizes, nullptr};
    static const uint32_t axes[1] = {1};
    static const simdax_axes_op_desc d{&t, &t, 1, axes};
    const simdax_operator_desc od{SIMDAX_OPERATOR_LOG_SOFTMAX, &d};
    simdax_operator* op = nullptr;
    EXPECT_EQ(simdax_operator_create(&od, &op), SIMDAX_OK) << simdax_last_error();
    return op;
}

// At a verbose level: creates the LogSoftmax and executes it `runs` times.
simdax_operator* create_and_execute(Lines* lines, int level, int runs) {
    Verbose v(lines, level);
    simdax_operator* op = log_softmax_128x1000();
    std::vector<float> x(128 * 1000), y(x.size());
    const simdax_bindings b{x.data(), nullptr, nullptr, y.data()};
    for (int i = 0; i < runs; ++i) EXPECT_EQ(simdax_operator_execute(op, &b), SIMDAX_OK);
    return op;
}

TEST(Verbose, LevelOneLogsEachCreate) {
    Lines lines;
    simdax_operator* op = create_and_execute(&lines, 1, 1);  // the execute is not logged
    ASSERT_EQ(lines.v.size(), 1u);
    EXPECT_EQ(lines.v[0].first, SIMDAX_LOG_INFO);
    const std::string& line = lines.v[0].second;
    const std::string isa = std::string("isa=") + simdax_isa_name(simdax_operator_isa(op));
    for (const std::string part :
         {"create op=LogSoftmax", "dtype=float32", "shape=128x1000", "axes=1", isa.c_str(), "form=rows",
          "groups=128", "group_size=1000", "passes=reduce+write", "split=parts:1x1000"})
        EXPECT_TRUE(has(line, part)) << "'" << part << "' missing from: " << line;
    EXPECT_EQ(line, "create " + describe(op));
    simdax_operator_destroy(op);
}

TEST(Verbose, LevelTwoLogsEachExecuteAndLevelZeroNothing) {
    Lines lines;
    simdax_operator* op = create_and_execute(&lines, 2, 2);
    ASSERT_EQ(lines.v.size(), 3u);
    const std::string prefix = "execute " + describe(op) + " threads=1 time_ns=";
    EXPECT_EQ(lines.v[1].second.rfind(prefix, 0), 0u) << lines.v[1].second;
    EXPECT_EQ(lines.v[2].second.rfind(prefix, 0), 0u) << lines.v[2].second;
    Lines quiet;
    {
        Verbose v(&quiet, 0);
        simdax_operator* op2 = log_softmax_128x1000();
        simdax_operator_destroy(op2);
    }
    EXPECT_TRUE(quiet.v.empty());
    simdax_operator_destroy(op);
}

// Each loop form, passes and split, and the operators' parameters.
TEST(Describe, FormsPassesSplitsAndParameters) {
    const int64_t big[2] = {2, 1 << 17}, cube[3] = {4, 6, 8};
    const int64_t transposed_strides[3] = {1, 4, 24};
    const simdax_tensor_desc tb{SIMDAX_DTYPE_FLOAT16, 2, big, nullptr};
    const simdax_tensor_desc tc{SIMDAX_DTYPE_FLOAT32, 3, cube, nullptr};
    const simdax_tensor_desc tt{SIMDAX_DTYPE_FLOAT32, 3, cube, transposed_strides};
    const uint32_t last[1] = {1}, middle[1] = {1}, first_last[2] = {2, 0};
    auto make = [](simdax_operator_type type, const void* d) {
        const simdax_operator_desc od{type, d};
        simdax_operator* op = nullptr;
        EXPECT_EQ(simdax_operator_create(&od, &op), SIMDAX_OK) << simdax_last_error();
        std::string s = describe(op);
        simdax_operator_destroy(op);
        return s;
    };
    // A group of 2^17 elements is reduced in parts.
    const simdax_axes_op_desc split{&tb, &tb, 1, last};
    std::string s = make(SIMDAX_OPERATOR_SOFTMAX, &split);
    EXPECT_TRUE(has(s, "op=Softmax dtype=float16 shape=2x131072 axes=1")) << s;
    EXPECT_TRUE(has(s, "passes=reduce+combine+write split=parts:2x65536")) << s;
    // Reducing the middle dim of a packed [4,6,8]: the cols form.
    const simdax_axes_op_desc cols{&tc, &tc, 1, middle};
    s = make(SIMDAX_OPERATOR_HARDMAX, &cols);
    EXPECT_TRUE(has(s, "form=cols")) << s;
    EXPECT_TRUE(has(s, "lanes=8")) << s;
    EXPECT_TRUE(has(s, "split=lane_blocks:256")) << s;
    // Axes {0,2} into a transposed output: the general form, strides shown.
    const simdax_axes_op_desc general{&tc, &tt, 2, first_last};
    s = make(SIMDAX_OPERATOR_LOG_SOFTMAX, &general);
    EXPECT_TRUE(has(s, "axes=0,2")) << s;
    EXPECT_TRUE(has(s, "output_strides=1,4,24")) << s;
    EXPECT_FALSE(has(s, "input_strides")) << s;
    EXPECT_TRUE(has(s, "form=general")) << s;
    // MVN with a broadcast scale and a fused activation.
    const int64_t scale_sizes[3] = {1, 6, 1};
    const simdax_tensor_desc ts{SIMDAX_DTYPE_FLOAT32, 3, scale_sizes, nullptr};
    const simdax_activation_desc leaky{SIMDAX_ACTIVATION_LEAKY_RELU, 0.5f, 0, 0};
    const uint32_t mvn_axes[1] = {2};
    const simdax_mvn_desc mvn{&tc, &ts, nullptr, &tc, 1, mvn_axes, 0, 0.25f, &leaky};
    s = make(SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, &mvn);
    EXPECT_TRUE(has(s,
                    "op=MeanVarianceNormalization dtype=float32 shape=4x6x8 axes=2 scale=1x6x1 "
                    "bias=none normalize_variance=0 epsilon=0.25 epsilon_placement=variance "
                    "activation=leaky_relu,alpha:0.5"))
        << s;
    // Element-wise: one pass, no axes.
    const simdax_hard_sigmoid_desc hs{&tc, &tc, 0.25f, 0.5f};
    s = make(SIMDAX_OPERATOR_HARD_SIGMOID, &hs);
    EXPECT_TRUE(
        has(s, "op=HardSigmoid dtype=float32 shape=4x6x8 activation=hard_sigmoid,alpha:0.25,beta:0.5"))
        << s;
    EXPECT_TRUE(has(s, "passes=write")) << s;
    EXPECT_FALSE(has(s, "axes=")) << s;
}

// snprintf semantics: the full length, a truncated NUL-terminated copy.
TEST(Describe, TruncatesLikeSnprintf) {
    simdax_operator* op = log_softmax_128x1000();
    const std::string full = describe(op);
    ASSERT_GT(full.size(), 10u);
    char small[8];
    std::memset(small, 'x', sizeof small);
    EXPECT_EQ(simdax_operator_describe(op, small, sizeof small), full.size());
    EXPECT_EQ(std::string(small), full.substr(0, 7));
    EXPECT_EQ(simdax_operator_describe(nullptr, small, sizeof small), 0u);
    EXPECT_STREQ(small, "");
    simdax_operator_destroy(op);
}

}  // namespace
