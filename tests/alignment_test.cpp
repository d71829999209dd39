// Buffers need the alignment of their element type and nothing more: no
// vector or cache-line alignment. Every operator and dtype runs with its
// input, output, Scale and Bias an odd number of elements past a 64-byte
// boundary (so off every vector width), in the rows, cols and general loop
// forms, in place too for the operators that run in place; and with outputs
// large enough for non-temporal stores, which write only the whole cache
// lines of each row. Each output element is checked against the float64 reference
// of the same values (pass rule of docs/spec.md "Accuracy"), and the bytes
// around the output must stay as they were.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "simdax/simdax.h"
#include "support/dtype.hpp"
#include "support/op_runner.hpp"
#include "support/tensor_buffer.hpp"

namespace {

using namespace sxt;

const std::vector<simdax_dtype> kDtypes{SIMDAX_DTYPE_FLOAT32, SIMDAX_DTYPE_FLOAT16, SIMDAX_DTYPE_BFLOAT16,
                                        SIMDAX_DTYPE_FLOAT64};
constexpr unsigned char kFill = 0xA5;
constexpr size_t kMargin = 128;

// `bytes` bytes starting `offset` bytes past a 64-byte boundary, with at
// least kMargin filler bytes on each side.
class OffsetBuffer {
public:
    OffsetBuffer(size_t bytes, size_t offset) : mem_(bytes + 2 * kMargin + 64, kFill), bytes_(bytes) {
        const uintptr_t a = reinterpret_cast<uintptr_t>(mem_.data()) + kMargin;
        p_ = mem_.data() + ((a + 63) / 64 * 64 - reinterpret_cast<uintptr_t>(mem_.data())) + offset;
    }
    OffsetBuffer(OffsetBuffer&&) = default;  // p_ stays inside the moved vector
    OffsetBuffer(const OffsetBuffer&) = delete;
    unsigned char* data() { return p_; }
    // True if no byte outside [data(), data() + bytes) changed.
    bool margins_intact() const {
        for (const unsigned char* q = mem_.data(); q < p_; ++q)
            if (*q != kFill) return false;
        for (const unsigned char* q = p_ + bytes_; q < mem_.data() + mem_.size(); ++q)
            if (*q != kFill) return false;
        return true;
    }

private:
    std::vector<unsigned char> mem_;
    unsigned char* p_;
    size_t bytes_;
};

// Bytes from element (0,...,0) to past the last element an index reaches
// (non-negative strides).
size_t span_bytes(const TensorBuffer& t) {
    int64_t last = 0;
    for (size_t k = 0; k < t.sizes().size(); ++k) last += (t.sizes()[k] - 1) * t.strides()[k];
    return size_t(last + 1) * dtype_bytes(t.dtype());
}

OffsetBuffer copy_to(const TensorBuffer& t, size_t offset) {
    OffsetBuffer b(span_bytes(t), offset);
    std::memcpy(b.data(), t.data(), span_bytes(t));
    return b;
}

struct Case {
    OpSpec spec;
    std::vector<int64_t> sizes, x_strides;
    std::vector<int64_t> scale_sizes;  // MVN: Scale and Bias (empty: none)
    std::string name;
    bool streamed = false;  // output large enough for non-temporal stores
};

// 2 MiB of output, the size from which the rows kernels and the element-wise
// map stream their stores (the cols kernels: of input and output together).
constexpr int64_t kStreamElementBytes = int64_t(2) << 20;

std::vector<Case> cases(simdax_dtype dt) {
    std::vector<Case> c;
    const int64_t big_rows = kStreamElementBytes / int64_t(dtype_bytes(dt)) / 1024;
    // Emulated-CPU runs (qemu) leave out every streamed size: native runs
    // cover them. bfloat16's rows stream as float16's do (same store
    // width), at the largest element count: left out to keep the test
    // short. Its element-wise map has a pair form of its own (AVX2).
    const char* emulated = std::getenv("SIMDAX_TEST_EMULATED");
    const bool streamed_map = !(emulated && *emulated == '1');
    const bool streamed = dt != SIMDAX_DTYPE_BFLOAT16 && streamed_map;
    for (simdax_operator_type op : {SIMDAX_OPERATOR_LOG_SOFTMAX, SIMDAX_OPERATOR_SOFTMAX,
                                    SIMDAX_OPERATOR_HARDMAX, SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION}) {
        OpSpec s;
        s.op = op;
        const bool mvn = op == SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION;
        const std::vector<int64_t> none;
        s.axes = {1};
        c.push_back({s, {7, 301}, {}, mvn ? std::vector<int64_t>{1, 301} : none, "rows"});
        c.push_back({s, {16, 1000}, {}, none, "rows of 1000"});
        if (streamed && (op == SIMDAX_OPERATOR_LOG_SOFTMAX || mvn))
            c.push_back({s,
                         {big_rows, 1024},
                         {},
                         mvn ? std::vector<int64_t>{1, 1024} : none,
                         "rows, streamed output",
                         true});
        if (streamed && op != SIMDAX_OPERATOR_HARDMAX)
            c.push_back({s,
                         {big_rows * 8, 128},
                         {},
                         mvn ? std::vector<int64_t>{1, 128} : none,
                         "rows of 128, streamed output",
                         true});
        if (streamed && (op == SIMDAX_OPERATOR_LOG_SOFTMAX || op == SIMDAX_OPERATOR_SOFTMAX)) {
            // The longest rows the batched rows write inline (1 KiB of
            // float32): the shortest whose lines are streamed off the line.
            c.push_back({s, {big_rows * 4, 256}, {}, none, "rows of 256, streamed output", true});
            c.push_back({s, {2, 64, big_rows * 8 + 13}, {}, none, "cols, streamed output", true});
            c.push_back({s, {big_rows / 3 + 1, 3001}, {}, none, "rows of 3001, streamed output", true});
        }
        c.push_back({s, {301, 19}, {1, 301}, none, "general (transposed input)"});
        // Rows a whole number of cache lines apart, more lanes than a unit:
        // the cols units start at the output's line boundary after a unit
        // of the lanes before it (dispatch/execute/run_plan.hpp).
        c.push_back({s, {3, 9, 1056}, {}, none, "cols, rows on whole cache lines"});
        s.axes = {0};
        c.push_back({s, {301, 19}, {}, mvn ? std::vector<int64_t>{1, 19} : none, "cols"});
    }
    OpSpec hs;
    hs.op = SIMDAX_OPERATOR_HARD_SIGMOID;
    OpSpec act;
    act.op = SIMDAX_OPERATOR_ACTIVATION;
    act.activation = simdax_activation_default(SIMDAX_ACTIVATION_GELU);
    for (const OpSpec& s : {hs, act}) {
        c.push_back({s, {1000}, {}, {}, "contiguous"});
        c.push_back({s, {301, 19}, {1, 301}, {}, "general (transposed input)"});
    }
    if (streamed_map) c.push_back({hs, {big_rows * 1024 + 13}, {}, {}, "contiguous, streamed output", true});
    return c;
}

double value(int64_t i) {
    uint64_t h = uint64_t(i) * 0x9E3779B97F4A7C15ull;
    h ^= h >> 29;
    return double(int64_t(h % 4001) - 2000) / 250.0;  // [-8, 8]
}

// Runs `c` with its operands at the given byte offsets (Scale and Bias
// follow the input's) and checks the output.
void run_at(const Case& c, simdax_dtype dt, size_t x_off, size_t y_off, bool in_place) {
    Operands io{TensorBuffer(dt, c.sizes, c.x_strides, Role::Input), nullptr, nullptr,
                TensorBuffer(dt, c.sizes, {}, Role::Output)};
    io.x.fill(value);
    if (!c.scale_sizes.empty()) {
        io.scale = std::make_unique<TensorBuffer>(dt, c.scale_sizes, std::vector<int64_t>{}, Role::Input);
        io.bias = std::make_unique<TensorBuffer>(dt, c.scale_sizes, std::vector<int64_t>{}, Role::Input);
        io.scale->fill([](int64_t i) { return 0.5 + 0.01 * double(i % 97); });
        io.bias->fill([](int64_t i) { return -1.0 + 0.02 * double(i % 89); });
    }
    std::vector<RefRange> ranges;
    const std::vector<double> ref = reference(c.spec, io, &ranges);

    const size_t es = dtype_bytes(dt);
    OffsetBuffer x = copy_to(io.x, x_off);
    OffsetBuffer y(size_t(io.y.count()) * es, y_off);
    if (in_place) std::memcpy(y.data(), io.x.data(), size_t(io.x.count()) * es);
    std::unique_ptr<OffsetBuffer> scale, bias;
    if (io.scale) {
        scale = std::make_unique<OffsetBuffer>(copy_to(*io.scale, x_off + 2 * es));
        bias = std::make_unique<OffsetBuffer>(copy_to(*io.bias, x_off + 4 * es));
    }

    const std::string what = describe(c.spec, io) + " [" + c.name + "] input at +" + std::to_string(x_off) +
                             " bytes, output at +" + std::to_string(y_off) + (in_place ? " (in place)" : "");
    DescStorage st;
    simdax_operator* op = nullptr;
    ASSERT_EQ(simdax_operator_create(build_desc(c.spec, io, &st), &op), SIMDAX_OK)
        << what << ": " << simdax_last_error();
    const simdax_bindings b{in_place ? y.data() : x.data(), scale ? scale->data() : nullptr,
                            bias ? bias->data() : nullptr, y.data()};
    const simdax_status s = simdax_operator_execute(op, &b);
    simdax_operator_destroy(op);
    ASSERT_EQ(s, SIMDAX_OK) << what << ": " << simdax_last_error();

    const Tolerance tol = tolerance_for(c.spec.op, dt);
    int64_t bad = 0, first = -1;
    for (size_t i = 0; i < ref.size(); ++i) {
        const double got = load_as(dt, y.data() + i * es);
        if (passes(ranges[i], got, dt, tol)) continue;
        if (first < 0) first = int64_t(i);
        ++bad;
    }
    EXPECT_EQ(bad, 0) << what << ": first failing element " << first << " ref "
                      << (first >= 0 ? ref[size_t(first)] : 0.0) << " got "
                      << (first >= 0 ? load_as(dt, y.data() + size_t(first) * es) : 0.0);
    EXPECT_TRUE(y.margins_intact()) << what << ": a byte next to the output changed";
}

bool runs_in_place(simdax_operator_type op) {
    return op == SIMDAX_OPERATOR_HARD_SIGMOID || op == SIMDAX_OPERATOR_ACTIVATION ||
           op == SIMDAX_OPERATOR_SOFTMAX || op == SIMDAX_OPERATOR_LOG_SOFTMAX;
}

TEST(Alignment, EveryOperatorOffTheVectorBoundary) {
    for (simdax_dtype dt : kDtypes) {
        const size_t es = dtype_bytes(dt);
        for (const Case& c : cases(dt)) {
            // Offsets in elements: odd, so off every vector width, and
            // different for input and output. A streamed output one element
            // off the boundary takes the aligning head step, then the
            // non-temporal stores.
            // Streamed rows whose ends fall inside cache lines (+16 and +48
            // bytes) write those lines with ordinary stores.
            const std::vector<std::pair<size_t, size_t>> offsets =
                c.streamed ? std::vector<std::pair<size_t, size_t>>{{3, 1}, {16 / es, 48 / es}}
                           : std::vector<std::pair<size_t, size_t>>{{1, 1}, {3, 5}, {5, 1}, {7, 9}, {9, 3}};
            for (const auto& [xo, yo] : offsets) {
                run_at(c, dt, xo * es, yo * es, false);
                if (runs_in_place(c.spec.op) && c.x_strides.empty()) run_at(c, dt, yo * es, yo * es, true);
                if (HasFatalFailure()) return;
            }
        }
    }
}

}  // namespace
