// The benchmark workloads: what each one runs, how it is named, and the
// target it is judged against.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <simdax/simdax.h>

namespace simdax_bench {

// LayerNorm/RmsNorm: axis -1 with Scale (and Bias) of scale_bias's shape;
// SkipLayerNorm: LayerNorm of input + skip (both read, one output).
enum class Op {
    LogSoftmax,
    Softmax,
    Hardmax,
    Mvn,
    HardSigmoid,
    AttentionSoftmax,
    LayerNorm,
    RmsNorm,
    SkipLayerNorm
};

struct Workload {
    std::string id;  // "W1", "F7c", "L1", ...
    Op op;
    simdax_dtype dtype;
    std::vector<int64_t> shape;
    std::vector<uint32_t> axes;       // empty for element-wise ops
    std::vector<int64_t> scale_bias;  // MVN Scale/Bias shape, AttentionSoftmax's float32 mask; empty = none
    // Per SIMD ISA family (avx512 also judges avx512fp16, neon neonfp16);
    // 0 = no target. latency == false: the highest acceptable op/memcpy
    // ratio; latency == true: the highest acceptable time per execute, ns.
    struct Targets {
        double avx512 = 0, avx2 = 0, neon = 0;
    } target;
    bool latency;
    // AttentionSoftmax only (attention_workload in workloads.cpp).
    float attn_scale = 1.0f;
    simdax_causal causal = SIMDAX_CAUSAL_NONE;
};

// The target of w on isa (0: none; scalar has none).
double target_for(const Workload& w, simdax_isa isa);

// Every workload, in the order they are registered and tabulated.
const std::vector<Workload>& workloads();

const char* op_name(Op op);                                   // "log_softmax", "mvn", ...
const char* dtype_name(simdax_dtype);                         // "f32", "f16", "bf16", "f64"
std::string shape_string(const std::vector<int64_t>& shape);  // "16x32000"
std::string axes_string(const std::vector<uint32_t>& axes);   // "1", "0,2", "-"
int64_t element_count(const std::vector<int64_t>& shape);

// "<op>/<dtype>/<isa>/<shape>/axes=<list>": the benchmark name.
std::string benchmark_name(const Workload& w, const char* isa);
// The same without the ISA part: the row label of the table.
std::string row_name(const Workload& w);
// "memcpy/<dtype>/<shape>": the baseline a workload's ratio divides by; a
// SkipLayerNorm workload's copies 1.5x its input's bytes, its whole traffic
// (two inputs read, one output written): "memcpy/<dtype>/<shape>x1.5".
std::string memcpy_name(const Workload& w);

// Bytes of the input that memcpy_name's copy moves (read, then written).
int64_t memcpy_bytes(const Workload& w);

// Bytes an execute reads and writes: input + output (+ Scale and Bias).
int64_t bytes_processed(const Workload& w);

}  // namespace simdax_bench
