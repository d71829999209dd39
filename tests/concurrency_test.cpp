// Concurrency (issue #6). Every test here has "Concurrency" in its suite
// name so the TSan stage of tools/scripts/test.sh can run exactly these
// (GTEST_FILTER='*Concurrency*').
//  - One created operator executed from 4 threads at once on different
//    buffers gives what a single thread gives, for every operator, loop form
//    and dtype.
//  - Operators created and destroyed (valid and invalid descriptors) on
//    several threads while others execute: results unchanged, each thread
//    sees its own simdax_last_error().
//  - simdax_operator_execute_parallel with the built-in pool (2, 3, 4
//    threads) and with custom parallel-for hooks (tasks in reverse or
//    shuffled order, run on std::threads, claimed thread counts from 2 to
//    64): the output is bitwise identical to the single-thread output for
//    every split, every operator and every loop form — rows, rows with
//    segments, cols, general, big groups split into parts (> 65536 elements
//    per group) and element-wise runs split into parts.
//  - 2, 3 and 4 threads calling execute_parallel at once through one
//    built-in pool, and through a caller's parallel-for that runs the tasks
//    of concurrent calls interleaved: every output is the serial one.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <memory>
#include <mutex>
#include <numeric>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "simdax/simdax.h"
#include "support/dtype.hpp"
#include "support/op_runner.hpp"
#include "support/random_case.hpp"
#include "support/tensor_buffer.hpp"
#include "support/test_env.hpp"

