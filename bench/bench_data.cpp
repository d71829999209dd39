#include "bench_data.hpp"

#include <cstdlib>
#include <limits>
#include <memory>
#include <new>
#include <utility>

#include "dtype_codec.hpp"
#include "page_buffer.hpp"

namespace simdax_bench {

// ------------------------------------------------------------ AlignedBuffer
AlignedBuffer::AlignedBuffer(size_t bytes, size_t offset) : size_(bytes) {
    base_ = allocate_timing_buffer(bytes + offset);
    if (!base_) throw std::bad_alloc();
    data_ = static_cast<char*>(base_) + offset;
}

AlignedBuffer::~AlignedBuffer() { std::free(base_); }

AlignedBuffer::AlignedBuffer(AlignedBuffer&& other) noexcept
    : base_(std::exchange(other.base_, nullptr)),
      data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)) {}

AlignedBuffer& AlignedBuffer::operator=(AlignedBuffer&& other) noexcept {
    if (this != &other) {
        std::free(base_);
        base_ = std::exchange(other.base_, nullptr);
        data_ = std::exchange(other.data_, nullptr);
        size_ = std::exchange(other.size_, 0);
    }
    return *this;
}

// ------------------------------------------------------------ random data
namespace {

uint64_t splitmix64(uint64_t& state) {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

uint64_t hash_string(const std::string& s) {
    uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a
    for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ull;
    return h;
}

}  // namespace

void fill_random(void* dst, simdax_dtype dtype, int64_t count, double lo, double hi, uint64_t seed) {
    uint64_t state = seed;
    const double scale = (hi - lo) / (4.0 * 65535.0);
    for (int64_t i = 0; i < count; ++i) {
        // One 64-bit draw gives four 16-bit uniforms; their sum is bell-shaped.
        const uint64_t r = splitmix64(state);
        const double sum =
            double(r & 0xffff) + double((r >> 16) & 0xffff) + double((r >> 32) & 0xffff) + double(r >> 48);
        const double v = lo + sum * scale;
        switch (dtype) {
            case SIMDAX_DTYPE_FLOAT32: static_cast<float*>(dst)[i] = float(v); break;
            case SIMDAX_DTYPE_FLOAT64: static_cast<double*>(dst)[i] = v; break;
            case SIMDAX_DTYPE_FLOAT16:
                static_cast<uint16_t*>(dst)[i] = simdax_case::double_to_float16_bits(v);
                break;
            case SIMDAX_DTYPE_BFLOAT16:
                static_cast<uint16_t*>(dst)[i] = simdax_case::double_to_bfloat16_bits(v);
                break;
            case SIMDAX_DTYPE_UINT8: static_cast<uint8_t*>(dst)[i] = v != 0.0; break;
        }
    }
}

// ------------------------------------------------------------ caches
namespace {

struct DataSlot {
    std::string key;
    std::unique_ptr<DataSet> data;
};
DataSlot g_data;

struct OpDeleter {
    void operator()(simdax_operator* op) const { simdax_operator_destroy(op); }
};
struct OpSlot {
    std::string key;
    std::unique_ptr<simdax_operator, OpDeleter> op;
};
OpSlot g_op;

size_t byte_size(simdax_dtype dtype, const std::vector<int64_t>& shape) {
    return size_t(element_count(shape)) * simdax_dtype_size(dtype);
}

}  // namespace

const DataSet& workload_data(const Workload& w) {
    if (g_data.data && g_data.key == w.id) return *g_data.data;
    g_data.data.reset();  // free the previous set before allocating the next
    auto set = std::make_unique<DataSet>();
    const uint64_t seed = hash_string(w.id);
    set->input = AlignedBuffer(byte_size(w.dtype, w.shape));
    fill_random(set->input.data(), w.dtype, element_count(w.shape), -5.0, 5.0, seed);
    set->output = AlignedBuffer(byte_size(w.dtype, w.shape));
    if (w.op == Op::SkipLayerNorm) {
        set->skip = AlignedBuffer(byte_size(w.dtype, w.shape));
        fill_random(set->skip.data(), w.dtype, element_count(w.shape), -1.0, 1.0, seed + 3);
    }
    if (!w.scale_bias.empty() && w.op == Op::AttentionSoftmax) {  // the float32 mask
        // As bench/peers/make_data.py: 0 (kept) and -inf (pad: batch b's
        // last pad*b keys; tail: every row's last tail keys).
        set->scale = AlignedBuffer(byte_size(SIMDAX_DTYPE_FLOAT32, w.scale_bias));
        float* m = static_cast<float*>(set->scale.data());
        const int64_t keys = w.scale_bias.back(), rows = element_count(w.scale_bias) / keys;
        const int64_t per_batch = rows / w.scale_bias.front();
        for (int64_t r = 0; r < rows; ++r) {
            const int64_t masked = w.mask_tail + w.mask_pad * (r / per_batch);
            for (int64_t j = 0; j < keys; ++j)
                m[r * keys + j] = j >= keys - masked ? -std::numeric_limits<float>::infinity() : 0.0f;
        }
    } else if (!w.scale_bias.empty()) {
        const int64_t n = element_count(w.scale_bias);
        set->scale = AlignedBuffer(byte_size(w.dtype, w.scale_bias));
        fill_random(set->scale.data(), w.dtype, n, 0.5, 1.5, seed + 1);
        set->bias = AlignedBuffer(byte_size(w.dtype, w.scale_bias));
        fill_random(set->bias.data(), w.dtype, n, -1.0, 1.0, seed + 2);
    }
    g_data.key = w.id;
    g_data.data = std::move(set);
    return *g_data.data;
}

simdax_status execute_workload(const simdax_operator* op, const Workload& w, const DataSet& data,
                               const void* in, void* out, const simdax_parallel* par) {
    const void* bias = w.op == Op::RmsNorm ? nullptr : data.bias.data();  // RMSNormalization has none
    // AttentionSoftmax (its mask in the scale buffer) and a skip: every
    // operand bound by index.
    if (w.op == Op::AttentionSoftmax || data.skip.data() != nullptr) {
        simdax_buffer_binding operands[SIMDAX_OPERAND_COUNT] = {};
        operands[SIMDAX_OPERAND_INPUT].data = const_cast<void*>(in);
        operands[SIMDAX_OPERAND_OUTPUT].data = out;
        if (w.op == Op::AttentionSoftmax) {
            operands[SIMDAX_OPERAND_MASK].data = w.scale_bias.empty() ? nullptr : data.scale.data();
        } else {
            operands[SIMDAX_OPERAND_SCALE].data = data.scale.data();
            operands[SIMDAX_OPERAND_BIAS].data = const_cast<void*>(bias);
            operands[SIMDAX_OPERAND_SKIP].data = data.skip.data();
        }
        const simdax_operand_bindings bound = {
            SIMDAX_HEADER(simdax_operand_bindings, SIMDAX_STRUCTURE_TYPE_OPERAND_BINDINGS),
            SIMDAX_OPERAND_COUNT, operands};
        return simdax_operator_execute_bound(op, &bound, par);
    }
    const simdax_bindings bindings = {in, data.scale.data(), bias, out};
    return par ? simdax_operator_execute_parallel(op, &bindings, par)
               : simdax_operator_execute(op, &bindings);
}

const DataSet& memcpy_data(const Workload& w) {
    const std::string key = memcpy_name(w);
    if (g_data.data && g_data.key == key) return *g_data.data;
    g_data.data.reset();
    auto set = std::make_unique<DataSet>();
    const int64_t bytes = memcpy_bytes(w);
    set->input = AlignedBuffer(size_t(bytes));
    fill_random(set->input.data(), w.dtype, bytes / int64_t(simdax_dtype_size(w.dtype)), -5.0, 5.0,
                hash_string(key));
    set->output = AlignedBuffer(size_t(bytes));
    g_data.key = key;
    g_data.data = std::move(set);
    return *g_data.data;
}

const simdax_operator* workload_operator(const Workload& w, simdax_isa isa, std::string* error) {
    const std::string key = w.id + '/' + simdax_isa_name(isa);
    if (g_op.op && g_op.key == key) return g_op.op.get();
    g_op.op.reset();
    g_op.key.clear();

    const uint32_t rank = uint32_t(w.shape.size());
    const simdax_tensor_desc tensor = {w.dtype, rank, w.shape.data(), nullptr};
    const simdax_tensor_desc scale_bias = {w.dtype, uint32_t(w.scale_bias.size()), w.scale_bias.data(),
                                           nullptr};
    const uint32_t axis_count = uint32_t(w.axes.size());

    simdax_axes_op_desc axes_desc = {&tensor, &tensor, axis_count, w.axes.data()};
    const simdax_activation_desc identity = simdax_activation_default(SIMDAX_ACTIVATION_IDENTITY);
    simdax_mvn_desc mvn_desc = {};
    mvn_desc.input = &tensor;
    mvn_desc.scale = w.scale_bias.empty() ? nullptr : &scale_bias;
    mvn_desc.bias = w.scale_bias.empty() ? nullptr : &scale_bias;
    mvn_desc.output = &tensor;
    mvn_desc.axis_count = axis_count;
    mvn_desc.axes = w.axes.data();
    mvn_desc.normalize_variance = 1;
    mvn_desc.epsilon = 1e-5f;
    mvn_desc.fused_activation = &identity;
    simdax_hard_sigmoid_desc hs_desc = {&tensor, &tensor, 0.2f, 0.5f};
    const simdax_tensor_desc mask = {SIMDAX_DTYPE_FLOAT32, uint32_t(w.scale_bias.size()), w.scale_bias.data(),
                                     nullptr};
    const simdax_attention_softmax_desc attn_desc = {&tensor,
                                                     w.scale_bias.empty() ? nullptr : &mask,
                                                     nullptr,
                                                     nullptr,
                                                     &tensor,
                                                     nullptr,
                                                     w.attn_scale,
                                                     0.0f,
                                                     w.causal,
                                                     0,
                                                     0};
    const bool skip = w.op == Op::SkipLayerNorm;
    simdax_layer_normalization_desc ln_desc = {&tensor, &scale_bias, &scale_bias, &tensor,
                                               -1,      1e-5f,       1,           skip ? &tensor : nullptr,
                                               nullptr, nullptr,     nullptr,     nullptr};
    simdax_rms_normalization_desc rms_desc = {&tensor, &scale_bias, &tensor, -1,     1e-5f,
                                              1,       nullptr,     nullptr, nullptr};

    simdax_operator_desc desc = {};
    switch (w.op) {
        case Op::LogSoftmax: desc = {SIMDAX_OPERATOR_LOG_SOFTMAX, &axes_desc}; break;
        case Op::Softmax: desc = {SIMDAX_OPERATOR_SOFTMAX, &axes_desc}; break;
        case Op::Hardmax: desc = {SIMDAX_OPERATOR_HARDMAX, &axes_desc}; break;
        case Op::Mvn: desc = {SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, &mvn_desc}; break;
        case Op::HardSigmoid: desc = {SIMDAX_OPERATOR_HARD_SIGMOID, &hs_desc}; break;
        case Op::AttentionSoftmax: desc = {SIMDAX_OPERATOR_ATTENTION_SOFTMAX, &attn_desc}; break;
        case Op::LayerNorm:
        case Op::SkipLayerNorm: desc = {SIMDAX_OPERATOR_LAYER_NORMALIZATION, &ln_desc}; break;
        case Op::RmsNorm: desc = {SIMDAX_OPERATOR_RMS_NORMALIZATION, &rms_desc}; break;
    }

    // Cap the ISA for this create only. The cap itself cannot be read back;
    // the active ISA under it is what restoring must reproduce.
    const simdax_isa previous = simdax_active_isa();
    simdax_status status = simdax_set_max_isa(isa);
    if (status != SIMDAX_OK) {
        *error = std::string("simdax_set_max_isa(") + simdax_isa_name(isa) +
                 "): " + simdax_status_name(status) + ": " + simdax_last_error();
        return nullptr;
    }
    simdax_operator* op = nullptr;
    status = simdax_operator_create(&desc, &op);
    const std::string create_error = status == SIMDAX_OK ? "" : simdax_last_error();
    simdax_set_max_isa(previous);
    if (status != SIMDAX_OK) {
        *error = std::string("simdax_operator_create: ") + simdax_status_name(status) + ": " + create_error;
        return nullptr;
    }
    const simdax_isa planned = simdax_operator_isa(op);
    if (planned != isa) {
        simdax_operator_destroy(op);
        const char* planned_name = simdax_isa_name(planned);
        *error = std::string("operator planned for ") + (planned_name ? planned_name : "?") + ", not " +
                 simdax_isa_name(isa);
        return nullptr;
    }
    g_op.key = key;
    g_op.op.reset(op);
    return op;
}

}  // namespace simdax_bench
