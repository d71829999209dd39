/* simdax — ISA selection, CPU facts and the ONNX helpers. Part of simdax.h. */
#ifndef SIMDAX_ISA_H
#define SIMDAX_ISA_H

/* -------------------------------------------------------------------- ISA */
typedef enum simdax_isa {
    SIMDAX_ISA_SCALAR = 0,     /* portable C++ */
    SIMDAX_ISA_AVX2 = 1,       /* AVX2 + FMA + F16C */
    SIMDAX_ISA_AVX512 = 2,     /* AVX-512 F/CD/BW/DQ/VL */
    SIMDAX_ISA_AVX512FP16 = 3, /* + AVX512-FP16, AVX512-BF16 */
    SIMDAX_ISA_NEON = 4,       /* aarch64 NEON */
    SIMDAX_ISA_NEONFP16 = 5    /* + ARMv8.2 FP16 vector arithmetic */
} simdax_isa;
#define SIMDAX_ISA_COUNT 6

/* "scalar", "avx2", "avx512", "avx512fp16", "neon", "neonfp16"; NULL if unknown. */
SIMDAX_API const char* simdax_isa_name(simdax_isa isa);
/* Parses a name above; SIMDAX_ERROR_INVALID_ARGUMENT for anything else. */
SIMDAX_API simdax_status simdax_isa_from_name(const char* name, simdax_isa* isa);
/* 1 if kernels for the ISA are compiled into this library. */
SIMDAX_API int simdax_isa_compiled(simdax_isa isa);
/* 1 if compiled in and this CPU and OS can run it. */
SIMDAX_API int simdax_isa_supported(simdax_isa isa);

/* Caps the ISA used by operators created afterwards (and by the one-shot
 * calls). The environment variable SIMDAX_MAX_ISA sets the initial cap
 * (top of this file; a call here also clears an unknown value's error).
 * SIMDAX_ERROR_UNSUPPORTED if the CPU, OS or build lacks that ISA. */
SIMDAX_API simdax_status simdax_set_max_isa(simdax_isa isa);
/* The ISA new operators will use: the best supported one under the cap
 * (no cap while SIMDAX_MAX_ISA holds an unknown value, which create reports). */
SIMDAX_API simdax_isa simdax_active_isa(void);
/* CPU brand string and vendor, as detected ("" if unknown). */
SIMDAX_API const char* simdax_cpu_name(void);
SIMDAX_API const char* simdax_cpu_vendor(void);
/* Space-separated CPU features that matter to simdax as the CPU reports
 * them ("avx2 fma f16c avx512f ..."), plus os-ymm / os-zmm when the OS
 * enables that register state (a level is usable only with both). */
SIMDAX_API const char* simdax_cpu_features(void);

/* The ISA a created operator was planned for. */
SIMDAX_API simdax_isa simdax_operator_isa(const simdax_operator* op);

/* ------------------------------------------------------------ ONNX helpers */
/* Map an ONNX node to an axis set. rank: the input's rank. has_axis: 0 when
 * the node has no `axis` attribute (the opset's default applies).
 * LogSoftmax/Softmax/Hardmax: opset < 13 coerces to 2-D at axis (default 1):
 * {axis..rank-1}; opset >= 13: {axis} (default -1). axes must hold
 * SIMDAX_MAX_RANK entries; *axis_count receives the count. */
SIMDAX_API simdax_status simdax_onnx_softmax_axes(int64_t opset, uint32_t rank, int has_axis, int64_t axis,
                                                  uint32_t* axes, uint32_t* axis_count);

/* ONNX MeanVarianceNormalization (opset 9, 13) as a whole descriptor:
 * onnx_axes (NULL for the default {0,2,3}, which needs rank >= 4), negative values counted from the
 * end, into axes (SIMDAX_MAX_RANK entries, referenced by *desc). Fills every
 * field of *desc: input, output, the axes, normalize_variance 1, epsilon
 * 1e-9 with SIMDAX_EPSILON_ON_STDDEV (ONNX's placement), no scale, bias or
 * activation. Create it as SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION_EX.
 * Nothing is written on error. */