namespace {

using namespace sxt;

const std::vector<simdax_dtype> kDtypes{SIMDAX_DTYPE_FLOAT32, SIMDAX_DTYPE_FLOAT16,
                                        SIMDAX_DTYPE_BFLOAT16, SIMDAX_DTYPE_FLOAT64};

struct Shape {
    Shape() = default;
    Shape(std::vector<int64_t> s, std::vector<int64_t> st = {})
        : sizes(std::move(s)), strides(std::move(st)) {}
    std::vector<int64_t> sizes;
    std::vector<int64_t> strides;  // empty = packed
};

struct Workload {
    std::string name;
    OpSpec spec;
    Shape x, y;
    bool with_scale = false, with_bias = false;
    Shape scale, bias;
};

OpSpec mvn_op(std::vector<uint32_t> axes, simdax_activation_type act) {
    OpSpec s = op_spec(SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, std::move(axes));
    s.has_activation = act != SIMDAX_ACTIVATION_IDENTITY;
    s.activation = spec_default_activation(act);
    return s;
}

OpSpec hard_sigmoid_op() {
    OpSpec s;
    s.op = SIMDAX_OPERATOR_HARD_SIGMOID;
    s.alpha = 0.2f;
    s.beta = 0.5f;
    return s;
}

OpSpec activation_op(simdax_activation_type t) {
    OpSpec s;
    s.op = SIMDAX_OPERATOR_ACTIVATION;
    s.activation = spec_default_activation(t);
    return s;
}

Workload plain(std::string name, const OpSpec& spec, Shape x, Shape y = {}) {
    Workload w;
    w.name = std::move(name);
    w.spec = spec;
    w.y = y.sizes.empty() ? Shape{x.sizes, {}} : std::move(y);
    w.x = std::move(x);
    return w;
}

Workload with_scale_bias(Workload w, std::vector<int64_t> scale, std::vector<int64_t> bias) {
    if (!scale.empty()) {
        w.with_scale = true;
        w.scale.sizes = std::move(scale);
    }
    if (!bias.empty()) {
        w.with_bias = true;
        w.bias.sizes = std::move(bias);
    }
    return w;
}

// Big enough to be split over threads (the executor keeps work below 2^15
// elements, 2^17 element-wise, on the calling thread) in every loop form.
std::vector<Workload> parallel_workloads() {
    const auto LS = SIMDAX_OPERATOR_LOG_SOFTMAX, SM = SIMDAX_OPERATOR_SOFTMAX,
               HM = SIMDAX_OPERATOR_HARDMAX;
    std::vector<Workload> w;
    w.push_back(plain("rows LogSoftmax [64,1000] {1}", op_spec(LS, {1}), {{64, 1000}}));
    w.push_back(plain("rows+segments Softmax [8,50,4,40] {1,3}", op_spec(SM, {3, 1}),
                      {{8, 50, 4, 40}}));
    w.push_back(plain("rows Hardmax [64,1000] {1}", op_spec(HM, {1}), {{64, 1000}}));
    w.push_back(plain("cols Softmax [8,50,300] {1}", op_spec(SM, {1}), {{8, 50, 300}}));
    w.push_back(plain("cols LogSoftmax [8,50,300] {1}", op_spec(LS, {1}), {{8, 50, 300}}));
    w.push_back(plain("cols Hardmax [8,50,300] {1}", op_spec(HM, {1}), {{8, 50, 300}}));
    // Row strides with few offsets modulo 4 KiB: units of 4 KiB of a row,
    // written by rows (operators/softmax/simd/cols.hpp).
    w.push_back(plain("cols LogSoftmax [3,40,2048] {1}", op_spec(LS, {1}), {{3, 40, 2048}}));
    w.push_back(plain("cols Softmax [4,40,1536] {1}", op_spec(SM, {1}), {{4, 40, 1536}}));
    w.push_back(plain("cols Hardmax [3,40,2048] {1}", op_spec(HM, {1}), {{3, 40, 2048}}));
    w.push_back(plain("general Hardmax [200,300] transposed {1}", op_spec(HM, {1}),
                      {{200, 300}, {1, 200}}));
    w.push_back(plain("general LogSoftmax [200,300] reversed out {1}", op_spec(LS, {1}),
                      {{200, 300}}, {{200, 300}, {-300, -1}}));
    // Groups above 65536 elements are reduced in parts whose states are
    // combined in order: [2, 200000] {1} is 4 parts per group.
    for (auto op : {LS, SM, HM})
        w.push_back(plain(std::string("parts ") + op_name(op) + " [2,200000] {1}", op_spec(op, {1}),
                          {{2, 200000}}));
    w.push_back(plain("parts general Softmax [2,70000] transposed {1}", op_spec(SM, {1}),
                      {{2, 70000}, {1, 2}}));
    w.push_back(plain("parts general Hardmax [70000,2] {0}", op_spec(HM, {0}),
                      {{70000, 2}, {1, 70000}}));
    w.push_back(with_scale_bias(
        plain("parts MVN [4,70000] {1} gelu", mvn_op({1}, SIMDAX_ACTIVATION_GELU), {{4, 70000}}),
        {1, 70000}, {4, 1}));
    w.push_back(with_scale_bias(plain("rows MVN [64,1000] {1}", mvn_op({1}, SIMDAX_ACTIVATION_IDENTITY),
                                      {{64, 1000}}),
                                {64, 1000}, {1, 1000}));
    w.push_back(with_scale_bias(
        plain("cols MVN [8,50,300] {1} tanh", mvn_op({1}, SIMDAX_ACTIVATION_TANH), {{8, 50, 300}}),
        {1, 50, 300}, {8, 1, 1}));
    w.push_back(with_scale_bias(
        plain("cols MVN [3,40,1024] {1} gelu", mvn_op({1}, SIMDAX_ACTIVATION_GELU), {{3, 40, 1024}}),
        {1, 40, 1024}, {3, 1, 1}));
    w.push_back(with_scale_bias(plain("general MVN [200,300] transposed {1}",
                                      mvn_op({1}, SIMDAX_ACTIVATION_RELU), {{200, 300}, {1, 200}}),
                                {1, 300}, {}));
    // Element-wise runs above 65536 elements are cut into parts as well.
    w.push_back(plain("elementwise HardSigmoid [300000]", hard_sigmoid_op(), {{300000}}));
    w.push_back(plain("elementwise gelu [300000]", activation_op(SIMDAX_ACTIVATION_GELU), {{300000}}));
    w.push_back(plain("elementwise general sigmoid [600,300] transposed",
                      activation_op(SIMDAX_ACTIVATION_SIGMOID), {{600, 300}, {1, 600}}));
    return w;
}

// Smaller shapes for the many-threads-one-operator tests.
std::vector<Workload> small_workloads() {
    std::vector<Workload> w;
    for (auto op : {SIMDAX_OPERATOR_LOG_SOFTMAX, SIMDAX_OPERATOR_SOFTMAX, SIMDAX_OPERATOR_HARDMAX}) {
        w.push_back(plain(std::string("rows ") + op_name(op), op_spec(op, {1}), {{16, 300}}));
        w.push_back(plain(std::string("cols ") + op_name(op), op_spec(op, {0}), {{40, 200}}));
        w.push_back(plain(std::string("general ") + op_name(op), op_spec(op, {1}),
                          {{30, 100}, {1, 30}}));
    }
    w.push_back(with_scale_bias(
        plain("rows MVN", mvn_op({1}, SIMDAX_ACTIVATION_SIGMOID), {{16, 300}}), {1, 300}, {16, 1}));
    w.push_back(with_scale_bias(plain("cols MVN", mvn_op({0}, SIMDAX_ACTIVATION_IDENTITY), {{40, 200}}),
                                {40, 200}, {}));
    w.push_back(plain("HardSigmoid", hard_sigmoid_op(), {{5000}}));
    w.push_back(plain("general gelu", activation_op(SIMDAX_ACTIVATION_GELU), {{50, 60}, {1, 50}}));
    return w;
}

// Inputs with ties and a repeated maximum (Hardmax's first-max rule across
// parts), an offset mean for MVN, a wide range for the element-wise ops.
double value(const Workload& w, Rng& rng, int64_t i) {
    switch (w.spec.op) {
        case SIMDAX_OPERATOR_HARDMAX: return double((i * 7919) % 13) + (rng.chance(0.5) ? 0.0 : -0.0);
        case SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION: return 100.0 + rng.uniform(-3, 3);
        case SIMDAX_OPERATOR_LOG_SOFTMAX:
        case SIMDAX_OPERATOR_SOFTMAX: return rng.uniform(-20, 20);
        default: return rng.uniform(-8, 8);
    }
}

// The operands of one workload, inputs filled from a seed.
Operands make_operands(const Workload& w, simdax_dtype dt, uint64_t seed) {
    Rng rng(seed);
    Operands io{TensorBuffer(dt, w.x.sizes, w.x.strides, Role::Input), nullptr, nullptr,
                TensorBuffer(dt, w.y.sizes, w.y.strides, Role::Output)};
    io.x.fill([&](int64_t i) { return value(w, rng, i); });
    if (w.with_scale) {
        io.scale = std::make_unique<TensorBuffer>(dt, w.scale.sizes, w.scale.strides, Role::Input);
        io.scale->fill([&](int64_t) { return rng.uniform(0.25, 2); });
    }
    if (w.with_bias) {
        io.bias = std::make_unique<TensorBuffer>(dt, w.bias.sizes, w.bias.strides, Role::Input);
        io.bias->fill([&](int64_t) { return rng.uniform(-1, 1); });
    }
    return io;
}

// An output buffer that can be reused: the bytes the output's index range
// covers (gaps of a strided output included: they must keep their fill
// pattern whichever thread wrote around them).
class RawOutput {
public:
    RawOutput(const Shape& y, simdax_dtype dt) : e_(int64_t(dtype_bytes(dt))) {
        const std::vector<int64_t> st = y.strides.empty() ? packed_strides(y.sizes) : y.strides;
        int64_t lo = 0, hi = 0;
        for (size_t d = 0; d < y.sizes.size(); ++d) {
            const int64_t reach = (y.sizes[d] - 1) * st[d];
            (reach < 0 ? lo : hi) += reach;
        }
        bytes_.resize(size_t((hi - lo + 1) * e_));
        base_off_ = -lo * e_;
        reset();
    }
    void reset() { std::fill(bytes_.begin(), bytes_.end(), (unsigned char)0xA5); }
    void* base() { return bytes_.data() + base_off_; }
    const std::vector<unsigned char>& bytes() const { return bytes_; }

private:
    int64_t e_, base_off_ = 0;
    std::vector<unsigned char> bytes_;
};

// Every byte of a TensorBuffer output's index range.
std::vector<unsigned char> output_bytes(const TensorBuffer& t) {
    int64_t lo = 0, hi = 0;
    for (size_t d = 0; d < t.sizes().size(); ++d) {
        const int64_t reach = (t.sizes()[d] - 1) * t.strides()[d];
        (reach < 0 ? lo : hi) += reach;
    }
    const size_t e = dtype_bytes(t.dtype());
    const auto* p = static_cast<const unsigned char*>(t.data());
    return std::vector<unsigned char>(p + lo * int64_t(e), p + (hi + 1) * int64_t(e));
}

// A created operator for a workload (the descriptor's storage only lives
// during create: the operator must keep its own copy).
simdax_operator* create(const Workload& w, simdax_dtype dt) {
    simdax_tensor_desc x{dt, uint32_t(w.x.sizes.size()), w.x.sizes.data(),
                         w.x.strides.empty() ? nullptr : w.x.strides.data()};
    simdax_tensor_desc y{dt, uint32_t(w.y.sizes.size()), w.y.sizes.data(),
                         w.y.strides.empty() ? nullptr : w.y.strides.data()};
    simdax_tensor_desc sc{dt, uint32_t(w.scale.sizes.size()), w.scale.sizes.data(),
                          w.scale.strides.empty() ? nullptr : w.scale.strides.data()};
    simdax_tensor_desc bi{dt, uint32_t(w.bias.sizes.size()), w.bias.sizes.data(),
                          w.bias.strides.empty() ? nullptr : w.bias.strides.data()};
    simdax_axes_op_desc axes{&x, &y, uint32_t(w.spec.axes.size()), w.spec.axes.data()};
    simdax_mvn_desc mvn{&x,
                        w.with_scale ? &sc : nullptr,
                        w.with_bias ? &bi : nullptr,
                        &y,
                        uint32_t(w.spec.axes.size()),
                        w.spec.axes.data(),
                        w.spec.normalize_variance ? 1 : 0,
                        w.spec.epsilon,
                        w.spec.has_activation ? &w.spec.activation : nullptr};
    simdax_hard_sigmoid_desc hs{&x, &y, w.spec.alpha, w.spec.beta};
    simdax_activation_op_desc act{&x, &y, w.spec.activation};
    simdax_operator_desc d{w.spec.op, nullptr};
    switch (w.spec.op) {
        case SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION: d.desc = &mvn; break;
        case SIMDAX_OPERATOR_HARD_SIGMOID: d.desc = &hs; break;
        case SIMDAX_OPERATOR_ACTIVATION: d.desc = &act; break;
        default: d.desc = &axes; break;
    }
    simdax_operator* op = nullptr;
    const simdax_status s = simdax_operator_create(&d, &op);
    EXPECT_EQ(s, SIMDAX_OK) << w.name << ": " << simdax_last_error();
    return op;
}

struct OpHandle {
    simdax_operator* op;
    ~OpHandle() { simdax_operator_destroy(op); }
};

// The inputs of `in` bound with the output `out`.
simdax_bindings bindings(const Operands& in, void* out) {
    return simdax_bindings{in.x.data(), in.scale ? in.scale->data() : nullptr,
                           in.bias ? in.bias->data() : nullptr, out};
}

// The output bytes of one serial execute of `op` on `in`: what every
// concurrent execute must reproduce.
std::vector<unsigned char> serial_bytes(simdax_operator* op, const Workload& w, simdax_dtype dt,
                                        const Operands& in) {
    RawOutput base(w.y, dt);
    const simdax_bindings b = bindings(in, base.base());
    EXPECT_EQ(simdax_operator_execute(op, &b), SIMDAX_OK);
    return base.bytes();
}

// ---- custom parallel-for hooks --------------------------------------------

enum class Order { forward, reverse, shuffled };

// A caller's pool: runs the tasks in the given order on `threads`
// std::threads started for the call (1 = on the calling thread), claiming
// `claimed` threads to the library (which decides the split from it).
struct Hook {
    Order order;
    unsigned threads;
    uint32_t claimed;
    std::atomic<uint64_t> calls{0}, tasks{0};
    std::atomic<uint64_t> seed{1};

