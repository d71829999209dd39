#include "case_reader.hpp"

#include <algorithm>
#include <iterator>
#include <limits>

#include "activation_params.hpp"
#include "attention_params.hpp"
#include "bin_file.hpp"
#include "case_error.hpp"
#include "dtype_codec.hpp"
#include "json_fields.hpp"
#include "tensor_layout.hpp"

namespace simdax_case {
namespace {

using json = nlohmann::json;

constexpr const char* kSchema = "simdax-case/1";

// The operators the case format describes, by their library names.
constexpr simdax_operator_type kCaseOps[] = {
    SIMDAX_OPERATOR_LOG_SOFTMAX,       SIMDAX_OPERATOR_SOFTMAX,
    SIMDAX_OPERATOR_HARDMAX,           SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION,
    SIMDAX_OPERATOR_HARD_SIGMOID,      SIMDAX_OPERATOR_LAYER_NORMALIZATION,
    SIMDAX_OPERATOR_RMS_NORMALIZATION, SIMDAX_OPERATOR_ATTENTION_SOFTMAX};

// The roles an operator takes beside X (inputs, in any order) and beside Y
// (outputs, float32).
std::vector<std::string> optional_inputs(simdax_operator_type op) {
    switch (op) {
        case SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION:
        case SIMDAX_OPERATOR_LAYER_NORMALIZATION: return {"Scale", "Bias"};
        case SIMDAX_OPERATOR_RMS_NORMALIZATION: return {"Scale"};
        case SIMDAX_OPERATOR_ATTENTION_SOFTMAX: return {"Mask", "AlibiSlopes", "Sinks"};
        default: return {};
    }
}

std::vector<std::string> optional_outputs(simdax_operator_type op) {
    switch (op) {
        case SIMDAX_OPERATOR_LAYER_NORMALIZATION: return {"Mean", "InvStdDev"};
        case SIMDAX_OPERATOR_ATTENTION_SOFTMAX: return {"LogSumExp"};
        default: return {};
    }
}

// "X only" or "X, then Scale, Bias": what an operator takes, for messages.
std::string role_list(const char* first, const std::vector<std::string>& optional) {
    if (optional.empty()) return std::string(first) + " only";
    std::string text = std::string(first) + ", then ";
    for (std::size_t i = 0; i < optional.size(); ++i) text += (i == 0 ? "" : ", ") + optional[i];
    return text;
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
}

simdax_operator_type parse_op(const JsonFields& f, const json& doc) {
    const std::string op = f.as_string(f.required(doc, "", "op"), "op");
    std::string expected;
    for (std::size_t i = 0; i < std::size(kCaseOps); ++i) {
        const char* name = simdax_operator_name(kCaseOps[i]);
        if (op == name) return kCaseOps[i];
        expected += (i == 0 ? "" : i + 1 == std::size(kCaseOps) ? " or " : ", ") + std::string(name);
    }
    f.fail("op", "unknown operator '" + op + "' (expected " + expected + ")");
}

std::vector<std::uint32_t> parse_axes(const JsonFields& f, const json& params) {
    std::vector<std::uint32_t> axes;
    const std::vector<std::int64_t> values =
        f.as_integer_array(f.required(params, "params", "axes"), "params.axes");
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (values[i] < 0 || values[i] > std::numeric_limits<std::uint32_t>::max()) {
            f.fail("params.axes[" + std::to_string(i) + "]",
                   std::to_string(values[i]) + " is not a non-negative axis index");
        }
        axes.push_back(static_cast<std::uint32_t>(values[i]));
    }
    return axes;
}

// "variance" (DirectML, the default) or "stddev" (ONNX).
simdax_epsilon_placement parse_epsilon_placement(const JsonFields& f, const json& value) {
    const std::string where = "params.epsilon_placement";
    const std::string name = f.as_string(value, where);
    if (name == "variance") return SIMDAX_EPSILON_ON_VARIANCE;
    if (name == "stddev") return SIMDAX_EPSILON_ON_STDDEV;
    f.fail(where, "unknown placement '" + name + "' (expected \"variance\" or \"stddev\")");
}

CaseParams parse_params(const JsonFields& f, const json& doc, simdax_operator_type op) {
    const json& params = f.required(doc, "", "params");
    f.require_object(params, "params");
    CaseParams out;
    switch (op) {
        case SIMDAX_OPERATOR_LOG_SOFTMAX:
        case SIMDAX_OPERATOR_SOFTMAX:
        case SIMDAX_OPERATOR_HARDMAX:
            f.allow_only(params, "params", {"axes"});
            out.axes = parse_axes(f, params);
            break;
        case SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION:
            f.allow_only(params, "params",
                         {"axes", "normalize_variance", "epsilon", "activation", "epsilon_placement"});
            out.axes = parse_axes(f, params);
            out.normalize_variance =
                f.as_bool(f.required(params, "params", "normalize_variance"), "params.normalize_variance");
            out.epsilon = f.as_float32(f.required(params, "params", "epsilon"), "params.epsilon");
            if (const json* act = f.optional(params, "activation")) {
                out.activation = parse_activation(f, *act, "params.activation");
            }
            if (const json* placement = f.optional(params, "epsilon_placement")) {
                out.epsilon_placement = parse_epsilon_placement(f, *placement);
            }
            break;
        case SIMDAX_OPERATOR_HARD_SIGMOID:
            // docs/spec.md defaults when a case leaves them out.
            f.allow_only(params, "params", {"alpha", "beta"});
            if (const json* a = f.optional(params, "alpha")) out.alpha = f.as_float32(*a, "params.alpha");
            if (const json* b = f.optional(params, "beta")) out.beta = f.as_float32(*b, "params.beta");
            break;
        case SIMDAX_OPERATOR_LAYER_NORMALIZATION:
        case SIMDAX_OPERATOR_RMS_NORMALIZATION: {
            f.allow_only(params, "params", {"axis", "epsilon", "stash_type"});
            const std::int64_t axis = f.as_integer(f.required(params, "params", "axis"), "params.axis");
            if (axis < -SIMDAX_MAX_RANK || axis >= SIMDAX_MAX_RANK) f.fail("params.axis", "is out of range");
            out.axis = static_cast<std::int32_t>(axis);
            out.epsilon = f.as_float32(f.required(params, "params", "epsilon"), "params.epsilon");
            if (const json* st = f.optional(params, "stash_type"))
                out.stash_type = static_cast<std::int32_t>(f.as_integer(*st, "params.stash_type"));
            break;
        }
        case SIMDAX_OPERATOR_ATTENTION_SOFTMAX: out.attention = parse_attention_params(f, params); break;
        default: break;  // parse_op admits the operators above only
    }
    return out;
}

Tolerance parse_tolerance(const JsonFields& f, const json& doc) {
    const json& tol = f.required(doc, "", "tolerance");
    f.require_object(tol, "tolerance");
    f.allow_only(tol, "tolerance", {"atol", "rtol", "ulps"});
    Tolerance out;
    out.atol = f.as_number(f.required(tol, "tolerance", "atol"), "tolerance.atol");
    out.rtol = f.as_number(f.required(tol, "tolerance", "rtol"), "tolerance.rtol");
    const std::int64_t ulps = f.as_integer(f.required(tol, "tolerance", "ulps"), "tolerance.ulps");
    if (out.atol < 0) f.fail("tolerance.atol", "must be >= 0");
    if (out.rtol < 0) f.fail("tolerance.rtol", "must be >= 0");
    if (ulps < 0) f.fail("tolerance.ulps", "must be >= 0");
    out.ulps = static_cast<std::uint64_t>(ulps);
    return out;
}

// uint8 is a name of the format (a boolean Mask) that the number codec,
// which knows only the value types, does not read.
simdax_dtype parse_dtype(const JsonFields& f, const json& value, const std::string& where) {
    const std::string name = f.as_string(value, where);
    if (name == "uint8") return SIMDAX_DTYPE_UINT8;
    const auto dtype = dtype_from_name(name);
    if (!dtype) {
        f.fail(where, "unknown dtype '" + name + "' (expected float32, float16, bfloat16, float64 or uint8)");
    }
    return *dtype;
}

// The JSON half of a tensor entry; the file is read later, once the whole
// case is known to be consistent.
Tensor parse_tensor(const JsonFields& f, const json& entry, const std::string& where, bool is_input) {
    f.require_object(entry, where);
    f.allow_only(entry, where,
                 {"name", "file", "dtype", "file_dtype", "shape", "strides", "offset", "buffer_elements"});
    Tensor t;
    t.name = f.as_string(f.required(entry, where, "name"), where + ".name");
    const std::string file = f.as_string(f.required(entry, where, "file"), where + ".file");
    if (file.empty()) f.fail(where + ".file", "is empty");
    // A name inside the case folder: never absolute, never up through "..".
    const std::filesystem::path normal = std::filesystem::path(file).lexically_normal();
    if (normal.has_root_path() || (!normal.empty() && *normal.begin() == ".."))
        f.fail(where + ".file", "'" + file + "' leaves the case folder");
    t.file = file;
    t.dtype = parse_dtype(f, f.required(entry, where, "dtype"), where + ".dtype");
    const json* file_dtype = f.optional(entry, "file_dtype");
    t.file_dtype = file_dtype ? parse_dtype(f, *file_dtype, where + ".file_dtype") : t.dtype;

    t.shape = f.as_integer_array(f.required(entry, where, "shape"), where + ".shape");
    if (t.shape.empty() || t.shape.size() > SIMDAX_MAX_RANK) {
        f.fail(where + ".shape", "rank " + std::to_string(t.shape.size()) + " is outside 1.." +
                                     std::to_string(SIMDAX_MAX_RANK));
    }
    for (std::size_t k = 0; k < t.shape.size(); ++k) {
        if (t.shape[k] < 0) f.fail(where + ".shape[" + std::to_string(k) + "]", "is negative");
    }
    const auto count = element_count(t.shape);
    if (!count) f.fail(where + ".shape", "the element count overflows 64 bits");
    t.element_count = *count;

    const json* strides = f.optional(entry, "strides");
    const json* offset = f.optional(entry, "offset");
    const json* buffer = f.optional(entry, "buffer_elements");
    if (strides) {
        t.strides = f.as_integer_array(*strides, where + ".strides");
        if (t.strides->size() != t.shape.size()) {
            f.fail(where + ".strides",
                   std::to_string(t.strides->size()) + " entries for rank " + std::to_string(t.shape.size()));
        }
    }
    if (offset) t.offset = f.as_integer(*offset, where + ".offset");

    if (!is_input) {
        // Outputs are always packed row-major (README); refuse anything else
        // rather than compare against a layout the file does not have.
        if (t.strides) f.fail(where + ".strides", "outputs are packed; strides must be null");
        if (t.offset != 0) f.fail(where + ".offset", "outputs are packed; offset must be 0");
        t.buffer_elements = static_cast<std::int64_t>(t.element_count);
        if (buffer && f.as_integer(*buffer, where + ".buffer_elements") != t.buffer_elements) {
            f.fail(where + ".buffer_elements", "outputs are packed; must equal prod(shape)");
        }
        return t;
    }

    if (t.file_dtype != t.dtype) {
        f.fail(where + ".file_dtype", std::string("an input file holds its dtype (") + dtype_name(t.dtype) +
                                          "), not " + dtype_name(t.file_dtype));
    }
    if (buffer) {
        t.buffer_elements = f.as_integer(*buffer, where + ".buffer_elements");
        if (t.buffer_elements < 0) f.fail(where + ".buffer_elements", "is negative");
    } else if (!t.strides) {
        if (__builtin_add_overflow(t.offset, static_cast<std::int64_t>(t.element_count),
                                   &t.buffer_elements)) {
            f.fail(where + ".offset", "offset + element count overflows 64 bits");
        }
    } else {
        f.fail(where + ".buffer_elements", "missing (required with strides)");
    }
    const std::string problem =
        view_problem(t.shape, t.strides ? *t.strides : packed_strides(t.shape), t.offset, t.buffer_elements);
    if (!problem.empty()) f.fail(where, problem);
    return t;
}

std::vector<Tensor> parse_inputs(const JsonFields& f, const json& doc, simdax_operator_type op) {
    const json& list = f.as_array(f.required(doc, "", "inputs"), "inputs");
    std::vector<Tensor> inputs;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string where = "inputs[" + std::to_string(i) + "]";
        Tensor t = parse_tensor(f, list[i], where, true);
        const std::vector<std::string> optional = optional_inputs(op);
        if (i == 0 && t.name != "X") f.fail(where + ".name", "the first input must be X");
        if (i > 0 && !contains(optional, t.name)) {
            f.fail(where + ".name", "'" + t.name + "' is not an input of " + simdax_operator_name(op) +
                                        " (it takes " + role_list("X", optional) + ")");
        }
        if (t.dtype == SIMDAX_DTYPE_UINT8 && t.name != "Mask")
            f.fail(where + ".dtype", "uint8 is for a boolean Mask only");
        for (const Tensor& earlier : inputs) {
            if (earlier.name == t.name) f.fail(where + ".name", "input " + t.name + " repeated");
        }
        inputs.push_back(std::move(t));
    }
    if (inputs.empty()) f.fail("inputs", "is empty (X is required)");
    return inputs;
}