SIMDAX_API simdax_status simdax_onnx_mvn_desc(const simdax_tensor_desc* input,
                                              const simdax_tensor_desc* output, const int64_t* onnx_axes,
                                              uint32_t onnx_axis_count, uint32_t* axes,
                                              simdax_mvn_ex_desc* desc);

/* The axes and epsilon of an ONNX MeanVarianceNormalization node (as
 * simdax_onnx_mvn_desc): fills axes, *axis_count and *epsilon (1e-9);
 * normalize_variance is always 1. ONNX adds this epsilon to the standard
 * deviation: use it with SIMDAX_EPSILON_ON_STDDEV in a simdax_mvn_ex_desc
 * (in a plain simdax_mvn_desc it is added to the variance, which differs
 * from ONNX on near-constant groups). Prefer simdax_onnx_mvn_desc. */
SIMDAX_API simdax_status simdax_onnx_mvn_axes(uint32_t rank, const int64_t* onnx_axes,
                                              uint32_t onnx_axis_count, uint32_t* axes, uint32_t* axis_count,
                                              float* epsilon);

/* ONNX HardSigmoid (opsets 1, 6, 22): alpha/beta defaults 0.2 / 0.5 when
 * the attribute is absent (has_* = 0). */
SIMDAX_API simdax_status simdax_onnx_hard_sigmoid_params(int has_alpha, float alpha, int has_beta, float beta,
                                                         float* out_alpha, float* out_beta);

/* ONNX LayerNormalization-17 / RMSNormalization-23 attributes into
 * desc->axis, epsilon and stash_type (no other field is touched). has_* = 0
 * when the node lacks the attribute: ONNX's defaults axis -1, epsilon 1e-5,
 * stash_type 1. stash_type other than 1 is refused (simdax keeps float32
 * statistics); axis must lie in [-SIMDAX_MAX_RANK, SIMDAX_MAX_RANK) (create
 * checks it against the input's rank). Nothing is written on error. */
SIMDAX_API simdax_status simdax_onnx_layer_normalization_attrs(int has_axis, int64_t axis, int has_epsilon,
                                                               float epsilon, int has_stash_type,
                                                               int64_t stash_type,
                                                               simdax_layer_normalization_desc* desc);
SIMDAX_API simdax_status simdax_onnx_rms_normalization_attrs(int has_axis, int64_t axis, int has_epsilon,
                                                             float epsilon, int has_stash_type,
                                                             int64_t stash_type,
                                                             simdax_rms_normalization_desc* desc);

/* The softmax stage of ONNX Attention-23 into desc->scale, softcap and
 * causal (no other field is touched). has_scale = 0 when the node has no
 * `scale`: ONNX's default 1/sqrt(head_size), head_size the query's last dim
 * (only read then, must be >= 1). is_causal: 0 or 1 (default 0); ONNX aligns
 * its causal mask to the past keys: has_past_key 0 gives
 * SIMDAX_CAUSAL_TOP_LEFT (j <= i), 1 SIMDAX_CAUSAL_BOTTOM_RIGHT
 * (j <= i + past length when K's new keys number the queries, Skv = past +
 * Sq; with another count no causal mode matches ONNX: pass its frontier as a
 * uint8 mask). softcap: >= 0 (default 0, off).
 * qk_matmul_output_mode: only 0 (default). Nothing is written on error. */
SIMDAX_API simdax_status simdax_onnx_attention_softmax_attrs(int64_t head_size, int has_scale, float scale,
                                                             int64_t is_causal, int has_past_key,
                                                             float softcap, int64_t qk_matmul_output_mode,
                                                             simdax_attention_softmax_desc* desc);

#endif /* SIMDAX_ISA_H */
