// The simdax_case library on AttentionSoftmax cases: its params, the Mask
// (four dtypes, broadcast by size-1 axes and by zero strides), AlibiSlopes,
// Sinks and the LogSumExp output reach the library, and every output is
// judged; broken cases fail with a message naming the file and the problem.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "simdax/simdax.h"
#include "simdax_case.hpp"
#include "support/attention_reference.hpp"
#include "support/case_folder.hpp"

using namespace case_test;

namespace {

// One tensor of a synthetic case: its values (representable in dtype), and
// the view the operator sees (no strides: packed).
struct Operand {
    std::string role, dtype;
    std::vector<std::int64_t> shape;
    std::vector<double> values;  // the file's elements
    std::vector<std::int64_t> strides;
};

// Values spread over [-3, 3), in steps representable in every dtype.
std::vector<double> ramp(std::int64_t n, double step = 0.375) {
    std::vector<double> v;
    for (std::int64_t i = 0; i < n; ++i) v.push_back(double((i * 7) % 16) * step - 3.0);
    return v;
}

// The case: X [1, 2, 3, 5] (Sq 3, Skv 5), bottom-right causal window 3.
struct AttentionSpec {
    float scale = 0.5f, softcap = 0;
    std::string causal = "bottom_right";
    simdax_causal causal_mode = SIMDAX_CAUSAL_BOTTOM_RIGHT;
    std::uint32_t window = 3;
    bool log = false;
    Operand x{"X", "float32", {1, 2, 3, 5}, ramp(30), {}};
    std::vector<Operand> extra;  // Mask, AlibiSlopes, Sinks
    bool lse = true;
};

std::string shape_json(const std::vector<std::int64_t>& v) {
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
    return s + "]";
}

std::string operand_json(const Operand& o, std::size_t index) {
    const std::string strides = o.strides.empty() ? "null" : shape_json(o.strides);
    return tensor_json(o.role, "input_" + std::to_string(index) + ".bin", o.dtype, shape_json(o.shape),
                       R"("strides": )" + strides + R"(, "offset": 0, "buffer_elements": )" +
                           std::to_string(o.values.size()));
}

void write_operand(const CaseFolder& folder, const Operand& o, std::size_t index) {
    const std::string file = "input_" + std::to_string(index) + ".bin";
    if (o.dtype == "float32") {
        folder.write_values(file, std::vector<float>(o.values.begin(), o.values.end()));
    } else if (o.dtype == "float64") {
        folder.write_values(file, o.values);
    } else if (o.dtype == "uint8") {
        folder.write_values(file, std::vector<std::uint8_t>(o.values.begin(), o.values.end()));
    } else {
        std::vector<std::uint16_t> bits;
        for (double v : o.values)
            bits.push_back(o.dtype == "float16" ? double_to_float16_bits(v) : double_to_bfloat16_bits(v));
        folder.write_values(file, bits);
    }
}

sxt::StridedView view_of(const Operand& o) {
    return {o.values.data(), o.shape, o.strides.empty() ? sxt::packed_strides(o.shape) : o.strides};
}

// The case.json pieces of `spec` (a test may break one).
CaseText attention_text(const AttentionSpec& spec) {
    CaseText text;
    text.op = "AttentionSoftmax";
    text.params = R"({"scale": )" + std::to_string(spec.scale) + R"(, "softcap": )" +
                  std::to_string(spec.softcap) + R"(, "causal": ")" + spec.causal + R"(", "window": )" +
                  std::to_string(spec.window) + R"(, "log": )" + (spec.log ? "true" : "false") +
                  R"(, "fully_masked_rows": "zeros"})";
    const bool narrow = spec.x.dtype != "float32";
    text.tolerance = narrow ? R"({"atol": 1e-06, "rtol": 1e-05, "ulps": 1})"
                            : R"({"atol": 1e-06, "rtol": 1e-05, "ulps": 0})";
    text.inputs = "[" + operand_json(spec.x, 0);
    for (std::size_t i = 0; i < spec.extra.size(); ++i)
        text.inputs += ", " + operand_json(spec.extra[i], i + 1);
    text.inputs += "]";
    std::vector<std::int64_t> lse_shape = spec.x.shape;
    lse_shape.back() = 1;
    text.outputs =
        "[" + tensor_json("Y", "output_0.bin", spec.x.dtype, shape_json(spec.x.shape), "", "float64");
    if (spec.lse)
        text.outputs +=
            ", " + tensor_json("LogSumExp", "output_1.bin", "float32", shape_json(lse_shape), "", "float64");
    text.outputs += "]";
    return text;
}

// Writes the files of `spec`, the references from the float64 formula
// (tests/support/attention_reference.hpp), and case.json from `text`.
void write_attention_case(const CaseFolder& folder, const AttentionSpec& spec, const CaseText& text) {
    write_operand(folder, spec.x, 0);
    for (std::size_t i = 0; i < spec.extra.size(); ++i) write_operand(folder, spec.extra[i], i + 1);
    const sxt::StridedView x = view_of(spec.x);
    sxt::AttnRefArgs args;
    args.x = &x;
    std::vector<sxt::StridedView> views;
    views.reserve(spec.extra.size());
    for (const Operand& o : spec.extra) {
        const sxt::StridedView* v = &views.emplace_back(view_of(o));
        if (o.role == "Mask") {
            args.mask = v;
            args.mask_bool = o.dtype == "uint8";
        }
        if (o.role == "AlibiSlopes") args.slopes = v;
        if (o.role == "Sinks") args.sinks = v;
    }
    args.scale = spec.scale;
    args.softcap = spec.softcap;
    args.causal = spec.causal_mode;
    args.window = spec.window;
    args.log = spec.log;
    const sxt::AttnRef ref = sxt::ref_attention_softmax(args);
    folder.write_values("output_0.bin", ref.y);
    folder.write_values("output_1.bin", ref.lse);
    folder.write_text("case.json", text.render());
}

Case load_attention(const CaseFolder& folder, const AttentionSpec& spec) {
    write_attention_case(folder, spec, attention_text(spec));
    return load_case(folder.dir());
}

// Mask [1, 1, 3, 5] of dtype: a float mask adds ramp values and one -inf; a
// uint8 mask drops one key per row.
Operand mask_of(const std::string& dtype) {
    Operand m{"Mask", dtype, {1, 1, 3, 5}, ramp(15, 0.25), {}};
    for (std::size_t i = 0; i < m.values.size(); ++i) {
        if (dtype == "uint8") m.values[i] = i % 5 == (i / 5) % 5 ? 0 : 1;
    }
    if (dtype != "uint8") m.values[7] = -HUGE_VAL;
    return m;
}

// ------------------------------------------------------- valid cases

TEST(CaseAttention, ParamsMapOntoTheDescriptor) {
    CaseFolder folder;
    AttentionSpec spec;
    spec.softcap = 2.5f;
    spec.log = true;
    const Case c = load_attention(folder, spec);
    EXPECT_EQ(c.op, SIMDAX_OPERATOR_ATTENTION_SOFTMAX);
    EXPECT_EQ(c.params.attention.scale, 0.5f);
    EXPECT_EQ(c.params.attention.softcap, 2.5f);
    EXPECT_EQ(c.params.attention.causal, SIMDAX_CAUSAL_BOTTOM_RIGHT);
    EXPECT_EQ(c.params.attention.window, 3u);
    EXPECT_TRUE(c.params.attention.log);
    ASSERT_EQ(c.extra_outputs.size(), 1u);
    EXPECT_EQ(c.extra_outputs[0].name, "LogSumExp");
    expect_passes(c);

    // Every field left out: the library's "none" values.
    CaseText text = attention_text(spec);
    text.params = "{}";
    folder.write_text("case.json", text.render());
    const AttentionParams none = load_case(folder.dir()).params.attention;
    EXPECT_EQ(none.scale, 1.0f);
    EXPECT_EQ(none.softcap, 0.0f);
    EXPECT_EQ(none.causal, SIMDAX_CAUSAL_NONE);
    EXPECT_EQ(none.window, 0u);
    EXPECT_FALSE(none.log);
}

TEST(CaseAttention, MaskOfEveryDtypeBroadcast) {
    for (const std::string x_dtype : {"float32", "float16", "bfloat16"}) {
        for (const std::string mask_dtype : {"float32", "float16", "bfloat16", "uint8"}) {
            CaseFolder folder;
            AttentionSpec spec;
            spec.x.dtype = x_dtype;
            spec.x.values = ramp(30);
            spec.extra = {mask_of(mask_dtype)};
            const Case c = load_attention(folder, spec);
            ASSERT_NE(c.input("Mask"), nullptr);
            EXPECT_EQ(c.input("Mask")->dtype,
                      mask_dtype == "uint8" ? SIMDAX_DTYPE_UINT8 : *dtype_from_name(mask_dtype));
            const CheckResult result = run_and_check(c);
            EXPECT_TRUE(result.passed())
                << x_dtype << " scores, " << mask_dtype << " mask: " << describe_failure(c, result);
        }
    }
}

// ONNX's 2-D mask [Sq, Skv] as a view of [B, H, Sq, Skv] with zero strides in
// front, next to the same values packed at full size.
TEST(CaseAttention, MaskBroadcastByZeroStrides) {
    for (const bool zero_strides : {true, false}) {
        CaseFolder folder;
        AttentionSpec spec;
        spec.x = {"X", "float32", {2, 2, 3, 5}, ramp(60), {}};
        Operand mask = mask_of("uint8");
        mask.shape = {2, 2, 3, 5};
        if (zero_strides) {
            mask.strides = {0, 0, 5, 1};
        } else {
            const std::vector<double> one = mask.values;
            mask.values.clear();
            for (int copy = 0; copy < 4; ++copy)
                mask.values.insert(mask.values.end(), one.begin(), one.end());
        }
        spec.extra = {mask};
        expect_passes(load_attention(folder, spec));
    }
}

TEST(CaseAttention, SlopesSinksAndLogSumExp) {
    for (const bool log : {false, true}) {
        CaseFolder folder;
        AttentionSpec spec;
        spec.log = log;
        spec.x.values = ramp(30);
        spec.extra = {{"AlibiSlopes", "float32", {1, 2, 1, 1}, {0.25, 0.0625}, {}},
                      {"Sinks", "bfloat16", {1, 2, 1, 1}, {1.5, -0.5}, {}}};
        expect_passes(load_attention(folder, spec));
    }
}

// Each param changes the result: a reference made with another value fails.
TEST(CaseAttention, ParamsAreHonoured) {
    const auto passes_with = [](const std::string& params_json) {
        CaseFolder folder;
        AttentionSpec spec;  // the reference: scale 0.5, bottom_right, window 3
        spec.x.values = ramp(30);
        spec.extra = {{"Sinks", "float32", {1, 2, 1, 1}, {0.5, 1.0}, {}}};
        CaseText text = attention_text(spec);
        text.params = params_json;
        write_attention_case(folder, spec, text);
        return run_and_check(load_case(folder.dir())).passed();
    };
    EXPECT_TRUE(passes_with(R"({"scale": 0.5, "causal": "bottom_right", "window": 3})"));
    EXPECT_FALSE(passes_with(R"({"scale": 0.5, "causal": "top_left", "window": 3})"));
    EXPECT_FALSE(passes_with(R"({"scale": 0.5, "causal": "bottom_right", "window": 2})"));
    EXPECT_FALSE(passes_with(R"({"scale": 0.5, "causal": "bottom_right"})"));
    EXPECT_FALSE(passes_with(R"({"scale": 0.25, "causal": "bottom_right", "window": 3})"));
    EXPECT_FALSE(passes_with(R"({"scale": 0.5, "softcap": 1, "causal": "bottom_right", "window": 3})"));
    EXPECT_FALSE(passes_with(R"({"scale": 0.5, "causal": "bottom_right", "window": 3, "log": true})"));
}

// A wrong LogSumExp reference fails, and the message names that output.
TEST(CaseAttention, LogSumExpIsChecked) {
    CaseFolder folder;
    AttentionSpec spec;
    spec.x.values = ramp(30);
    write_attention_case(folder, spec, attention_text(spec));
    folder.write_values("output_1.bin", std::vector<double>(6, 0.5));
    const Case c = load_case(folder.dir());
    OperatorRun run(c);
    run.execute();
    EXPECT_TRUE(check_output(c, run.output()).passed());
    const CheckResult result = check_run(c, run);
    EXPECT_FALSE(result.passed());
    EXPECT_EQ(result.tensor, "LogSumExp");
    EXPECT_EQ(describe_failure(c, result).rfind("LogSumExp: 6 of 6 elements fail", 0), 0u)
        << describe_failure(c, result);
}

// ------------------------------------------------------- broken cases

// load_case, then (where the library is the judge) the run, fails with a
// one-line message naming `file` and containing `problem`.
void expect_attention_error(const AttentionSpec& spec, const CaseText& text, const std::string& problem,
                            const std::string& file = "case.json",
                            const std::function<void(const CaseFolder&)>& then_write = {}) {
    CaseFolder folder;
    write_attention_case(folder, spec, text);
    if (then_write) then_write(folder);
    try {
        const Case c = load_case(folder.dir());
        OperatorRun run(c);
        run.execute();
        ADD_FAILURE() << "no error; expected one about " << problem;
    } catch (const CaseError& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find((folder.dir() / file).string()), std::string::npos) << message;
        EXPECT_NE(message.find(problem), std::string::npos) << message;
        EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
}

AttentionSpec masked_spec(Operand mask) {
    AttentionSpec spec;
    spec.x.values = ramp(30);
    spec.extra = {std::move(mask)};
    return spec;
}

TEST(CaseAttentionErrors, BadMaskDtype) {
    Operand mask = mask_of("float32");
    mask.dtype = "float64";  // a dtype of the format, not of a mask
    AttentionSpec spec = masked_spec(mask);
    expect_attention_error(
        spec, attention_text(spec),
        "simdax_operator_create failed: SIMDAX_ERROR_DTYPE_MISMATCH: mask.dtype: float64 is not "
        "one of float32, float16, bfloat16, uint8");
    spec = masked_spec(mask_of("uint8"));
    CaseText text = attention_text(spec);
    text.inputs = "[" + operand_json(spec.x, 0) + ", " +
                  tensor_json("Mask", "input_1.bin", "bool", "[1, 1, 3, 5]") + "]";
    expect_attention_error(spec, text, "inputs[1].dtype: unknown dtype 'bool'");
}

TEST(CaseAttentionErrors, BadMaskShape) {
    Operand mask = mask_of("uint8");
    mask.shape = {1, 3, 5};
    AttentionSpec spec = masked_spec(mask_of("uint8"));
    CaseText text = attention_text(spec);
    text.inputs = "[" + operand_json(spec.x, 0) + ", " + operand_json(mask, 1) + "]";
    expect_attention_error(spec, text, "mask.rank: 3 differs from input.rank 4");
    mask.shape = {1, 1, 5, 3};
    text.inputs = "[" + operand_json(spec.x, 0) + ", " + operand_json(mask, 1) + "]";
    expect_attention_error(spec, text, "mask.sizes[2]: 5 is neither input.sizes[2] (3) nor 1");
    // A view beyond the file is the reader's to refuse.
    mask.shape = {1, 1, 3, 5};
    mask.strides = {0, 0, 6, 1};
    text.inputs = "[" + operand_json(spec.x, 0) + ", " + operand_json(mask, 1) + "]";
    expect_attention_error(spec, text, "inputs[1]: ");
}

TEST(CaseAttentionErrors, Uint8IsForTheMaskOnly) {
    AttentionSpec spec = masked_spec(mask_of("uint8"));
    CaseText text = attention_text(spec);
    Operand x = spec.x;
    x.dtype = "uint8";
    text.inputs = "[" + operand_json(x, 0) + "]";
    expect_attention_error(spec, text, "inputs[0].dtype: uint8 is for a boolean Mask only");
    Operand sinks{"Sinks", "uint8", {1, 2, 1, 1}, {1, 0}, {}};
    text.inputs = "[" + operand_json(spec.x, 0) + ", " + operand_json(sinks, 1) + "]";
    expect_attention_error(spec, text, "inputs[1].dtype: uint8 is for a boolean Mask only");
}

TEST(CaseAttentionErrors, RolesOfOtherOperators) {
    AttentionSpec spec = masked_spec(mask_of("float32"));
    CaseText text = attention_text(spec);
    text.op = "Softmax";
    text.params = R"({"axes": [3]})";
    text.outputs = "[" + tensor_json("Y", "output_0.bin", "float32", "[1, 2, 3, 5]", "", "float64") + "]";
    expect_attention_error(spec, text, "inputs[1].name: 'Mask' is not an input of Softmax (it takes X only)");
    text = attention_text(spec);
    text.inputs = "[" + operand_json(spec.x, 0) + ", " +
                  tensor_json("Scale", "input_1.bin", "float32", "[1, 1, 3, 5]",
                              R"("strides": null, "offset": 0, "buffer_elements": 15)") +
                  "]";
    expect_attention_error(
        spec, text,
        "'Scale' is not an input of AttentionSoftmax (it takes X, then Mask, AlibiSlopes, Sinks)");
    text = attention_text(spec);
    text.outputs = "[" + tensor_json("Y", "output_0.bin", "float32", "[1, 2, 3, 5]", "", "float64") + ", " +
                   tensor_json("Mean", "output_1.bin", "float32", "[1, 2, 3, 1]", "", "float64") + "]";
    expect_attention_error(
        spec, text,
        "outputs[1].name: 'Mean' is not an output of AttentionSoftmax (it has Y, then LogSumExp)");
}

TEST(CaseAttentionErrors, BadLogSumExp) {
    AttentionSpec spec = masked_spec(mask_of("float32"));
    CaseText text = attention_text(spec);
    const std::string y = tensor_json("Y", "output_0.bin", "float32", "[1, 2, 3, 5]", "", "float64");
    text.outputs = "[" + y + ", " + tensor_json("LogSumExp", "output_1.bin", "float16", "[1, 2, 3, 1]") + "]";
    expect_attention_error(spec, text, "outputs[1].dtype: must be float32");
    text.outputs = "[" + y + ", " +
                   tensor_json("LogSumExp", "output_1.bin", "float32", "[1, 2, 3, 5]", "", "float64") + "]";
    expect_attention_error(
        spec, text, "log_sum_exp.sizes[3]: 5 must be 1", "case.json",
        [](const CaseFolder& f) { f.write_values("output_1.bin", std::vector<double>(30)); });
    // The file must hold what the shape says (6 values, not 30).
    expect_attention_error(spec, text, "outputs[1].shape in case.json", "output_1.bin");
}

TEST(CaseAttentionErrors, BadParams) {
    const AttentionSpec spec = masked_spec(mask_of("uint8"));
    CaseText text = attention_text(spec);
    const auto expect_params_error = [&](const std::string& params, const std::string& problem) {
        text.params = params;
        expect_attention_error(spec, text, problem);
    };
    expect_params_error(
        R"({"causal": "lower_right"})",
        "params.causal: unknown causal mode 'lower_right' (expected \"none\", \"top_left\" or "
        "\"bottom_right\")");
    expect_params_error(R"({"causal": 1})", "params.causal: must be a string");
    expect_params_error(R"({"causal": "top_left", "window": -1})", "params.window: -1 is not a key count");
    expect_params_error(R"({"causal": "top_left", "window": 1.5})", "params.window: must be an integer");
    expect_params_error(R"({"log": "yes"})", "params.log: must be true or false");
    expect_params_error(R"({"is_causal": 1})", "params.is_causal: unknown field");
    expect_params_error(R"({"scale": 1e39})", "params.scale: is beyond the float32 range");
    expect_params_error(
        R"({"fully_masked_rows": "nan"})",
        "params.fully_masked_rows: 'nan' is not simdax's policy: a row with no visible key gives "
        "zeros");
    // Valid JSON the library refuses.
    expect_params_error(R"({"window": 2})", "window: 2 needs a causal mode");
    expect_params_error(R"({"softcap": -1})", "softcap: -1 must be >= 0");
    expect_params_error(R"({"scale": 0.5, "causal": "top_left", "log": true, "axes": [3]})",
                        "params.axes: unknown field");
}

TEST(CaseAttentionErrors, TruncatedMaskFile) {
    CaseFolder folder;
    const AttentionSpec spec = masked_spec(mask_of("float16"));
    write_attention_case(folder, spec, attention_text(spec));
    folder.write_values("input_1.bin", std::vector<std::uint16_t>(14));
    EXPECT_THROW(
        {
            try {
                load_case(folder.dir());
            } catch (const CaseError& e) {
                EXPECT_NE(std::string(e.what()).find("input_1.bin: 28 bytes, expected 30"), std::string::npos)
                    << e.what();
                throw;
            }
        },
        CaseError);
}

}  // namespace
