// The simdax_case library on broken cases: each fails with a one-line
// message naming the file and the problem; folders without a case are
// reported.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "simdax/simdax.h"
#include "simdax_case.hpp"
#include "support/case_folder.hpp"

using namespace case_test;

namespace {

// ------------------------------------------------------- broken cases

// load_case (and, where the library is the judge, OperatorRun) fails with a
// one-line message that names `file` and contains `problem`.
void expect_case_error(const CaseFolder& folder, const std::string& file, const std::string& problem) {
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

// A valid case but for its inputs (outputs): a list of the tensors given
// (tensor_json, comma-separated).
CaseText with_inputs(const std::string& tensors) {
    CaseText text;
    text.inputs = "[" + tensors + "]";
    return text;
}
CaseText with_outputs(const std::string& tensors) {
    CaseText text;
    text.outputs = "[" + tensors + "]";
    return text;
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
    expect_json_error(with_inputs(tensor_json("X", "input_0.bin", "int8", "[2, 3]")),
                      "inputs[0].dtype: unknown dtype 'int8'");
    text = CaseText();
    text.schema = "simdax-case/2";
    expect_json_error(text, "schema");
}

TEST(CaseReaderErrors, ViewOutsideTheBuffer) {
    const std::string x_shape = "[2, 3]";
    const auto with_layout = [&](const std::string& layout) {
        return with_inputs(tensor_json("X", "input_0.bin", "float32", x_shape, layout));
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
        return with_inputs(tensor_json("X", "input_0.bin", "float32", shape));
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
    CaseText text = with_inputs(tensor_json("X", "input_0.bin", "float32", "[2, 3]") + ", " +
                                tensor_json("Scale", "input_0.bin", "float32", "[2, 3]"));
    expect_json_error(text, "inputs[1].name: 'Scale' is not an input of HardSigmoid (it takes X only)");
    text.inputs = "[]";
    expect_json_error(text, "inputs: is empty");
    expect_json_error(with_outputs(""), "outputs: 0 entries");
    expect_json_error(with_outputs(tensor_json("Y", "output_0.bin", "float64", "[2, 3]")),
                      "float32 differs from the output's float64");
    expect_json_error(with_inputs(tensor_json("X", "input_0.bin", "float32", "[2, 3]", "", "float64")),
                      "an input file holds its dtype");
    expect_json_error(
        with_outputs(tensor_json("Y", "output_0.bin", "float32", "[2, 3]", R"("strides": [1, 2])")),
        "outputs are packed");
}

// A case's files live in its folder: "../x" or an absolute path is refused
// before anything outside is opened.
TEST(CaseReaderErrors, FileOutsideTheCaseFolder) {
    for (const std::string file : {"../input_0.bin", "sub/../../input_0.bin", "/etc/hostname"}) {
        CaseText text;
        text.inputs = packed_input(file, "float32", "[2, 3]", 6);
        expect_json_error(text, "inputs[0].file: '" + file + "' leaves the case folder");
        expect_json_error(with_outputs(tensor_json("Y", file, "float32", "[2, 3]")),
                          "outputs[0].file: '" + file + "' leaves the case folder");
    }
    // A path that stays inside is fine.
    CaseFolder folder;
    CaseText text;
    text.inputs = packed_input("sub/../input_0.bin", "float32", "[2, 3]", 6);
    write_valid_hard_sigmoid(folder, text);
    fs::create_directories(folder.dir() / "sub");
    EXPECT_NO_THROW(load_case(folder.dir()));
}
// Folders without a case (and without subfolders) are reported, not
// silently dropped; folders that only group cases are not.
TEST(CaseScan, ReportsSkippedFolders) {
    CaseFolder root;
    const fs::path a = root.dir() / "set" / "a", lost = root.dir() / "set" / "lost",
                   empty = root.dir() / "empty";
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
