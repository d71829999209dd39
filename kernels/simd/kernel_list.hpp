// The x86 kernel templates, declared (bodies in the *_rows/_cols/mvn/...
// headers), and the explicit instantiations each ISA's TUs emit. The table
// TU takes their addresses from these declarations only, so each op family
// compiles in its own TU.
#pragma once

#include "kernel_table.hpp"
#include "simd/dtypes.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

template <class T> void maxsum(const void* x, size_t n, MaxSum* state);
template <class T> void log_softmax_out(const void* x, void* y, size_t n, const MaxSum* state);
template <class T> void softmax_out(const void* x, void* y, size_t n, const MaxSum* state);
template <class T> void argmax(const void* x, size_t n, int64_t base_index, ArgMax* state);
template <class T> void moments(const void* x, size_t n, Moments* state);
template <class T> void normalize(const void* x, void* y, size_t n, const NormArgs* args);
template <class T> void activation(const void* x, void* y, size_t n, const ActParams* act);
template <class T, bool LOG>
void softmax_cols(const void* x, void* y, size_t r, size_t k, ptrdiff_t xrs, ptrdiff_t yrs);
template <class T>
void hardmax_cols(const void* x, void* y, size_t r, size_t k, ptrdiff_t xrs, ptrdiff_t yrs);
template <class T>
void mvn_cols(const void* x, void* y, size_t r, size_t k, ptrdiff_t xrs, ptrdiff_t yrs,
              const MvnArgs* args);
template <class T, bool LOG>
void softmax_rows(const void* x, void* y, size_t rows, size_t n, ptrdiff_t xrs, ptrdiff_t yrs);
template <class T>
void hardmax_rows(const void* x, void* y, size_t rows, size_t n, ptrdiff_t xrs, ptrdiff_t yrs);
template <class T>
void mvn_rows(const void* x, void* y, size_t rows, size_t n, ptrdiff_t xrs, ptrdiff_t yrs,
              const MvnArgs* args);

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA

// Storage types in DType order (kernel_table.hpp): f32, f16, bf16, f64.
#define SIMDAX_SIMD_FOR_EACH_DTYPE(X) X(float) X(F16) X(BF16) X(double)

#define SIMDAX_SIMD_INSTANTIATE_SOFTMAX(T)                                                        \
    template void maxsum<T>(const void*, size_t, MaxSum*);                                      \
    template void log_softmax_out<T>(const void*, void*, size_t, const MaxSum*);                 \
    template void softmax_out<T>(const void*, void*, size_t, const MaxSum*);                     \
    template void softmax_cols<T, true>(const void*, void*, size_t, size_t, ptrdiff_t, ptrdiff_t); \
    template void softmax_cols<T, false>(const void*, void*, size_t, size_t, ptrdiff_t, ptrdiff_t); \
    template void softmax_rows<T, true>(const void*, void*, size_t, size_t, ptrdiff_t, ptrdiff_t); \
    template void softmax_rows<T, false>(const void*, void*, size_t, size_t, ptrdiff_t, ptrdiff_t);

#define SIMDAX_SIMD_INSTANTIATE_HARDMAX(T)                                \
    template void argmax<T>(const void*, size_t, int64_t, ArgMax*);      \
    template void hardmax_cols<T>(const void*, void*, size_t, size_t, ptrdiff_t, ptrdiff_t); \
    template void hardmax_rows<T>(const void*, void*, size_t, size_t, ptrdiff_t, ptrdiff_t);

#define SIMDAX_SIMD_INSTANTIATE_MVN(T)                                          \
    template void moments<T>(const void*, size_t, Moments*);                   \
    template void normalize<T>(const void*, void*, size_t, const NormArgs*);   \
    template void mvn_cols<T>(const void*, void*, size_t, size_t, ptrdiff_t, ptrdiff_t, \
                              const MvnArgs*);                                  \
    template void mvn_rows<T>(const void*, void*, size_t, size_t, ptrdiff_t, ptrdiff_t, \
                              const MvnArgs*);

#define SIMDAX_SIMD_INSTANTIATE_ACTIVATION(T) \
    template void activation<T>(const void*, void*, size_t, const ActParams*);

// A complete DtypeKernels of this ISA's templates for storage type T.
#define SIMDAX_SIMD_DTYPE_ENTRY(T)                                                        \
    DtypeKernels{&maxsum<T>,           &log_softmax_out<T>,   &softmax_out<T>,          \
                 &argmax<T>,           &moments<T>,           &normalize<T>,            \
                 &activation<T>,       &softmax_cols<T, true>, &softmax_cols<T, false>, \
                 &hardmax_cols<T>,     &mvn_cols<T>,           &softmax_rows<T, true>,   \
                 &softmax_rows<T, false>, &hardmax_rows<T>,   &mvn_rows<T>},