    static void run(void* ctx, size_t n, simdax_task_fn task, void* arg) {
        auto* h = static_cast<Hook*>(ctx);
        h->calls.fetch_add(1);
        h->tasks.fetch_add(n);
        std::vector<size_t> idx(n);
        std::iota(idx.begin(), idx.end(), size_t(0));
        if (h->order == Order::reverse) std::reverse(idx.begin(), idx.end());
        if (h->order == Order::shuffled) {
            Rng rng(h->seed.fetch_add(1));
            for (size_t i = n; i > 1; --i) std::swap(idx[i - 1], idx[size_t(rng.range(0, int64_t(i) - 1))]);
        }
        if (h->threads <= 1) {
            for (size_t i : idx) task(arg, i);
            return;
        }
        // Every thread waits for the others before starting: tasks really
        // overlap.
        std::atomic<unsigned> ready{0};
        std::vector<std::thread> ts;
        for (unsigned t = 0; t < h->threads; ++t)
            ts.emplace_back([&, t] {
                ready.fetch_add(1);
                while (ready.load() < h->threads) std::this_thread::yield();
                for (size_t j = t; j < n; j += h->threads) task(arg, idx[j]);
            });
        for (auto& th : ts) th.join();
    }

    simdax_parallel parallel() { return simdax_parallel{&Hook::run, this, claimed}; }
};

struct Pool {
    simdax_threadpool* pool = nullptr;
    explicit Pool(uint32_t n) { EXPECT_EQ(simdax_threadpool_create(n, &pool), SIMDAX_OK); }
    ~Pool() { simdax_threadpool_destroy(pool); }
};

class ConcurrencyParallel : public ::testing::TestWithParam<simdax_dtype> {};

// The same operator run serially, through the built-in pools and through
// every hook: the output bytes never change.
TEST_P(ConcurrencyParallel, OutputBitwiseIdenticalForEveryThreadCountAndSplit) {
    const simdax_dtype dt = GetParam();
    Pool p2(2), p3(3), p4(4);
    std::vector<Pool*> pools{&p2, &p3, &p4};
    std::vector<std::unique_ptr<Hook>> hooks;
    auto hook = [&](Order o, unsigned threads, uint32_t claimed) {
        hooks.push_back(std::unique_ptr<Hook>(new Hook{o, threads, claimed}));
    };
    hook(Order::shuffled, 3, 3);
    hook(Order::reverse, 1, 64);
#if !defined(__SANITIZE_THREAD__)  // ThreadSanitizer: the threaded runs above suffice
    hook(Order::reverse, 1, 2);
    hook(Order::shuffled, 4, 7);
    hook(Order::forward, 2, 16);
    hook(Order::shuffled, 5, 5);
#else
    pools = {&p3};
#endif
    uint64_t salt = 0x6c00 + uint64_t(dt) * 100;
    for (const Workload& w : parallel_workloads()) {
        SCOPED_TRACE(w.name + " " + dtype_name(dt));
        OpHandle op{create(w, dt)};
        ASSERT_NE(op.op, nullptr);
        Operands io = make_operands(w, dt, test_seed(++salt));
        simdax_bindings b = bindings(io, io.y.data());
        ASSERT_EQ(simdax_operator_execute(op.op, &b), SIMDAX_OK) << simdax_last_error();
#if !defined(__SANITIZE_THREAD__)  // (slow there, and not what that stage is for)
        // The serial result against the reference once (the parallel ones
        // must then equal it bit for bit).
        const CheckResult r = check_output(w.spec, io);
        EXPECT_TRUE(r.ok) << r.report;
#endif
        RawOutput serial(w.y, dt), out(w.y, dt);
        b = bindings(io, serial.base());
        ASSERT_EQ(simdax_operator_execute(op.op, &b), SIMDAX_OK) << simdax_last_error();
        ASSERT_TRUE(serial.bytes() == output_bytes(io.y));

        auto check = [&](const simdax_parallel* par, const std::string& how) {
            out.reset();
            simdax_bindings bb = bindings(io, out.base());
            ASSERT_EQ(simdax_operator_execute_parallel(op.op, &bb, par), SIMDAX_OK)
                << how << ": " << simdax_last_error();
            EXPECT_TRUE(out.bytes() == serial.bytes()) << how << ": output differs from serial";
        };
        check(nullptr, "parallel = NULL");
        for (Pool* p : pools) {
            const simdax_parallel par = simdax_threadpool_parallel(p->pool);
            check(&par, "built-in pool of " + std::to_string(par.thread_count));
        }
        for (auto& h : hooks) {
            const uint64_t before = h->calls.load();
            const simdax_parallel par = h->parallel();
            check(&par, "hook order " + std::to_string(int(h->order)) + " threads " +
                            std::to_string(h->threads) + " claimed " + std::to_string(h->claimed));
            EXPECT_GT(h->calls.load(), before) << "the work was not handed to the hook";
        }
    }
}

std::string dtype_param_name(const ::testing::TestParamInfo<simdax_dtype>& i) {
    return dtype_name(i.param);
}
INSTANTIATE_TEST_SUITE_P(AllDtypes, ConcurrencyParallel, ::testing::ValuesIn(kDtypes),
                         dtype_param_name);

// ---- many threads, one operator ---------------------------------------------

// Starts `n` threads running f(t) together; returns after all joined.
template <class F>
void run_together(unsigned n, F f) {
    std::atomic<unsigned> ready{0};
    std::vector<std::thread> ts;
    for (unsigned t = 0; t < n; ++t)
        ts.emplace_back([&, t] {
            ready.fetch_add(1);
            while (ready.load() < n) std::this_thread::yield();
            f(t);
        });
    for (auto& th : ts) th.join();
}

class ConcurrencyThreads : public ::testing::TestWithParam<simdax_dtype> {};

// One operator, 4 threads executing it at once on their own buffers (plain
// execute, and execute_parallel through a pool per thread), several rounds:
// each result equals the single-thread result for its input.
TEST_P(ConcurrencyThreads, OneOperatorExecutedFromFourThreadsAtOnce) {
    const simdax_dtype dt = GetParam();
    constexpr unsigned kThreads = 4;
    constexpr int kRounds = 4;
    uint64_t salt = 0x6d00 + uint64_t(dt) * 100;
    for (const Workload& w : small_workloads()) {
        SCOPED_TRACE(w.name + " " + dtype_name(dt));
        OpHandle op{create(w, dt)};
        ASSERT_NE(op.op, nullptr);
        std::vector<Operands> in;
        std::vector<std::vector<unsigned char>> expect;
        for (unsigned t = 0; t < kThreads; ++t) {
            in.push_back(make_operands(w, dt, test_seed(++salt)));
            RawOutput out(w.y, dt);
            const simdax_bindings b = bindings(in.back(), out.base());
            ASSERT_EQ(simdax_operator_execute(op.op, &b), SIMDAX_OK) << simdax_last_error();
            expect.push_back(out.bytes());
        }
        std::atomic<int> mismatches{0}, failures{0};
        run_together(kThreads, [&](unsigned t) {
            simdax_threadpool* pool = nullptr;
            if (t % 2 == 1 && simdax_threadpool_create(2, &pool) != SIMDAX_OK) failures++;
            const simdax_parallel par = simdax_threadpool_parallel(pool);
            RawOutput out(w.y, dt);
            for (int r = 0; r < kRounds; ++r) {
                out.reset();
                const simdax_bindings b = bindings(in[t], out.base());
                const simdax_status s = pool ? simdax_operator_execute_parallel(op.op, &b, &par)
                                             : simdax_operator_execute(op.op, &b);
                if (s != SIMDAX_OK) failures++;
                if (out.bytes() != expect[t]) mismatches++;
            }
            simdax_threadpool_destroy(pool);
        });
        EXPECT_EQ(failures.load(), 0);
        EXPECT_EQ(mismatches.load(), 0) << "a concurrent execute gave another result";
    }
}

INSTANTIATE_TEST_SUITE_P(AllDtypes, ConcurrencyThreads, ::testing::ValuesIn(kDtypes),
                         dtype_param_name);

// A descriptor a creator thread builds, with what create must answer.
struct CreateCase {
    simdax_status expect;
    const char* message_part;  // in simdax_last_error() when it fails
};

// Builds and creates descriptor `k` of a fixed list on the calling thread
// (all storage local: nothing shared with other threads); on success runs
// it once on small private buffers and checks the output against the
// reference. Returns "" or what went wrong.
std::string create_one(int k, simdax_dtype dt) {
    const int64_t sizes[3] = {3, 5, 7};
    const int64_t nine[9] = {1, 1, 1, 1, 1, 1, 1, 1, 2};
    const uint32_t ax1[1] = {2}, rep[2] = {1, 1}, far[1] = {3};
    simdax_tensor_desc t{dt, 3, sizes, nullptr};
    simdax_tensor_desc t9{dt, 9, nine, nullptr};
    const simdax_activation_desc nan_act{SIMDAX_ACTIVATION_ELU, std::nanf(""), 0, 0};
    simdax_operator_desc d{SIMDAX_OPERATOR_SOFTMAX, nullptr};
    simdax_axes_op_desc ax{&t, &t, 1, ax1};
    simdax_mvn_desc mvn{&t, nullptr, nullptr, &t, 1, ax1, 1, 1e-5f, nullptr};
    simdax_activation_op_desc act{&t, &t, spec_default_activation(SIMDAX_ACTIVATION_TANH)};
    CreateCase c{SIMDAX_OK, ""};
    OpSpec spec;
    switch (k % 8) {
        case 0: d = {SIMDAX_OPERATOR_LOG_SOFTMAX, &ax}; spec = op_spec(d.type, {2}); break;
        case 1: d = {SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, &mvn}; spec = mvn_op({2}, SIMDAX_ACTIVATION_IDENTITY); break;
        case 2: d = {SIMDAX_OPERATOR_ACTIVATION, &act}; spec = activation_op(SIMDAX_ACTIVATION_TANH); break;
        case 3: ax.input = ax.output = &t9; d = {SIMDAX_OPERATOR_HARDMAX, &ax}; c = {SIMDAX_ERROR_INVALID_ARGUMENT, "rank"}; break;
        case 4: ax.axes = rep; ax.axis_count = 2; d = {SIMDAX_OPERATOR_SOFTMAX, &ax}; c = {SIMDAX_ERROR_INVALID_AXES, "repeated"}; break;
        case 5: ax.axes = far; d = {SIMDAX_OPERATOR_SOFTMAX, &ax}; c = {SIMDAX_ERROR_INVALID_AXES, "axes[0]"}; break;
        case 6: mvn.epsilon = -1.0f; d = {SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, &mvn}; c = {SIMDAX_ERROR_INVALID_ARGUMENT, "epsilon"}; break;
        default: act.activation = nan_act; d = {SIMDAX_OPERATOR_ACTIVATION, &act}; c = {SIMDAX_ERROR_INVALID_ARGUMENT, "alpha"}; break;
    }
    simdax_operator* op = nullptr;
    const simdax_status s = simdax_operator_create(&d, &op);
    if (s != c.expect)
        return std::string("case ") + std::to_string(k % 8) + ": status " + simdax_status_name(s) +
               " (" + simdax_last_error() + ")";
    if (s != SIMDAX_OK) {
        if (op) return "failed create left *op non-NULL";
        if (!std::strstr(simdax_last_error(), c.message_part))
            return std::string("message of another thread? got '") + simdax_last_error() +
                   "', expected it to name " + c.message_part;
        return "";
    }
    if (simdax_last_error()[0] != '\0') return "a successful create left a message";
    Operands io{TensorBuffer(dt, {3, 5, 7}, {}, Role::Input), nullptr, nullptr,
                TensorBuffer(dt, {3, 5, 7}, {}, Role::Output)};
    Rng rng(uint64_t(k) * 31 + 7);
    io.x.fill([&](int64_t) { return rng.uniform(-3, 3); });
    const simdax_bindings b{io.x.data(), nullptr, nullptr, io.y.data()};
    const simdax_status e = simdax_operator_execute(op, &b);
    simdax_operator_destroy(op);
    if (e != SIMDAX_OK) return std::string("execute: ") + simdax_last_error();
    const CheckResult r = check_output(spec, io);
    return r.ok ? "" : r.report;
}

// Creator threads make and destroy operators (valid and invalid) while
// executor threads run one shared operator: the executors' results never
// change, each creator sees its own status and message.
TEST(ConcurrencyLifecycle, CreateAndDestroyWhileOthersExecute) {
    const simdax_dtype dt = SIMDAX_DTYPE_FLOAT32;
    const Workload w = small_workloads()[0];
    OpHandle shared{create(w, dt)};
    ASSERT_NE(shared.op, nullptr);
    Operands in = make_operands(w, dt, test_seed(0x6e00));
    const std::vector<unsigned char> expect = serial_bytes(shared.op, w, dt, in);

    constexpr unsigned kExecutors = 2, kCreators = 3;
    constexpr int kExecRounds = 30;
    std::atomic<unsigned> executors_left{kExecutors};
    std::atomic<int> mismatches{0}, creates{0};
    std::mutex mu;
    std::string first_error;
    run_together(kExecutors + kCreators, [&](unsigned t) {
        if (t < kExecutors) {
            RawOutput out(w.y, dt);
            for (int r = 0; r < kExecRounds; ++r) {
                out.reset();
                const simdax_bindings bb = bindings(in, out.base());
                if (simdax_operator_execute(shared.op, &bb) != SIMDAX_OK || out.bytes() != expect)
                    mismatches++;
            }
            executors_left--;
            return;
        }
        // At least two full passes over the case list, then until the
        // executors are done.
        for (int k = int(t); k < int(t) + 16 || executors_left.load() > 0; ++k) {
            const std::string err = create_one(k, k % 3 == 0 ? SIMDAX_DTYPE_FLOAT16 : dt);
            creates++;
            if (!err.empty()) {
                std::lock_guard<std::mutex> lk(mu);
                if (first_error.empty()) first_error = err;
            }
        }
    });
    EXPECT_EQ(mismatches.load(), 0);
    EXPECT_TRUE(first_error.empty()) << first_error;
    EXPECT_GE(creates.load(), int(kCreators) * 16);
}

// Pools created, used from their own thread and destroyed, on several
// threads at once; an operator shared by all.
TEST(ConcurrencyLifecycle, PoolsCreatedUsedAndDestroyedOnSeveralThreads) {
    const simdax_dtype dt = SIMDAX_DTYPE_FLOAT32;
    const Workload w = parallel_workloads()[0];  // rows LogSoftmax [64,1000]
    OpHandle op{create(w, dt)};
    ASSERT_NE(op.op, nullptr);
    Operands in = make_operands(w, dt, test_seed(0x6f00));
    const std::vector<unsigned char> expect = serial_bytes(op.op, w, dt, in);
    std::atomic<int> bad{0};
    run_together(3, [&](unsigned t) {
        for (int r = 0; r < 6; ++r) {
            simdax_threadpool* pool = nullptr;
            if (simdax_threadpool_create(2 + (t + unsigned(r)) % 3, &pool) != SIMDAX_OK) {
                bad++;
                continue;
            }
            const simdax_parallel par = simdax_threadpool_parallel(pool);
            RawOutput out(w.y, dt);
            const simdax_bindings bb = bindings(in, out.base());
            if (simdax_operator_execute_parallel(op.op, &bb, &par) != SIMDAX_OK ||
                out.bytes() != expect)
                bad++;
            simdax_threadpool_destroy(pool);
        }
    });
    EXPECT_EQ(bad.load(), 0);
}

// ---- several callers, one pool ----------------------------------------------

// Calls per caller thread: enough for the calls to overlap many times, fewer
// where each costs far more (ThreadSanitizer, an emulated CPU).
int shared_pool_rounds() {
#if defined(__SANITIZE_THREAD__)
    return 12;
#else
    return emulated_run() ? 6 : 80;
#endif
}

// One caller thread's operator, its input and the serial output. Callers
// get different shapes and loop forms (so their calls differ in task count
// and length): fused rows, cols, and big groups reduced in parts (two
// parallel-fors per call).
struct Caller {
    Workload w;
    OpHandle op;
    Operands in;
    std::vector<unsigned char> serial;

