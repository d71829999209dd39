#include "workload_desc.hpp"

namespace simdax_bench {

WorkloadDesc::WorkloadDesc(const Workload& w)
    : tensor_{w.dtype, uint32_t(w.shape.size()), w.shape.data(), nullptr},
      scale_bias_{w.float32_params ? SIMDAX_DTYPE_FLOAT32 : w.dtype, uint32_t(w.scale_bias.size()),
                  w.scale_bias.data(), nullptr},
      mask_{SIMDAX_DTYPE_FLOAT32, uint32_t(w.scale_bias.size()), w.scale_bias.data(), nullptr},
      axes_{&tensor_, &tensor_, uint32_t(w.axes.size()), w.axes.data()},
      mvn_{},
      hard_sigmoid_{&tensor_, &tensor_, 0.2f, 0.5f},
      activation_{&tensor_, &tensor_, {w.activation, 0.0f, 0.0f, 0.0f}},
      attention_{},
      layer_norm_{},
      rms_norm_{},
      desc_{w.op, nullptr} {
    const simdax_tensor_desc* scale_bias = w.scale_bias.empty() ? nullptr : &scale_bias_;
    mvn_.input = &tensor_;
    mvn_.scale = scale_bias;
    mvn_.bias = scale_bias;
    mvn_.output = &tensor_;
    mvn_.axis_count = uint32_t(w.axes.size());
    mvn_.axes = w.axes.data();
    mvn_.normalize_variance = 1;
    mvn_.epsilon = 1e-5f;

    attention_.input = &tensor_;
    attention_.mask = w.scale_bias.empty() ? nullptr : &mask_;
    attention_.output = &tensor_;
    attention_.scale = w.attn_scale;
    attention_.softcap = w.attn_softcap;
    attention_.causal = w.causal;

    const int32_t axis = w.axes.empty() ? -1 : int32_t(w.axes[0]);
    layer_norm_.input = &tensor_;
    layer_norm_.scale = scale_bias;
    layer_norm_.bias = scale_bias;
    layer_norm_.output = &tensor_;
    layer_norm_.axis = axis;
    layer_norm_.epsilon = 1e-5f;
    layer_norm_.stash_type = 1;
    layer_norm_.skip = w.skip ? &tensor_ : nullptr;
    rms_norm_.input = &tensor_;
    rms_norm_.scale = scale_bias;
    rms_norm_.output = &tensor_;
    rms_norm_.axis = axis;
    rms_norm_.epsilon = 1e-5f;
    rms_norm_.stash_type = 1;

    switch (w.op) {
        case SIMDAX_OPERATOR_LOG_SOFTMAX:
        case SIMDAX_OPERATOR_SOFTMAX:
        case SIMDAX_OPERATOR_HARDMAX: desc_.desc = &axes_; break;
        case SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION: desc_.desc = &mvn_; break;
        case SIMDAX_OPERATOR_HARD_SIGMOID: desc_.desc = &hard_sigmoid_; break;
        case SIMDAX_OPERATOR_ACTIVATION: desc_.desc = &activation_; break;
        case SIMDAX_OPERATOR_ATTENTION_SOFTMAX: desc_.desc = &attention_; break;
        case SIMDAX_OPERATOR_LAYER_NORMALIZATION: desc_.desc = &layer_norm_; break;
        case SIMDAX_OPERATOR_RMS_NORMALIZATION: desc_.desc = &rms_norm_; break;
        // No workload runs these (yet). Every type is named, so a new
        // operator does not compile until it has a descriptor or a place
        // here.
        case SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION_EX:
        case SIMDAX_OPERATOR_CAST: break;
    }
}

WorkloadBindings::WorkloadBindings(const Workload& w, const WorkloadBuffers& b)
    : by_index_(w.op == SIMDAX_OPERATOR_ATTENTION_SOFTMAX || w.skip),
      plain_{b.input, b.scale, w.op == SIMDAX_OPERATOR_RMS_NORMALIZATION ? nullptr : b.bias, b.output},
      operands_{},
      bound_{SIMDAX_HEADER(simdax_operand_bindings, SIMDAX_STRUCTURE_TYPE_OPERAND_BINDINGS),
             SIMDAX_OPERAND_COUNT, operands_} {
    if (!by_index_) return;
    operands_[SIMDAX_OPERAND_INPUT].data = const_cast<void*>(b.input);
    operands_[SIMDAX_OPERAND_OUTPUT].data = b.output;
    if (w.op == SIMDAX_OPERATOR_ATTENTION_SOFTMAX) {
        operands_[SIMDAX_OPERAND_MASK].data = const_cast<void*>(b.mask);
    } else {
        operands_[SIMDAX_OPERAND_SCALE].data = const_cast<void*>(b.scale);
        operands_[SIMDAX_OPERAND_BIAS].data = const_cast<void*>(plain_.bias);
        operands_[SIMDAX_OPERAND_SKIP].data = const_cast<void*>(b.skip);
    }
}

}  // namespace simdax_bench
