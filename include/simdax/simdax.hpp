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
        : std::runtime_error(std::string(simdax_status_name(status)) + ": " + message),
          status_(status) {}
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
        return {dtype, uint32_t(sizes.size()), sizes.data(),
                strides.empty() ? nullptr : strides.data()};
    }
};

// A created operator (move-only); destroyed with the object.
class Operator {
public:
    Operator() = default;
    explicit Operator(const simdax_operator_desc& desc) { check(simdax_operator_create(&desc, &op_)); }
    // From a create-info structure: Operator(info.header).
    explicit Operator(const simdax_structure_header& info) {
        check(simdax_operator_create_from_info(&info, &op_));
    }
    Operator(Operator&& other) noexcept : op_(std::exchange(other.op_, nullptr)) {}
    Operator& operator=(Operator&& other) noexcept {
        if (this != &other) {
            simdax_operator_destroy(op_);
            op_ = std::exchange(other.op_, nullptr);
        }
        return *this;
    }
    Operator(const Operator&) = delete;
    Operator& operator=(const Operator&) = delete;
    ~Operator() { simdax_operator_destroy(op_); }

    void execute(const simdax_bindings& b) const { check(simdax_operator_execute(op_, &b)); }
    void execute(const void* input, void* output) const { execute({input, nullptr, nullptr, output}); }
    // MVN with Scale and/or Bias (nullptr for one created without it).
    void execute(const void* input, const void* scale, const void* bias, void* output) const {
        execute({input, scale, bias, output});
    }
    // simdax_operator_execute_parallel over a caller's pool (ThreadPool::parallel()).
    void execute(const simdax_bindings& b, const simdax_parallel& parallel) const {
        check(simdax_operator_execute_parallel(op_, &b, &parallel));
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
        const simdax_operand_bindings b{SIMDAX_HEADER(simdax_operand_bindings, SIMDAX_STRUCTURE_TYPE_OPERAND_BINDINGS),
                                        uint32_t(operands.size()), operands.data()};
        check(simdax_operator_execute_bound(op_, &b, parallel));
    }

    // simdax_operator_describe: the operator and its plan on one line.
    std::string describe() const {
        std::string s(simdax_operator_describe(op_, nullptr, 0), '\0');
        simdax_operator_describe(op_, &s[0], s.size() + 1);
        return s;
    }

    simdax_operator_type type() const { return simdax_operator_get_type(op_); }
    simdax_isa isa() const { return simdax_operator_isa(op_); }
    const simdax_operator* get() const noexcept { return op_; }
    explicit operator bool() const noexcept { return op_ != nullptr; }

private:
    simdax_operator* op_ = nullptr;
};

// A buffer of `count` elements of T bound whole: element 0 at its start.
template <class T>
simdax_buffer_binding Buffer(T* data, size_t count) {
    return {const_cast<void*>(static_cast<const void*>(data)), 0, count * sizeof(T)};
}

// The built-in pool (simdax_threadpool_*), destroyed with the object.
class ThreadPool {
public:
    explicit ThreadPool(uint32_t threads) { check(simdax_threadpool_create(threads, &pool_)); }
    ThreadPool(ThreadPool&& other) noexcept : pool_(std::exchange(other.pool_, nullptr)) {}
    ThreadPool& operator=(ThreadPool&& other) noexcept {
        if (this != &other) {
            simdax_threadpool_destroy(pool_);
            pool_ = std::exchange(other.pool_, nullptr);
        }
        return *this;
    }
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;
    ~ThreadPool() { simdax_threadpool_destroy(pool_); }

    // The hook for Operator::execute(..., parallel); valid while the pool lives.
    simdax_parallel parallel() const { return simdax_threadpool_parallel(pool_); }
    uint32_t threads() const { return parallel().thread_count; }
    simdax_threadpool* get() const noexcept { return pool_; }

private:
    simdax_threadpool* pool_ = nullptr;
};

