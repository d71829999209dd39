/* simdax from C: LogSoftmax over an axis, MVN with Scale/Bias and a fused
 * ReLU, an in-place HardSigmoid, and a rejected descriptor reaching the log
 * callback. Checks every result against a direct evaluation of the formula
 * and exits non-zero on any difference. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <simdax/simdax.h>

static int failures = 0;

static void expect(int ok, const char* what) {
    if (!ok) {
        fprintf(stderr, "FAIL: %s\n", what);
        ++failures;
    }
}

static int close_to(float got, double want) { return fabs(got - want) <= 1e-5 * fmax(1.0, fabs(want)); }

static char logged[512];
static int log_calls = 0;
static void on_log(void* user_data, simdax_log_level level, const char* message) {
    *(int*)user_data += 1;
    if (level == SIMDAX_LOG_ERROR) snprintf(logged, sizeof logged, "%s", message);
}

int main(void) {
    /* The library's version is the one this program was compiled against. */
    char header_version[32];
    snprintf(header_version, sizeof header_version, "%d.%d.%d", SIMDAX_VERSION_MAJOR, SIMDAX_VERSION_MINOR,
             SIMDAX_VERSION_PATCH);
    expect(strcmp(simdax_version(), header_version) == 0, "simdax_version() equals the header's");

    /* LogSoftmax over axis 1 of a [2,3] float32 tensor. */
    {
        const float x[6] = {1.0f, 2.0f, 3.0f, -1.0f, 0.0f, 1000.0f};
        float y[6];
        int64_t sizes[2] = {2, 3};
        simdax_tensor_desc t = {SIMDAX_DTYPE_FLOAT32, 2, sizes, NULL};
        uint32_t axes[1] = {1};
        simdax_log_softmax_desc d = {&t, &t, 1, axes};
        simdax_operator_desc od = {SIMDAX_OPERATOR_LOG_SOFTMAX, &d};
        simdax_operator* op = NULL;
        expect(simdax_operator_create(&od, &op) == SIMDAX_OK, "create log_softmax");
        simdax_bindings b = {x, NULL, NULL, y};
        expect(op && simdax_operator_execute(op, &b) == SIMDAX_OK, "execute log_softmax");
        simdax_operator_destroy(op);
        for (int r = 0; r < 2; ++r) {
            double m = -INFINITY, s = 0;
            for (int c = 0; c < 3; ++c) m = fmax(m, x[r * 3 + c]);
            for (int c = 0; c < 3; ++c) s += exp(x[r * 3 + c] - m);
            for (int c = 0; c < 3; ++c)
                expect(close_to(y[r * 3 + c], x[r * 3 + c] - m - log(s)), "log_softmax value");
        }
    }

    /* MVN over axis 1 of [2,4], per-column Scale [1,4], scalar Bias [1,1], ReLU. */
    {
        const float x[8] = {1, 2, 3, 4, 10, 10, 10, 14};
        const float scale[4] = {1, 2, 0.5f, -1};
        const float bias[1] = {0.25f};
        float y[8];
        int64_t sizes[2] = {2, 4}, ssizes[2] = {1, 4}, bsizes[2] = {1, 1};
        simdax_tensor_desc t = {SIMDAX_DTYPE_FLOAT32, 2, sizes, NULL};
        simdax_tensor_desc ts = {SIMDAX_DTYPE_FLOAT32, 2, ssizes, NULL};
        simdax_tensor_desc tb = {SIMDAX_DTYPE_FLOAT32, 2, bsizes, NULL};
        uint32_t axes[1] = {1};
        simdax_activation_desc relu = simdax_activation_default(SIMDAX_ACTIVATION_RELU);
        simdax_mvn_desc d = {&t, &ts, &tb, &t, 1, axes, 1, 1e-5f, &relu};
        expect(simdax_mean_variance_normalization(&d, x, scale, bias, y) == SIMDAX_OK, "mvn");
        for (int r = 0; r < 2; ++r) {
            double mean = 0, var = 0;
            for (int c = 0; c < 4; ++c) mean += x[r * 4 + c] / 4.0;
            for (int c = 0; c < 4; ++c) var += (x[r * 4 + c] - mean) * (x[r * 4 + c] - mean) / 4.0;
            for (int c = 0; c < 4; ++c) {
                double v = scale[c] * (x[r * 4 + c] - mean) / sqrt(var + 1e-5) + bias[0];
                expect(close_to(y[r * 4 + c], v > 0 ? v : 0), "mvn value");
            }
        }
    }

    /* HardSigmoid in place. */
    {
        float x[4] = {-10.0f, -1.0f, 0.5f, 10.0f};
        const float want[4] = {0.0f, 0.3f, 0.6f, 1.0f};
        int64_t sizes[1] = {4};
        simdax_tensor_desc t = {SIMDAX_DTYPE_FLOAT32, 1, sizes, NULL};
        simdax_hard_sigmoid_desc d = {&t, &t, 0.2f, 0.5f};
        expect(simdax_hard_sigmoid(&d, x, x) == SIMDAX_OK, "hard_sigmoid in place");
        for (int i = 0; i < 4; ++i) expect(close_to(x[i], want[i]), "hard_sigmoid value");
    }

    /* A bad axis: status, message, the log callback, and no write. */
    {
        simdax_set_log_callback(on_log, &log_calls);
        const float x[2] = {1, 2};
        float y[2] = {42, 42};
        int64_t sizes[1] = {2};
        simdax_tensor_desc t = {SIMDAX_DTYPE_FLOAT32, 1, sizes, NULL};
        uint32_t axes[1] = {3};
        simdax_softmax_desc d = {&t, &t, 1, axes};
        expect(simdax_softmax(&d, x, y) == SIMDAX_ERROR_INVALID_AXES, "bad axis is rejected");
        expect(strstr(simdax_last_error(), "axes[0]") != NULL, "message names the argument");
        expect(log_calls == 1 && strcmp(logged, simdax_last_error()) == 0, "log callback got the message");
        expect(y[0] == 42 && y[1] == 42, "nothing written on error");
        simdax_set_log_callback(NULL, NULL);
        expect(simdax_softmax(&d, x, y) == SIMDAX_ERROR_INVALID_AXES && log_calls == 1,
               "NULL callback disables logging");
    }

    if (failures) return 1;
    printf("example_c: all checks passed (simdax %s, isa %s)\n", simdax_version(),
           simdax_isa_name(simdax_active_isa()));
    return 0;
}