// Y, then the op's optional outputs (LayerNormalization: Mean and/or
// InvStdDev; AttentionSoftmax: LogSumExp), float32.
Tensor parse_output(const JsonFields& f, const json& doc, simdax_operator_type op,
                    std::vector<Tensor>* extra) {
    const json& list = f.as_array(f.required(doc, "", "outputs"), "outputs");
    const std::vector<std::string> optional = optional_outputs(op);
    if (list.empty() || list.size() > optional.size() + 1) {
        f.fail("outputs", std::to_string(list.size()) + " entries; " + simdax_operator_name(op) + " has " +
                              role_list("Y", optional));
    }
    Tensor t = parse_tensor(f, list[0], "outputs[0]", false);
    if (t.name != "Y") f.fail("outputs[0].name", "must be Y, not '" + t.name + "'");
    if (t.dtype == SIMDAX_DTYPE_UINT8 || t.file_dtype == SIMDAX_DTYPE_UINT8)
        f.fail("outputs[0].dtype", "uint8 is for a boolean Mask only");
    for (std::size_t i = 1; i < list.size(); ++i) {
        const std::string where = "outputs[" + std::to_string(i) + "]";
        Tensor e = parse_tensor(f, list[i], where, false);
        if (!contains(optional, e.name)) {
            f.fail(where + ".name", "'" + e.name + "' is not an output of " + simdax_operator_name(op) +
                                        " (it has " + role_list("Y", optional) + ")");
        }
        if (e.dtype != SIMDAX_DTYPE_FLOAT32 || e.file_dtype == SIMDAX_DTYPE_UINT8)
            f.fail(where + ".dtype", "must be float32");
        for (const Tensor& earlier : *extra)
            if (earlier.name == e.name) f.fail(where + ".name", "output " + e.name + " repeated");
        extra->push_back(std::move(e));
    }
    return t;
}

