/*
 * simdax — vectorized CPU kernels for LogSoftmax, Softmax, Hardmax,
 * MeanVarianceNormalization (with fused activation), HardSigmoid and the
 * DirectML activations, with DirectML / ONNX semantics.
 *
 * C99 API. Lifecycle: describe tensors and an operator, create it once
 * (validation and planning happen here), execute it any number of times —
 * from any number of threads at once; execute never allocates and never
 * takes a lock — then destroy it. One-shot helpers do all three.
 *
 * Every failing call returns a status other than SIMDAX_OK, writes nothing
 * to any output, and leaves a message for the calling thread in
 * simdax_last_error() that names the argument and the rule it broke.
 *
 * Environment variables, each read once (at the first call that needs it):
 *   SIMDAX_MAX_ISA  caps the ISA (see simdax_set_max_isa); "native" or
 *                   unset: no cap. Any other value that is not an ISA name
 *                   makes simdax_operator_create (and the one-shot calls)
 *                   fail with SIMDAX_ERROR_INVALID_ARGUMENT naming it,
 *                   until simdax_set_max_isa() sets a cap.
 *   SIMDAX_VERBOSE  0 (default): quiet. 1: one SIMDAX_LOG_INFO line per
 *                   successful create, "create " + simdax_operator_describe().
 *                   2: also one per successful execute, "execute " + the
 *                   description + " threads=N time_ns=T" (formatted on the
 *                   stack: execute still never allocates). Lines go to the
 *                   log callback only; the library itself never prints.
 */
#ifndef SIMDAX_SIMDAX_H
#define SIMDAX_SIMDAX_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#  define SIMDAX_API
#elif defined(__GNUC__)
#  define SIMDAX_API __attribute__((visibility("default")))
#else
#  define SIMDAX_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Versioning: semantic versioning, MAJOR.MINOR.PATCH; equal to the CMake
 * project version (checked at configure time) and to simdax_version().
 * The ABI is stable within a major version (SONAME libsimdax.so.MAJOR):
 * existing functions, enum values and structs are never changed within a
 * major; new features come as new functions, new structs or new enum values
 * (MINOR), fixes as PATCH. */
#define SIMDAX_VERSION_MAJOR 0
#define SIMDAX_VERSION_MINOR 3
#define SIMDAX_VERSION_PATCH 0
#define SIMDAX_MAX_RANK 8

/* ------------------------------------------------------------------ status */
typedef enum simdax_status {
    SIMDAX_OK = 0,
    SIMDAX_ERROR_NULL_POINTER = 1,     /* a required pointer is NULL */
    SIMDAX_ERROR_INVALID_ARGUMENT = 2, /* a value outside its domain (rank, size, epsilon, enum) */
    SIMDAX_ERROR_SHAPE_MISMATCH = 3,   /* ranks or sizes that must agree do not */
    SIMDAX_ERROR_DTYPE_MISMATCH = 4,   /* data types that must agree do not */
    SIMDAX_ERROR_INVALID_AXES = 5,     /* empty, repeated or out-of-range axis */
    SIMDAX_ERROR_OVERFLOW = 6,         /* element count, byte size or offset beyond 64 bits */
    SIMDAX_ERROR_OVERLAP = 7,          /* output overlaps itself, or the input where not allowed */
    SIMDAX_ERROR_UNSUPPORTED = 8,      /* ISA not compiled in or not supported by this CPU/OS */
    SIMDAX_ERROR_OUT_OF_MEMORY = 9     /* create could not allocate its plan */
} simdax_status;

/* Name of a status ("SIMDAX_ERROR_INVALID_AXES"); never NULL. */
SIMDAX_API const char* simdax_status_name(simdax_status status);

/* The message of this thread's last call that returned a simdax_status:
 * that call's message if it failed, "" if it succeeded (create, execute,
 * the one-shot calls and every other status-returning function alike).
 * Functions that return no status leave it as it is. The pointer stays
 * valid until the next simdax call on the same thread. */
SIMDAX_API const char* simdax_last_error(void);