    Caller(Workload wl, simdax_dtype dt, uint64_t seed)
        : w(std::move(wl)), op{create(w, dt)}, in(make_operands(w, dt, seed)) {
        if (!op.op) return;
        simdax_bindings b = bindings(in, in.y.data());
        EXPECT_EQ(simdax_operator_execute(op.op, &b), SIMDAX_OK) << simdax_last_error();
#if !defined(__SANITIZE_THREAD__)
        const CheckResult r = check_output(w.spec, in);
        EXPECT_TRUE(r.ok) << w.name << ": " << r.report;
#endif
        serial = output_bytes(in.y);
    }
};

std::vector<std::unique_ptr<Caller>> make_callers(unsigned n, uint64_t salt) {
    const auto SM = SIMDAX_OPERATOR_SOFTMAX;
    const std::vector<Workload> w{
        plain("rows Softmax [64,4096] {1}", op_spec(SM, {1}), {{64, 4096}}),
        plain("rows Softmax [256,4096] {1}", op_spec(SM, {1}), {{256, 4096}}),
        plain("cols LogSoftmax [16,64,512] {1}", op_spec(SIMDAX_OPERATOR_LOG_SOFTMAX, {1}),
              {{16, 64, 512}}),
        plain("parts Hardmax [2,100000] {1}", op_spec(SIMDAX_OPERATOR_HARDMAX, {1}), {{2, 100000}}),
    };
    std::vector<std::unique_ptr<Caller>> c;
    for (unsigned i = 0; i < n; ++i)
        c.push_back(std::make_unique<Caller>(w[i % w.size()], SIMDAX_DTYPE_FLOAT32, test_seed(salt + i)));
    return c;
}

// Every caller runs its operator `rounds` times through its `par` at the same
// time as the others; returns how many outputs differed from the serial one
// (a failed status counts in *failed).
int run_callers(const std::vector<std::unique_ptr<Caller>>& callers, const simdax_parallel& par,
                int rounds, int* failed) {
    std::atomic<int> wrong{0}, bad_status{0};
    run_together(unsigned(callers.size()), [&](unsigned t) {
        Caller& c = *callers[t];
        RawOutput out(c.w.y, SIMDAX_DTYPE_FLOAT32);
        for (int r = 0; r < rounds; ++r) {
            out.reset();
            const simdax_bindings b = bindings(c.in, out.base());
            if (simdax_operator_execute_parallel(c.op.op, &b, &par) != SIMDAX_OK) bad_status++;
            if (out.bytes() != c.serial) wrong++;
        }
    });
    *failed = bad_status.load();
    return wrong.load();
}

class ConcurrencySharedPool : public ::testing::TestWithParam<std::tuple<unsigned, uint32_t>> {};

// 2, 3 and 4 threads call execute_parallel at once through one built-in pool
// of 2 or 3 threads, each on its own operator: every output equals the
// serial one bit for bit.
TEST_P(ConcurrencySharedPool, CallersAtOnceGetTheSerialOutput) {
    const unsigned callers = std::get<0>(GetParam());
    const uint32_t threads = std::get<1>(GetParam());
    const auto c = make_callers(callers, 0x7000 + callers * 10 + threads);
    for (const auto& k : c) ASSERT_NE(k->op.op, nullptr);
    Pool pool(threads);
    ASSERT_NE(pool.pool, nullptr);
    const simdax_parallel par = simdax_threadpool_parallel(pool.pool);
    const int rounds = shared_pool_rounds();
    int failed = 0;
    const int wrong = run_callers(c, par, rounds, &failed);
    EXPECT_EQ(failed, 0);
    EXPECT_EQ(wrong, 0) << wrong << " of " << callers * unsigned(rounds)
                        << " outputs differ from the serial output";
}

std::string callers_threads_name(const ::testing::TestParamInfo<std::tuple<unsigned, uint32_t>>& i) {
    return std::to_string(std::get<0>(i.param)) + "callers_pool" + std::to_string(std::get<1>(i.param));
}
INSTANTIATE_TEST_SUITE_P(CallersAndThreads, ConcurrencySharedPool,
                         ::testing::Combine(::testing::Values(2u, 3u, 4u), ::testing::Values(2u, 3u)),
                         callers_threads_name);

// A caller's pool with one worker that runs the queued tasks of every call
// in flight in a random order: tasks of different calls interleave, and a
// call returns when its own tasks are done.
class InterleavingPool {
public:
    InterleavingPool(uint32_t claimed, uint64_t seed)
        : claimed_(claimed), rng_(seed), worker_([this] { work(); }) {}
    ~InterleavingPool() {
        {
            std::lock_guard<std::mutex> lk(mu_);
            stop_ = true;
        }
        changed_.notify_all();
        worker_.join();
    }
    simdax_parallel parallel() { return simdax_parallel{&InterleavingPool::run, this, claimed_}; }
    // Times the worker ran a task of one call between two of another.
    uint64_t switches() {
        std::lock_guard<std::mutex> lk(mu_);
        return switches_;
    }

private:
    struct Call {
        uint64_t id;
        size_t queued, left;
        bool waited = false;
    };
    struct Item {
        simdax_task_fn fn;
        void* arg;
        size_t index;
        Call* call;
    };

