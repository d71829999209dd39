/* simdax — activations and the operator descriptors. Part of simdax.h. */
#ifndef SIMDAX_DESCRIPTORS_H
#define SIMDAX_DESCRIPTORS_H

/* ------------------------------------------------------------- activations */
typedef enum simdax_activation_type {
    SIMDAX_ACTIVATION_IDENTITY = 0,   /* x */
    SIMDAX_ACTIVATION_LINEAR = 1,     /* alpha*x + beta */
    SIMDAX_ACTIVATION_RELU = 2,       /* max(0, x) */
    SIMDAX_ACTIVATION_LEAKY_RELU = 3, /* x >= 0 ? x : alpha*x            [alpha 0.01] */
    SIMDAX_ACTIVATION_ELU = 4,        /* x >= 0 ? x : alpha*(exp(x)-1)   [alpha 1] */
    SIMDAX_ACTIVATION_CELU = 5,       /* max(0,x) + min(0, alpha*(exp(x/alpha)-1)) [alpha 1] */
    SIMDAX_ACTIVATION_SCALED_ELU =
        6, /* x > 0 ? gamma*x : gamma*alpha*(exp(x)-1) [alpha 1.67326319, gamma 1.05070102] */
    SIMDAX_ACTIVATION_SIGMOID = 7,              /* 1 / (1 + exp(-x)) */
    SIMDAX_ACTIVATION_HARD_SIGMOID = 8,         /* max(0, min(alpha*x + beta, 1)) [alpha 0.2, beta 0.5] */
    SIMDAX_ACTIVATION_TANH = 9,                 /* tanh(x) */
    SIMDAX_ACTIVATION_SCALED_TANH = 10,         /* alpha * tanh(beta*x)            [alpha 1, beta 1] */
    SIMDAX_ACTIVATION_SOFTPLUS = 11,            /* ln(1 + exp(alpha*x)) / alpha    [alpha = steepness 1] */
    SIMDAX_ACTIVATION_PARAMETRIC_SOFTPLUS = 12, /* alpha * ln(1 + exp(beta*x)) [alpha 1, beta 1] */
    SIMDAX_ACTIVATION_SOFTSIGN = 13,            /* x / (1 + |x|) */
    SIMDAX_ACTIVATION_THRESHOLDED_RELU = 14,    /* x > alpha ? x : 0               [alpha 1] */
    SIMDAX_ACTIVATION_SHRINK = 15,              /* x > beta ? x - alpha : (x < -beta ? x + alpha : 0)
                                                [alpha = bias 0, beta = threshold 0.5] */
    SIMDAX_ACTIVATION_GELU = 16                 /* 0.5*x*(1 + erf(x/sqrt(2))) */
} simdax_activation_type;
#define SIMDAX_ACTIVATION_COUNT 17

/* An activation and its parameters. Which of alpha/beta/gamma a type reads
 * is listed above (softplus: alpha is the steepness; shrink: alpha is the
 * bias, beta the threshold); those must be finite. Unused fields are
 * ignored, whatever they hold (NaN included). */
typedef struct simdax_activation_desc {
    simdax_activation_type type;
    float alpha;
    float beta;
    float gamma;
} simdax_activation_desc;

/* The activation with DirectML's documented default parameters. */
SIMDAX_API simdax_activation_desc simdax_activation_default(simdax_activation_type type);

/* Name of an activation ("leaky_relu"), NULL for an unknown type. */
SIMDAX_API const char* simdax_activation_name(simdax_activation_type type);

/* --------------------------------------------------- operator descriptors */
typedef enum simdax_operator_type {
    SIMDAX_OPERATOR_LOG_SOFTMAX = 1,                    /* simdax_log_softmax_desc */
    SIMDAX_OPERATOR_SOFTMAX = 2,                        /* simdax_softmax_desc */
    SIMDAX_OPERATOR_HARDMAX = 3,                        /* simdax_hardmax_desc */
    SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION = 4,    /* simdax_mvn_desc */
    SIMDAX_OPERATOR_HARD_SIGMOID = 5,                   /* simdax_hard_sigmoid_desc */
    SIMDAX_OPERATOR_ACTIVATION = 6,                     /* simdax_activation_op_desc */
    SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION_EX = 7, /* simdax_mvn_ex_desc */
    SIMDAX_OPERATOR_CAST = 8,                           /* simdax_cast_desc */
    SIMDAX_OPERATOR_ATTENTION_SOFTMAX = 9,              /* simdax_attention_softmax_desc */
    SIMDAX_OPERATOR_LAYER_NORMALIZATION = 10,           /* simdax_layer_normalization_desc */
    SIMDAX_OPERATOR_RMS_NORMALIZATION = 11              /* simdax_rms_normalization_desc */
} simdax_operator_type;

