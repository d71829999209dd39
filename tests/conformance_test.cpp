// Conformance cases (tests/data/conformance, one test per index.json entry),
// the index that lists them, and ONNX's MVN cases with ONNX's epsilon
// placement. The tests of the simdax_case library itself are in case_*_test.cpp.
#include <gtest/gtest.h>

#include <cctype>
#include <cstddef>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "simdax/simdax.h"
#include "simdax_case.hpp"
#include "support/case_folder.hpp"

using namespace case_test;

namespace simdax_case {
// Readable test parameters in gtest's output.
void PrintTo(const IndexEntry& entry, std::ostream* os) { *os << entry.name; }
}  // namespace simdax_case

namespace {

constexpr std::size_t kConformanceCaseCount = 147;

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

class ConformanceCase : public ::testing::TestWithParam<IndexEntry> {};

TEST_P(ConformanceCase, MeetsThePassRule) {
    const IndexEntry& entry = GetParam();
    try {
        const Case c = load_case(entry.dir);
        EXPECT_EQ(c.name, entry.name);
        EXPECT_EQ(simdax_operator_name(c.op), entry.op);
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
// ONNX's MVN node tests (opsets 13 and 10, the files unchanged) with ONNX's
// own epsilon placement: the stddev form must reproduce ONNX's outputs too.
TEST(ConformanceOnnxMvn, PassesWithTheStddevPlacement) {
    for (const char* name : {"test_mvn", "test_mvn_opset10"}) {
        Case c = load_case(kConformanceRoot / "onnx" / name);
        ASSERT_EQ(c.op, SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION) << name;
        EXPECT_EQ(c.params.epsilon_placement, SIMDAX_EPSILON_ON_VARIANCE) << name << ": absent = variance";
        c.params.epsilon_placement = SIMDAX_EPSILON_ON_STDDEV;
        const CheckResult result = run_and_check(c);
        EXPECT_EQ(result.elements, c.output.element_count) << name;
        EXPECT_TRUE(result.passed()) << name << ": " << describe_failure(c, result);
    }
}

}  // namespace