    static void run(void* ctx, size_t n, simdax_task_fn fn, void* arg) {
        auto* p = static_cast<InterleavingPool*>(ctx);
        std::unique_lock<std::mutex> lk(p->mu_);
        Call c{++p->next_id_, n, n};
        for (size_t i = 0; i < n; ++i) p->queue_.push_back({fn, arg, i, &c});
        if (n) p->queued_calls_++;
        p->changed_.notify_all();
        p->changed_.wait(lk, [&] { return c.left == 0; });
    }

    void work() {
        std::unique_lock<std::mutex> lk(mu_);
        uint64_t last = 0;
        bool last_has_more = false;  // the last task's call had tasks queued
        for (;;) {
            changed_.wait(lk, [&] { return stop_ || !queue_.empty(); });
            if (queue_.empty()) return;
            // A lone call waits (once) for another caller's call to mix with;
            // long enough, until the first mix, that a loaded machine (TSan
            // on two cores) still gets one.
            Call* first = queue_.front().call;
            if (queued_calls_ == 1 && !first->waited) {
                first->waited = true;
                const auto wait = std::chrono::milliseconds(switches_ == 0 ? 500 : 2);
                changed_.wait_for(lk, wait, [&] { return queued_calls_ > 1; });
            }
            const size_t k = size_t(rng_.range(0, int64_t(queue_.size()) - 1));
            const Item it = queue_[k];
            queue_[k] = queue_.back();
            queue_.pop_back();
            if (--it.call->queued == 0) queued_calls_--;
            if (last_has_more && it.call->id != last) switches_++;
            last = it.call->id;
            last_has_more = it.call->queued > 0;
            lk.unlock();
            it.fn(it.arg, it.index);
            lk.lock();
            if (--it.call->left == 0) changed_.notify_all();
        }
    }

