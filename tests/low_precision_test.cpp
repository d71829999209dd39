// float16 and bfloat16 against the float64 reference, with the worst error
// in units in the last place printed per operator (docs/spec.md "Accuracy"):
//  - element-wise work on every one of the 65,536 inputs of each type:
//    HardSigmoid, every standalone activation, every activation fused into
//    MVN (rows [v, -v]: the mean is exactly 0), and the conversions
//    (identity, and a linear map whose results need rounding, subnormals
//    included);
//  - the reductions (Softmax, LogSoftmax, MVN) on random rows of every
//    length class and spread, plus rows holding special values.
// The ulp figure counts steps from the reference rounded to the type, over
// the elements where the ulp rule binds (1 ulp wider than the float32
// tolerance there); every element must also pass the pass rule.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "kernel_table.hpp"
#include "simdax/simdax.h"
#include "support/dtype.hpp"
#include "tables.hpp"
#include "support/op_runner.hpp"
#include "support/random_case.hpp"

namespace {

using namespace sxt;

double bits_to_value(simdax_dtype dt, uint16_t b) {
    return dt == SIMDAX_DTYPE_FLOAT16 ? f16_bits_to_f64(b) : bf16_bits_to_f64(b);
}

struct Worst {
    uint64_t ulps = 0;
    double at = 0, ref = 0, got = 0;
};

// Worst ulp distance of io.y from the reference where the ulp rule binds.
Worst worst_ulps(const OpSpec& spec, const Operands& io) {
    const std::vector<double> ref = reference(spec, io);
    const std::vector<double> got = io.y.read();
    const simdax_dtype dt = io.y.dtype();
    const Tolerance t = tolerance_for(spec.op, dt);
    Worst w;
    for (size_t i = 0; i < ref.size(); ++i) {
        if (std::isnan(ref[i]) || !std::isfinite(got[i])) continue;
        const double r = round_to_dtype(ref[i], dt);
        if (!std::isfinite(r)) continue;
        if (t.atol + t.rtol * std::fabs(ref[i]) >= step_at(r, dt)) continue;
        const uint64_t d = ulp_distance(got[i], r, dt);
        if (d > w.ulps) w = Worst{d, double(i), ref[i], got[i]};
    }
    return w;
}

void report(const std::string& what, simdax_dtype dt, const Worst& w) {
    std::printf("[ulps] %-28s %-9s worst %llu ulp (ref %.9g got %.9g)\n", what.c_str(), dtype_name(dt),
                static_cast<unsigned long long>(w.ulps), w.ref, w.got);
}

// Checks the pass rule and returns the worst ulps.
Worst run_checked(const OpSpec& spec, Operands& io) {
    const CheckResult r = run_and_check(spec, io);
    EXPECT_TRUE(r.ok) << r.report;
    return worst_ulps(spec, io);
}

// Runs f as is and, where the kernels use AVX512-BF16 conversions, again
// with them switched off (the exact rounding of CPUs without them).
template <class F>
void with_and_without_bf16_instructions(F f) {
    f();
    std::vector<simdax::CpuFacts*> on;
    for (int i = 0; i < SIMDAX_ISA_COUNT; ++i) {
        const simdax::IsaKernels* k = simdax::isa_kernels(simdax_isa(i));
        if (k && k->facts && k->facts->avx512bf16) on.push_back(k->facts);
    }
    if (on.empty()) return;
    for (simdax::CpuFacts* c : on) c->avx512bf16 = false;
    f();
    for (simdax::CpuFacts* c : on) c->avx512bf16 = true;
}

const std::vector<simdax_dtype> kHalfTypes{SIMDAX_DTYPE_FLOAT16, SIMDAX_DTYPE_BFLOAT16};

std::string half_name(const testing::TestParamInfo<simdax_dtype>& i) { return dtype_name(i.param); }

class EveryHalfValue : public testing::TestWithParam<simdax_dtype> {};

Operands all_values(simdax_dtype dt) {
    Operands io{TensorBuffer(dt, {65536}, {}, Role::Input), nullptr, nullptr,
                TensorBuffer(dt, {65536}, {}, Role::Output)};
    io.x.fill([dt](int64_t i) { return bits_to_value(dt, uint16_t(i)); });
    return io;
}

TEST_P(EveryHalfValue, HardSigmoid) {
    const simdax_dtype dt = GetParam();
    for (const auto& ab :
         std::vector<std::pair<float, float>>{{0.2f, 0.5f}, {1.f / 6, 0.5f}, {-3.f, 0.25f}}) {
        OpSpec spec;
        spec.op = SIMDAX_OPERATOR_HARD_SIGMOID;
        spec.alpha = ab.first;
        spec.beta = ab.second;
        Operands io = all_values(dt);
        report("hard_sigmoid", dt, run_checked(spec, io));
    }
}

// Identity: the round trip; linear 0.7x: a rounding for every input, over
// the subnormals of both types too.
TEST_P(EveryHalfValue, Conversions) {
    const simdax_dtype dt = GetParam();
    with_and_without_bf16_instructions([dt] {
        for (float alpha : {1.f, 0.7f, 0.3333333f}) {
            OpSpec spec;
            spec.op = SIMDAX_OPERATOR_ACTIVATION;
            spec.activation = simdax_activation_desc{
                alpha == 1.f ? SIMDAX_ACTIVATION_IDENTITY : SIMDAX_ACTIVATION_LINEAR, alpha, 0.f, 0.f};
            Operands io = all_values(dt);
            const Worst w = run_checked(spec, io);
            report(alpha == 1.f ? "identity" : "linear", dt, w);
            if (alpha == 1.f) {
                EXPECT_EQ(w.ulps, 0u);
                const std::vector<double> x = io.x.read(), y = io.y.read();
                for (size_t i = 0; i < x.size(); ++i) {
                    if (!std::isnan(x[i])) {
                        ASSERT_TRUE(y[i] == x[i] && std::signbit(y[i]) == std::signbit(x[i])) << i;
                    }
                }
            }
        }
    });
}

TEST_P(EveryHalfValue, Activations) {
    const simdax_dtype dt = GetParam();
    for (int a = 0; a < SIMDAX_ACTIVATION_COUNT; ++a) {
        OpSpec spec;
        spec.op = SIMDAX_OPERATOR_ACTIVATION;
        spec.activation = spec_default_activation(simdax_activation_type(a));
        Operands io = all_values(dt);
        report(std::string("act ") + spec_activation_name(simdax_activation_type(a)), dt,
               run_checked(spec, io));
    }
}

// MVN without variance normalisation over rows [v, -v]: the mean is 0
// exactly, so the fused activation sees every value v of the type.
TEST_P(EveryHalfValue, ActivationsFusedInMvn) {
    const simdax_dtype dt = GetParam();
    for (int a = 0; a < SIMDAX_ACTIVATION_COUNT; ++a) {
        OpSpec spec = op_spec(SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, {1});
        spec.normalize_variance = false;
        spec.has_activation = true;
        spec.activation = spec_default_activation(simdax_activation_type(a));
        Operands io{TensorBuffer(dt, {32768, 2}, {}, Role::Input), nullptr, nullptr,
                    TensorBuffer(dt, {32768, 2}, {}, Role::Output)};
        io.x.fill([dt](int64_t i) {
            const double v = bits_to_value(dt, uint16_t(i / 2));
            return i % 2 ? -v : v;
        });
        report(std::string("mvn+") + spec_activation_name(simdax_activation_type(a)), dt,
               run_checked(spec, io));
    }
}

INSTANTIATE_TEST_SUITE_P(HalfTypes, EveryHalfValue, testing::ValuesIn(kHalfTypes), half_name);

// Reductions: rows of each length class (one vector, a batch, one block,
// several blocks) times each spread, then rows with special values.
class HalfReductions : public testing::TestWithParam<simdax_dtype> {};

struct RowCase {
    int64_t rows, n;
};
const std::vector<RowCase> kRowCases{{64, 3},    {64, 16},  {48, 100}, {32, 128},
                                     {16, 1000}, {8, 2048}, {4, 4097}, {2, 32000}};

Worst reduce_worst(simdax_dtype dt, const OpSpec& spec, uint64_t salt, double spread, double offset) {
    Rng rng(test_seed(salt));
    Worst all;
    for (const RowCase& c : kRowCases) {
        Operands io{TensorBuffer(dt, {c.rows, c.n}, {}, Role::Input), nullptr, nullptr,
                    TensorBuffer(dt, {c.rows, c.n}, {}, Role::Output)};
        io.x.fill([&](int64_t) { return offset + rng.uniform(-spread, spread); });
        const Worst w = run_checked(spec, io);
        if (w.ulps >= all.ulps) all = w;
    }
    return all;
}

void reductions(simdax_dtype dt, const OpSpec& spec, const std::string& name, uint64_t salt) {
    Worst all;
    for (double spread : {0.5, 4.0, 16.0, 60.0})
        for (double offset : {0.0, -300.0, 1000.0}) {
            const Worst w = reduce_worst(dt, spec, salt++, spread, offset);
            if (w.ulps >= all.ulps) all = w;
        }
    report(name, dt, all);
}

TEST_P(HalfReductions, SoftmaxFamily) {
    const simdax_dtype dt = GetParam();
    with_and_without_bf16_instructions([dt] {
        reductions(dt, op_spec(SIMDAX_OPERATOR_SOFTMAX, {1}), "softmax", 100);
        reductions(dt, op_spec(SIMDAX_OPERATOR_LOG_SOFTMAX, {1}), "log_softmax", 200);
    });
}

TEST_P(HalfReductions, Mvn) {
    const simdax_dtype dt = GetParam();
    OpSpec spec = op_spec(SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, {1});
    with_and_without_bf16_instructions([&] { reductions(dt, spec, "mvn", 300); });
    spec.has_activation = true;
    spec.activation = spec_default_activation(SIMDAX_ACTIVATION_SIGMOID);
    reductions(dt, spec, "mvn+sigmoid", 400);
    spec.activation = spec_default_activation(SIMDAX_ACTIVATION_GELU);
    reductions(dt, spec, "mvn+gelu", 500);
}

// Special values at random places of random rows: -inf (absent in the
// softmax family), +inf and NaN (the row's output NaN), the type's extremes
// and subnormals.
TEST_P(HalfReductions, SpecialValues) {
    const simdax_dtype dt = GetParam();
    const double big = dt == SIMDAX_DTYPE_FLOAT16 ? 65504.0 : 3.3895313892515355e38;
    const double tiny = dt == SIMDAX_DTYPE_FLOAT16 ? std::ldexp(1.0, -24) : std::ldexp(1.0, -133);
    const std::vector<double> specials{-HUGE_VAL, HUGE_VAL, NAN, big, -big, tiny, -tiny, 0.0, -0.0};
    for (simdax_operator_type op : {SIMDAX_OPERATOR_SOFTMAX, SIMDAX_OPERATOR_LOG_SOFTMAX,
                                    SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION}) {
        Rng rng(test_seed(600 + uint64_t(op)));
        for (const RowCase& c : kRowCases) {
            Operands io{TensorBuffer(dt, {c.rows, c.n}, {}, Role::Input), nullptr, nullptr,
                        TensorBuffer(dt, {c.rows, c.n}, {}, Role::Output)};
            io.x.fill([&](int64_t) {
                return rng.chance(0.02) ? specials[rng.range(0, int64_t(specials.size()) - 1)]
                                        : rng.uniform(-8, 8);
            });
            const CheckResult r = run_and_check(op_spec(op, {1}), io);
            EXPECT_TRUE(r.ok) << r.report;
        }
    }
}

// LogSoftmax rows whose max dominates, the max from 2 to the type's top
// binades: the output next to 0 is -log(sum) with sum ~ 1, which only an
// exact max term keeps within float32's 1e-5 (also when the max is too large
// for t = x*log2e - hi to leave the max's own term at 2^0).
TEST_P(HalfReductions, LogSoftmaxDominantMax) {
    const simdax_dtype dt = GetParam();
    const int top = dt == SIMDAX_DTYPE_FLOAT16 ? 15 : 40;
    Rng rng(test_seed(700));
    for (const RowCase& c : kRowCases) {
        for (int e = 1; e <= top; ++e) {
            Operands io{TensorBuffer(dt, {c.rows, c.n}, {}, Role::Input), nullptr, nullptr,
                        TensorBuffer(dt, {c.rows, c.n}, {}, Role::Output)};
            const double m = std::ldexp(rng.uniform(1.0, 1.99), e);
            io.x.fill([&](int64_t i) {
                return i % c.n == (i / c.n) % c.n ? m : m - std::fabs(m) * rng.uniform(0.0, 1.0) - 7.0;
            });
            const CheckResult r = run_and_check(op_spec(SIMDAX_OPERATOR_LOG_SOFTMAX, {1}), io);
            EXPECT_TRUE(r.ok) << "max ~2^" << e << " n=" << c.n << ": " << r.report;
        }
    }
}

// Runs spec on io, first checking that more than min_share of the float64
// results lie in the type's subnormal range (the case is what it claims).
void check_subnormal_results(const OpSpec& spec, Operands& io, double min_share, const std::string& what) {
    const double min_normal = std::ldexp(1.0, io.y.dtype() == SIMDAX_DTYPE_BFLOAT16 ? -126 : -14);
    const std::vector<double> ref = reference(spec, io);
    size_t subnormal = 0;
    for (double r : ref) subnormal += r != 0 && std::fabs(r) < min_normal;
    ASSERT_GT(double(subnormal), min_share * double(ref.size())) << what;
    const CheckResult r = run_and_check(spec, io);
    EXPECT_TRUE(r.ok) << what << ": " << r.report;
}

// Results in the type's subnormal range: Softmax of elements 88-100 (bfloat16)
// or 10-16 (float16) below the max, MVN scaled by a subnormal. Their bound
// next to zero is float32's, so AVX512-BF16's flush of such a result to zero
// passes, and so does the exact rounding (with and without the instruction).
TEST_P(HalfReductions, SubnormalResults) {
    const simdax_dtype dt = GetParam();
    const bool bf = dt == SIMDAX_DTYPE_BFLOAT16;
    with_and_without_bf16_instructions([&] {
        Rng rng(test_seed(800));
        for (const RowCase& c : kRowCases) {
            Operands io{TensorBuffer(dt, {c.rows, c.n}, {}, Role::Input), nullptr, nullptr,
                        TensorBuffer(dt, {c.rows, c.n}, {}, Role::Output)};
            io.x.fill([&](int64_t i) {
                return i % c.n == 0 ? 1.0 : -(bf ? rng.uniform(88, 100) : rng.uniform(10, 16));
            });
            check_subnormal_results(op_spec(SIMDAX_OPERATOR_SOFTMAX, {1}), io, 0.25,
                                    "softmax n=" + std::to_string(c.n));
            io.x.fill([&](int64_t) { return rng.uniform(-4, 4); });
            io.scale = std::make_unique<TensorBuffer>(dt, std::vector<int64_t>{1, c.n},
                                                      std::vector<int64_t>{}, Role::Input);
            io.scale->fill([&](int64_t) { return std::ldexp(rng.uniform(1, 2), bf ? -131 : -20); });
            check_subnormal_results(op_spec(SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, {1}), io, 0.5,
                                    "mvn n=" + std::to_string(c.n));
        }
    });
}

INSTANTIATE_TEST_SUITE_P(HalfTypes, HalfReductions, testing::ValuesIn(kHalfTypes), half_name);

}  // namespace
