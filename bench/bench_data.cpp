#include "bench_data.hpp"

#include <cstdlib>
#include <limits>
#include <memory>
#include <new>
#include <utility>

#include "dtype_codec.hpp"
#include "page_buffer.hpp"
#include "workload_desc.hpp"

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
    if (w.skip) {
        set->skip = AlignedBuffer(byte_size(w.dtype, w.shape));
        fill_random(set->skip.data(), w.dtype, element_count(w.shape), -1.0, 1.0, seed + 3);
    }
    if (!w.scale_bias.empty() && w.op == SIMDAX_OPERATOR_ATTENTION_SOFTMAX) {  // the float32 mask
        // As bench/peers/make_data.py: 0 (kept) and -inf (pad: batch b's
        // last pad*b keys; tail: every row's last tail keys).
        set->mask = AlignedBuffer(byte_size(SIMDAX_DTYPE_FLOAT32, w.scale_bias));
        float* m = static_cast<float*>(set->mask.data());
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

WorkloadBuffers workload_buffers(const DataSet& data, const void* in, void* out) {
    return {in, out, data.scale.data(), data.bias.data(), data.mask.data(), data.skip.data()};
}

simdax_status execute_bindings(const simdax_operator* op, const WorkloadBindings& b,
                               const simdax_parallel* par) {
    if (const simdax_operand_bindings* bound = b.bound())
        return simdax_operator_execute_bound(op, bound, par);
    return par ? simdax_operator_execute_parallel(op, b.plain(), par)
               : simdax_operator_execute(op, b.plain());
}

simdax_status execute_workload(const simdax_operator* op, const Workload& w, const DataSet& data,
                               const void* in, void* out, const simdax_parallel* par) {
    return execute_bindings(op, WorkloadBindings(w, workload_buffers(data, in, out)), par);
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

    const WorkloadDesc desc(w);
    if (!desc.get()) {
        *error = "no benchmark descriptor for " + operator_name(w);
        return nullptr;
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
    status = simdax_operator_create(desc.get(), &op);
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
