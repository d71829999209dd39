// Conformance cases (tests/data/conformance, one test per index.json entry)
// and the simdax_case library that runs them: its number formats, its pass
// rule, synthetic cases for the parts of the format the public set does not
// use (strides, offsets, Scale/Bias, narrow and wide types, empty tensors),
// and its handling of broken cases.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "simdax/simdax.h"
#include "simdax_case.hpp"

namespace fs = std::filesystem;
using namespace simdax_case;

namespace simdax_case {
// Readable test parameters in gtest's output.
void PrintTo(const IndexEntry& entry, std::ostream* os) { *os << entry.name; }
}  // namespace simdax_case

namespace {

const fs::path kConformanceRoot = fs::path(SIMDAX_TEST_DATA_DIR) / "conformance";
constexpr std::size_t kConformanceCaseCount = 74;

// ------------------------------------------------------- the public set

std::vector<IndexEntry> conformance_index() {
    try {
        return load_index(kConformanceRoot);
    } catch (const CaseError&) {
        return {};  // ConformanceIndex.ListsEveryCase reports the error
    }
}

std::string test_name_for(const std::string& case_name) {
    std::string name = case_name;
    for (char& ch : name) {
        if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
    }
    return name;
}

CheckResult run_and_check(const Case& c) {
    OperatorRun run(c);
    run.execute();
    return check_output(c, run.output());
}

class ConformanceCase : public ::testing::TestWithParam<IndexEntry> {};

TEST_P(ConformanceCase, MeetsThePassRule) {
    const IndexEntry& entry = GetParam();
    try {
        const Case c = load_case(entry.dir);
        EXPECT_EQ(c.name, entry.name);
        EXPECT_EQ(case_op_name(c.op), entry.op);
        const CheckResult result = run_and_check(c);
        EXPECT_EQ(result.elements, c.output.element_count);
        EXPECT_TRUE(result.passed()) << describe_failure(c, result);
    } catch (const CaseError& e) {
        FAIL() << e.what();
    }
}

INSTANTIATE_TEST_SUITE_P(Index, ConformanceCase, ::testing::ValuesIn(conformance_index()),
                         [](const ::testing::TestParamInfo<IndexEntry>& info) {
                             return test_name_for(info.param.name);
                         });

TEST(ConformanceIndex, ListsEveryCase) {
    std::vector<IndexEntry> index;
    ASSERT_NO_THROW(index = load_index(kConformanceRoot));
    EXPECT_EQ(index.size(), kConformanceCaseCount);
    // The index and the folders on disk name the same cases.
    std::set<fs::path> listed;
    for (const IndexEntry& e : index) listed.insert(fs::canonical(e.dir));
    std::set<fs::path> found;
    for (const fs::path& dir : find_case_dirs(kConformanceRoot)) found.insert(fs::canonical(dir));
    EXPECT_EQ(listed, found);
}

TEST(ConformanceIndex, ACaseFolderIsItsOwnRoot) {
    const auto dirs = find_case_dirs(kConformanceRoot / "directml" / "dml_hardmax1_example1_axes_1");
    ASSERT_EQ(dirs.size(), 1u);
    EXPECT_EQ(dirs[0].filename(), "dml_hardmax1_example1_axes_1");
}

// ------------------------------------------------------- number formats

TEST(CaseDtypeCodec, Float16RoundTripsEveryPattern) {
    for (std::uint32_t b = 0; b < 0x10000; ++b) {
        const auto bits = static_cast<std::uint16_t>(b);
        const double v = float16_bits_to_double(bits);
        if (std::isnan(v)) {
            EXPECT_TRUE(std::isnan(float16_bits_to_double(double_to_float16_bits(v))));
        } else {
            ASSERT_EQ(double_to_float16_bits(v), bits) << v;
        }
    }
}

TEST(CaseDtypeCodec, Bfloat16RoundTripsEveryPattern) {
    for (std::uint32_t b = 0; b < 0x10000; ++b) {
        const auto bits = static_cast<std::uint16_t>(b);
        const double v = bfloat16_bits_to_double(bits);
        if (std::isnan(v)) continue;
        ASSERT_EQ(double_to_bfloat16_bits(v), bits) << v;
    }
}

// Between every pair of neighbouring finite values: the midpoint goes to the
// even pattern, anything off the midpoint to the nearer one.
void expect_ties_to_even(std::uint16_t (*encode)(double), double (*decode)(std::uint16_t),
                         std::uint16_t largest_finite) {
    for (std::uint32_t b = 0; b < largest_finite; ++b) {
        const double lo = decode(static_cast<std::uint16_t>(b));
        const double hi = decode(static_cast<std::uint16_t>(b + 1));
        const double mid = lo + (hi - lo) / 2;  // exact in double
        const auto even = static_cast<std::uint16_t>((b & 1) == 0 ? b : b + 1);
        ASSERT_EQ(encode(mid), even) << mid;
        ASSERT_EQ(encode(-mid), even | 0x8000) << -mid;
        ASSERT_EQ(encode(std::nextafter(mid, 0.0)), b) << mid;
        ASSERT_EQ(encode(std::nextafter(mid, HUGE_VAL)), b + 1) << mid;
    }
}

TEST(CaseDtypeCodec, Float16RoundsToNearestEven) {
    expect_ties_to_even(double_to_float16_bits, float16_bits_to_double, 0x7bff);
}

TEST(CaseDtypeCodec, Bfloat16RoundsToNearestEven) {
    expect_ties_to_even(double_to_bfloat16_bits, bfloat16_bits_to_double, 0x7f7f);
}

TEST(CaseDtypeCodec, OverflowAndUnderflowEdges) {
    EXPECT_EQ(double_to_float16_bits(65504.0), 0x7bff);
    EXPECT_EQ(double_to_float16_bits(65519.99), 0x7bff);
    EXPECT_EQ(double_to_float16_bits(65520.0), 0x7c00);  // the tie goes up, to inf
    EXPECT_EQ(double_to_float16_bits(-1e300), 0xfc00);
    EXPECT_EQ(double_to_float16_bits(std::ldexp(1.0, -24)), 0x0001);
    EXPECT_EQ(double_to_float16_bits(std::ldexp(1.0, -25)), 0x0000);  // tie to even zero
    EXPECT_EQ(double_to_float16_bits(std::ldexp(1.5, -25)), 0x0001);
    EXPECT_EQ(double_to_float16_bits(-std::ldexp(1.0, -30)), 0x8000);
    EXPECT_EQ(double_to_float16_bits(std::numeric_limits<double>::denorm_min()), 0x0000);
    EXPECT_EQ(double_to_float16_bits(-0.0), 0x8000);
    EXPECT_EQ(double_to_float16_bits(HUGE_VAL), 0x7c00);
    EXPECT_EQ(double_to_bfloat16_bits(3.4e38), 0x7f80);  // beyond bf16's largest, 3.39e38
    EXPECT_EQ(double_to_bfloat16_bits(-HUGE_VAL), 0xff80);
}

TEST(CaseDtypeCodec, RoundsOnceStraightFromDouble) {
    // Just above the float16 midpoint between 1 and 1 + 2^-10. Through
    // float32 the excess is lost and the tie would go down to 1.
    const double x = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
    EXPECT_EQ(double_to_float16_bits(static_cast<float>(x)), 0x3c00);
    EXPECT_EQ(double_to_float16_bits(x), 0x3c01);
}

TEST(CaseDtypeCodec, Float32MatchesTheHardwareConversion) {
    std::uint64_t state = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 200000; ++i) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        // Random sign and fraction; exponents spanning subnormals to overflow.
        const int exponent = static_cast<int>((state >> 52) % 300) - 160;
        const double mantissa = static_cast<double>(state & ((1ull << 52) - 1)) / (1ull << 52);
        const double x = ((state >> 63) ? -1 : 1) * std::ldexp(1.0 + mantissa, exponent);
        const float f = static_cast<float>(x);
        std::uint32_t expected;
        std::memcpy(&expected, &f, sizeof f);
        ASSERT_EQ(double_to_float32_bits(x), expected) << x;
    }
}

