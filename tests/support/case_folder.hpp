// Synthetic conformance cases for the tests of tools/case: a temporary case
// folder whose case.json is written from text pieces (so that a test can
// break exactly one), and the runs that check a case against its reference.
#pragma once

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "simdax/simdax.h"
#include "simdax_case.hpp"

namespace case_test {

namespace fs = std::filesystem;
using namespace simdax_case;

inline const fs::path kConformanceRoot = fs::path(SIMDAX_TEST_DATA_DIR) / "conformance";

inline CheckResult run_and_check(const Case& c) {
    OperatorRun run(c);
    run.execute();
    CheckResult r = check_output(c, run.output());
    // Outputs beside Y (float32 like Y in every case that has them): the
    // first one that fails is reported.
    for (std::size_t i = 0; r.passed() && i < c.extra_outputs.size(); ++i) {
        const CheckResult e = check_tensor(c, c.extra_outputs[i], run.extra_output(i));
        if (!e.passed()) r = e;
    }
    return r;
}

inline std::string tensor_json(const std::string& name, const std::string& file, const std::string& dtype,
                               const std::string& shape, const std::string& layout = "",
                               const std::string& file_dtype = "") {
    return R"({"name": ")" + name + R"(", "file": ")" + file + R"(", "dtype": ")" + dtype +
           R"(", "file_dtype": ")" + (file_dtype.empty() ? dtype : file_dtype) + R"(", "shape": )" + shape +
           (layout.empty() ? "" : ", " + layout) + "}";
}

// The inputs list of one packed tensor X of `elements` elements.
inline std::string packed_input(const std::string& file, const std::string& dtype, const std::string& shape,
                                int elements) {
    return "[" +
           tensor_json("X", file, dtype, shape,
                       R"("strides": null, "offset": 0, "buffer_elements": )" + std::to_string(elements)) +
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
        return R"({"schema": ")" + schema + R"(", "name": "synthetic", "set": "test", "op": ")" + op +
               R"(", "params": )" + params + R"(, "tolerance": )" + tolerance +
               R"(, "tags": ["synthetic"], "inputs": )" + inputs + R"(, "outputs": )" + outputs + "}";
    }
};

// A temporary case folder. The JSON is written from text pieces, so a test
// can break exactly one of them.
class CaseFolder {
public:
    CaseFolder() {
        static int serial = 0;
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        dir_ = fs::temp_directory_path() / ("simdax_case_" + std::to_string(::getpid()) + "_" +
                                            std::to_string(serial++) + "_" + info->name());
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

inline void expect_passes(const Case& c) {
    const CheckResult result = run_and_check(c);
    EXPECT_TRUE(result.passed()) << describe_failure(c, result);
}

inline CaseText case_text(std::string op, std::string params, std::string tolerance) {
    CaseText t;
    t.op = std::move(op);
    t.params = std::move(params);
    t.tolerance = std::move(tolerance);
    return t;
}

inline double hard_sigmoid(double x, double alpha, double beta) {
    return std::max(0.0, std::min(alpha * x + beta, 1.0));
}

// The default CaseText with consistent files: a valid case to break.
inline void write_valid_hard_sigmoid(const CaseFolder& folder, const CaseText& text = CaseText()) {
    const std::vector<float> x = {-3, -1, 0, 0.5f, 1, 4};
    std::vector<float> y;
    for (float v : x) y.push_back(static_cast<float>(hard_sigmoid(v, 0.5, 0.25)));
    folder.write_values("input_0.bin", x);
    folder.write_values("output_0.bin", y);
    folder.write_text("case.json", text.render());
}

}  // namespace case_test
