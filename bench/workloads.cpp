#include "workloads.hpp"

namespace simdax_bench {

namespace {

constexpr simdax_dtype F32 = SIMDAX_DTYPE_FLOAT32;
constexpr simdax_dtype F16 = SIMDAX_DTYPE_FLOAT16;
constexpr simdax_dtype BF16 = SIMDAX_DTYPE_BFLOAT16;

// AttentionSoftmax over the last axis; mask: a float32 mask's shape (empty:
// none). No ratio target: its targets are against the Softmax rows of the
// same shape and dtype (AS1: <= 1.15x, AS2: <= 0.65x; AS3 in microseconds).
Workload attention_workload(const char* id, simdax_dtype dtype, std::vector<int64_t> shape,
                            std::vector<int64_t> mask, float scale, simdax_causal causal) {
    Workload w{id, Op::AttentionSoftmax, dtype, std::move(shape), {}, std::move(mask), {}, false};
    w.axes = {uint32_t(w.shape.size() - 1)};
    w.attn_scale = scale;
    w.causal = causal;
    return w;
}

// Targets: {avx512, avx2}; the avx2 ones hold on any x86 CPU through
// SIMDAX_MAX_ISA / the avx2 column.
std::vector<Workload> make_workloads() {
    return {
        {"W1", Op::LogSoftmax, F32, {128, 1000}, {1}, {}, {2.0, 2.2}, false},
        {"W2", Op::LogSoftmax, F32, {16, 32000}, {1}, {}, {1.35, 1.8}, false},
        {"W3", Op::LogSoftmax, F32, {2, 64, 56, 56}, {1}, {}, {1.6, 2.2}, false},
        {"W4", Op::LogSoftmax, F32, {8, 12, 128, 128}, {3}, {}, {1.6, 2.0}, false},
        {"W5", Op::LogSoftmax, F32, {64, 256, 64}, {0, 2}, {}, {2.2, 2.8}, false},
        {"S2", Op::Softmax, F32, {16, 32000}, {1}, {}, {1.3, 2.0}, false},
        {"W6a", Op::Hardmax, F32, {128, 1000}, {1}, {}, {1.3, 1.3}, false},
        {"W6b", Op::Hardmax, F32, {2, 64, 56, 56}, {1}, {}, {1.5, 1.6}, false},
        {"W7a", Op::Mvn, F32, {8, 64, 56, 56}, {2, 3}, {1, 64, 1, 1}, {2.0, 1.3}, false},
        {"W7b", Op::Mvn, F32, {8, 64, 56, 56}, {0, 2, 3}, {}, {1.6, 2.0}, false},
        {"W7c", Op::Mvn, F32, {64, 128, 768}, {2}, {1, 1, 768}, {1.2, 0}, false},
        {"W8a", Op::HardSigmoid, F32, {16777216}, {}, {}, {1.1, 0}, false},
        {"W8b", Op::HardSigmoid, F32, {64, 1024}, {}, {}, {1.3, 0}, false},
        {"F2", Op::LogSoftmax, F16, {16, 32000}, {1}, {}, {2.5, 3.0}, false},
        {"F4", Op::Softmax, F16, {8, 12, 128, 128}, {3}, {}, {2.5, 3.5}, false},
        // Hardmax's float16 twins (native float16 compares on avx512fp16).
        {"F6a", Op::Hardmax, F16, {128, 1000}, {1}, {}, {1.3, 1.6}, false},
        {"F6b", Op::Hardmax, F16, {2, 64, 56, 56}, {1}, {}, {1.5, 1.6}, false},
        {"F7c", Op::Mvn, F16, {64, 128, 768}, {2}, {1, 1, 768}, {1.5, 1.4}, false},
        {"F8a", Op::HardSigmoid, F16, {16777216}, {}, {}, {1.0, 0}, false},
        {"B2", Op::LogSoftmax, BF16, {16, 32000}, {1}, {}, {2.5, 3.0}, false},
        {"B4", Op::Softmax, BF16, {8, 12, 128, 128}, {3}, {}, {2.5, 3.5}, false},
        {"B7c", Op::Mvn, BF16, {64, 128, 768}, {2}, {1, 1, 768}, {1.5, 1.6}, false},
        {"B8a", Op::HardSigmoid, BF16, {16777216}, {}, {}, {1.0, 1.0}, false},
        // Latency of a created operator on 4 floats; target in ns.
        {"LN1", Op::LayerNorm, F32, {4, 128, 384}, {2}, {384}, {1.3, 1.3}, false},
        {"LN2a", Op::LayerNorm, F32, {1, 2048, 4096}, {2}, {4096}, {1.1, 1.1}, false},
        {"LN2b", Op::RmsNorm, F32, {1, 2048, 4096}, {2}, {4096}, {1.1, 1.1}, false},
        {"LN2c", Op::LayerNorm, BF16, {1, 2048, 4096}, {2}, {4096}, {1.1, 1.1}, false},
        {"LN2d", Op::RmsNorm, BF16, {1, 2048, 4096}, {2}, {4096}, {1.1, 1.1}, false},
        {"SLN", Op::SkipLayerNorm, F32, {1, 2048, 4096}, {2}, {4096}, {1.2, 1.2}, false},
        {"L1", Op::LogSoftmax, F32, {4}, {0}, {}, {100.0, 30.0}, true},
        // AttentionSoftmax and the plain Softmax rows it is judged against.
        {"AS1s", Op::Softmax, F32, {4, 12, 128, 128}, {3}, {}, {}, false},
        attention_workload("AS1", F32, {4, 12, 128, 128}, {4, 1, 1, 128}, 0.125f, SIMDAX_CAUSAL_NONE),
        {"AS1s-f16", Op::Softmax, F16, {4, 12, 128, 128}, {3}, {}, {}, false},
        attention_workload("AS1-f16", F16, {4, 12, 128, 128}, {4, 1, 1, 128}, 0.125f, SIMDAX_CAUSAL_NONE),
        {"AS1s-bf16", Op::Softmax, BF16, {4, 12, 128, 128}, {3}, {}, {}, false},
        attention_workload("AS1-bf16", BF16, {4, 12, 128, 128}, {4, 1, 1, 128}, 0.125f, SIMDAX_CAUSAL_NONE),
        {"AS2s", Op::Softmax, F32, {1, 32, 1024, 1024}, {3}, {}, {}, false},
        attention_workload("AS2", F32, {1, 32, 1024, 1024}, {}, 1.0f, SIMDAX_CAUSAL_BOTTOM_RIGHT),
        {"AS2s-bf16", Op::Softmax, BF16, {1, 32, 1024, 1024}, {3}, {}, {}, false},
        attention_workload("AS2-bf16", BF16, {1, 32, 1024, 1024}, {}, 1.0f, SIMDAX_CAUSAL_BOTTOM_RIGHT),
        attention_workload("AS3", F32, {1, 32, 1, 4096}, {1, 1, 1, 4096}, 0.125f, SIMDAX_CAUSAL_NONE),
    };
}

}  // namespace

const std::vector<Workload>& workloads() {
    static const std::vector<Workload> list = make_workloads();
    return list;
}

double target_for(const Workload& w, simdax_isa isa) {
    switch (isa) {
        case SIMDAX_ISA_AVX2: return w.target.avx2;
        case SIMDAX_ISA_AVX512:
        case SIMDAX_ISA_AVX512FP16: return w.target.avx512;
        case SIMDAX_ISA_NEON:
        case SIMDAX_ISA_NEONFP16: return w.target.neon;
        default: return 0;
    }
}

const char* op_name(Op op) {
    switch (op) {
        case Op::LogSoftmax: return "log_softmax";
        case Op::Softmax: return "softmax";
        case Op::Hardmax: return "hardmax";
        case Op::Mvn: return "mvn";
        case Op::HardSigmoid: return "hard_sigmoid";
        case Op::AttentionSoftmax: return "attention_softmax";
        case Op::LayerNorm: return "layer_norm";
        case Op::RmsNorm: return "rms_norm";
        case Op::SkipLayerNorm: return "skip_layer_norm";
    }
    return "?";
}

const char* dtype_name(simdax_dtype dtype) {
    switch (dtype) {
        case SIMDAX_DTYPE_FLOAT32: return "f32";
        case SIMDAX_DTYPE_FLOAT16: return "f16";
        case SIMDAX_DTYPE_BFLOAT16: return "bf16";
        case SIMDAX_DTYPE_FLOAT64: return "f64";
        case SIMDAX_DTYPE_UINT8: return "u8";
    }
    return "?";
}

std::string shape_string(const std::vector<int64_t>& shape) {
    std::string s;
    for (size_t i = 0; i < shape.size(); ++i) {
        if (i) s += 'x';
        s += std::to_string(shape[i]);
    }
    return s;
}

std::string axes_string(const std::vector<uint32_t>& axes) {
    if (axes.empty()) return "-";
    std::string s;
    for (size_t i = 0; i < axes.size(); ++i) {
        if (i) s += ',';
        s += std::to_string(axes[i]);
    }
    return s;
}

int64_t element_count(const std::vector<int64_t>& shape) {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
}

std::string benchmark_name(const Workload& w, const char* isa) {
    return std::string(op_name(w.op)) + '/' + dtype_name(w.dtype) + '/' + isa + '/' + shape_string(w.shape) +
           "/axes=" + axes_string(w.axes);
}

std::string row_name(const Workload& w) {
    return std::string(op_name(w.op)) + '/' + dtype_name(w.dtype) + '/' + shape_string(w.shape) +
           "/axes=" + axes_string(w.axes);
}

std::string memcpy_name(const Workload& w) {
    return std::string("memcpy/") + dtype_name(w.dtype) + '/' + shape_string(w.shape) +
           (w.op == Op::SkipLayerNorm ? "x1.5" : "");
}

int64_t memcpy_bytes(const Workload& w) {
    const int64_t bytes = element_count(w.shape) * int64_t(simdax_dtype_size(w.dtype));
    return w.op == Op::SkipLayerNorm ? bytes / 2 * 3 : bytes;
}

int64_t bytes_processed(const Workload& w) {
    const int64_t elem = int64_t(simdax_dtype_size(w.dtype));
    int64_t bytes = 2 * element_count(w.shape) * elem;  // input + output
    if (w.op == Op::AttentionSoftmax)
        bytes += element_count(w.scale_bias) * 4;  // a float32 mask
    else if (!w.scale_bias.empty())
        bytes += 2 * element_count(w.scale_bias) * elem;
    if (!w.scale_bias.empty()) bytes += 2 * element_count(w.scale_bias) * elem;
    if (w.op == Op::SkipLayerNorm) bytes += element_count(w.shape) * elem;  // the skip
    return bytes;
}

}  // namespace simdax_bench