TEST(CaseDtypeCodec, UlpDistance) {
    EXPECT_EQ(ulp_distance(1.0, 1.0 + std::ldexp(1.0, -10), SIMDAX_DTYPE_FLOAT16), 1u);
    EXPECT_EQ(ulp_distance(1.0, 1.0 + std::ldexp(1.0, -7), SIMDAX_DTYPE_BFLOAT16), 1u);
    EXPECT_EQ(ulp_distance(1.0, 1.0 + std::ldexp(1.0, -22), SIMDAX_DTYPE_FLOAT32), 2u);
    EXPECT_EQ(ulp_distance(1.0, std::nextafter(1.0, 0.0), SIMDAX_DTYPE_FLOAT64), 1u);
    EXPECT_EQ(ulp_distance(-0.0, 0.0, SIMDAX_DTYPE_FLOAT32), 0u);
    const double tiny = std::ldexp(1.0, -24);
    EXPECT_EQ(ulp_distance(-tiny, tiny, SIMDAX_DTYPE_FLOAT16), 2u);
    EXPECT_EQ(ulp_distance(-1.0, 1.0, SIMDAX_DTYPE_FLOAT16), 2u * 0x3c00u);
}

// ------------------------------------------------------- the pass rule

const Tolerance kExact{0, 0, 0};
const Tolerance kFloat32{1e-5, 1e-5, 0};
const Tolerance kOneUlp{1e-5, 1e-5, 1};

TEST(CasePassRule, NanReferenceNeedsNan) {
    EXPECT_TRUE(element_passes(std::nan(""), std::nan(""), SIMDAX_DTYPE_FLOAT32, kFloat32));
    EXPECT_FALSE(element_passes(0.0, std::nan(""), SIMDAX_DTYPE_FLOAT32, kFloat32));
    EXPECT_FALSE(element_passes(std::nan(""), 1.0, SIMDAX_DTYPE_FLOAT32, kFloat32));
}

TEST(CasePassRule, InfinityAfterRoundingToTheDtype) {
    // 1e39 is finite in float64 but beyond float32: the library must store inf.
    EXPECT_TRUE(element_passes(HUGE_VAL, 1e39, SIMDAX_DTYPE_FLOAT32, kFloat32));
    EXPECT_FALSE(element_passes(std::numeric_limits<float>::max(), 1e39, SIMDAX_DTYPE_FLOAT32,
                                kFloat32));
    EXPECT_TRUE(element_passes(-HUGE_VAL, -70000.0, SIMDAX_DTYPE_FLOAT16, kOneUlp));
    EXPECT_FALSE(element_passes(HUGE_VAL, -70000.0, SIMDAX_DTYPE_FLOAT16, kOneUlp));
    // 65519 rounds to the finite 65504, so a finite result is required.
    EXPECT_TRUE(element_passes(65504.0, 65519.0, SIMDAX_DTYPE_FLOAT16, kOneUlp));
    EXPECT_FALSE(element_passes(HUGE_VAL, 65519.0, SIMDAX_DTYPE_FLOAT16, kOneUlp));
}

TEST(CasePassRule, FiniteReferenceNeedsFiniteResult) {
    const Tolerance loose{1e300, 1.0, 1000};
    EXPECT_FALSE(element_passes(HUGE_VAL, 1.0, SIMDAX_DTYPE_FLOAT32, loose));
    EXPECT_FALSE(element_passes(std::nan(""), 1.0, SIMDAX_DTYPE_FLOAT16, loose));
}

