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
#define SIMDAX_API
#elif defined(__GNUC__)
#define SIMDAX_API __attribute__((visibility("default")))
#else
#define SIMDAX_API
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

/* The API by topic, in dependency order (each part needs the ones before
 * it and the lines above: include this header, not a part). */
#ifdef __cplusplus
extern "C" {
#endif
#include "simdax/simdax_tensor.h"
#include "simdax/simdax_descriptors.h"
#include "simdax/simdax_operator.h"
#include "simdax/simdax_typed.h"
#include "simdax/simdax_isa.h"
#ifdef __cplusplus
}
#endif

#endif /* SIMDAX_SIMDAX_H */
