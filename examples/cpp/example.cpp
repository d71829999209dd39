// simdax from C++ through the header-only wrapper <simdax/simdax.hpp>:
// RAII operators, exceptions, factories. Checks every result and exits
// non-zero on any difference.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <simdax/simdax.hpp>

namespace sx = simdax::cpp;

static int failures = 0;
static void expect(bool ok, const char* what) {
    if (!ok) {
        std::fprintf(stderr, "FAIL: %s\n", what);
        ++failures;
    }
}
static bool close_to(float got, double want) {
    return std::fabs(got - want) <= 1e-5 * std::max(1.0, std::fabs(want));
}

int main() {
    try {
        expect(sx::version() == std::to_string(SIMDAX_VERSION_MAJOR) + "." +
                                    std::to_string(SIMDAX_VERSION_MINOR) + "." +
                                    std::to_string(SIMDAX_VERSION_PATCH),
               "version() equals the header's");

        // LogSoftmax over axes {0, 2} of [2,2,2]: one group per index of axis 1.
        const std::vector<float> x = {12, 0, -101, 11, 3, 234, 0, -101};
        std::vector<float> y(8);
        sx::Operator op = sx::log_softmax({2, 2, 2}, {2, 0});
        sx::Operator moved = std::move(op);  // move-only
        expect(!op && moved, "moved-from operator is empty");
        moved.execute(x.data(), y.data());
        for (int j = 0; j < 2; ++j) {
            const int idx[4] = {0 * 4 + j * 2 + 0, 0 * 4 + j * 2 + 1, 1 * 4 + j * 2 + 0, 1 * 4 + j * 2 + 1};
            double m = -INFINITY, s = 0;
            for (int i : idx) m = std::max(m, double(x[i]));
            for (int i : idx) s += std::exp(x[i] - m);
            for (int i : idx) expect(close_to(y[i], x[i] - m - std::log(s)), "log_softmax value");
        }

        // Hardmax over axis 1 (the DirectML worked example).
        sx::hardmax({2, 2, 2}, {1}).execute(x.data(), y.data());
        expect(y == std::vector<float>{1, 0, 0, 1, 1, 1, 0, 0}, "hardmax values");

        // MVN without variance normalisation, per-row Bias [2,1], GELU fused.
        sx::MvnOptions o;
        o.bias = sx::TensorDesc({2, 1});
        o.normalize_variance = false;
        o.activation = simdax_activation_default(SIMDAX_ACTIVATION_GELU);
        const std::vector<float> bias = {0.5f, -0.5f};
        const std::vector<float> xm = {1, 2, 3, 6, 4, 2};
        std::vector<float> ym(6);
        sx::mvn({2, 3}, {1}, SIMDAX_DTYPE_FLOAT32, o).execute(xm.data(), nullptr, bias.data(), ym.data());
        for (int r = 0; r < 2; ++r) {
            const double mean = (xm[r * 3] + xm[r * 3 + 1] + xm[r * 3 + 2]) / 3.0;
            for (int c = 0; c < 3; ++c) {
                const double v = xm[r * 3 + c] - mean + bias[r];
                expect(close_to(ym[r * 3 + c], 0.5 * v * (1 + std::erf(v / std::sqrt(2.0)))), "mvn value");
            }
        }

        // HardSigmoid in place.
        std::vector<float> h = {-10, -1, 0.5f, 10};
        sx::hard_sigmoid({4}).execute(h.data(), h.data());
        const double want[4] = {0, 0.3, 0.6, 1};
        for (int i = 0; i < 4; ++i) expect(close_to(h[i], want[i]), "hard_sigmoid value");

        // A repeated axis throws simdax::cpp::Error with the status and message.
        bool threw = false;
        try {
            sx::softmax({2, 3}, {1, 1});
        } catch (const sx::Error& e) {
            threw = e.status() == SIMDAX_ERROR_INVALID_AXES &&
                    std::string(e.what()).find("repeated") != std::string::npos;
        }
        expect(threw, "repeated axis throws Error(SIMDAX_ERROR_INVALID_AXES)");
    } catch (const std::exception& e) {
        std::fprintf(stderr, "FAIL: unexpected exception: %s\n", e.what());
        return 1;
    }
    if (failures) return 1;
    std::printf("example_cpp: all checks passed (simdax %s)\n", simdax_version());
    return 0;
}
