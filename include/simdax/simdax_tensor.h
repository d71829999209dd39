/* simdax — status, errors, logging, data types and tensors. Part of simdax.h. */
#ifndef SIMDAX_TENSOR_H
#define SIMDAX_TENSOR_H

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
    SIMDAX_DTYPE_FLOAT64 = 4,
    SIMDAX_DTYPE_UINT8 = 5 /* boolean masks only (AttentionSoftmax): nonzero = true */
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

#endif /* SIMDAX_TENSOR_H */