/* "MAJOR.MINOR.PATCH" of the linked library. */
SIMDAX_API const char* simdax_version(void);

/* ----------------------------------------------------------------- logging */
/* simdax never writes to stdout/stderr and never exits or aborts on bad
 * input. Errors are reported by status and simdax_last_error(); a log
 * callback receives the same messages as well. */
typedef enum simdax_log_level {
    SIMDAX_LOG_ERROR = 0,   /* a call failed; message = its simdax_last_error() */
    SIMDAX_LOG_WARNING = 1, /* a call succeeded but ignored something the caller passed:
                               a scale or bias buffer bound to an operator created
                               without that tensor */
    SIMDAX_LOG_INFO = 2     /* SIMDAX_VERBOSE lines (see the top of this file) */
} simdax_log_level;

/* Called on the thread of the call that logs, possibly from several threads
 * at once; message is valid during the call only. A simdax call made from
 * inside the callback logs nothing. */
typedef void (*simdax_log_fn)(void* user_data, simdax_log_level level, const char* message);

/* Installs fn (with user_data) as the log callback; NULL disables logging
 * (the default). Thread-safe: may be called while other threads run simdax
 * calls; each message goes to either the old or the new callback. */
SIMDAX_API void simdax_set_log_callback(simdax_log_fn fn, void* user_data);

/* ----------------------------------------------------------------- tensors */
typedef enum simdax_dtype {
    SIMDAX_DTYPE_FLOAT32 = 1,
    SIMDAX_DTYPE_FLOAT16 = 2,  /* IEEE binary16, passed as uint16_t bit patterns */
    SIMDAX_DTYPE_BFLOAT16 = 3, /* upper 16 bits of a binary32 */
    SIMDAX_DTYPE_FLOAT64 = 4
} simdax_dtype;

/* Bytes per element of a dtype, 0 for an unknown one. */
SIMDAX_API size_t simdax_dtype_size(simdax_dtype dtype);

/* A view of memory: element (i0..ir-1) lives at
 * base + sum(ik * strides[k]) elements, with base the pointer given to execute.
 * sizes: rank entries >= 0 (a zero size makes an empty tensor).
 * strides: NULL = packed row-major; otherwise rank entries in elements, any
 * sign; 0 (broadcast) is allowed for inputs only. */
typedef struct simdax_tensor_desc {
    simdax_dtype dtype;
    uint32_t rank; /* 1..SIMDAX_MAX_RANK */
    const int64_t* sizes;
    const int64_t* strides;
} simdax_tensor_desc;