/* LogSoftmax / Softmax / Hardmax over a set of axes (DML_ACTIVATION_*1).
 * axes: axis_count distinct indices in [0, rank-1], any order. */
typedef struct simdax_axes_op_desc {
    const simdax_tensor_desc* input;
    const simdax_tensor_desc* output;
    uint32_t axis_count;
    const uint32_t* axes;
} simdax_axes_op_desc;
typedef simdax_axes_op_desc simdax_log_softmax_desc;
typedef simdax_axes_op_desc simdax_softmax_desc;
typedef simdax_axes_op_desc simdax_hardmax_desc;

/* MeanVarianceNormalization (DML_MEAN_VARIANCE_NORMALIZATION1).
 * scale, bias: optional (NULL); same rank and dtype as input, each size equal
 * to the input's or 1. epsilon: finite, >= 0, added to the variance (ONNX's
 * placement: simdax_mvn_ex_desc). fused_activation: optional. */
typedef struct simdax_mvn_desc {
    const simdax_tensor_desc* input;
    const simdax_tensor_desc* scale;
    const simdax_tensor_desc* bias;
    const simdax_tensor_desc* output;
    uint32_t axis_count;
    const uint32_t* axes;
    int normalize_variance; /* 0 or 1 */
    float epsilon;
    const simdax_activation_desc* fused_activation;
} simdax_mvn_desc;

/* Where MVN adds epsilon when it normalises the variance:
 * ON_VARIANCE: y = (x - mean) / sqrt(var + epsilon)   (DirectML)
 * ON_STDDEV:   y = (x - mean) / (sqrt(var) + epsilon) (ONNX)
 * They differ widely on near-constant groups: x = {1, 1.00002, 1, 1.00002}
 * with epsilon 1e-9 gives -0.30 on the variance, -1.00 on the stddev. */
typedef enum simdax_epsilon_placement {
    SIMDAX_EPSILON_ON_VARIANCE = 0,
    SIMDAX_EPSILON_ON_STDDEV = 1
} simdax_epsilon_placement;

/* MeanVarianceNormalization with a chosen epsilon placement
 * (SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION_EX). mvn: as for
 * SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, which is this with
 * SIMDAX_EPSILON_ON_VARIANCE. simdax_onnx_mvn_desc fills one for an ONNX node. */
typedef struct simdax_mvn_ex_desc {
    simdax_mvn_desc mvn;
    simdax_epsilon_placement epsilon_placement;
} simdax_mvn_ex_desc;

/* HardSigmoid (DML_ACTIVATION_HARD_SIGMOID): finite alpha, beta. The output
 * may be the input buffer (same pointer, same strides). */
typedef struct simdax_hard_sigmoid_desc {
    const simdax_tensor_desc* input;
    const simdax_tensor_desc* output;
    float alpha;
    float beta;
} simdax_hard_sigmoid_desc;

/* Any activation as a standalone element-wise operator; in place allowed. */
typedef struct simdax_activation_op_desc {
    const simdax_tensor_desc* input;
    const simdax_tensor_desc* output;
    simdax_activation_desc activation;
} simdax_activation_op_desc;

/* Cast (ONNX Cast, DML_OPERATOR_CAST) between any two of float32, float16,
 * bfloat16 and float64 (vectorized among the first three): each element
 * converted to the output's dtype, rounded once to nearest even; NaN stays
 * NaN (quiet), a value beyond the output type's range becomes an infinity
 * of its sign. Same sizes; strides free. In place only when both dtypes are
 * the same (then the output must be exactly the input). */
typedef struct simdax_cast_desc {
    const simdax_tensor_desc* input;
    const simdax_tensor_desc* output;
} simdax_cast_desc;

/* Which keys a query sees (AttentionSoftmax). Query i of Sq, key j of Skv:
 * TOP_LEFT aligns query 0 with key 0 (j <= i); BOTTOM_RIGHT aligns the last
 * query with the last key (j <= i + Skv - Sq: PyTorch's causal_lower_right,
 * ONNX Attention with past keys). */
typedef enum simdax_causal {
    SIMDAX_CAUSAL_NONE = 0,
    SIMDAX_CAUSAL_TOP_LEFT = 1,
    SIMDAX_CAUSAL_BOTTOM_RIGHT = 2
} simdax_causal;