TEST(CasePassRule, AbsolutePlusRelativeBound) {
    EXPECT_TRUE(element_passes(100.0 + 1e-3, 100.0, SIMDAX_DTYPE_FLOAT64, kFloat32));
    EXPECT_FALSE(element_passes(100.0 + 1.2e-3, 100.0, SIMDAX_DTYPE_FLOAT64, kFloat32));
    EXPECT_TRUE(element_passes(-1e-5, 0.0, SIMDAX_DTYPE_FLOAT64, kFloat32));
    EXPECT_FALSE(element_passes(-1.1e-5, 0.0, SIMDAX_DTYPE_FLOAT64, kFloat32));
}

TEST(CasePassRule, UlpsCountFromTheRoundedReference) {
    const double one_up = 1.0 + std::ldexp(1.0, -10);
    const double two_up = 1.0 + std::ldexp(1.0, -9);
    const Tolerance ulps_only{0, 0, 1};
    EXPECT_TRUE(element_passes(one_up, 1.0, SIMDAX_DTYPE_FLOAT16, ulps_only));
    EXPECT_FALSE(element_passes(two_up, 1.0, SIMDAX_DTYPE_FLOAT16, ulps_only));
    EXPECT_FALSE(element_passes(one_up, 1.0, SIMDAX_DTYPE_FLOAT16, kExact));
    // ref 1.0003 rounds to 1.0 in float16; one step from there is allowed.
    EXPECT_TRUE(element_passes(one_up, 1.0003, SIMDAX_DTYPE_FLOAT16, ulps_only));
}

TEST(CasePassRule, ExactMeansEqualWithSignedZerosEqual) {
    EXPECT_TRUE(element_passes(1.0, 1.0, SIMDAX_DTYPE_FLOAT32, kExact));
    EXPECT_TRUE(element_passes(-0.0, 0.0, SIMDAX_DTYPE_FLOAT32, kExact));
    EXPECT_TRUE(element_passes(0.0, -0.0, SIMDAX_DTYPE_BFLOAT16, kExact));
    EXPECT_FALSE(element_passes(std::nextafter(1.0f, 0.0f), 1.0, SIMDAX_DTYPE_FLOAT32, kExact));
}

// ------------------------------------------------------- synthetic cases

std::string tensor_json(const std::string& name, const std::string& file, const std::string& dtype,
                        const std::string& shape, const std::string& layout = "",
                        const std::string& file_dtype = "") {
    return R"({"name": ")" + name + R"(", "file": ")" + file + R"(", "dtype": ")" + dtype +
           R"(", "file_dtype": ")" + (file_dtype.empty() ? dtype : file_dtype) +
           R"(", "shape": )" + shape + (layout.empty() ? "" : ", " + layout) + "}";
}

// The inputs list of one packed tensor X of `elements` elements.
std::string packed_input(const std::string& file, const std::string& dtype,
                         const std::string& shape, int elements) {
    return "[" + tensor_json("X", file, dtype, shape,
                             R"("strides": null, "offset": 0, "buffer_elements": )" +
                                 std::to_string(elements)) +
           "]";
}

struct CaseText {
    std::string schema = "simdax-case/1";
    std::string op = "HardSigmoid";
    std::string params = R"({"alpha": 0.5, "beta": 0.25})";
    std::string tolerance = R"({"atol": 1e-05, "rtol": 1e-05, "ulps": 0})";
    std::string inputs = packed_input("input_0.bin", "float32", "[2, 3]", 6);
    std::string outputs = "[" + tensor_json("Y", "output_0.bin", "float32", "[2, 3]") + "]";

    std::string render() const {
        return R"({"schema": ")" + schema + R"(", "name": "synthetic", "set": "test", "op": ")" +
               op + R"(", "params": )" + params + R"(, "tolerance": )" + tolerance +
               R"(, "tags": ["synthetic"], "inputs": )" + inputs + R"(, "outputs": )" + outputs +
               "}";
    }
};

