#include "workloads.hpp"

#include "operator_names.hpp"

namespace simdax_bench {

namespace {

constexpr simdax_dtype F32 = SIMDAX_DTYPE_FLOAT32;
constexpr simdax_dtype F16 = SIMDAX_DTYPE_FLOAT16;
constexpr simdax_dtype BF16 = SIMDAX_DTYPE_BFLOAT16;

// AttentionSoftmax over the last axis; mask: a float32 mask's shape (empty:
// none), pad/tail its -inf keys (Workload::mask_pad, mask_tail). No ratio
// target: its targets are against the Softmax rows of the same shape and
// dtype (ASn against ASns: AS1* <= 1.15x, AS2* <= 0.65x; AS3 in
// microseconds). Ids, shapes, scales and masks as bench/peers/workloads.txt.
Workload attention_workload(const char* id, simdax_dtype dtype, std::vector<int64_t> shape,
                            std::vector<int64_t> mask, float scale, simdax_causal causal, int64_t pad = 0,
                            int64_t tail = 0) {
    Workload w;
    w.id = id;
    w.op = SIMDAX_OPERATOR_ATTENTION_SOFTMAX;
    w.dtype = dtype;
    w.shape = std::move(shape);
    w.axes = {uint32_t(w.shape.size() - 1)};
    w.scale_bias = std::move(mask);
    w.latency = false;
    w.attn_scale = scale;
    w.causal = causal;
    w.mask_pad = pad;
    w.mask_tail = tail;
    return w;
}

// LayerNormalization of input + skip (a residual of the input's shape, read
// as a second input): "skip_layer_norm".
Workload with_skip(Workload w) {
    w.skip = true;
    return w;
}

// Targets: {avx512, avx2}; the avx2 ones hold on any x86 CPU through
// SIMDAX_MAX_ISA / the avx2 column. A workload a line, past the column limit.
std::vector<Workload> make_workloads() {
    // clang-format off
    return {
        {"W1", SIMDAX_OPERATOR_LOG_SOFTMAX, F32, {128, 1000}, {1}, {}, {2.0, 2.2}, false},
        {"W2", SIMDAX_OPERATOR_LOG_SOFTMAX, F32, {16, 32000}, {1}, {}, {1.35, 1.8}, false},
        {"W3", SIMDAX_OPERATOR_LOG_SOFTMAX, F32, {2, 64, 56, 56}, {1}, {}, {1.6, 2.2}, false},
        {"W4", SIMDAX_OPERATOR_LOG_SOFTMAX, F32, {8, 12, 128, 128}, {3}, {}, {1.6, 2.0}, false},
        {"W5", SIMDAX_OPERATOR_LOG_SOFTMAX, F32, {64, 256, 64}, {0, 2}, {}, {2.2, 2.8}, false},
        {"S2", SIMDAX_OPERATOR_SOFTMAX, F32, {16, 32000}, {1}, {}, {1.3, 2.0}, false},
        {"W6a", SIMDAX_OPERATOR_HARDMAX, F32, {128, 1000}, {1}, {}, {1.3, 1.3}, false},
        {"W6b", SIMDAX_OPERATOR_HARDMAX, F32, {2, 64, 56, 56}, {1}, {}, {1.5, 1.6}, false},
        {"W7a", SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, F32, {8, 64, 56, 56}, {2, 3}, {1, 64, 1, 1}, {2.0, 1.3}, false},
        {"W7b", SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, F32, {8, 64, 56, 56}, {0, 2, 3}, {}, {1.6, 2.0}, false},
        {"W7c", SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, F32, {64, 128, 768}, {2}, {1, 1, 768}, {1.2, 0}, false},
        {"W8a", SIMDAX_OPERATOR_HARD_SIGMOID, F32, {16777216}, {}, {}, {1.1, 0}, false},
        {"W8b", SIMDAX_OPERATOR_HARD_SIGMOID, F32, {64, 1024}, {}, {}, {1.3, 0}, false},
        {"F2", SIMDAX_OPERATOR_LOG_SOFTMAX, F16, {16, 32000}, {1}, {}, {2.5, 3.0}, false},
        {"F4", SIMDAX_OPERATOR_SOFTMAX, F16, {8, 12, 128, 128}, {3}, {}, {2.5, 3.5}, false},
        // Hardmax's float16 twins (native float16 compares on avx512fp16).
        {"F6a", SIMDAX_OPERATOR_HARDMAX, F16, {128, 1000}, {1}, {}, {1.3, 1.6}, false},
        {"F6b", SIMDAX_OPERATOR_HARDMAX, F16, {2, 64, 56, 56}, {1}, {}, {1.5, 1.6}, false},
        {"F7c", SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, F16, {64, 128, 768}, {2}, {1, 1, 768}, {1.5, 1.4}, false},
        {"F8a", SIMDAX_OPERATOR_HARD_SIGMOID, F16, {16777216}, {}, {}, {1.0, 0}, false},
        {"B2", SIMDAX_OPERATOR_LOG_SOFTMAX, BF16, {16, 32000}, {1}, {}, {2.5, 3.0}, false},
        {"B4", SIMDAX_OPERATOR_SOFTMAX, BF16, {8, 12, 128, 128}, {3}, {}, {2.5, 3.5}, false},
        {"B7c", SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, BF16, {64, 128, 768}, {2}, {1, 1, 768}, {1.5, 1.6}, false},
        {"B8a", SIMDAX_OPERATOR_HARD_SIGMOID, BF16, {16777216}, {}, {}, {1.0, 1.0}, false},
        // Latency of a created operator on 4 floats; target in ns.
        {"L1", SIMDAX_OPERATOR_LOG_SOFTMAX, F32, {4}, {0}, {}, {100.0, 30.0}, true},
        // Issue 35, ids as bench/peers/workloads.txt. LN1 <= 1.3x memcpy,
        // LN2/LN2b/RN2/RN2b <= 1.1x, SLN <= 1.2x a copy of all its bytes.
        {"LN1", SIMDAX_OPERATOR_LAYER_NORMALIZATION, F32, {4, 128, 384}, {2}, {384}, {1.3, 1.3}, false},
        {"LN2", SIMDAX_OPERATOR_LAYER_NORMALIZATION, F32, {1, 2048, 4096}, {2}, {4096}, {1.1, 1.1}, false},
        {"LN2b", SIMDAX_OPERATOR_LAYER_NORMALIZATION, BF16, {1, 2048, 4096}, {2}, {4096}, {1.1, 1.1}, false},
        {"RN2", SIMDAX_OPERATOR_RMS_NORMALIZATION, F32, {1, 2048, 4096}, {2}, {4096}, {1.1, 1.1}, false},
        {"RN2b", SIMDAX_OPERATOR_RMS_NORMALIZATION, BF16, {1, 2048, 4096}, {2}, {4096}, {1.1, 1.1}, false},
        with_skip({"SLN", SIMDAX_OPERATOR_LAYER_NORMALIZATION, F32, {1, 2048, 4096}, {2}, {4096}, {1.2, 1.2}, false}),
        // AttentionSoftmax and the plain Softmax rows it is judged against
        // (ASns: the Softmax of ASn's shape and dtype).
        {"AS1s", SIMDAX_OPERATOR_SOFTMAX, F32, {4, 12, 128, 128}, {3}, {}, {}, false},
        attention_workload("AS1", F32, {4, 12, 128, 128}, {4, 1, 1, 128}, 0.125f, SIMDAX_CAUSAL_NONE, 16),
        {"AS1bs", SIMDAX_OPERATOR_SOFTMAX, BF16, {4, 12, 128, 128}, {3}, {}, {}, false},
        attention_workload("AS1b", BF16, {4, 12, 128, 128}, {4, 1, 1, 128}, 0.125f, SIMDAX_CAUSAL_NONE, 16),
        {"AS1hs", SIMDAX_OPERATOR_SOFTMAX, F16, {4, 12, 128, 128}, {3}, {}, {}, false},
        attention_workload("AS1h", F16, {4, 12, 128, 128}, {4, 1, 1, 128}, 0.125f, SIMDAX_CAUSAL_NONE, 16),
        {"AS2s", SIMDAX_OPERATOR_SOFTMAX, F32, {1, 32, 1024, 1024}, {3}, {}, {}, false},
        attention_workload("AS2", F32, {1, 32, 1024, 1024}, {}, 0.125f, SIMDAX_CAUSAL_BOTTOM_RIGHT),
        {"AS2bs", SIMDAX_OPERATOR_SOFTMAX, BF16, {1, 32, 1024, 1024}, {3}, {}, {}, false},
        attention_workload("AS2b", BF16, {1, 32, 1024, 1024}, {}, 0.125f, SIMDAX_CAUSAL_BOTTOM_RIGHT),
        attention_workload("AS3", F32, {1, 32, 1, 4096}, {1, 1, 1, 4096}, 0.125f, SIMDAX_CAUSAL_NONE, 0, 96),
    };
    // clang-format on
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

std::string operator_name(const Workload& w) { return (w.skip ? "skip_" : "") + operator_short_name(w.op); }

std::string benchmark_name(const Workload& w, const char* isa) {
    return operator_name(w) + '/' + dtype_name(w.dtype) + '/' + isa + '/' + shape_string(w.shape) +
           "/axes=" + axes_string(w.axes);
}

std::string row_name(const Workload& w) {
    return operator_name(w) + '/' + dtype_name(w.dtype) + '/' + shape_string(w.shape) +
           "/axes=" + axes_string(w.axes);
}

std::string memcpy_name(const Workload& w) {
    return std::string("memcpy/") + dtype_name(w.dtype) + '/' + shape_string(w.shape) +
           (w.skip ? "x1.5" : "");
}

int64_t memcpy_bytes(const Workload& w) {
    const int64_t bytes = element_count(w.shape) * int64_t(simdax_dtype_size(w.dtype));
    return w.skip ? bytes / 2 * 3 : bytes;
}

int64_t bytes_processed(const Workload& w) {
    const int64_t elem = int64_t(simdax_dtype_size(w.dtype));
    int64_t bytes = 2 * element_count(w.shape) * elem;  // input + output
    if (w.op == SIMDAX_OPERATOR_ATTENTION_SOFTMAX)
        bytes += element_count(w.scale_bias) * 4;  // a float32 mask
    else if (!w.scale_bias.empty())
        bytes += 2 * element_count(w.scale_bias) * elem;
    if (w.skip) bytes += element_count(w.shape) * elem;  // the skip
    return bytes;
}

}  // namespace simdax_bench
