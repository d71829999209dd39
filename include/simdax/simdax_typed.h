/* simdax — typed descriptors (create-info structures) and operand bindings. Part of simdax.h. */
#ifndef SIMDAX_TYPED_H
#define SIMDAX_TYPED_H

/* ------------------------------------ typed descriptors and operand bindings
 * (from 0.3). Each structure below begins with a header naming its kind and
 * size, as Vulkan's sType does: a structure of one kind passed where
 * another is expected is refused with a message instead of being read as
 * the other, and a structure may grow in a later minor version (fields
 * appended; the size an older caller passes tells the library which
 * fields it has). Buffers are bound by operand index with their length,
 * so that an undersized buffer is refused instead of overrun. */
typedef enum simdax_structure_type {
    SIMDAX_STRUCTURE_TYPE_LOG_SOFTMAX_CREATE_INFO = 1,         /* simdax_log_softmax_create_info */
    SIMDAX_STRUCTURE_TYPE_SOFTMAX_CREATE_INFO = 2,             /* simdax_softmax_create_info */
    SIMDAX_STRUCTURE_TYPE_HARDMAX_CREATE_INFO = 3,             /* simdax_hardmax_create_info */
    SIMDAX_STRUCTURE_TYPE_MVN_CREATE_INFO = 4,                 /* simdax_mvn_create_info */
    SIMDAX_STRUCTURE_TYPE_HARD_SIGMOID_CREATE_INFO = 5,        /* simdax_hard_sigmoid_create_info */
    SIMDAX_STRUCTURE_TYPE_ACTIVATION_CREATE_INFO = 6,          /* simdax_activation_create_info */
    SIMDAX_STRUCTURE_TYPE_CAST_CREATE_INFO = 7,                /* simdax_cast_create_info */
    SIMDAX_STRUCTURE_TYPE_ATTENTION_SOFTMAX_CREATE_INFO = 8,   /* simdax_attention_softmax_create_info */
    SIMDAX_STRUCTURE_TYPE_LAYER_NORMALIZATION_CREATE_INFO = 9, /* simdax_layer_normalization_create_info */
    SIMDAX_STRUCTURE_TYPE_RMS_NORMALIZATION_CREATE_INFO = 10,  /* simdax_rms_normalization_create_info */
    SIMDAX_STRUCTURE_TYPE_OPERAND_BINDINGS = 100               /* simdax_operand_bindings */
} simdax_structure_type;

typedef struct simdax_structure_header {
    simdax_structure_type type;
    uint32_t size; /* sizeof the whole structure */
} simdax_structure_header;

/* A structure's header: SIMDAX_HEADER(simdax_softmax_create_info,
 * SIMDAX_STRUCTURE_TYPE_SOFTMAX_CREATE_INFO). */
#define SIMDAX_HEADER(structure, type) \
    { (type), (uint32_t)sizeof(structure) }

/* One create-info structure per operator: the header's type names the
 * operator (SIMDAX_STRUCTURE_TYPE_<NAME>_CREATE_INFO), the operator's
 * descriptor follows:
 *   typedef struct simdax_<name>_create_info {
 *       simdax_structure_header header;
 *       <its descriptor> desc;
 *   } simdax_<name>_create_info; */
#define SIMDAX_CREATE_INFO(name, descriptor) \
    typedef struct name {                    \
        simdax_structure_header header;      \
        descriptor desc;                     \
    } name
SIMDAX_CREATE_INFO(simdax_log_softmax_create_info, simdax_log_softmax_desc);
SIMDAX_CREATE_INFO(simdax_softmax_create_info, simdax_softmax_desc);
SIMDAX_CREATE_INFO(simdax_hardmax_create_info, simdax_hardmax_desc);
SIMDAX_CREATE_INFO(simdax_mvn_create_info, simdax_mvn_ex_desc); /* MEAN_VARIANCE_NORMALIZATION_EX */
SIMDAX_CREATE_INFO(simdax_hard_sigmoid_create_info, simdax_hard_sigmoid_desc);
SIMDAX_CREATE_INFO(simdax_activation_create_info, simdax_activation_op_desc);
SIMDAX_CREATE_INFO(simdax_cast_create_info, simdax_cast_desc);
SIMDAX_CREATE_INFO(simdax_attention_softmax_create_info, simdax_attention_softmax_desc);
SIMDAX_CREATE_INFO(simdax_layer_normalization_create_info, simdax_layer_normalization_desc);
SIMDAX_CREATE_INFO(simdax_rms_normalization_create_info, simdax_rms_normalization_desc);

/* As simdax_operator_create, from a create-info structure (its header's
 * address). SIMDAX_ERROR_INVALID_ARGUMENT for a header that names no
 * create-info kind, or whose size is smaller than that kind's. */
SIMDAX_API simdax_status simdax_operator_create_from_info(const simdax_structure_header* info,
                                                          simdax_operator** op);

/* Operands by index. An operator reads (and writes) the operands it was
 * created with; its descriptor's page says which it takes. Per-row operands
 * (ALIBI_SLOPES, SINKS, LOG_SUM_EXP, MEAN, INV_STD_DEV) hold one element per
 * group of the reduction. */
typedef enum simdax_operand {
    SIMDAX_OPERAND_INPUT = 0,
    SIMDAX_OPERAND_OUTPUT = 1,
    SIMDAX_OPERAND_SCALE = 2,        /* normalizations: gamma */
    SIMDAX_OPERAND_BIAS = 3,         /* normalizations: beta */
    SIMDAX_OPERAND_MASK = 4,         /* attention: additive float or boolean mask */
    SIMDAX_OPERAND_ALIBI_SLOPES = 5, /* attention: per-head slope */
    SIMDAX_OPERAND_SINKS = 6,        /* attention: per-head logit in the denominator only */
    SIMDAX_OPERAND_LOG_SUM_EXP = 7,  /* attention: output, float32 per row */
    SIMDAX_OPERAND_SKIP = 8,         /* normalizations: the residual added to the input */
    SIMDAX_OPERAND_SKIP_BIAS = 9,    /* normalizations: a bias added with the residual */
    SIMDAX_OPERAND_MEAN = 10,        /* normalizations: output per row */
    SIMDAX_OPERAND_INV_STD_DEV = 11, /* normalizations: output per row */
    SIMDAX_OPERAND_SKIP_SUM = 12     /* normalizations: output, input + skip (+ skip bias) */
} simdax_operand;
#define SIMDAX_OPERAND_COUNT 13

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

#endif /* SIMDAX_TYPED_H */