// A temporary case folder. The JSON is written from text pieces, so a test
// can break exactly one of them.
class CaseFolder {
public:
    CaseFolder() {
        static int serial = 0;
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        dir_ = fs::temp_directory_path() /
               ("simdax_case_" + std::to_string(::getpid()) + "_" + std::to_string(serial++) + "_" +
                info->name());
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    ~CaseFolder() {
        std::error_code ec;
        fs::remove_all(dir_, ec);
    }
    CaseFolder(const CaseFolder&) = delete;
    CaseFolder& operator=(const CaseFolder&) = delete;

    const fs::path& dir() const { return dir_; }

    // Writes case.json from the text pieces and loads the folder back.
    Case load(const CaseText& text) const {
        write_text("case.json", text.render());
        return load_case(dir_);
    }

    void write_text(const std::string& name, const std::string& text) const {
        std::ofstream(dir_ / name, std::ios::binary) << text;
    }
    template <typename T>
    void write_values(const std::string& name, const std::vector<T>& values) const {
        std::ofstream out(dir_ / name, std::ios::binary);
        out.write(reinterpret_cast<const char*>(values.data()),
                  static_cast<std::streamsize>(values.size() * sizeof(T)));
    }

private:
    fs::path dir_;
};

void expect_passes(const Case& c) {
    const CheckResult result = run_and_check(c);
    EXPECT_TRUE(result.passed()) << describe_failure(c, result);
}

CaseText case_text(std::string op, std::string params, std::string tolerance) {
    CaseText t;
    t.op = std::move(op);
    t.params = std::move(params);
    t.tolerance = std::move(tolerance);
    return t;
}

double hard_sigmoid(double x, double alpha, double beta) {
    return std::max(0.0, std::min(alpha * x + beta, 1.0));
}

// The default CaseText with consistent files: a valid case to break.
void write_valid_hard_sigmoid(const CaseFolder& folder, const CaseText& text = CaseText()) {
    const std::vector<float> x = {-3, -1, 0, 0.5f, 1, 4};
    std::vector<float> y;
    for (float v : x) y.push_back(static_cast<float>(hard_sigmoid(v, 0.5, 0.25)));
    folder.write_values("input_0.bin", x);
    folder.write_values("output_0.bin", y);
    folder.write_text("case.json", text.render());
}

TEST(CaseRunner, ValidSyntheticCasePasses) {
    CaseFolder folder;
    write_valid_hard_sigmoid(folder);
    const Case c = load_case(folder.dir());
    EXPECT_EQ(c.op, CaseOp::HardSigmoid);
    EXPECT_EQ(c.params.alpha, 0.5f);
    const CheckResult result = run_and_check(c);
    EXPECT_EQ(result.elements, 6u);
    EXPECT_TRUE(result.passed()) << describe_failure(c, result);
}

TEST(CaseRunner, WrongOutputIsReportedAtItsWorstElement) {
    CaseFolder folder;
    write_valid_hard_sigmoid(folder);
    // Two wrong references: 0.2499 (off by 1e-4) and 0.7 (off by 0.05).
    folder.write_values("output_0.bin", std::vector<float>{0, 0, 0.2499f, 0.5f, 0.7f, 1});
    const Case c = load_case(folder.dir());
    const CheckResult result = run_and_check(c);
    EXPECT_EQ(result.failures, 2u);
    ASSERT_TRUE(result.worst.has_value());
    EXPECT_EQ(result.worst->index, 4u);
    EXPECT_EQ(result.worst->coords, (std::vector<std::int64_t>{1, 1}));
    EXPECT_NE(describe_failure(c, result).find("worst at index 4 [1,1]: got 0.75, ref 0.7"),
              std::string::npos)
        << describe_failure(c, result);
}

TEST(CaseRunner, PoisonedOutputCannotPassForNan) {
    CaseFolder folder;
    write_valid_hard_sigmoid(folder);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    folder.write_values("output_0.bin", std::vector<float>(6, nan));
    const Case c = load_case(folder.dir());
    ByteBuffer untouched(6 * sizeof(float));
    std::memset(untouched.data(), 0x5a, untouched.size());
    EXPECT_EQ(check_output(c, untouched).failures, 6u);
}

TEST(CaseRunner, StridesOffsetAndBroadcastReadOnlyTheView) {
    // X[i][j] = buffer[1 + 0*i + 2*j]; every other slot holds NaN, which
    // would show up in the output if the library read it.
    CaseFolder folder;
    CaseText text;
    text.inputs = "[" + tensor_json("X", "input_0.bin", "float32", "[2, 3]",
                                    R"("strides": [0, 2], "offset": 1, "buffer_elements": 7)") + "]";
    const float nan = std::numeric_limits<float>::quiet_NaN();
    folder.write_values("input_0.bin", std::vector<float>{nan, -1, nan, 0.5f, nan, 3, nan});
    std::vector<double> y;
    for (int i = 0; i < 2; ++i) {
        for (double v : {-1.0, 0.5, 3.0}) y.push_back(hard_sigmoid(v, 0.5, 0.25));
    }
    text.outputs = "[" + tensor_json("Y", "output_0.bin", "float32", "[2, 3]", "", "float64") + "]";
    folder.write_values("output_0.bin", y);
    expect_passes(folder.load(text));
}

TEST(CaseRunner, NegativeStridesWalkBackwards) {
    CaseFolder folder;
    CaseText text = case_text("Softmax", R"({"axes": [1]})",
                              R"({"atol": 1e-06, "rtol": 1e-05, "ulps": 0})");
    // X = [[6, 5, 4], [3, 2, 1]]: the buffer read backwards from its last slot.
    text.inputs = "[" + tensor_json("X", "input_0.bin", "float32", "[2, 3]",
                                    R"("strides": [-3, -1], "offset": 5, "buffer_elements": 6)") +
                  "]";
    folder.write_values("input_0.bin", std::vector<float>{1, 2, 3, 4, 5, 6});
    const double s = std::exp(0.0) + std::exp(-1.0) + std::exp(-2.0);
    std::vector<double> y;
    for (int row = 0; row < 2; ++row) {
        for (double d : {0.0, -1.0, -2.0}) y.push_back(std::exp(d) / s);
    }
    text.outputs = "[" + tensor_json("Y", "output_0.bin", "float32", "[2, 3]", "", "float64") + "]";
    folder.write_values("output_0.bin", y);
    expect_passes(folder.load(text));
}

TEST(CaseRunner, ZeroSizeTensorsRunWithEmptyFiles) {
    for (const std::string op : {"HardSigmoid", "LogSoftmax"}) {
        CaseFolder folder;
        CaseText text;
        text.op = op;
        if (op == "LogSoftmax") text.params = R"({"axes": [1]})";
        text.inputs = packed_input("input_0.bin", "float32", "[0, 3]", 0);
        text.outputs = "[" + tensor_json("Y", "output_0.bin", "float32", "[0, 3]") + "]";
        folder.write_text("input_0.bin", "");
        folder.write_text("output_0.bin", "");
        const Case c = folder.load(text);
        const CheckResult result = run_and_check(c);
        EXPECT_EQ(result.elements, 0u) << op;
        EXPECT_TRUE(result.passed()) << op;
    }
}

std::vector<std::uint16_t> encode_all(const std::vector<double>& values,
                                      std::uint16_t (*encode)(double)) {
    std::vector<std::uint16_t> out;
    for (double v : values) out.push_back(encode(v));
    return out;
}

TEST(CaseRunner, Float16WithFloat64Reference) {
    CaseFolder folder;
    CaseText text;
    text.tolerance = R"({"atol": 1e-05, "rtol": 1e-05, "ulps": 1})";
    text.inputs = packed_input("input_0.bin", "float16", "[2, 3]", 6);
    text.outputs = "[" + tensor_json("Y", "output_0.bin", "float16", "[2, 3]", "", "float64") + "]";
    const std::vector<double> x = {-3, -0.7001953125, 0, 0.333251953125, 1, 4};
    std::vector<double> y;
    for (double v : x) y.push_back(hard_sigmoid(v, 0.5, 0.25));
    folder.write_values("input_0.bin", encode_all(x, double_to_float16_bits));
    folder.write_values("output_0.bin", y);
    const Case c = folder.load(text);
    EXPECT_EQ(c.output.file_dtype, SIMDAX_DTYPE_FLOAT64);
    expect_passes(c);
}

std::vector<double> log_softmax_rows(const std::vector<double>& x, std::size_t row) {
    std::vector<double> y;
    for (std::size_t start = 0; start < x.size(); start += row) {
        const double m = *std::max_element(x.begin() + start, x.begin() + start + row);
        double sum = 0;
        for (std::size_t i = 0; i < row; ++i) sum += std::exp(x[start + i] - m);
        for (std::size_t i = 0; i < row; ++i) y.push_back(x[start + i] - m - std::log(sum));
    }
    return y;
}

TEST(CaseRunner, Bfloat16LogSoftmax) {
    CaseFolder folder;
    CaseText text = case_text("LogSoftmax", R"({"axes": [1]})",
                              R"({"atol": 1e-05, "rtol": 1e-05, "ulps": 1})");
    text.inputs = packed_input("input_0.bin", "bfloat16", "[2, 4]", 8);
    text.outputs = "[" + tensor_json("Y", "output_0.bin", "bfloat16", "[2, 4]", "", "float64") + "]";
    std::vector<double> x = {1, 2, 3, 4, -0.5, 0.25, 100, -7};
    for (double& v : x) v = bfloat16_bits_to_double(double_to_bfloat16_bits(v));
    folder.write_values("input_0.bin", encode_all(x, double_to_bfloat16_bits));
    folder.write_values("output_0.bin", log_softmax_rows(x, 4));
    expect_passes(folder.load(text));
}

TEST(CaseRunner, Float64LogSoftmaxOverUnorderedAxes) {
    CaseFolder folder;
    CaseText text = case_text("LogSoftmax", R"({"axes": [2, 0]})",  // order carries no meaning
                              R"({"atol": 1e-12, "rtol": 1e-12, "ulps": 0})");
    text.inputs = packed_input("input_0.bin", "float64", "[2, 2, 2]", 8);
    text.outputs = "[" + tensor_json("Y", "output_0.bin", "float64", "[2, 2, 2]") + "]";
    // The DirectML example input; groups are {x[., j, .]} for j = 0, 1.
    const std::vector<double> x = {12, 0, -101, 11, 3, 234, 0, -101};
    std::vector<double> y(8);
    for (int j = 0; j < 2; ++j) {
        std::vector<double> group;
        for (int i = 0; i < 2; ++i) {
            for (int k = 0; k < 2; ++k) group.push_back(x[i * 4 + j * 2 + k]);
        }
        const std::vector<double> out = log_softmax_rows(group, 4);
        for (int i = 0; i < 2; ++i) {
            for (int k = 0; k < 2; ++k) y[i * 4 + j * 2 + k] = out[i * 2 + k];
        }
    }
    folder.write_values("input_0.bin", x);
    folder.write_values("output_0.bin", y);
    const Case c = folder.load(text);
    EXPECT_EQ(c.params.axes, (std::vector<std::uint32_t>{2, 0}));
    expect_passes(c);
}

TEST(CaseRunner, MvnWithScaleBiasAndFusedActivation) {
    // X [2, 3, 2], groups over axes {1, 2}; Scale [1, 3, 1], Bias [1, 1, 1];
    // leaky_relu with alpha 0.1.
    CaseFolder folder;
    CaseText text;
    text.op = "MeanVarianceNormalization";
    text.params = R"({"axes": [1, 2], "normalize_variance": true, "epsilon": 1e-05,
                      "activation": {"type": "leaky_relu", "alpha": 0.1}})";
    const std::string packed = R"("strides": null, "offset": 0, "buffer_elements": )";
    text.inputs = "[" + tensor_json("X", "input_0.bin", "float32", "[2, 3, 2]", packed + "12") +
                  ", " + tensor_json("Scale", "scale.bin", "float32", "[1, 3, 1]", packed + "3") +
                  ", " + tensor_json("Bias", "bias.bin", "float32", "[1, 1, 1]", packed + "1") + "]";
    text.outputs = "[" + tensor_json("Y", "output_0.bin", "float32", "[2, 3, 2]", "", "float64") + "]";
    const std::vector<float> x = {1, 2, 3, 4, 5, 6, -10, 0.5f, 7, 7.5f, 2, -3};
    const std::vector<float> scale = {1, 2, -0.5f};
    const std::vector<float> bias = {0.25f};
    std::vector<double> y;
    for (int n = 0; n < 2; ++n) {
        double mean = 0;
        for (int i = 0; i < 6; ++i) mean += x[n * 6 + i] / 6.0;
        double var = 0;
        for (int i = 0; i < 6; ++i) var += (x[n * 6 + i] - mean) * (x[n * 6 + i] - mean) / 6.0;
        for (int i = 0; i < 6; ++i) {
            const double v = scale[i / 2] * (x[n * 6 + i] - mean) / std::sqrt(var + double(1e-5f)) +
                             bias[0];
            y.push_back(v >= 0 ? v : double(0.1f) * v);
        }
    }
    folder.write_values("input_0.bin", x);
    folder.write_values("scale.bin", scale);
    folder.write_values("bias.bin", bias);
    folder.write_values("output_0.bin", y);
    const Case c = folder.load(text);
    ASSERT_NE(c.input("Scale"), nullptr);
    ASSERT_NE(c.input("Bias"), nullptr);
    ASSERT_TRUE(c.params.activation.has_value());
    EXPECT_EQ(c.params.activation->type, SIMDAX_ACTIVATION_LEAKY_RELU);
    EXPECT_EQ(c.params.activation->alpha, 0.1f);
    expect_passes(c);
}

