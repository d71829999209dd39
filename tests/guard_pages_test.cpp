// Memory safety at buffer edges (issue #6): every operand — input, output,
// Scale, Bias — is placed so that it ends exactly at an inaccessible page
// (PROT_NONE), and in a second run so that it begins right after one. A read
// or write of a single element beyond either end faults, which kills the
// test. Every tail length around every ISA's vector widths is run (n = 1..70
// and a few larger: 2/4/8/16/32/64-lane vectors, 2x/4x unrolled loops), for
// each loop form the planner has — rows, rows with segments, cols, general
// (transposed and reversed strides) — for every operator and dtype.
// Results are checked against the float64 reference (pass rule of docs/spec.md), and
// the output/gap canaries of TensorBuffer catch stray writes and elements
// left unwritten. The death tests at the end prove that the guard really
// traps a one-element overrun (by the test itself, and by the library when
// it is told a tensor is one element longer than the buffer).
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "simdax/simdax.h"
#include "support/dtype.hpp"
#include "support/op_runner.hpp"
#include "support/random_case.hpp"
#include "support/tensor_buffer.hpp"

namespace {

using namespace sxt;

const std::vector<simdax_dtype> kDtypes{SIMDAX_DTYPE_FLOAT32, SIMDAX_DTYPE_FLOAT16, SIMDAX_DTYPE_BFLOAT16,
                                        SIMDAX_DTYPE_FLOAT64};

// 1..70 covers every tail of 2..64-lane vectors and of a 2x/4x unroll of the
// narrow ones; the rest straddle the wider unrolls, the scalar 2048-element
// block and the 512-element tiles of the general form.
std::vector<int64_t> tail_lengths() {
    std::vector<int64_t> n;
    for (int64_t i = 1; i <= 70; ++i) n.push_back(i);
    for (int64_t v : {96, 127, 128, 129, 255, 257, 513, 1025, 2049}) n.push_back(v);
    return n;
}

// One operand's shape and layout (strides empty = packed, NULL in the
// descriptor).
struct Shape {
    std::vector<int64_t> sizes;
    std::vector<int64_t> strides;
};

struct GuardCase {
    OpSpec spec;
    Shape x, y;
    bool with_scale = false, with_bias = false;
    Shape scale, bias;
};

GuardCase plain(const OpSpec& spec, Shape x, Shape y) {
    GuardCase c;
    c.spec = spec;
    c.x = std::move(x);
    c.y = std::move(y);
    return c;
}

double value_for(simdax_operator_type op, Rng& rng) {
    switch (op) {
        case SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION: return 3.0 + rng.uniform(-2, 2);
        case SIMDAX_OPERATOR_HARD_SIGMOID: return rng.uniform(-6, 6);
        case SIMDAX_OPERATOR_ACTIVATION: return rng.uniform(-4, 4);
        default: return rng.uniform(-5, 5);
    }
}

// Runs the case with every operand against a guard page (after it, or
// before it when guard_front), checks the reference and the canaries.
void run_guarded(const GuardCase& c, simdax_dtype dt, bool guard_front, bool one_shot, uint64_t salt) {
    Rng rng(test_seed(salt));
    Operands io{TensorBuffer(dt, c.x.sizes, c.x.strides, Role::Input, 0, 0, guard_front), nullptr, nullptr,
                TensorBuffer(dt, c.y.sizes, c.y.strides, Role::Output, 0, 0, guard_front)};
    io.x.fill([&](int64_t) { return value_for(c.spec.op, rng); });
    if (c.with_scale) {
        io.scale = std::make_unique<TensorBuffer>(dt, c.scale.sizes, c.scale.strides, Role::Input, 0, 0,
                                                  guard_front);
        io.scale->fill([&](int64_t) { return rng.uniform(0.5, 2); });
    }
    if (c.with_bias) {
        io.bias =
            std::make_unique<TensorBuffer>(dt, c.bias.sizes, c.bias.strides, Role::Input, 0, 0, guard_front);
        io.bias->fill([&](int64_t) { return rng.uniform(-1, 1); });
    }
    const CheckResult r = run_and_check(c.spec, io, one_shot);
    ASSERT_TRUE(r.ok) << r.report;
}

// MVN with a fused activation that changes with n, so every activation
// meets every tail somewhere.
OpSpec mvn_spec(std::vector<uint32_t> axes, int64_t n) {
    OpSpec s = op_spec(SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, std::move(axes));
    s.normalize_variance = n % 5 != 0;
    s.has_activation = n % 3 != 0;
    s.activation = spec_default_activation(simdax_activation_type(n % SIMDAX_ACTIVATION_COUNT));
    return s;
}

// Reversed packed strides: element (i0..) at -(packed offset).
std::vector<int64_t> negated(std::vector<int64_t> s) {
    for (auto& v : s) v = -v;
    return s;
}

// Every case for one tail length n: the softmax family and MVN in each loop
// form, HardSigmoid and the standalone activations contiguous and strided.
std::vector<GuardCase> cases_for(int64_t n) {
    std::vector<GuardCase> out;
    const simdax_operator_type family[] = {SIMDAX_OPERATOR_LOG_SOFTMAX, SIMDAX_OPERATOR_SOFTMAX,
                                           SIMDAX_OPERATOR_HARDMAX};
    const int64_t rows = 3, red = 5;
    for (auto op : family) {
        // rows: [3, n] axes {1}, packed.
        out.push_back(plain(op_spec(op, {1}), {{rows, n}, {}}, {{rows, n}, {}}));
        // rows with segments: [2, 3, n] axes {0, 2} (two runs of n per group).
        out.push_back(plain(op_spec(op, {2, 0}), {{2, rows, n}, {}}, {{2, rows, n}, {}}));
        // cols: [5, n] axes {0}: n lanes, reduced axis walked by stride n.
        out.push_back(plain(op_spec(op, {0}), {{red, n}, {}}, {{red, n}, {}}));
        // general: the input transposed ([3, n] stored as [n, 3]), output packed.
        out.push_back(plain(op_spec(op, {1}), {{rows, n}, {1, rows}}, {{rows, n}, {}}));
        // general: the output reversed (negative strides).
        out.push_back(plain(op_spec(op, {1}), {{rows, n}, {}}, {{rows, n}, negated({n, 1})}));
    }
    // MVN, Scale and Bias guarded too: Scale broadcast over the kept axis,
    // Bias full, in each form.
    {
        GuardCase c{mvn_spec({1}, n), {{rows, n}, {}}, {{rows, n}, {}}, true, true,
                    {{1, n}, {}},     {{rows, n}, {}}};
        out.push_back(c);
        c.x.strides = {1, rows};  // general
        c.bias.strides = negated({n, 1});
        out.push_back(c);
        GuardCase cols{mvn_spec({0}, n + 1), {{red, n}, {}}, {{red, n}, {}}, true, true,
                       {{1, n}, {}},         {{red, 1}, {}}};
        out.push_back(cols);
        GuardCase seg{mvn_spec({0, 2}, n + 2),
                      {{2, rows, n}, {}},
                      {{2, rows, n}, {}},
                      true,
                      false,
                      {{2, 1, n}, {}},
                      {}};
        out.push_back(seg);
        GuardCase bias_only{mvn_spec({1}, n + 3), {{rows, n}, {}}, {{rows, n}, {}}, false, true, {},
                            {{1, 1}, {}}};
        out.push_back(bias_only);
    }
    // Element-wise: HardSigmoid and one activation per n (all 17 over the
    // range), contiguous, reversed, and transposed 2-D.
    OpSpec hs;
    hs.op = SIMDAX_OPERATOR_HARD_SIGMOID;
    hs.alpha = 0.2f;
    hs.beta = 0.5f;
    OpSpec act;
    act.op = SIMDAX_OPERATOR_ACTIVATION;
    act.activation = spec_default_activation(simdax_activation_type(n % SIMDAX_ACTIVATION_COUNT));
    for (const OpSpec& s : {hs, act}) {
        out.push_back(plain(s, {{n}, {}}, {{n}, {}}));
        out.push_back(plain(s, {{n}, {-1}}, {{n}, {}}));
        out.push_back(plain(s, {{rows, n}, {1, rows}}, {{rows, n}, {}}));
    }
    return out;
}

class GuardPages : public ::testing::TestWithParam<simdax_dtype> {};

TEST_P(GuardPages, EveryOperandAgainstAGuardEveryTail) {
    const simdax_dtype dt = GetParam();
    uint64_t salt = 0x6a00 + uint64_t(dt);
    for (const int64_t n : tail_lengths()) {
        const std::vector<GuardCase> cases = cases_for(n);
        for (size_t i = 0; i < cases.size(); ++i)
            for (const bool front : {false, true}) {
                SCOPED_TRACE(::testing::Message()
                             << "n " << n << " case " << i << (front ? " guard before" : " guard after"));
                run_guarded(cases[i], dt, front, (n + int64_t(i)) % 4 == 0, ++salt);
                if (::testing::Test::HasFatalFailure()) return;
            }
    }
}

// In place (the element-wise operators may write over their input): the
// buffer sits against the guard, input and output are the same pointer.
TEST_P(GuardPages, InPlaceElementwiseAgainstAGuard) {
    const simdax_dtype dt = GetParam();
    Rng rng(test_seed(0x6a10 + uint64_t(dt)));
    for (const int64_t n : tail_lengths())
        for (const bool front : {false, true})
            for (int which = 0; which < 2; ++which) {
                SCOPED_TRACE(::testing::Message() << "n " << n << (front ? " guard before" : " guard after"));
                TensorBuffer buf(dt, {n}, {}, Role::Input, 0, 0, front);
                buf.fill([&](int64_t) { return rng.uniform(-6, 6); });
                const StridedView v = buf.view();
                simdax_tensor_desc t = buf.desc();
                simdax_status s;
                std::vector<double> ref;
                if (which == 0) {
                    ref = ref_hard_sigmoid_op(v, double(0.2f), double(0.5f));
                    const simdax_hard_sigmoid_desc d{&t, &t, 0.2f, 0.5f};
                    s = simdax_hard_sigmoid(&d, buf.data(), buf.data());
                } else {
                    const simdax_activation_desc a =
                        spec_default_activation(simdax_activation_type(n % SIMDAX_ACTIVATION_COUNT));
                    ref = ref_activation_op(v, a);
                    const simdax_activation_op_desc d{&t, &t, a};
                    s = simdax_activation(&d, buf.data(), buf.data());
                }
                ASSERT_EQ(s, SIMDAX_OK) << simdax_last_error();
                const std::vector<double> got = buf.read();
                const Tolerance tol =
                    tolerance_for(which == 0 ? SIMDAX_OPERATOR_HARD_SIGMOID : SIMDAX_OPERATOR_ACTIVATION, dt);
                for (size_t i = 0; i < got.size(); ++i)
                    ASSERT_TRUE(passes(ref[i], got[i], dt, tol))
                        << "element " << i << " ref " << ref[i] << " got " << got[i];
            }
}

std::string dtype_param_name(const ::testing::TestParamInfo<simdax_dtype>& i) { return dtype_name(i.param); }
INSTANTIATE_TEST_SUITE_P(AllDtypes, GuardPages, ::testing::ValuesIn(kDtypes), dtype_param_name);

// ---- the guard itself traps a one-element overrun --------------------------

// A deliberate read of the element just past the buffer (or just before it)
// dies, so the runs above would have died on any overrun.
TEST(GuardPagesDeathTest, OneElementPastEitherEndFaults) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    for (const simdax_dtype dt : kDtypes) {
        const TensorBuffer after(dt, {7}, {}, Role::Input, 0, 0, false);
        const TensorBuffer before(dt, {7}, {}, Role::Input, 0, 0, true);
        const size_t e = dtype_bytes(dt);
        const volatile unsigned char* past = static_cast<const unsigned char*>(after.data()) + 7 * e;
        const volatile unsigned char* ahead = static_cast<const unsigned char*>(before.data()) - e;
        // The last byte of the last element and the first of the first are fine.
        EXPECT_EQ(past[-1], static_cast<const unsigned char*>(after.data())[7 * e - 1]);
        (void)static_cast<const volatile unsigned char*>(before.data())[0];
        EXPECT_DEATH((void)past[0], "") << dtype_name(dt);
        EXPECT_DEATH((void)ahead[e - 1], "") << dtype_name(dt);
    }
}

// The library told a tensor has one element more than the buffer holds
// reads into the guard and dies: the tests above see any real overrun.
TEST(GuardPagesDeathTest, LibraryReadingOneElementTooManyFaults) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    for (const simdax_dtype dt : kDtypes) {
        const int64_t n = 33;
        TensorBuffer x(dt, {n}, {}, Role::Input, 0, 0, false);
        x.fill([](int64_t i) { return double(i % 5); });
        std::vector<unsigned char> y((size_t(n) + 1) * dtype_bytes(dt));
        const int64_t lie[1] = {n + 1};
        const simdax_tensor_desc t{dt, 1, lie, nullptr};
        const uint32_t axes[1] = {0};
        const simdax_softmax_desc d{&t, &t, 1, axes};
        EXPECT_DEATH(simdax_softmax(&d, x.data(), y.data()), "") << dtype_name(dt);
        const simdax_hard_sigmoid_desc h{&t, &t, 0.2f, 0.5f};
        EXPECT_DEATH(simdax_hard_sigmoid(&h, x.data(), y.data()), "") << dtype_name(dt);
    }
}

}  // namespace