    const uint32_t claimed_;
    Rng rng_;
    std::mutex mu_;
    std::condition_variable changed_;
    std::vector<Item> queue_;
    size_t queued_calls_ = 0;  // calls with tasks in queue_
    uint64_t next_id_ = 0, switches_ = 0;
    bool stop_ = false;
    std::thread worker_;  // last: starts after the rest is built
};

// Several callers through a caller-supplied parallel-for that runs their
// tasks interleaved: every output equals the serial one bit for bit.
TEST(ConcurrencyInterleavedPool, TasksOfConcurrentCallsInterleaved) {
    for (unsigned callers : {2u, 3u}) {
        SCOPED_TRACE(std::to_string(callers) + " callers");
        const auto c = make_callers(callers, 0x7100 + callers);
        for (const auto& k : c) ASSERT_NE(k->op.op, nullptr);
        InterleavingPool pool(4, test_seed(0x7180 + callers));
        const int rounds = std::max(2, shared_pool_rounds() / 4);
        int failed = 0;
        const int wrong = run_callers(c, pool.parallel(), rounds, &failed);
        EXPECT_EQ(failed, 0);
        EXPECT_EQ(wrong, 0) << wrong << " of " << callers * unsigned(rounds)
                            << " outputs differ from the serial output";
        EXPECT_GT(pool.switches(), 0u) << "no call's tasks ran between another's";
    }
}

}  // namespace