/* ------------------------------------------------------------- activations */
typedef enum simdax_activation_type {
    SIMDAX_ACTIVATION_IDENTITY = 0,          /* x */
    SIMDAX_ACTIVATION_LINEAR = 1,            /* alpha*x + beta */
    SIMDAX_ACTIVATION_RELU = 2,              /* max(0, x) */
    SIMDAX_ACTIVATION_LEAKY_RELU = 3,        /* x >= 0 ? x : alpha*x            [alpha 0.01] */
    SIMDAX_ACTIVATION_ELU = 4,               /* x >= 0 ? x : alpha*(exp(x)-1)   [alpha 1] */
    SIMDAX_ACTIVATION_CELU = 5,              /* max(0,x) + min(0, alpha*(exp(x/alpha)-1)) [alpha 1] */
    SIMDAX_ACTIVATION_SCALED_ELU = 6,        /* x > 0 ? gamma*x : gamma*alpha*(exp(x)-1) [alpha 1.67326319, gamma 1.05070102] */
    SIMDAX_ACTIVATION_SIGMOID = 7,           /* 1 / (1 + exp(-x)) */
    SIMDAX_ACTIVATION_HARD_SIGMOID = 8,      /* max(0, min(alpha*x + beta, 1)) [alpha 0.2, beta 0.5] */
    SIMDAX_ACTIVATION_TANH = 9,              /* tanh(x) */
    SIMDAX_ACTIVATION_SCALED_TANH = 10,      /* alpha * tanh(beta*x)            [alpha 1, beta 1] */
    SIMDAX_ACTIVATION_SOFTPLUS = 11,         /* ln(1 + exp(alpha*x)) / alpha    [alpha = steepness 1] */
    SIMDAX_ACTIVATION_PARAMETRIC_SOFTPLUS = 12, /* alpha * ln(1 + exp(beta*x)) [alpha 1, beta 1] */
    SIMDAX_ACTIVATION_SOFTSIGN = 13,         /* x / (1 + |x|) */
    SIMDAX_ACTIVATION_THRESHOLDED_RELU = 14, /* x > alpha ? x : 0               [alpha 1] */
    SIMDAX_ACTIVATION_SHRINK = 15,           /* x > beta ? x - alpha : (x < -beta ? x + alpha : 0)
                                                [alpha = bias 0, beta = threshold 0.5] */
    SIMDAX_ACTIVATION_GELU = 16              /* 0.5*x*(1 + erf(x/sqrt(2))) */
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
    SIMDAX_OPERATOR_LOG_SOFTMAX = 1, /* simdax_log_softmax_desc */
    SIMDAX_OPERATOR_SOFTMAX = 2,     /* simdax_softmax_desc */
    SIMDAX_OPERATOR_HARDMAX = 3,     /* simdax_hardmax_desc */
    SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION = 4, /* simdax_mvn_desc */
    SIMDAX_OPERATOR_HARD_SIGMOID = 5, /* simdax_hard_sigmoid_desc */
    SIMDAX_OPERATOR_ACTIVATION = 6,   /* simdax_activation_op_desc */
    SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION_EX = 7, /* simdax_mvn_ex_desc */
    SIMDAX_OPERATOR_CAST = 8          /* simdax_cast_desc */
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

/* --------------------------------------------------------------- operators */
typedef struct simdax_operator simdax_operator;

/* Buffers for one execution. Each pointer is the address of element
 * (0,...,0) of its tensor. scale/bias are read only by an MVN operator
 * created with that tensor, and must then be non-NULL; one bound to any
 * other operator is ignored (a SIMDAX_LOG_WARNING line says so). */
typedef struct simdax_bindings {
    const void* input;
    const void* scale;
    const void* bias;
    void* output;
} simdax_bindings;

/* Validates the descriptor and plans the loop nest. On success *op owns a
 * copy of everything it needs; the descriptor may be freed. */
SIMDAX_API simdax_status simdax_operator_create(const simdax_operator_desc* desc,
                                                simdax_operator** op);

/* Runs a created operator. Thread-safe, no allocation, no locks. Rejects
 * NULL buffers, a buffer whose address is not a multiple of its element
 * size (SIMDAX_ERROR_INVALID_ARGUMENT), and any output overlap the operator
 * forbids.
 * Overlap: the output may share no byte with the input, scale or bias —
 * except that HardSigmoid and Activation run in place when the output is
 * exactly the input (same pointer, and the same strides at create). Two
 * views of one buffer are disjoint when their byte ranges are, or when
 * their elements sit on lattices that never meet: with g the gcd of both
 * views' byte strides (dimensions of size > 1) and r = (output pointer -
 * input pointer) mod g, no element is shared when r >= the element size
 * and g - r >= the element size. So interleaved views (input on the even
 * elements, output on the odd ones, stride 2 each) are accepted; views
 * that interleave some other way are treated as overlapping. */
SIMDAX_API simdax_status simdax_operator_execute(const simdax_operator* op,
                                                 const simdax_bindings* bindings);

/* Describes a created operator on one line of key=value pairs: op, dtype,
 * shape (strides when not packed), axes, parameters, isa, the loop form
 * the planner chose (rows, cols, general or empty), its groups and runs,
 * passes (reduce+write, reduce+combine+write when a group is split in
 * parts, write for element-wise operators), the work split (parts or lane
 * blocks) and parallel_from (elements below which execute_parallel stays
 * on the calling thread). The SIMDAX_VERBOSE lines carry the same text.
 * As snprintf: writes at most size bytes including the terminating NUL
 * (buf may be NULL when size is 0) and returns the length of the whole
 * description; "" (0) for a NULL op. The format is for people and may
 * gain keys in later versions. */
SIMDAX_API size_t simdax_operator_describe(const simdax_operator* op, char* buf, size_t size);

/* --------------------------------------------------------- multi-core */
/* A caller's thread pool, as a parallel-for: it must call task(task_arg, i)
 * once for every i in [0, task_count), on any of its threads (the calling
 * one included), and return only when all calls have returned. Several
 * threads may call it at once; their tasks may run in any order, mixed. */
typedef void (*simdax_task_fn)(void* task_arg, size_t task_index);
typedef void (*simdax_parallel_for_fn)(void* context, size_t task_count, simdax_task_fn task,
                                       void* task_arg);
typedef struct simdax_parallel {
    simdax_parallel_for_fn parallel_for;
    void* context;
    uint32_t thread_count; /* threads the pool can run at once (>= 1; 0 is rejected) */
} simdax_parallel;

/* As simdax_operator_execute, splitting the work over the caller's pool
 * (NULL = the calling thread only). Work below a per-operator threshold
 * stays on the calling thread. The output is bitwise identical for every
 * thread count and every split. */
SIMDAX_API simdax_status simdax_operator_execute_parallel(const simdax_operator* op,
                                                          const simdax_bindings* bindings,
                                                          const simdax_parallel* parallel);

/* A small built-in pool for callers without one: threads - 1 workers plus
 * the calling thread. simdax_threadpool_parallel() gives the hook to pass
 * to execute_parallel. Any number of threads may share one pool: it runs
 * one call at a time, and a call made while it is busy runs on its calling
 * thread alone (same output, no waiting). After a call the workers spin for
 * up to about a millisecond before they sleep, so back-to-back calls do not
 * pay for waking them. */
typedef struct simdax_threadpool simdax_threadpool;
SIMDAX_API simdax_status simdax_threadpool_create(uint32_t threads, simdax_threadpool** pool);
SIMDAX_API void simdax_threadpool_destroy(simdax_threadpool* pool);
SIMDAX_API simdax_parallel simdax_threadpool_parallel(simdax_threadpool* pool);

/* ------------------------------------ typed descriptors and operand bindings
 * (from 0.3). Each structure below begins with a header naming its kind and
 * size, as Vulkan's sType does: a structure of one kind passed where
 * another is expected is refused with a message instead of being read as
 * the other, and a structure may grow in a later minor version (fields
 * appended; the size an older caller passes tells the library which
 * fields it has). Buffers are bound by operand index with their length,
 * so that an undersized buffer is refused instead of overrun. */
typedef enum simdax_structure_type {
    SIMDAX_STRUCTURE_TYPE_LOG_SOFTMAX_CREATE_INFO = 1, /* simdax_log_softmax_create_info */
    SIMDAX_STRUCTURE_TYPE_SOFTMAX_CREATE_INFO = 2,     /* simdax_softmax_create_info */
    SIMDAX_STRUCTURE_TYPE_HARDMAX_CREATE_INFO = 3,     /* simdax_hardmax_create_info */
    SIMDAX_STRUCTURE_TYPE_MVN_CREATE_INFO = 4,         /* simdax_mvn_create_info */
    SIMDAX_STRUCTURE_TYPE_HARD_SIGMOID_CREATE_INFO = 5, /* simdax_hard_sigmoid_create_info */
    SIMDAX_STRUCTURE_TYPE_ACTIVATION_CREATE_INFO = 6,  /* simdax_activation_create_info */
    SIMDAX_STRUCTURE_TYPE_CAST_CREATE_INFO = 7,        /* simdax_cast_create_info */
    SIMDAX_STRUCTURE_TYPE_OPERAND_BINDINGS = 100       /* simdax_operand_bindings */
} simdax_structure_type;

typedef struct simdax_structure_header {
    simdax_structure_type type;
    uint32_t size; /* sizeof the whole structure */
} simdax_structure_header;

/* A structure's header: SIMDAX_HEADER(simdax_softmax_create_info,
 * SIMDAX_STRUCTURE_TYPE_SOFTMAX_CREATE_INFO). */
#define SIMDAX_HEADER(structure, type) { (type), (uint32_t)sizeof(structure) }

/* One create-info structure per operator: the header's type names the
 * operator, the descriptor follows. */
typedef struct simdax_log_softmax_create_info {
    simdax_structure_header header; /* SIMDAX_STRUCTURE_TYPE_LOG_SOFTMAX_CREATE_INFO */
    simdax_log_softmax_desc desc;
} simdax_log_softmax_create_info;
typedef struct simdax_softmax_create_info {
    simdax_structure_header header; /* SIMDAX_STRUCTURE_TYPE_SOFTMAX_CREATE_INFO */
    simdax_softmax_desc desc;
} simdax_softmax_create_info;
typedef struct simdax_hardmax_create_info {
    simdax_structure_header header; /* SIMDAX_STRUCTURE_TYPE_HARDMAX_CREATE_INFO */
    simdax_hardmax_desc desc;
} simdax_hardmax_create_info;
typedef struct simdax_mvn_create_info {
    simdax_structure_header header; /* SIMDAX_STRUCTURE_TYPE_MVN_CREATE_INFO */
    simdax_mvn_ex_desc desc;        /* MEAN_VARIANCE_NORMALIZATION_EX */
} simdax_mvn_create_info;
typedef struct simdax_hard_sigmoid_create_info {
    simdax_structure_header header; /* SIMDAX_STRUCTURE_TYPE_HARD_SIGMOID_CREATE_INFO */
    simdax_hard_sigmoid_desc desc;
} simdax_hard_sigmoid_create_info;
typedef struct simdax_activation_create_info {
    simdax_structure_header header; /* SIMDAX_STRUCTURE_TYPE_ACTIVATION_CREATE_INFO */
    simdax_activation_op_desc desc;
} simdax_activation_create_info;

typedef struct simdax_cast_create_info {
    simdax_structure_header header; /* SIMDAX_STRUCTURE_TYPE_CAST_CREATE_INFO */
    simdax_cast_desc desc;
} simdax_cast_create_info;

/* As simdax_operator_create, from a create-info structure (its header's
 * address). SIMDAX_ERROR_INVALID_ARGUMENT for a header that names no
 * create-info kind, or whose size is smaller than that kind's. */
SIMDAX_API simdax_status simdax_operator_create_from_info(const simdax_structure_header* info,
                                                          simdax_operator** op);

/* Operands by index. An operator reads the operands it was created with. */
typedef enum simdax_operand {
    SIMDAX_OPERAND_INPUT = 0,
    SIMDAX_OPERAND_OUTPUT = 1,
    SIMDAX_OPERAND_SCALE = 2,
    SIMDAX_OPERAND_BIAS = 3
} simdax_operand;
#define SIMDAX_OPERAND_COUNT 4

/* One operand's buffer: element (0, ..., 0) of its tensor is at
 * data + offset bytes; size: the buffer's length in bytes from data, or 0
 * when not stated (then not checked). With a size, every byte the view
 * can touch (its strides, negative ones included) must lie in
 * [data, data + size), else SIMDAX_ERROR_INVALID_ARGUMENT and nothing is
 * written. Inputs are only read. data NULL: not bound. */
typedef struct simdax_buffer_binding {
    void* data;
    size_t offset;
    size_t size;
} simdax_buffer_binding;

/* The buffers of one execution, indexed by simdax_operand: operands[i] for
 * i < count (an operand past count is unbound). */
typedef struct simdax_operand_bindings {
    simdax_structure_header header; /* SIMDAX_STRUCTURE_TYPE_OPERAND_BINDINGS */
    uint32_t count;
    const simdax_buffer_binding* operands;
} simdax_operand_bindings;

/* As simdax_operator_execute_parallel (parallel NULL: the calling thread),
 * with the buffers bound by operand: the same rules (alignment, overlap, a
 * bound operand the operator does not read is ignored with a warning),
 * plus the buffer lengths. */
SIMDAX_API simdax_status simdax_operator_execute_bound(const simdax_operator* op,
                                                       const simdax_operand_bindings* bindings,
                                                       const simdax_parallel* parallel);

/* Frees an operator; NULL is ignored. */
SIMDAX_API void simdax_operator_destroy(simdax_operator* op);

/* The operator type a created operator runs. */
SIMDAX_API simdax_operator_type simdax_operator_get_type(const simdax_operator* op);

/* One-shot: create, execute, destroy. Planning costs are paid every call. */
SIMDAX_API simdax_status simdax_log_softmax(const simdax_log_softmax_desc* desc,
                                            const void* input, void* output);
SIMDAX_API simdax_status simdax_softmax(const simdax_softmax_desc* desc,
                                        const void* input, void* output);
SIMDAX_API simdax_status simdax_hardmax(const simdax_hardmax_desc* desc,
                                        const void* input, void* output);
SIMDAX_API simdax_status simdax_mean_variance_normalization(const simdax_mvn_desc* desc,
                                                            const void* input, const void* scale,
                                                            const void* bias, void* output);
SIMDAX_API simdax_status simdax_mean_variance_normalization_ex(const simdax_mvn_ex_desc* desc,
                                                               const void* input,
                                                               const void* scale,
                                                               const void* bias, void* output);
SIMDAX_API simdax_status simdax_hard_sigmoid(const simdax_hard_sigmoid_desc* desc,
                                             const void* input, void* output);
SIMDAX_API simdax_status simdax_activation(const simdax_activation_op_desc* desc,
                                           const void* input, void* output);
SIMDAX_API simdax_status simdax_cast(const simdax_cast_desc* desc, const void* input, void* output);

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
SIMDAX_API simdax_status simdax_onnx_softmax_axes(int64_t opset, uint32_t rank, int has_axis,
                                                  int64_t axis, uint32_t* axes,
                                                  uint32_t* axis_count);

/* ONNX MeanVarianceNormalization (opset 9, 13) as a whole descriptor:
 * onnx_axes (NULL for the default {0,2,3}, which needs rank >= 4), negative values counted from the
 * end, into axes (SIMDAX_MAX_RANK entries, referenced by *desc). Fills every
 * field of *desc: input, output, the axes, normalize_variance 1, epsilon
 * 1e-9 with SIMDAX_EPSILON_ON_STDDEV (ONNX's placement), no scale, bias or
 * activation. Create it as SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION_EX.
 * Nothing is written on error. */
SIMDAX_API simdax_status simdax_onnx_mvn_desc(const simdax_tensor_desc* input,
                                              const simdax_tensor_desc* output,
                                              const int64_t* onnx_axes, uint32_t onnx_axis_count,
                                              uint32_t* axes, simdax_mvn_ex_desc* desc);

/* The axes and epsilon of an ONNX MeanVarianceNormalization node (as
 * simdax_onnx_mvn_desc): fills axes, *axis_count and *epsilon (1e-9);
 * normalize_variance is always 1. ONNX adds this epsilon to the standard
 * deviation: use it with SIMDAX_EPSILON_ON_STDDEV in a simdax_mvn_ex_desc
 * (in a plain simdax_mvn_desc it is added to the variance, which differs
 * from ONNX on near-constant groups). Prefer simdax_onnx_mvn_desc. */
SIMDAX_API simdax_status simdax_onnx_mvn_axes(uint32_t rank, const int64_t* onnx_axes,
                                              uint32_t onnx_axis_count, uint32_t* axes,
                                              uint32_t* axis_count, float* epsilon);

/* ONNX HardSigmoid (opsets 1, 6, 22): alpha/beta defaults 0.2 / 0.5 when
 * the attribute is absent (has_* = 0). */
SIMDAX_API simdax_status simdax_onnx_hard_sigmoid_params(int has_alpha, float alpha, int has_beta,
                                                         float beta, float* out_alpha,
                                                         float* out_beta);

#ifdef __cplusplus
}
#endif
#endif /* SIMDAX_SIMDAX_H */