// ONNX's MVN node tests (opsets 13 and 10, the files unchanged) with ONNX's
// own epsilon placement: the stddev form must reproduce ONNX's outputs too.
TEST(ConformanceOnnxMvn, PassesWithTheStddevPlacement) {
    for (const char* name : {"test_mvn", "test_mvn_opset10"}) {
        Case c = load_case(kConformanceRoot / "onnx" / name);
        ASSERT_EQ(c.op, CaseOp::MeanVarianceNormalization) << name;
        EXPECT_EQ(c.params.epsilon_placement, SIMDAX_EPSILON_ON_VARIANCE) << name << ": absent = variance";
        c.params.epsilon_placement = SIMDAX_EPSILON_ON_STDDEV;
        const CheckResult result = run_and_check(c);
        EXPECT_EQ(result.elements, c.output.element_count) << name;
        EXPECT_TRUE(result.passed()) << name << ": " << describe_failure(c, result);
    }
}

// params.epsilon_placement: the issue's near-constant group (axes {1},
// epsilon 1e-9) with references from each formula in double; "stddev" gives
// ONNX's -1.00 and must fail against DirectML's -0.30, and back.
std::vector<double> near_constant_reference(const std::vector<float>& x, bool on_stddev) {
    double mean = 0, var = 0;
    for (float v : x) mean += double(v) / double(x.size());
    for (float v : x) var += (double(v) - mean) * (double(v) - mean) / double(x.size());
    const double eps = double(1e-9f);
    const double divisor = on_stddev ? std::sqrt(var) + eps : std::sqrt(var + eps);
    std::vector<double> y;
    for (float v : x) y.push_back((double(v) - mean) / divisor);
    return y;
}

