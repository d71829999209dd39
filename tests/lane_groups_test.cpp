// LogSoftmax/Softmax groups of short runs side by side ([S, G, n] over axes
// {0,2}: the walk=lane_groups plan, dispatch/execute/run_plan.hpp): run lengths
// around every vector width and tail, group counts around a unit's block,
// few and many segment rows, and special values confined to some groups
// (a NaN, +inf, a group all -inf); every dtype, against the float64
// reference, and the plan is checked to take that walk.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "simdax/simdax.h"
#include "support/dtype.hpp"
#include "support/op_runner.hpp"
#include "support/random_case.hpp"

namespace {

using namespace sxt;

std::string described(const OpSpec& spec, const Operands& io) {
    DescStorage st;
    simdax_operator* op = nullptr;
    if (simdax_operator_create(build_desc(spec, io, &st), &op) != SIMDAX_OK) return "create failed";
    std::string s(simdax_operator_describe(op, nullptr, 0) + 1, '\0');
    simdax_operator_describe(op, s.data(), s.size());
    simdax_operator_destroy(op);
    return s;
}

// Values for the packed element i of a tensor whose last two dims are
// [G, n]: random around a center, with the specials of `special` placed in
// group `g_special` (every segment row of it for -inf, one element else).
struct Values {
    Rng* rng;
    int64_t G, n, g_special, at;
    int special;  // 0 none, 1 NaN, 2 +inf, 3 the group all -inf
    double center, radius;
    double operator()(int64_t i) const {
        const int64_t g = (i / n) % G;
        if (g == g_special && special == 3) return -std::numeric_limits<double>::infinity();
        if (g == g_special && i == at && special == 1) return std::numeric_limits<double>::quiet_NaN();
        if (g == g_special && i == at && special == 2) return std::numeric_limits<double>::infinity();
        return center + rng->uniform(-radius, radius);
    }
};

using OpDtype = std::tuple<simdax_operator_type, simdax_dtype>;

class LaneGroups : public testing::TestWithParam<OpDtype> {};

TEST_P(LaneGroups, MatchReference) {
    const auto [op, dt] = GetParam();
    Rng rng(test_seed(4000 + uint64_t(op) * 16 + uint64_t(dt)));
    int failures = 0, cases = 0;
    for (int64_t n : {2, 3, 7, 8, 15, 16, 17, 31, 33, 64, 100, 127}) {
        for (int rep = 0; rep < 4; ++rep) {
            const int64_t G = rng.pick(std::vector<int64_t>{2, 3, 9, 40, 513 / n + 1});
            // Rows: any count for runs up to 16, else at least the run (planner.cpp).
            const int64_t S =
                n <= 16 ? rng.pick(std::vector<int64_t>{2, 5, 70}) : rng.pick(std::vector<int64_t>{n, n + 3});
            const bool outer = rng.chance(0.3);  // a kept dim outside the segments too
            std::vector<int64_t> sizes{S, G, n};
            std::vector<uint32_t> axes{0, 2};
            if (outer) {
                sizes.insert(sizes.begin(), 2);
                axes = {1, 3};
            }
            OpSpec spec = op_spec(op, axes);
            Operands io{TensorBuffer(dt, sizes, {}, Role::Input), nullptr, nullptr,
                        TensorBuffer(dt, sizes, {}, Role::Output)};
            const int special = rng.chance(0.5) ? int(rng.range(1, 3)) : 0;
            const int64_t g_special = rng.range(0, G - 1);
            const int64_t at = (rng.range(0, S - 1) * G + g_special) * n + rng.range(0, n - 1);
            io.x.fill(Values{&rng, G, n, g_special, at, special,
                             rng.pick(std::vector<double>{0, 0, -1000, 1000}),
                             rng.pick(std::vector<double>{1, 8, 40})});
            const std::string plan = described(spec, io);
            EXPECT_NE(plan.find("walk=lane_groups"), std::string::npos) << plan;
            const CheckResult r = run_and_check(spec, io);
            ++cases;
            if (!r.ok && ++failures <= 3) ADD_FAILURE() << plan << "\n" << r.report;
        }
    }
    EXPECT_EQ(failures, 0) << failures << " of " << cases << " cases failed";
}

INSTANTIATE_TEST_SUITE_P(SoftmaxFamily, LaneGroups,
                         testing::Combine(testing::Values(SIMDAX_OPERATOR_LOG_SOFTMAX,
                                                          SIMDAX_OPERATOR_SOFTMAX),
                                          testing::Values(SIMDAX_DTYPE_FLOAT32, SIMDAX_DTYPE_FLOAT16,
                                                          SIMDAX_DTYPE_BFLOAT16, SIMDAX_DTYPE_FLOAT64)),
                         [](const testing::TestParamInfo<OpDtype>& i) {
                             return std::string(op_name(std::get<0>(i.param))) + "_" +
                                    dtype_name(std::get<1>(i.param));
                         });

}  // namespace
