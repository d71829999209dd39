#include "case_runner.hpp"

#include <cstring>
#include <string>
#include <vector>

#include "case_error.hpp"
#include "dtype_codec.hpp"

namespace simdax_case {
namespace {

// Storage behind one simdax_tensor_desc (which only points at its arrays).
struct DescStorage {
    std::vector<std::int64_t> sizes;
    std::vector<std::int64_t> strides;
    simdax_tensor_desc desc{};

    explicit DescStorage(const Tensor& t) : sizes(t.shape) {
        desc.dtype = t.dtype;
        desc.rank = static_cast<std::uint32_t>(sizes.size());
        desc.sizes = sizes.data();
        if (t.strides) {
            strides = *t.strides;
            desc.strides = strides.data();
        }
    }
};

const void* element_zero(const Tensor& t) {
    return static_cast<const unsigned char*>(t.contents.data()) +
           static_cast<std::size_t>(t.offset) * dtype_bytes(t.dtype);
}

[[noreturn]] void fail_call(const Case& c, const char* call, simdax_status status) {
    throw CaseError(c.json_path.string() + ": " + call + " failed: " + simdax_status_name(status) + ": " +
                    simdax_last_error());
}

// Byte written into the output before each run: an unwritten element reads
// as a large finite value (~1.5e16 in float32, 203.25 in float16), never NaN,
// so it cannot pass for a NaN reference.
constexpr unsigned char kPoison = 0x5a;

// The operand a role beside X, Y, Scale and Bias binds to.
simdax_operand operand_of(const std::string& role) {
    if (role == "Mask") return SIMDAX_OPERAND_MASK;
    if (role == "AlibiSlopes") return SIMDAX_OPERAND_ALIBI_SLOPES;
    if (role == "Sinks") return SIMDAX_OPERAND_SINKS;
    if (role == "Mean") return SIMDAX_OPERAND_MEAN;
    if (role == "InvStdDev") return SIMDAX_OPERAND_INV_STD_DEV;
    return SIMDAX_OPERAND_LOG_SUM_EXP;  // the reader admits no other role
}

}  // namespace

OperatorRun::OperatorRun(const Case& c) : case_(c) {
    DescStorage input(c.inputs.front());
    DescStorage output(c.output);
    // The optional inputs present (Scale, Bias, Mask, AlibiSlopes, Sinks);
    // reserved for all, so the descriptors' addresses stay put.
    std::vector<DescStorage> optional;
    optional.reserve(c.inputs.size());
    const auto optional_desc = [&](const char* role) -> const simdax_tensor_desc* {
        const Tensor* t = c.input(role);
        return t ? &optional.emplace_back(*t).desc : nullptr;
    };
    const simdax_tensor_desc* scale = optional_desc("Scale");
    const simdax_tensor_desc* bias = optional_desc("Bias");

    simdax_axes_op_desc axes_desc{&input.desc, &output.desc, static_cast<std::uint32_t>(c.params.axes.size()),
                                  c.params.axes.data()};
    simdax_mvn_desc mvn_desc{&input.desc,
                             scale,
                             bias,
                             &output.desc,
                             static_cast<std::uint32_t>(c.params.axes.size()),
                             c.params.axes.data(),
                             c.params.normalize_variance ? 1 : 0,
                             c.params.epsilon,
                             c.params.activation ? &*c.params.activation : nullptr};
    const simdax_mvn_ex_desc mvn_ex_desc{mvn_desc, c.params.epsilon_placement};
    simdax_hard_sigmoid_desc hs_desc{&input.desc, &output.desc, c.params.alpha, c.params.beta};
    // The outputs beside Y (Mean, InvStdDev, LogSumExp), bound by operand.
    std::vector<DescStorage> extra;
    extra.reserve(c.extra_outputs.size());
    const auto extra_desc = [&](const char* role) -> const simdax_tensor_desc* {
        for (const Tensor& t : c.extra_outputs)
            if (t.name == role) return &extra.emplace_back(t).desc;
        return nullptr;
    };
    const simdax_tensor_desc* mean = extra_desc("Mean");
    const simdax_tensor_desc* inv_std_dev = extra_desc("InvStdDev");
    const simdax_layer_normalization_desc ln_desc{
        &input.desc,         scale,   bias,    &output.desc, c.params.axis, c.params.epsilon,
        c.params.stash_type, nullptr, nullptr, nullptr,      mean,          inv_std_dev};
    const simdax_rms_normalization_desc rms_desc{
        &input.desc,         scale,   &output.desc, c.params.axis, c.params.epsilon,
        c.params.stash_type, nullptr, nullptr,      nullptr};
    const AttentionParams& attn = c.params.attention;
    const simdax_attention_softmax_desc attention_desc{&input.desc,
                                                       optional_desc("Mask"),
                                                       optional_desc("AlibiSlopes"),
                                                       optional_desc("Sinks"),
                                                       &output.desc,
                                                       extra_desc("LogSumExp"),
                                                       attn.scale,
                                                       attn.softcap,
                                                       attn.causal,
                                                       attn.window,
                                                       attn.log ? 1 : 0};

    simdax_operator_desc desc{};
    switch (c.op) {
        case SIMDAX_OPERATOR_LOG_SOFTMAX:
        case SIMDAX_OPERATOR_SOFTMAX:
        case SIMDAX_OPERATOR_HARDMAX: desc = {c.op, &axes_desc}; break;
        case SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION:
            // The plain descriptor for DirectML's placement, as its users create it.
            desc = c.params.epsilon_placement == SIMDAX_EPSILON_ON_VARIANCE
                       ? simdax_operator_desc{SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, &mvn_desc}
                       : simdax_operator_desc{SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION_EX, &mvn_ex_desc};
            break;
        case SIMDAX_OPERATOR_HARD_SIGMOID: desc = {c.op, &hs_desc}; break;
        case SIMDAX_OPERATOR_LAYER_NORMALIZATION: desc = {c.op, &ln_desc}; break;
        case SIMDAX_OPERATOR_RMS_NORMALIZATION: desc = {c.op, &rms_desc}; break;
        case SIMDAX_OPERATOR_ATTENTION_SOFTMAX: desc = {c.op, &attention_desc}; break;
        default: throw CaseError(c.json_path.string() + ": op: not an operator of the case format");
    }

    const simdax_status status = simdax_operator_create(&desc, &op_);
    if (status != SIMDAX_OK) fail_call(c, "simdax_operator_create", status);

    std::size_t output_bytes = 0;
    if (__builtin_mul_overflow(c.output.element_count, dtype_bytes(c.output.dtype), &output_bytes)) {
        throw CaseError(c.json_path.string() + ": outputs[0]: the output size overflows");
    }
    output_ = ByteBuffer(output_bytes);
    bindings_.input = element_zero(c.inputs.front());
    bindings_.output = output_.data();
    for (std::size_t i = 1; i < c.inputs.size(); ++i) {
        const Tensor& t = c.inputs[i];
        if (t.name == "Scale")
            bindings_.scale = element_zero(t);
        else if (t.name == "Bias")
            bindings_.bias = element_zero(t);
        else  // AttentionSoftmax's operands, which simdax_bindings has no field for
            input_operand_.push_back({operand_of(t.name), element_zero(t)});
    }
    for (const Tensor& t : c.extra_outputs) {
        extra_.emplace_back(static_cast<std::size_t>(t.element_count) * dtype_bytes(t.dtype));
        extra_operand_.push_back(operand_of(t.name));
    }
}

OperatorRun::~OperatorRun() { simdax_operator_destroy(op_); }

void OperatorRun::execute() {
    std::memset(output_.data(), kPoison, output_.size());
    for (ByteBuffer& b : extra_) std::memset(b.data(), kPoison, b.size());
    execute_only();
}

void OperatorRun::execute_only() {
    simdax_status status;
    if (input_operand_.empty() && extra_.empty()) {
        status = simdax_operator_execute(op_, &bindings_);
    } else {  // operands beside input and output: bound by index
        simdax_buffer_binding b[SIMDAX_OPERAND_COUNT] = {};
        b[SIMDAX_OPERAND_INPUT].data = const_cast<void*>(bindings_.input);  // only read
        b[SIMDAX_OPERAND_SCALE].data = const_cast<void*>(bindings_.scale);
        b[SIMDAX_OPERAND_BIAS].data = const_cast<void*>(bindings_.bias);
        b[SIMDAX_OPERAND_OUTPUT].data = bindings_.output;
        for (const auto& [operand, data] : input_operand_) b[operand].data = const_cast<void*>(data);
        for (std::size_t i = 0; i < extra_.size(); ++i) b[extra_operand_[i]].data = extra_[i].data();
        const simdax_operand_bindings ob{
            SIMDAX_HEADER(simdax_operand_bindings, SIMDAX_STRUCTURE_TYPE_OPERAND_BINDINGS),
            SIMDAX_OPERAND_COUNT, b};
        status = simdax_operator_execute_bound(op_, &ob, nullptr);
    }
    if (status != SIMDAX_OK) fail_call(case_, "simdax_operator_execute", status);
}

simdax_isa OperatorRun::isa() const { return simdax_operator_isa(op_); }

}  // namespace simdax_case
