// docs/spec.md "Errors", found by create: one row per bad descriptor
// (errors_create_tensors_test.cpp, errors_create_attributes_test.cpp), each
// checking the status, that simdax_last_error() names the argument, and that
// nothing was written (a canary-filled output stays bit-identical); and the
// NULL pointers of the calls themselves.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "simdax/simdax.h"
#include "support/errors_fixture.hpp"

namespace {

using namespace sxt::errors;

// Every row, in one instantiation: tensor descriptors first, then the rest.
std::vector<CreateRow> create_rows() {
    std::vector<CreateRow> rows = create_tensor_rows();
    for (CreateRow& r : create_attribute_rows()) rows.push_back(std::move(r));
    return rows;
}

// The unmutated fixture is valid for every type it covers, so each row fails
// for the one thing it breaks. The types are the library's own list.
TEST(ErrorsFixture, BaselineIsValid) {
    int covered = 0;
    for (int t = 1; simdax_operator_name(simdax_operator_type(t)); ++t) {
        Fixture f{simdax_operator_type(t)};
        if (!f.covered()) continue;
        ++covered;
        f.snapshot();
        simdax_operator* op = nullptr;
        ASSERT_EQ(simdax_operator_create(&f.op, &op), SIMDAX_OK) << f.name() << " " << simdax_last_error();
        const simdax_bindings b = f.bindings();
        EXPECT_EQ(simdax_operator_execute(op, &b), SIMDAX_OK) << f.name() << " " << simdax_last_error();
        simdax_operator_destroy(op);
        EXPECT_FALSE(f.y_untouched()) << f.name() << " wrote nothing";
        EXPECT_EQ(f.one_shot(), SIMDAX_OK) << f.name() << " " << simdax_last_error();
    }
    EXPECT_GT(covered, 0);
}

class CreateErrors : public BrokenFixtureTest<CreateRow> {};

TEST_P(CreateErrors, RejectedWithMessageAndNoWrite) {
    const CreateRow& row = GetParam();
    Fixture& f = fixture();
    f.snapshot();
    simdax_operator* op = nullptr;
    const simdax_status st = simdax_operator_create(&f.op, &op);
    EXPECT_EQ(st, row.expected) << "create returned " << simdax_status_name(st) << ": "
                                << simdax_last_error();
    EXPECT_TRUE(op == nullptr) << "create failed but handed out an operator";
    EXPECT_TRUE(last_error_names(row.keys));
    if (st == SIMDAX_OK) simdax_operator_destroy(op);
    if (!row.one_shot || st == SIMDAX_OK) return;  // never run a call the library accepted wrongly
    const simdax_status st1 = f.one_shot();
    EXPECT_EQ(st1, row.expected) << "one-shot returned " << simdax_status_name(st1);
    EXPECT_TRUE(last_error_names(row.keys)) << "(one-shot)";
    EXPECT_TRUE(f.y_untouched()) << "the output was written by a failing call";
    EXPECT_TRUE(f.x_untouched()) << "the input was written";
}

INSTANTIATE_TEST_SUITE_P(Rows, CreateErrors, testing::ValuesIn(create_rows()), row_name<CreateRow>);

// ----------------------------------------------- call-level null pointers
TEST(CallErrors, NullDescriptorToCreate) {
    simdax_operator* op = nullptr;
    EXPECT_EQ(simdax_operator_create(nullptr, &op), SIMDAX_ERROR_NULL_POINTER);
    EXPECT_TRUE(op == nullptr);
    std::string msg;
    EXPECT_TRUE(message_names({"desc"}, &msg)) << msg;
}

TEST(CallErrors, NullOperatorOutPointer) {
    Fixture f(SIMDAX_OPERATOR_SOFTMAX);
    EXPECT_EQ(simdax_operator_create(&f.op, nullptr), SIMDAX_ERROR_NULL_POINTER);
    std::string msg;
    EXPECT_TRUE(message_names({"op"}, &msg)) << msg;
}

TEST(CallErrors, NullDescriptorToOneShot) {
    Fixture f(SIMDAX_OPERATOR_SOFTMAX);
    f.snapshot();
    std::string msg;
    EXPECT_EQ(simdax_softmax(nullptr, f.x, f.y), SIMDAX_ERROR_NULL_POINTER);
    EXPECT_TRUE(message_names({"desc"}, &msg)) << msg;
    EXPECT_EQ(simdax_log_softmax(nullptr, f.x, f.y), SIMDAX_ERROR_NULL_POINTER);
    EXPECT_EQ(simdax_hardmax(nullptr, f.x, f.y), SIMDAX_ERROR_NULL_POINTER);
    EXPECT_EQ(simdax_mean_variance_normalization(nullptr, f.x, f.s, f.b, f.y), SIMDAX_ERROR_NULL_POINTER);
    EXPECT_EQ(simdax_hard_sigmoid(nullptr, f.x, f.y), SIMDAX_ERROR_NULL_POINTER);
    EXPECT_EQ(simdax_activation(nullptr, f.x, f.y), SIMDAX_ERROR_NULL_POINTER);
    EXPECT_TRUE(f.y_untouched());
}

}  // namespace
