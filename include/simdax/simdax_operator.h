/* simdax — creating and executing operators, thread pools, one-shot calls. Part of simdax.h. */
#ifndef SIMDAX_OPERATOR_H
#define SIMDAX_OPERATOR_H

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
SIMDAX_API simdax_status simdax_operator_create(const simdax_operator_desc* desc, simdax_operator** op);

/* Runs a created operator. Thread-safe, no allocation, no locks. Rejects
 * NULL buffers, a buffer whose address is not a multiple of its element
 * size (SIMDAX_ERROR_INVALID_ARGUMENT), and any output overlap the operator
 * forbids.
 * Overlap: the output may share no byte with the input, scale or bias —
 * except that Softmax, LogSoftmax, HardSigmoid and Activation run in place
 * when the output is exactly the input (same pointer, and the same strides
 * at create). Two
 * views of one buffer are disjoint when their byte ranges are, or when
 * their elements sit on lattices that never meet: with g the gcd of both
 * views' byte strides (dimensions of size > 1) and r = (output pointer -
 * input pointer) mod g, no element is shared when r >= the element size
 * and g - r >= the element size. So interleaved views (input on the even
 * elements, output on the odd ones, stride 2 each) are accepted; views
 * that interleave some other way are treated as overlapping. */
SIMDAX_API simdax_status simdax_operator_execute(const simdax_operator* op, const simdax_bindings* bindings);

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
typedef void (*simdax_parallel_for_fn)(void* context, size_t task_count, simdax_task_fn task, void* task_arg);
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

/* Frees an operator; NULL is ignored. */
SIMDAX_API void simdax_operator_destroy(simdax_operator* op);

/* The operator type a created operator runs. */
SIMDAX_API simdax_operator_type simdax_operator_get_type(const simdax_operator* op);

/* One-shot: create, execute, destroy. Planning costs are paid every call. */
SIMDAX_API simdax_status simdax_log_softmax(const simdax_log_softmax_desc* desc, const void* input,
                                            void* output);
SIMDAX_API simdax_status simdax_softmax(const simdax_softmax_desc* desc, const void* input, void* output);
SIMDAX_API simdax_status simdax_hardmax(const simdax_hardmax_desc* desc, const void* input, void* output);
SIMDAX_API simdax_status simdax_mean_variance_normalization(const simdax_mvn_desc* desc, const void* input,
                                                            const void* scale, const void* bias,
                                                            void* output);
SIMDAX_API simdax_status simdax_mean_variance_normalization_ex(const simdax_mvn_ex_desc* desc,
                                                               const void* input, const void* scale,
                                                               const void* bias, void* output);
SIMDAX_API simdax_status simdax_hard_sigmoid(const simdax_hard_sigmoid_desc* desc, const void* input,
                                             void* output);
SIMDAX_API simdax_status simdax_activation(const simdax_activation_op_desc* desc, const void* input,
                                           void* output);
SIMDAX_API simdax_status simdax_cast(const simdax_cast_desc* desc, const void* input, void* output);
/* mask, alibi_slopes, sinks, log_sum_exp: NULL exactly when the descriptor's
 * tensor is NULL. */
SIMDAX_API simdax_status simdax_attention_softmax(const simdax_attention_softmax_desc* desc,
                                                  const void* input, const void* mask,
                                                  const void* alibi_slopes, const void* sinks, void* output,
                                                  void* log_sum_exp);
/* Without skip, skip_bias and the extra outputs (those need
 * simdax_operator_execute_bound). */
SIMDAX_API simdax_status simdax_layer_normalization(const simdax_layer_normalization_desc* desc,
                                                    const void* input, const void* scale, const void* bias,
                                                    void* output);
SIMDAX_API simdax_status simdax_rms_normalization(const simdax_rms_normalization_desc* desc,
                                                  const void* input, const void* scale, void* output);

#endif /* SIMDAX_OPERATOR_H */
