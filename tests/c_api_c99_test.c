/* Proves the public header is plain C99 and that the shared library alone
 * (its exported C API) is enough: a LogSoftmax over a [2,3] tensor, and an
 * ONNX MeanVarianceNormalization through simdax_onnx_mvn_desc, checked
 * against values derived by hand with <math.h>. Exit 0 on success. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "simdax/simdax.h"

int main(void) {
    const float x[6] = {1.0f, 2.0f, 3.0f, -1.0f, 0.0f, 4.0f};
    float y[6] = {0};
    const int64_t sizes[2] = {2, 3};
    const uint32_t axes[1] = {1};
    simdax_tensor_desc t;
    simdax_log_softmax_desc d;
    simdax_status s;
    int r, j, failures = 0;

    t.dtype = SIMDAX_DTYPE_FLOAT32;
    t.rank = 2;
    t.sizes = sizes;
    t.strides = NULL;
    d.input = &t;
    d.output = &t;
    d.axis_count = 1;
    d.axes = axes;

    s = simdax_log_softmax(&d, x, y);
    if (s != SIMDAX_OK) {
        printf("simdax_log_softmax: %s: %s\n", simdax_status_name(s), simdax_last_error());
        return 1;
    }
    /* Row r: y = x - m - ln(sum exp(x_k - m)), m the row maximum. */
    for (r = 0; r < 2; ++r) {
        const float* row = x + 3 * r;
        double m = row[0], sum = 0.0;
        for (j = 1; j < 3; ++j)
            if (row[j] > m) m = row[j];
        for (j = 0; j < 3; ++j) sum += exp(row[j] - m);
        for (j = 0; j < 3; ++j) {
            const double want = row[j] - m - log(sum);
            const double got = y[3 * r + j];
            if (fabs(got - want) > 1e-5 * (fabs(want) > 1.0 ? fabs(want) : 1.0)) {
                printf("y[%d][%d] = %.9g, expected %.9g\n", r, j, got, want);
                ++failures;
            }
        }
    }
    /* Exactness anchors: row 0 is {-2,-1,0} - ln(1 + e^-1 + e^-2). */
    if (fabs(y[2] + 0.40760596444438) > 1e-5) {
        printf("y[0][2] = %.9g, expected -0.407605964\n", (double)y[2]);
        ++failures;
    }
    /* simdax_operator_describe, snprintf-style, from C. */
    {
        simdax_operator_desc od;
        simdax_operator* op = NULL;
        char line[256];
        size_t n;
        od.type = SIMDAX_OPERATOR_LOG_SOFTMAX;
        od.desc = &d;
        if (simdax_operator_create(&od, &op) != SIMDAX_OK) {
            printf("create: %s\n", simdax_last_error());
            return 1;
        }
        n = simdax_operator_describe(op, NULL, 0);
        if (n == 0 || simdax_operator_describe(op, line, sizeof line) != n ||
            strncmp(line, "op=LogSoftmax dtype=float32 shape=2x3 axes=1 ", 45) != 0) {
            printf("describe: %lu '%s'\n", (unsigned long)n, line);
            ++failures;
        }
        simdax_operator_destroy(op);
    }
    {
        /* ONNX: (x - mean) / (sqrt(var) + 1e-9) over axis 1 of [1,4]. */
        const float xm[4] = {1.0f, 1.00002f, 1.0f, 1.00002f};
        float ym[4] = {0};
        const int64_t msizes[2] = {1, 4};
        const int64_t onnx_axes[1] = {1};
        uint32_t maxes[SIMDAX_MAX_RANK];
        simdax_tensor_desc mt;
        simdax_mvn_ex_desc md;
        double mean = 0.0, var = 0.0;
        mt.dtype = SIMDAX_DTYPE_FLOAT32;
        mt.rank = 2;
        mt.sizes = msizes;
        mt.strides = NULL;
        s = simdax_onnx_mvn_desc(&mt, &mt, onnx_axes, 1, maxes, &md);
        if (s == SIMDAX_OK) s = simdax_mean_variance_normalization_ex(&md, xm, NULL, NULL, ym);
        if (s != SIMDAX_OK) {
            printf("ONNX MVN: %s: %s\n", simdax_status_name(s), simdax_last_error());
            return 1;
        }
        for (j = 0; j < 4; ++j) mean += xm[j] / 4.0;
        for (j = 0; j < 4; ++j) var += (xm[j] - mean) * (xm[j] - mean) / 4.0;
        for (j = 0; j < 4; ++j) {
            const double want = (xm[j] - mean) / (sqrt(var) + (double)1e-9f);
            if (fabs(ym[j] - want) > 1e-5) {
                printf("ONNX MVN y[%d] = %.9g, expected %.9g\n", j, (double)ym[j], want);
                ++failures;
            }
        }
    }
    printf("%s (simdax %s)\n", failures ? "FAILED" : "ok", simdax_version());
    return failures ? 1 : 0;
}