CheckResult run_placement_case(const std::string& placement_json, bool reference_on_stddev) {
    CaseFolder folder;
    CaseText text;
    text.op = "MeanVarianceNormalization";
    text.params = R"({"axes": [1], "normalize_variance": true, "epsilon": 1e-09)" + placement_json + "}";
    text.inputs = packed_input("input_0.bin", "float32", "[1, 4]", 4);
    text.outputs = "[" + tensor_json("Y", "output_0.bin", "float32", "[1, 4]", "", "float64") + "]";
    const std::vector<float> x = {1.0f, 1.00002f, 1.0f, 1.00002f};
    folder.write_values("input_0.bin", x);
    folder.write_values("output_0.bin", near_constant_reference(x, reference_on_stddev));
    return run_and_check(folder.load(text));
}

TEST(CaseRunner, MvnEpsilonPlacementIsHonoured) {
    EXPECT_NEAR(near_constant_reference({1.0f, 1.00002f, 1.0f, 1.00002f}, true)[0], -0.9999, 1e-4);
    EXPECT_NEAR(near_constant_reference({1.0f, 1.00002f, 1.0f, 1.00002f}, false)[0], -0.3019, 1e-4);
    EXPECT_TRUE(run_placement_case(R"(, "epsilon_placement": "stddev")", true).passed());
    EXPECT_FALSE(run_placement_case(R"(, "epsilon_placement": "stddev")", false).passed());
    EXPECT_TRUE(run_placement_case(R"(, "epsilon_placement": "variance")", false).passed());
    EXPECT_FALSE(run_placement_case(R"(, "epsilon_placement": "variance")", true).passed());
    EXPECT_TRUE(run_placement_case("", false).passed());  // absent: the variance
    EXPECT_FALSE(run_placement_case("", true).passed());
}

// Loads an MVN case whose only variable part is the activation object.
simdax_activation_desc load_activation(const std::string& activation_json) {
    CaseFolder folder;
    CaseText text;
    text.op = "MeanVarianceNormalization";
    text.params = R"({"axes": [1], "normalize_variance": false, "epsilon": 0, "activation": )" +
                  activation_json + "}";
    write_valid_hard_sigmoid(folder, text);
    const Case c = load_case(folder.dir());
    EXPECT_TRUE(c.params.activation.has_value());
    return c.params.activation.value_or(simdax_activation_desc{});
}

TEST(CaseReader, ActivationParametersMapOntoTheDescriptor) {
    const auto softplus = load_activation(R"({"type": "softplus", "steepness": 3})");
    EXPECT_EQ(softplus.type, SIMDAX_ACTIVATION_SOFTPLUS);
    EXPECT_EQ(softplus.alpha, 3.0f);

    const auto shrink = load_activation(R"({"type": "shrink", "bias": 0.25, "threshold": 2})");
    EXPECT_EQ(shrink.type, SIMDAX_ACTIVATION_SHRINK);
    EXPECT_EQ(shrink.alpha, 0.25f);
    EXPECT_EQ(shrink.beta, 2.0f);

    const auto selu = load_activation(R"({"type": "scaled_elu", "alpha": 1.5, "gamma": 2.5})");
    EXPECT_EQ(selu.alpha, 1.5f);
    EXPECT_EQ(selu.gamma, 2.5f);

    // Parameters left out take the library's documented defaults.
    const auto scaled_tanh = load_activation(R"({"type": "scaled_tanh", "beta": 4})");
    const auto defaults = simdax_activation_default(SIMDAX_ACTIVATION_SCALED_TANH);
    EXPECT_EQ(scaled_tanh.alpha, defaults.alpha);
    EXPECT_EQ(scaled_tanh.beta, 4.0f);

    const char* names[] = {"identity", "linear", "relu", "leaky_relu", "elu", "celu",
                           "scaled_elu", "sigmoid", "hard_sigmoid", "tanh", "scaled_tanh",
                           "softplus", "parametric_softplus", "softsign", "thresholded_relu",
                           "shrink", "gelu"};
    for (const char* name : names) {
        const auto desc = load_activation(std::string(R"({"type": ")") + name + "\"}");
        EXPECT_STREQ(simdax_activation_name(desc.type), name);
    }
}

// ------------------------------------------------------- broken cases