// ---------------------------------------------------------------- factories
inline Operator axes_op(simdax_operator_type type, const TensorDesc& input,
                        const TensorDesc& output, const std::vector<uint32_t>& axes) {
    const simdax_tensor_desc in = input.c(), out = output.c();
    const simdax_axes_op_desc d{&in, &out, uint32_t(axes.size()), axes.data()};
    return Operator(simdax_operator_desc{type, &d});
}
inline Operator log_softmax(const std::vector<int64_t>& shape, const std::vector<uint32_t>& axes,
                            simdax_dtype dtype = SIMDAX_DTYPE_FLOAT32) {
    const TensorDesc t(shape, dtype);
    return axes_op(SIMDAX_OPERATOR_LOG_SOFTMAX, t, t, axes);
}
inline Operator softmax(const std::vector<int64_t>& shape, const std::vector<uint32_t>& axes,
                        simdax_dtype dtype = SIMDAX_DTYPE_FLOAT32) {
    const TensorDesc t(shape, dtype);
    return axes_op(SIMDAX_OPERATOR_SOFTMAX, t, t, axes);
}
inline Operator hardmax(const std::vector<int64_t>& shape, const std::vector<uint32_t>& axes,
                        simdax_dtype dtype = SIMDAX_DTYPE_FLOAT32) {
    const TensorDesc t(shape, dtype);
    return axes_op(SIMDAX_OPERATOR_HARDMAX, t, t, axes);
}

// MVN options; absent scale/bias/activation as in simdax_mvn_desc.
// SIMDAX_EPSILON_ON_STDDEV (ONNX) creates the operator from a simdax_mvn_ex_desc.
struct MvnOptions {
    std::optional<TensorDesc> scale, bias;
    bool normalize_variance = true;
    float epsilon = 1e-5f;
    std::optional<simdax_activation_desc> activation;
    simdax_epsilon_placement epsilon_placement = SIMDAX_EPSILON_ON_VARIANCE;
};
inline Operator mvn(const TensorDesc& input, const TensorDesc& output,
                    const std::vector<uint32_t>& axes, const MvnOptions& o = {}) {
    const simdax_tensor_desc in = input.c(), out = output.c();
    simdax_tensor_desc scale{}, bias{};
    if (o.scale) scale = o.scale->c();
    if (o.bias) bias = o.bias->c();
    const simdax_mvn_desc d{&in, o.scale ? &scale : nullptr, o.bias ? &bias : nullptr, &out,
                            uint32_t(axes.size()), axes.data(), o.normalize_variance ? 1 : 0,
                            o.epsilon, o.activation ? &*o.activation : nullptr};
    if (o.epsilon_placement == SIMDAX_EPSILON_ON_VARIANCE)
        return Operator(simdax_operator_desc{SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, &d});
    const simdax_mvn_ex_desc ex{d, o.epsilon_placement};
    return Operator(simdax_operator_desc{SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION_EX, &ex});
}
// Packed input and output of `dtype`; Scale and Bias (their sizes and
// strides from o) take that dtype too.
inline Operator mvn(const std::vector<int64_t>& shape, const std::vector<uint32_t>& axes,
                    simdax_dtype dtype = SIMDAX_DTYPE_FLOAT32, const MvnOptions& o = {}) {
    const TensorDesc t(shape, dtype);
    MvnOptions typed = o;
    if (typed.scale) typed.scale->dtype = dtype;
    if (typed.bias) typed.bias->dtype = dtype;
    return mvn(t, t, axes, typed);
}

// HardSigmoid over any views (in place: the same TensorDesc and buffer).
inline Operator hard_sigmoid(const TensorDesc& input, const TensorDesc& output,
                             float alpha = 0.2f, float beta = 0.5f) {
    const simdax_tensor_desc in = input.c(), out = output.c();
    const simdax_hard_sigmoid_desc d{&in, &out, alpha, beta};
    return Operator(simdax_operator_desc{SIMDAX_OPERATOR_HARD_SIGMOID, &d});
}