void load_tensor_file(const std::filesystem::path& dir, Tensor& t, const std::string& where) {
    if (t.file.is_relative()) t.file = dir / t.file;
    const simdax_dtype stored = t.file_dtype;
    const auto elements = static_cast<std::uint64_t>(t.buffer_elements);
    std::uint64_t bytes = 0;
    if (__builtin_mul_overflow(elements, dtype_bytes(stored), &bytes)) {
        throw CaseError(t.file.string() + ": the size implied by " + where + " overflows 64 bits");
    }
    t.contents = read_exact_file(
        t.file, bytes, std::to_string(elements) + " " + dtype_name(stored) + " elements (" + where + ")");
}

}  // namespace

const Tensor* Case::input(const std::string& role) const {
    for (const Tensor& t : inputs) {
        if (t.name == role) return &t;
    }
    return nullptr;
}

Case load_case(const std::filesystem::path& dir, Reference reference) {
    Case c;
    c.dir = dir;
    c.json_path = dir / "case.json";
    const json doc = parse_json_file(c.json_path);
    const JsonFields f(c.json_path);
    f.require_object(doc, "");

    // Descriptive members (onnx, semantics, source, notes, ...) are not read:
    // they do not change what is run or how it is judged.
    const std::string schema = f.as_string(f.required(doc, "", "schema"), "schema");
    if (schema != kSchema) f.fail("schema", "'" + schema + "' is not " + kSchema);
    c.name = f.as_string(f.required(doc, "", "name"), "name");
    if (const json* set = f.optional(doc, "set")) c.set = f.as_string(*set, "set");
    c.op = parse_op(f, doc);
    c.params = parse_params(f, doc, c.op);
    c.tolerance = parse_tolerance(f, doc);
    if (const json* tags = f.optional(doc, "tags")) c.tags = f.as_string_array(*tags, "tags");
    c.inputs = parse_inputs(f, doc, c.op);
    c.output = parse_output(f, doc, c.op, &c.extra_outputs);

    // README: input and output of one call share one dtype (AttentionSoftmax:
    // X and Y; its Mask, AlibiSlopes and Sinks have dtypes of their own).
    const std::size_t shared = c.op == SIMDAX_OPERATOR_ATTENTION_SOFTMAX ? 1 : c.inputs.size();
    for (std::size_t i = 0; i < shared; ++i) {
        if (c.inputs[i].dtype != c.output.dtype) {
            f.fail("inputs[" + std::to_string(i) + "].dtype", std::string(dtype_name(c.inputs[i].dtype)) +
                                                                  " differs from the output's " +
                                                                  dtype_name(c.output.dtype));
        }
    }

    for (std::size_t i = 0; i < c.inputs.size(); ++i) {
        load_tensor_file(c.dir, c.inputs[i],
                         "inputs[" + std::to_string(i) + "].buffer_elements in case.json");
    }
    if (reference == Reference::load) {
        load_tensor_file(c.dir, c.output, "outputs[0].shape in case.json");
        for (std::size_t i = 0; i < c.extra_outputs.size(); ++i)
            load_tensor_file(c.dir, c.extra_outputs[i],
                             "outputs[" + std::to_string(i + 1) + "].shape in case.json");
    }
    return c;
}

