// simdax_set_log_callback: the callback receives each failure's message at
// level ERROR with its user_data; NULL disables it; a failing simdax call
// from inside the callback is not logged again; setting it while other
// threads fail never pairs a function with another one's user_data.
// Also the C++ wrapper (included beside internal headers: no clash).
#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "error.hpp"  // internal namespace simdax, beside the wrapper's simdax::cpp
#include "simdax/simdax.h"
#include "simdax/simdax.hpp"

namespace {

struct Log {
    int calls = 0;
    simdax_log_level level = SIMDAX_LOG_INFO;
    std::string message;
};

void record(void* user_data, simdax_log_level level, const char* message) {
    auto* log = static_cast<Log*>(user_data);
    ++log->calls;
    log->level = level;
    log->message = message;
}

struct ResetCallback {
    ~ResetCallback() { simdax_set_log_callback(nullptr, nullptr); }
};

simdax_status bad_call() {  // axis 5 of a rank-1 tensor
    int64_t sizes[1] = {4};
    simdax_tensor_desc t{SIMDAX_DTYPE_FLOAT32, 1, sizes, nullptr};
    uint32_t axes[1] = {5};
    simdax_softmax_desc d{&t, &t, 1, axes};
    float x[4] = {}, y[4] = {};
    return simdax_softmax(&d, x, y);
}

TEST(LogCallback, ReceivesTheErrorMessageAndUserData) {
    ResetCallback reset;
    Log log;
    EXPECT_EQ(bad_call(), SIMDAX_ERROR_INVALID_AXES);  // default: no callback
    simdax_set_log_callback(record, &log);
    EXPECT_EQ(bad_call(), SIMDAX_ERROR_INVALID_AXES);
    EXPECT_EQ(log.calls, 1);
    EXPECT_EQ(log.level, SIMDAX_LOG_ERROR);
    EXPECT_EQ(log.message, simdax_last_error());
    EXPECT_NE(log.message.find("axes[0]"), std::string::npos);
    EXPECT_EQ(simdax::fail(SIMDAX_ERROR_OVERFLOW, "x: %d", 7), SIMDAX_ERROR_OVERFLOW);
    EXPECT_EQ(log.calls, 2);
    EXPECT_EQ(log.message, "x: 7");
    simdax_set_log_callback(nullptr, &log);
    EXPECT_EQ(bad_call(), SIMDAX_ERROR_INVALID_AXES);
    EXPECT_EQ(log.calls, 2);
}

void reenter(void* user_data, simdax_log_level, const char* message) {
    auto* log = static_cast<Log*>(user_data);
    ++log->calls;
    log->message = message;
    bad_call();  // fails again inside the callback: not logged, message copy intact
    log->message += "|" + std::string(message);
}

TEST(LogCallback, NoRecursionFromInsideTheCallback) {
    ResetCallback reset;
    Log log;
    simdax_set_log_callback(reenter, &log);
    simdax::fail(SIMDAX_ERROR_INVALID_ARGUMENT, "first");
    EXPECT_EQ(log.calls, 1);
    EXPECT_EQ(log.message, "first|first");
}

std::atomic<int> g_mismatch{0};
int g_tag_a = 0, g_tag_b = 0;
void cb_a(void* user_data, simdax_log_level, const char*) {
    if (user_data != &g_tag_a) ++g_mismatch;
}
void cb_b(void* user_data, simdax_log_level, const char*) {
    if (user_data != &g_tag_b) ++g_mismatch;
}

TEST(LogCallback, SetWhileOtherThreadsFail) {
    ResetCallback reset;
    std::atomic<bool> stop{false};
    std::vector<std::thread> threads;
    for (int t = 0; t < 3; ++t)
        threads.emplace_back([&] {
            while (!stop.load()) bad_call();
        });
    for (int i = 0; i < 20000; ++i) {
        if (i % 2)
            simdax_set_log_callback(cb_a, &g_tag_a);
        else
            simdax_set_log_callback(cb_b, &g_tag_b);
    }
    stop = true;
    for (auto& th : threads) th.join();
    EXPECT_EQ(g_mismatch.load(), 0);
}

TEST(CppWrapper, OperatorsErrorsAndMoves) {
    namespace sx = simdax::cpp;
    const std::vector<float> x = {1, 2, 3, 4};
    std::vector<float> y(4);
    sx::Operator op = sx::softmax({2, 2}, {1});
    EXPECT_EQ(op.type(), SIMDAX_OPERATOR_SOFTMAX);
    sx::Operator other;
    other = std::move(op);
    EXPECT_FALSE(op);
    other.execute(x.data(), y.data());
    EXPECT_NEAR(y[0] + y[1], 1.0f, 1e-6f);
    try {
        sx::log_softmax({2, 2}, {2});
        FAIL() << "axis 2 of a rank-2 tensor was accepted";
    } catch (const sx::Error& e) {
        EXPECT_EQ(e.status(), SIMDAX_ERROR_INVALID_AXES);
        EXPECT_NE(std::string(e.what()).find("axes[0]"), std::string::npos);
    }
    // A transposed output view through TensorDesc strides.
    const sx::TensorDesc in({2, 2}), out({2, 2}, SIMDAX_DTYPE_FLOAT32, {1, 2});
    sx::axes_op(SIMDAX_OPERATOR_HARDMAX, in, out, {1}).execute(x.data(), y.data());
    EXPECT_EQ(y, (std::vector<float>{0, 0, 1, 1}));
    std::vector<float> h = {-10, 10};
    sx::hard_sigmoid({2}).execute(h.data(), h.data());
    EXPECT_EQ(h, (std::vector<float>{0, 1}));
    EXPECT_THROW(sx::mvn({2, 2}, {1}, SIMDAX_DTYPE_FLOAT32, sx::MvnOptions{{}, {}, true, -1.f, {}}),
                 sx::Error);
}

}  // namespace