/* AttentionSoftmax (docs/attention_softmax.md): Softmax, or LogSoftmax when
 * log is 1, over the last axis (keys) of attention scores of rank >= 2
 * (second to last: queries) of
 *   z = softcap(input * scale) + mask + slope * (j - i')
 * with softcap(v) = softcap * tanh(v / softcap) (off when softcap is 0) and
 * i' the query's aligned position (i, or i + Skv - Sq for BOTTOM_RIGHT). A
 * sink adds exp(sink) to the denominator only. Keys outside the causal
 * window are neither read nor computed: their outputs are 0 (LogSoftmax:
 * -inf). A row with no visible key, or only -inf logits, and no sink gives
 * 0 (LogSoftmax: -inf), never NaN.
 * input: float32, float16 or bfloat16; output: its dtype and sizes; in place
 * allowed (output exactly the input).
 * mask (optional): float32/float16/bfloat16 (added; -inf masks) or uint8
 * (0 masks, nonzero keeps; a masked score is not read), the input's rank,
 * each size the input's or 1.
 * alibi_slopes, sinks (optional): float32/float16/bfloat16, the input's
 * rank, key axis size 1, each other size the input's or 1.
 * log_sum_exp (optional output): float32, the input's sizes with the key
 * axis 1: per row m + log(sum), the natural log of the denominator of the
 * scaled logits (-inf for a fully masked row).
 * scale: finite; softcap: finite, >= 0; window: 0 (unlimited) or, with a
 * causal mode, the keys i' - window < j <= i'. */
typedef struct simdax_attention_softmax_desc {
    const simdax_tensor_desc* input;
    const simdax_tensor_desc* mask;
    const simdax_tensor_desc* alibi_slopes;
    const simdax_tensor_desc* sinks;
    const simdax_tensor_desc* output;
    const simdax_tensor_desc* log_sum_exp;
    float scale;   /* 1: none */
    float softcap; /* 0: none */
    simdax_causal causal;
    uint32_t window; /* 0: unlimited */
    int log;         /* 0: Softmax, 1: LogSoftmax */
} simdax_attention_softmax_desc;
/* LayerNormalization (ONNX opset 17), with ONNX Runtime's
 * SkipLayerNormalization fused in (docs/layer_normalization.md):
 *   x' = x + skip + skip_bias (when skip is given; else x' = x)
 *   y  = (x' - mean) / sqrt(var + epsilon) * scale + bias
 * over the dims [axis, rank) of each group (var: the population variance).
 * input/output: float32, float16 or bfloat16, same dtype and sizes.
 * axis: in [-rank, rank), negative counts from the end.
 * scale (required), bias (optional): broadcast numpy-style, right-aligned,
 *   to the input (rank <= input's, each size the input's or 1); dtype the
 *   input's, or float32 for float16/bfloat16 data.
 * epsilon: finite, >= 0, added to the variance.
 * stash_type: 1 (float32 statistics) only.
 * skip (optional): the input's dtype and sizes; skip_bias (optional, needs
 *   skip): as scale; skip_sum (optional output, needs skip): x' in the
 *   input's dtype (x' is rounded to that dtype before it is normalized).
 * mean, inv_std_dev (optional outputs): float32, the input's sizes with the
 *   dims [axis, rank) set to 1. */
typedef struct simdax_layer_normalization_desc {
    const simdax_tensor_desc* input;
    const simdax_tensor_desc* scale;
    const simdax_tensor_desc* bias;
    const simdax_tensor_desc* output;
    int32_t axis;
    float epsilon;
    int32_t stash_type;
    const simdax_tensor_desc* skip;
    const simdax_tensor_desc* skip_bias;
    const simdax_tensor_desc* skip_sum;
    const simdax_tensor_desc* mean;
    const simdax_tensor_desc* inv_std_dev;
} simdax_layer_normalization_desc;

/* RMSNormalization (ONNX opset 23), with ONNX Runtime's
 * SkipSimplifiedLayerNormalization fused in (docs/rms_normalization.md):
 *   y = x' / sqrt(mean(x'^2) + epsilon) * scale
 * Fields as in simdax_layer_normalization_desc (ONNX's RMSNormalization has
 * no bias and one output). */
typedef struct simdax_rms_normalization_desc {
    const simdax_tensor_desc* input;
    const simdax_tensor_desc* scale;
    const simdax_tensor_desc* output;
    int32_t axis;
    float epsilon;
    int32_t stash_type;
    const simdax_tensor_desc* skip;
    const simdax_tensor_desc* skip_bias;
    const simdax_tensor_desc* skip_sum;
} simdax_rms_normalization_desc;

/* Name of an operator type ("LogSoftmax", "MeanVarianceNormalization"), NULL
 * for an unknown one: the names descriptions, log lines and the case format
 * use. */
SIMDAX_API const char* simdax_operator_name(simdax_operator_type type);

/* The generic descriptor, as DML_OPERATOR_DESC: desc points at the struct
 * named beside the type. */
typedef struct simdax_operator_desc {
    simdax_operator_type type;
    const void* desc;
} simdax_operator_desc;

#endif /* SIMDAX_DESCRIPTORS_H */