std::vector<IndexEntry> load_index(const std::filesystem::path& root) {
    const std::filesystem::path file = root / "index.json";
    const json doc = parse_json_file(file);
    const JsonFields f(file);
    f.require_object(doc, "");
    const json& cases = f.as_array(f.required(doc, "", "cases"), "cases");
    std::vector<IndexEntry> out;
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const std::string where = "cases[" + std::to_string(i) + "]";
        const json& entry = cases[i];
        f.require_object(entry, where);
        IndexEntry e;
        e.name = f.as_string(f.required(entry, where, "name"), where + ".name");
        e.dir = root / f.as_string(f.required(entry, where, "path"), where + ".path");
        e.op = f.as_string(f.required(entry, where, "op"), where + ".op");
        if (const json* tags = f.optional(entry, "tags")) {
            e.tags = f.as_string_array(*tags, where + ".tags");
        }
        out.push_back(std::move(e));
    }
    return out;
}

CaseScan scan_case_dirs(const std::filesystem::path& root) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::is_directory(root, ec)) {
        throw CaseError(root.string() + (fs::exists(root, ec) ? ": not a directory" : ": no such directory"));
    }
    CaseScan scan;
    if (fs::is_regular_file(root / "case.json", ec)) {
        scan.cases.push_back(root);
        return scan;
    }
    // Every folder, with whether it holds a case.json or a subfolder.
    struct Seen {
        bool has_case = false, has_subdir = false;
    };
    std::vector<std::pair<fs::path, Seen>> dirs{{root, {}}};
    std::vector<std::size_t> open{0};  // indexes into dirs: the folders above the entry
    const fs::recursive_directory_iterator end;
    fs::recursive_directory_iterator it(root, fs::directory_options::none, ec);
    while (!ec && it != end) {
        open.resize(std::size_t(it.depth()) + 1);
        Seen& here = dirs[open.back()].second;
        std::error_code type_ec;
        if (it->is_directory(type_ec)) {
            here.has_subdir = true;
            dirs.push_back({it->path(), {}});
            open.push_back(dirs.size() - 1);
            // A folder that cannot be listed is reported and passed over.
            std::error_code list_ec;
            fs::directory_iterator probe(it->path(), list_ec);
            if (list_ec) {
                scan.skipped.push_back({it->path(), "cannot be listed: " + list_ec.message()});
                dirs.back().second.has_subdir = true;  // reported already
                it.disable_recursion_pending();
            }
        } else if (it->path().filename() == "case.json" && it->is_regular_file(type_ec)) {
            here.has_case = true;
        }
        it.increment(ec);
    }
    if (ec) throw CaseError(root.string() + ": cannot be listed: " + ec.message());
    for (const auto& [dir, seen] : dirs) {
        if (seen.has_case)
            scan.cases.push_back(dir);
        else if (!seen.has_subdir)
            scan.skipped.push_back({dir, "no case.json"});
    }
    std::sort(scan.cases.begin(), scan.cases.end());
    std::sort(scan.skipped.begin(), scan.skipped.end(),
              [](const CaseScan::Skipped& a, const CaseScan::Skipped& b) { return a.dir < b.dir; });
    return scan;
}

std::vector<std::filesystem::path> find_case_dirs(const std::filesystem::path& root) {
    return scan_case_dirs(root).cases;
}

}  // namespace simdax_case
