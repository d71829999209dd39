// docs/spec.md "Errors", found by execute: one row per bad binding of an
// operator create accepted (NULL and misaligned buffers, outputs overlapping
// an input), each checking the status, that simdax_last_error() names the
// argument, and that nothing was written; and the same overlap rule on the
// one-shot calls.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "simdax/simdax.h"
#include "support/errors_fixture.hpp"

namespace {

using namespace sxt::errors;

struct ExecRow {
    const char* name;
    simdax_operator_type type;
    simdax_status expected;
    std::vector<std::string> keys;
    std::function<void(Fixture&)> mutate;  // before create (e.g. strides)
    std::function<simdax_status(Fixture&, const simdax_operator*)> call;
    bool check_x = false;  // the output is the input buffer: x must stay intact
};

void PrintTo(const ExecRow& r, std::ostream* os) { *os << r.name; }

std::vector<ExecRow> exec_rows() {
    using F = Fixture;
    auto none = [](F&) {};
    // Execute with the fixture's bindings changed by `change`.
    auto with_bindings = [](auto change) {
        return [change](F& f, const simdax_operator* op) {
            simdax_bindings b = f.bindings();
            change(f, b);
            return simdax_operator_execute(op, &b);
        };
    };
    // The output bound to the input's buffer moved by shift elements (and
    // its layout changed by mutate): an overlap; x must stay intact.
    auto output_at_input = [=](const char* name, simdax_operator_type t, std::vector<std::string> keys,
                               int shift, std::function<void(F&)> mutate = {}) {
        return ExecRow{name,
                       t,
                       SIMDAX_ERROR_OVERLAP,
                       std::move(keys),
                       mutate ? std::move(mutate) : none,
                       with_bindings([shift](F& f, simdax_bindings& b) { b.output = f.x + shift; }),
                       true};
    };
    return {
        {"NullBindings",
         SIMDAX_OPERATOR_SOFTMAX,
         SIMDAX_ERROR_NULL_POINTER,
         {"bindings"},
         none,
         [](F&, const simdax_operator* op) { return simdax_operator_execute(op, nullptr); }},
        {"NullOperator",
         SIMDAX_OPERATOR_SOFTMAX,
         SIMDAX_ERROR_NULL_POINTER,
         {"op"},
         none,
         [](F& f, const simdax_operator*) {
             const simdax_bindings b = f.bindings();
             return simdax_operator_execute(nullptr, &b);
         }},
        {"NullInputBuffer",
         SIMDAX_OPERATOR_SOFTMAX,
         SIMDAX_ERROR_NULL_POINTER,
         {"input"},
         none,
         with_bindings([](F&, simdax_bindings& b) { b.input = nullptr; })},
        {"NullOutputBuffer",
         SIMDAX_OPERATOR_SOFTMAX,
         SIMDAX_ERROR_NULL_POINTER,
         {"output"},
         none,
         with_bindings([](F&, simdax_bindings& b) { b.output = nullptr; })},
        {"HardSigmoidNullInputBuffer",
         SIMDAX_OPERATOR_HARD_SIGMOID,
         SIMDAX_ERROR_NULL_POINTER,
         {"input"},
         none,
         with_bindings([](F&, simdax_bindings& b) { b.input = nullptr; })},
        {"MvnNullScaleBuffer",
         SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION,
         SIMDAX_ERROR_NULL_POINTER,
         {"scale"},
         none,
         with_bindings([](F&, simdax_bindings& b) { b.scale = nullptr; })},
        {"MvnNullBiasBuffer",
         SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION,
         SIMDAX_ERROR_NULL_POINTER,
         {"bias"},
         none,
         with_bindings([](F&, simdax_bindings& b) { b.bias = nullptr; })},
        // An address off the element size: refused, not read as float.
        {"MisalignedInput",
         SIMDAX_OPERATOR_SOFTMAX,
         SIMDAX_ERROR_INVALID_ARGUMENT,
         {"input", "element size"},
         none,
         with_bindings([](F& f, simdax_bindings& b) { b.input = reinterpret_cast<const char*>(f.x) + 1; })},
        {"MisalignedOutput",
         SIMDAX_OPERATOR_HARD_SIGMOID,
         SIMDAX_ERROR_INVALID_ARGUMENT,
         {"output", "element size"},
         none,
         with_bindings([](F& f, simdax_bindings& b) { b.output = reinterpret_cast<char*>(f.y) + 2; })},
        {"MvnMisalignedScale",
         SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION,
         SIMDAX_ERROR_INVALID_ARGUMENT,
         {"scale", "element size"},
         none,
         with_bindings([](F& f, simdax_bindings& b) { b.scale = reinterpret_cast<const char*>(f.s) + 3; })},
        {"MvnMisalignedBias",
         SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION_EX,
         SIMDAX_ERROR_INVALID_ARGUMENT,
         {"bias", "element size"},
         none,
         with_bindings([](F& f, simdax_bindings& b) { b.bias = reinterpret_cast<const char*>(f.b) + 1; })},
        output_at_input("SoftmaxOutputShiftedIntoInput", SIMDAX_OPERATOR_SOFTMAX, {"output", "overlap"}, 1),
        {"SoftmaxInputShiftedIntoOutput",
         SIMDAX_OPERATOR_SOFTMAX,
         SIMDAX_ERROR_OVERLAP,
         {"output", "overlap"},
         none,
         with_bindings([](F& f, simdax_bindings& b) {
             b.input = f.x + 11;  // last input element = first output element
             b.output = f.x + 22;
         }),
         true},
        output_at_input("SoftmaxShiftedAlias", SIMDAX_OPERATOR_SOFTMAX, {"output", "overlap", "alias"}, 1),
        output_at_input("LogSoftmaxShiftedAlias", SIMDAX_OPERATOR_LOG_SOFTMAX, {"output", "overlap", "alias"},
                        1),
        output_at_input("MvnExactAlias", SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION,
                        {"output", "overlap", "alias"}, 0),
        output_at_input("HardSigmoidShiftedAlias", SIMDAX_OPERATOR_HARD_SIGMOID, {"output", "overlap"}, 1),
        // Output transposed: same pointer, different element mapping.
        output_at_input("HardSigmoidAliasWithOtherStrides", SIMDAX_OPERATOR_HARD_SIGMOID,
                        {"output", "overlap"}, 0, output_strides(1, 3)),
        output_at_input("ActivationShiftedAlias", SIMDAX_OPERATOR_ACTIVATION, {"output", "overlap"}, 5),
    };
}

class ExecuteErrors : public BrokenFixtureTest<ExecRow> {};

TEST_P(ExecuteErrors, RejectedWithMessageAndNoWrite) {
    const ExecRow& row = GetParam();
    Fixture& f = fixture();
    simdax_operator* op = nullptr;
    ASSERT_EQ(simdax_operator_create(&f.op, &op), SIMDAX_OK) << simdax_last_error();
    f.snapshot();
    const simdax_status st = row.call(f, op);
    EXPECT_EQ(st, row.expected) << "execute returned " << simdax_status_name(st);
    EXPECT_TRUE(last_error_names(row.keys));
    EXPECT_TRUE(f.y_untouched()) << "the output buffer was written by a failing call";
    if (row.check_x) {
        EXPECT_TRUE(f.x_untouched()) << "the aliased input/output buffer was written by a failing call";
    }
    simdax_operator_destroy(op);
}

INSTANTIATE_TEST_SUITE_P(Rows, ExecuteErrors, testing::ValuesIn(exec_rows()), row_name<ExecRow>);

// The one-shot entry point applies the same overlap rule (the exact alias
// runs in place: softmax_in_place_test.cpp).
TEST(CallErrors, OneShotSoftmaxShiftedAliasRejected) {
    Fixture f(SIMDAX_OPERATOR_SOFTMAX);
    f.snapshot();
    EXPECT_EQ(simdax_softmax(&f.sm, f.x, f.x + 3), SIMDAX_ERROR_OVERLAP);
    EXPECT_TRUE(f.x_untouched());
}

// MVN Scale/Bias are inputs too: the output must not overlap them.
TEST(CallErrors, MvnOutputOverlappingScale) {
    Fixture f(SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION);
    f.snapshot();
    const unsigned char* sb = reinterpret_cast<const unsigned char*>(f.s);
    std::vector<unsigned char> before(sb, sb + sizeof(f.s));
    EXPECT_EQ(simdax_mean_variance_normalization(&f.mvn, f.x, f.s, f.b, f.s), SIMDAX_ERROR_OVERLAP);
    EXPECT_EQ(std::memcmp(before.data(), f.s, sizeof(f.s)), 0) << "scale buffer written";
}

}  // namespace
