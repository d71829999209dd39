// The benchmark workloads: what each one runs, how it is named, and the
// target it is judged against.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <simdax/simdax.h>

namespace simdax_bench {

struct Workload {
    std::string id;  // "W1", "F7c", "L1", ...
    // LayerNormalization/RMSNormalization: over the last axis (axes), with
    // Scale (and Bias) of scale_bias's shape.
    simdax_operator_type op;
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
    float attn_softcap = 0.0f;  // 0: none
    simdax_causal causal = SIMDAX_CAUSAL_NONE;
    // The mask's contents, as bench/peers/workloads.txt: pad=P (batch b
    // masks its last P*b keys, -inf) or tail=T (every row masks its last T
    // keys); both 0: every key kept (the mask is all 0).
    int64_t mask_pad = 0, mask_tail = 0;
    // LayerNormalization only: of input + skip (a second input of the
    // input's shape; both read, one output), named "skip_layer_norm".
    bool skip = false;
    // LayerNormalization/RMSNormalization: Scale/Bias in float32 whatever
    // the data's dtype (PyTorch's and oneDNN's mixed precision).
    bool float32_params = false;
    // Activation only: the activation it runs (its parameters 0).
    simdax_activation_type activation = SIMDAX_ACTIVATION_RELU;
};

// The target of w on isa (0: none; scalar has none).
double target_for(const Workload& w, simdax_isa isa);

// Every workload, in the order they are registered and tabulated.
const std::vector<Workload>& workloads();

// operator_short_name(w.op) (operator_names.hpp), "skip_"-prefixed for a
// skip: "log_softmax", "mvn", "skip_layer_norm".
std::string operator_name(const Workload& w);
const char* dtype_name(simdax_dtype);                         // "f32", "f16", "bf16", "f64"
std::string shape_string(const std::vector<int64_t>& shape);  // "16x32000"
std::string axes_string(const std::vector<uint32_t>& axes);   // "1", "0,2", "-"
int64_t element_count(const std::vector<int64_t>& shape);

// "<op>/<dtype>/<isa>/<shape>/axes=<list>": the benchmark name.
std::string benchmark_name(const Workload& w, const char* isa);
// The same without the ISA part: the row label of the table.
std::string row_name(const Workload& w);
// "memcpy/<dtype>/<shape>": the baseline a workload's ratio divides by; a
// skip workload's copies 1.5x its input's bytes, its whole traffic
// (two inputs read, one output written): "memcpy/<dtype>/<shape>x1.5".
std::string memcpy_name(const Workload& w);

// Bytes of the input that memcpy_name's copy moves (read, then written).
int64_t memcpy_bytes(const Workload& w);

// Bytes an execute reads and writes: input + output (+ Scale and Bias).
int64_t bytes_processed(const Workload& w);

}  // namespace simdax_bench