// An ONNX MeanVarianceNormalization node (simdax_onnx_mvn_desc): onnx_axes
// as in the node (negative allowed), nullopt for the default {0,2,3}.
inline Operator onnx_mvn(const std::vector<int64_t>& shape,
                         const std::optional<std::vector<int64_t>>& onnx_axes = std::nullopt,
                         simdax_dtype dtype = SIMDAX_DTYPE_FLOAT32) {
    const TensorDesc t(shape, dtype);
    const simdax_tensor_desc c = t.c();
    uint32_t axes[SIMDAX_MAX_RANK];
    simdax_mvn_ex_desc d;
    check(simdax_onnx_mvn_desc(&c, &c, onnx_axes ? onnx_axes->data() : nullptr,
                               onnx_axes ? uint32_t(onnx_axes->size()) : 0, axes, &d));
    return Operator(simdax_operator_desc{SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION_EX, &d});
}

inline Operator hard_sigmoid(const std::vector<int64_t>& shape,
                             simdax_dtype dtype = SIMDAX_DTYPE_FLOAT32, float alpha = 0.2f,
                             float beta = 0.5f) {
    const TensorDesc t(shape, dtype);
    return hard_sigmoid(t, t, alpha, beta);
}

// Any activation standalone over any views, with explicit parameters or
// DirectML's defaults.
inline Operator activation(const TensorDesc& input, const TensorDesc& output,
                           const simdax_activation_desc& act) {
    const simdax_tensor_desc in = input.c(), out = output.c();
    const simdax_activation_op_desc d{&in, &out, act};
    return Operator(simdax_operator_desc{SIMDAX_OPERATOR_ACTIVATION, &d});
}
inline Operator activation(const TensorDesc& input, const TensorDesc& output,
                           simdax_activation_type type) {
    return activation(input, output, simdax_activation_default(type));
}
inline Operator activation(const std::vector<int64_t>& shape, const simdax_activation_desc& act,
                           simdax_dtype dtype = SIMDAX_DTYPE_FLOAT32) {
    const TensorDesc t(shape, dtype);
    return activation(t, t, act);
}
inline Operator activation(const std::vector<int64_t>& shape, simdax_activation_type type,
                           simdax_dtype dtype = SIMDAX_DTYPE_FLOAT32) {
    return activation(shape, simdax_activation_default(type), dtype);
}

// ------------------------------------------------------------ ONNX helpers
// simdax_onnx_softmax_axes: axis = nullopt when the node has no attribute.
inline std::vector<uint32_t> onnx_softmax_axes(int64_t opset, uint32_t rank,
                                               std::optional<int64_t> axis = std::nullopt) {
    std::array<uint32_t, SIMDAX_MAX_RANK> axes{};
    uint32_t count = 0;
    check(simdax_onnx_softmax_axes(opset, rank, axis ? 1 : 0, axis.value_or(0), axes.data(),
                                   &count));
    return std::vector<uint32_t>(axes.begin(), axes.begin() + count);
}

// simdax_onnx_mvn_axes: the axes and epsilon of an ONNX MVN node
// (axes = nullopt: ONNX's default {0, 2, 3}).
struct OnnxMvn {
    std::vector<uint32_t> axes;
    float epsilon = 0.0f;
};
inline OnnxMvn onnx_mvn(uint32_t rank,
                        const std::optional<std::vector<int64_t>>& axes = std::nullopt) {
    std::array<uint32_t, SIMDAX_MAX_RANK> out{};
    uint32_t count = 0;
    OnnxMvn r;
    check(simdax_onnx_mvn_axes(rank, axes ? axes->data() : nullptr,
                               axes ? uint32_t(axes->size()) : 0u, out.data(), &count,
                               &r.epsilon));
    r.axes.assign(out.begin(), out.begin() + count);
    return r;
}

// simdax_onnx_hard_sigmoid_params: {alpha, beta}, ONNX defaults for nullopt.
inline std::pair<float, float> onnx_hard_sigmoid_params(std::optional<float> alpha = std::nullopt,
                                                        std::optional<float> beta = std::nullopt) {
    std::pair<float, float> r;
    check(simdax_onnx_hard_sigmoid_params(alpha ? 1 : 0, alpha.value_or(0.0f), beta ? 1 : 0,
                                          beta.value_or(0.0f), &r.first, &r.second));
    return r;
}

inline std::string version() { return simdax_version(); }

}  // namespace simdax::cpp

#endif  // SIMDAX_SIMDAX_HPP
