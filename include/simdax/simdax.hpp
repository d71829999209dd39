// simdax — thin header-only C++17 wrapper over the C API in simdax.h.
// No new behaviour: RAII for operators and the built-in thread pool,
// exceptions for failing statuses, owning tensor descriptors, and the ONNX
// helpers with std::optional for absent attributes. Everything lives in
// simdax::cpp.
//
//   using namespace simdax::cpp;
//   Operator op = log_softmax({128, 1000}, {1});        // throws simdax::cpp::Error
//   op.execute(input, output);                          // any thread, any number of times
//   ThreadPool pool(4);
//   op.execute(input, output, pool.parallel());         // split over 4 threads
//   std::string line = op.describe();                   // what SIMDAX_VERBOSE prints
#ifndef SIMDAX_SIMDAX_HPP
#define SIMDAX_SIMDAX_HPP

#include <cstdint>
#include <optional>
#include <array>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "simdax/simdax.h"

namespace simdax::cpp {

// A failing simdax call: its status and its simdax_last_error() message.
class Error : public std::runtime_error {
public:
    Error(simdax_status status, const std::string& message)
        : std::runtime_error(std::string(simdax_status_name(status)) + ": " + message), status_(status) {}
    simdax_status status() const noexcept { return status_; }

private:
    simdax_status status_;
};

// Throws Error for any status but SIMDAX_OK.
inline void check(simdax_status status) {
    if (status != SIMDAX_OK) throw Error(status, simdax_last_error());
}

// A tensor descriptor that owns its sizes and strides (empty strides = packed).
struct TensorDesc {
    simdax_dtype dtype = SIMDAX_DTYPE_FLOAT32;
    std::vector<int64_t> sizes;
    std::vector<int64_t> strides;

    TensorDesc() = default;
    TensorDesc(std::vector<int64_t> sizes_, simdax_dtype dtype_ = SIMDAX_DTYPE_FLOAT32,
               std::vector<int64_t> strides_ = {})
        : dtype(dtype_), sizes(std::move(sizes_)), strides(std::move(strides_)) {}

    // The C view; valid while this object lives and is not modified.
    simdax_tensor_desc c() const {
        return {dtype, uint32_t(sizes.size()), sizes.data(), strides.empty() ? nullptr : strides.data()};
    }
};

// Owns a handle of the C API (move-only) and destroys it with the object.
template <class H, void (*Destroy)(H*)>
class UniqueHandle {
public:
    UniqueHandle() = default;
    UniqueHandle(UniqueHandle&& other) noexcept : h_(std::exchange(other.h_, nullptr)) {}
    UniqueHandle& operator=(UniqueHandle&& other) noexcept {
        if (this != &other) {
            Destroy(h_);
            h_ = std::exchange(other.h_, nullptr);
        }
        return *this;
    }
    UniqueHandle(const UniqueHandle&) = delete;
    UniqueHandle& operator=(const UniqueHandle&) = delete;
    ~UniqueHandle() { Destroy(h_); }

protected:
    H* h_ = nullptr;
};

// A created operator (move-only); destroyed with the object.
class Operator : public UniqueHandle<simdax_operator, simdax_operator_destroy> {
public:
    Operator() = default;
    explicit Operator(const simdax_operator_desc& desc) { check(simdax_operator_create(&desc, &h_)); }
    // From a create-info structure: Operator(info.header).
    explicit Operator(const simdax_structure_header& info) {
        check(simdax_operator_create_from_info(&info, &h_));
    }

    void execute(const simdax_bindings& b) const { check(simdax_operator_execute(h_, &b)); }
    void execute(const void* input, void* output) const { execute({input, nullptr, nullptr, output}); }
    // MVN with Scale and/or Bias (nullptr for one created without it).
    void execute(const void* input, const void* scale, const void* bias, void* output) const {
        execute({input, scale, bias, output});
    }
    // simdax_operator_execute_parallel over a caller's pool (ThreadPool::parallel()).
    void execute(const simdax_bindings& b, const simdax_parallel& parallel) const {
        check(simdax_operator_execute_parallel(h_, &b, &parallel));
    }
    void execute(const void* input, void* output, const simdax_parallel& parallel) const {
        execute({input, nullptr, nullptr, output}, parallel);
    }
    void execute(const void* input, const void* scale, const void* bias, void* output,
                 const simdax_parallel& parallel) const {
        execute({input, scale, bias, output}, parallel);
    }

    // simdax_operator_execute_bound: buffers by simdax_operand, with their
    // lengths (Buffer(data, size)); parallel may be nullptr.
    void execute_bound(const std::vector<simdax_buffer_binding>& operands,
                       const simdax_parallel* parallel = nullptr) const {
        const simdax_operand_bindings b{
            SIMDAX_HEADER(simdax_operand_bindings, SIMDAX_STRUCTURE_TYPE_OPERAND_BINDINGS),
            uint32_t(operands.size()), operands.data()};
        check(simdax_operator_execute_bound(h_, &b, parallel));
    }

    // simdax_operator_describe: the operator and its plan on one line.
    std::string describe() const {
        std::string s(simdax_operator_describe(h_, nullptr, 0), '\0');
        simdax_operator_describe(h_, &s[0], s.size() + 1);
        return s;
    }

    simdax_operator_type type() const { return simdax_operator_get_type(h_); }
    simdax_isa isa() const { return simdax_operator_isa(h_); }
    const simdax_operator* get() const noexcept { return h_; }
    explicit operator bool() const noexcept { return h_ != nullptr; }
};

// A buffer of `count` elements of T bound whole: element 0 at its start.
template <class T>
simdax_buffer_binding Buffer(T* data, size_t count) {
    return {const_cast<void*>(static_cast<const void*>(data)), 0, count * sizeof(T)};
}

// The built-in pool (simdax_threadpool_*), destroyed with the object.
class ThreadPool : public UniqueHandle<simdax_threadpool, simdax_threadpool_destroy> {
public:
    explicit ThreadPool(uint32_t threads) { check(simdax_threadpool_create(threads, &h_)); }

    // The hook for Operator::execute(..., parallel); valid while the pool lives.
    simdax_parallel parallel() const { return simdax_threadpool_parallel(h_); }
    uint32_t threads() const { return parallel().thread_count; }
    simdax_threadpool* get() const noexcept { return h_; }
};

inline std::string version() { return simdax_version(); }

}  // namespace simdax::cpp

#include "simdax/simdax_factories.hpp"
#include "simdax/simdax_onnx.hpp"

#endif  // SIMDAX_SIMDAX_HPP