// load_case (and, where the library is the judge, OperatorRun) fails with a
// one-line message that names `file` and contains `problem`.
void expect_case_error(const CaseFolder& folder, const std::string& file,
                       const std::string& problem) {
    try {
        const Case c = load_case(folder.dir());
        OperatorRun run(c);
        run.execute();
        ADD_FAILURE() << "no error; expected one about " << file << ": " << problem;
    } catch (const CaseError& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find((folder.dir() / file).string()), std::string::npos) << message;
        EXPECT_NE(message.find(problem), std::string::npos) << message;
        EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
}

// Writes a valid case, then `text` as its case.json.
void expect_json_error(const CaseText& text, const std::string& problem) {
    CaseFolder folder;
    write_valid_hard_sigmoid(folder, text);
    expect_case_error(folder, "case.json", problem);
}

TEST(CaseReaderErrors, MissingCaseJson) {
    CaseFolder folder;
    expect_case_error(folder, "case.json", "no such file");
}

TEST(CaseReaderErrors, BadJson) {
    CaseFolder folder;
    write_valid_hard_sigmoid(folder);
    folder.write_text("case.json", R"({"schema": "simdax-case/1", "op": )");
    expect_case_error(folder, "case.json", "invalid JSON");
    folder.write_text("case.json", "");
    expect_case_error(folder, "case.json", "invalid JSON");
    folder.write_text("case.json", "[1, 2]");
    expect_case_error(folder, "case.json", "must be an object");
}

TEST(CaseReaderErrors, TruncatedAndOversizedBinaries) {
    CaseFolder folder;
    write_valid_hard_sigmoid(folder);
    folder.write_values("input_0.bin", std::vector<float>(5));
    expect_case_error(folder, "input_0.bin", "20 bytes, expected 24");
    folder.write_values("input_0.bin", std::vector<float>(6));
    folder.write_values("output_0.bin", std::vector<float>(7));
    expect_case_error(folder, "output_0.bin", "28 bytes, expected 24");
    fs::remove(folder.dir() / "output_0.bin");
    expect_case_error(folder, "output_0.bin", "no such file");
}

TEST(CaseReaderErrors, UnknownOperatorDtypeAndSchema) {
    CaseText text;
    text.op = "Gelu";
    expect_json_error(text, "op: unknown operator 'Gelu'");
    text = CaseText();
    text.inputs = "[" + tensor_json("X", "input_0.bin", "int8", "[2, 3]") + "]";
    expect_json_error(text, "inputs[0].dtype: unknown dtype 'int8'");
    text = CaseText();
    text.schema = "simdax-case/2";
    expect_json_error(text, "schema");
}

TEST(CaseReaderErrors, ViewOutsideTheBuffer) {
    const std::string x_shape = "[2, 3]";
    const auto with_layout = [&](const std::string& layout) {
        CaseText text;
        text.inputs = "[" + tensor_json("X", "input_0.bin", "float32", x_shape, layout) + "]";
        return text;
    };
    expect_json_error(with_layout(R"("strides": null, "offset": 3, "buffer_elements": 6)"),
                      "reaches element 8 but the buffer has 6 elements");
    expect_json_error(with_layout(R"("strides": [4, 1], "offset": 0, "buffer_elements": 6)"),
                      "reaches element 6 but the buffer has 6 elements");
    expect_json_error(with_layout(R"("strides": [-3, 1], "offset": 0, "buffer_elements": 6)"),
                      "before the buffer start");
    expect_json_error(with_layout(R"("strides": [3, 1], "offset": -1, "buffer_elements": 6)"),
                      "offset -1 is negative");
    expect_json_error(with_layout(R"("strides": [3], "offset": 0, "buffer_elements": 6)"),
                      "inputs[0].strides: 1 entries for rank 2");
    expect_json_error(
        with_layout(R"("strides": [9223372036854775807, 1], "offset": 0, "buffer_elements": 6)"),
        "overflows 64 bits");
    expect_json_error(with_layout(R"("strides": [3, 1], "offset": 0)"),
                      "buffer_elements: missing (required with strides)");
}

TEST(CaseReaderErrors, BadShapes) {
    const auto with_shape = [](const std::string& shape) {
        CaseText text;
        text.inputs = "[" + tensor_json("X", "input_0.bin", "float32", shape) + "]";
        return text;
    };
    expect_json_error(with_shape("[]"), "rank 0 is outside 1..8");
    expect_json_error(with_shape("[1, 1, 1, 1, 1, 1, 1, 1, 6]"), "rank 9 is outside 1..8");
    expect_json_error(with_shape("[2, -3]"), "inputs[0].shape[1]: is negative");
    expect_json_error(with_shape("[2, 3.5]"), "must be an integer");
    expect_json_error(with_shape(R"("2x3")"), "must be an array");
    expect_json_error(with_shape("[4294967296, 4294967296]"), "overflows 64 bits");
}

TEST(CaseReaderErrors, BadParamsAndTolerance) {
    CaseText text;
    text.params = R"({"alpha": 0.5, "betta": 0.25})";
    expect_json_error(text, "params.betta: unknown field");
    text = CaseText();
    text.params = R"({"alpha": "0.5"})";
    expect_json_error(text, "params.alpha: must be a number");
    text = CaseText();
    text.op = "Softmax";
    text.params = R"({"axes": [-1]})";
    expect_json_error(text, "params.axes[0]");
    text.params = "{}";
    expect_json_error(text, "params.axes: missing");
    text = CaseText();
    text.tolerance = R"({"atol": 1e-5, "rtol": 1e-5})";
    expect_json_error(text, "tolerance.ulps: missing");
    text.tolerance = R"({"atol": -1, "rtol": 0, "ulps": 0})";
    expect_json_error(text, "tolerance.atol: must be >= 0");
}

