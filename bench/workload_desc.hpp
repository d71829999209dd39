// The descriptor of a workload's operator and the bindings of its operands,
// made from the Workload alone, with no call into the library: the
// benchmark (bench_data.cpp) and simdax_lib_ab, which dlopens two builds
// and links neither, create and run the same operator from them.
#pragma once

#include <simdax/simdax.h>

#include "workloads.hpp"

namespace simdax_bench {

// w's operator descriptor (w must outlive it). LayerNormalization and
// RMSNormalization: over axes[0] (-1 without), with epsilon 1e-5 and
// float32 statistics; MVN: variance normalised, epsilon 1e-5;
// HardSigmoid: alpha 0.2, beta 0.5.
class WorkloadDesc {
public:
    explicit WorkloadDesc(const Workload& w);
    WorkloadDesc(const WorkloadDesc&) = delete;
    WorkloadDesc& operator=(const WorkloadDesc&) = delete;

    // nullptr for an operator type no workload runs.
    const simdax_operator_desc* get() const { return desc_.desc ? &desc_ : nullptr; }

private:
    simdax_tensor_desc tensor_, scale_bias_, mask_;
    simdax_axes_op_desc axes_;
    simdax_mvn_desc mvn_;
    simdax_hard_sigmoid_desc hard_sigmoid_;
    simdax_activation_op_desc activation_;
    simdax_attention_softmax_desc attention_;
    simdax_layer_normalization_desc layer_norm_;
    simdax_rms_normalization_desc rms_norm_;
    simdax_operator_desc desc_;
};

// The buffers of an execute: input, output and the other operands (nullptr
// where the workload has none).
struct WorkloadBuffers {
    const void* input;
    void* output;
    const void* scale;
    const void* bias;
    const void* mask;  // AttentionSoftmax's float32 mask
    const void* skip;
};

// The bindings of w's operator over b, each operand bound as the operator
// reads it: by index (bound()) for AttentionSoftmax and a skip, else the
// plain input/scale/bias/output (plain()). RMSNormalization's bias is left
// unbound.
class WorkloadBindings {
public:
    WorkloadBindings(const Workload& w, const WorkloadBuffers& b);
    WorkloadBindings(const WorkloadBindings&) = delete;
    WorkloadBindings& operator=(const WorkloadBindings&) = delete;

    // nullptr when the plain bindings serve.
    const simdax_operand_bindings* bound() const { return by_index_ ? &bound_ : nullptr; }
    const simdax_bindings* plain() const { return &plain_; }

private:
    bool by_index_;
    simdax_bindings plain_;
    simdax_buffer_binding operands_[SIMDAX_OPERAND_COUNT];
    simdax_operand_bindings bound_;
};

}  // namespace simdax_bench