TEST(CaseReaderErrors, BadActivations) {
    CaseText text;
    text.op = "MeanVarianceNormalization";
    text.params = R"({"axes": [1], "normalize_variance": true, "epsilon": 1e-5,
                      "activation": {"type": "swish"}})";
    expect_json_error(text, "params.activation.type: unknown activation 'swish'");
    text.params = R"({"axes": [1], "normalize_variance": true, "epsilon": 1e-5,
                      "activation": {"type": "elu", "beta": 2}})";
    expect_json_error(text, "params.activation.beta: not a parameter of elu");
    text.params = R"({"axes": [1], "normalize_variance": "yes", "epsilon": 1e-5})";
    expect_json_error(text, "params.normalize_variance: must be true or false");
}

TEST(CaseReaderErrors, BadEpsilonPlacement) {
    CaseText text;
    text.op = "MeanVarianceNormalization";
    text.params = R"({"axes": [1], "normalize_variance": true, "epsilon": 1e-5,
                      "epsilon_placement": "std"})";
    expect_json_error(text, "params.epsilon_placement: unknown placement 'std'");
    text.params = R"({"axes": [1], "normalize_variance": true, "epsilon": 1e-5,
                      "epsilon_placement": 1})";
    expect_json_error(text, "params.epsilon_placement: must be a string");
    // Softmax-family params have no placement.
    text.op = "Softmax";
    text.params = R"({"axes": [1], "epsilon_placement": "stddev"})";
    expect_json_error(text, "params.epsilon_placement: unknown field");
}

TEST(CaseReaderErrors, BadTensorLists) {
    CaseText text;
    text.inputs = "[" + tensor_json("X", "input_0.bin", "float32", "[2, 3]") + ", " +
                  tensor_json("Scale", "input_0.bin", "float32", "[2, 3]") + "]";
    expect_json_error(text, "Scale is an input of MeanVarianceNormalization only");
    text.inputs = "[]";
    expect_json_error(text, "inputs: is empty");
    text = CaseText();
    text.outputs = "[]";
    expect_json_error(text, "outputs: 0 entries");
    text = CaseText();
    text.outputs = "[" + tensor_json("Y", "output_0.bin", "float64", "[2, 3]") + "]";
    expect_json_error(text, "float32 differs from the output's float64");
    text = CaseText();
    text.inputs = "[" + tensor_json("X", "input_0.bin", "float32", "[2, 3]", "", "float64") + "]";
    expect_json_error(text, "an input file holds its dtype");
    text = CaseText();
    text.outputs = "[" + tensor_json("Y", "output_0.bin", "float32", "[2, 3]",
                                     R"("strides": [1, 2])") + "]";
    expect_json_error(text, "outputs are packed");
}

// A case's files live in its folder: "../x" or an absolute path is refused
// before anything outside is opened.
TEST(CaseReaderErrors, FileOutsideTheCaseFolder) {
    for (const std::string file : {"../input_0.bin", "sub/../../input_0.bin", "/etc/hostname"}) {
        CaseText text;
        text.inputs = packed_input(file, "float32", "[2, 3]", 6);
        expect_json_error(text, "inputs[0].file: '" + file + "' leaves the case folder");
        text = CaseText();
        text.outputs = "[" + tensor_json("Y", file, "float32", "[2, 3]") + "]";
        expect_json_error(text, "outputs[0].file: '" + file + "' leaves the case folder");
    }
    // A path that stays inside is fine.
    CaseFolder folder;
    CaseText text;
    text.inputs = packed_input("sub/../input_0.bin", "float32", "[2, 3]", 6);
    write_valid_hard_sigmoid(folder, text);
    fs::create_directories(folder.dir() / "sub");
    EXPECT_NO_THROW(load_case(folder.dir()));
}

// Running a case needs no reference output (`simdax run`).
TEST(CaseRunner, RunsWithoutTheReferenceFile) {
    CaseFolder folder;
    write_valid_hard_sigmoid(folder);
    fs::remove(folder.dir() / "output_0.bin");
    EXPECT_THROW(load_case(folder.dir()), CaseError);
    const Case c = load_case(folder.dir(), Reference::skip);
    OperatorRun run(c);
    run.execute();
    ASSERT_EQ(run.output_bytes(), 6 * sizeof(float));
    const std::vector<float> x = {-3, -1, 0, 0.5f, 1, 4};
    const float* y = static_cast<const float*>(run.output().data());
    for (int i = 0; i < 6; ++i) EXPECT_FLOAT_EQ(y[i], float(hard_sigmoid(x[size_t(i)], 0.5, 0.25))) << i;
}

// Folders without a case (and without subfolders) are reported, not
// silently dropped; folders that only group cases are not.
TEST(CaseScan, ReportsSkippedFolders) {
    CaseFolder root;
    const fs::path a = root.dir() / "set" / "a", lost = root.dir() / "set" / "lost", empty = root.dir() / "empty";
    fs::create_directories(a);
    fs::create_directories(lost);
    fs::create_directories(empty);
    std::ofstream(a / "case.json") << "{}";
    std::ofstream(lost / "input_0.bin") << "x";
    const CaseScan scan = scan_case_dirs(root.dir());
    EXPECT_EQ(scan.cases, (std::vector<fs::path>{a}));
    ASSERT_EQ(scan.skipped.size(), 2u);
    EXPECT_EQ(scan.skipped[0].dir, empty);
    EXPECT_EQ(scan.skipped[1].dir, lost);
    EXPECT_EQ(scan.skipped[1].reason, "no case.json");
    // The shipped set skips nothing.
    EXPECT_TRUE(scan_case_dirs(kConformanceRoot).skipped.empty());
}

TEST(CaseReaderErrors, LibraryRejectionNamesTheCase) {
    // Valid JSON the library refuses: an axis beyond the rank.
    CaseText text;
    text.op = "Softmax";
    text.params = R"({"axes": [5]})";
    expect_json_error(text, "simdax_operator_create failed: SIMDAX_ERROR_INVALID_AXES");
}

}  // namespace
