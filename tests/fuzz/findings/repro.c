/* Reproducers of the fuzz findings (AttentionSoftmax), against the library
 * build: gcc -I include findings/repro.c -L build/dispatch -lsimdax -lm &&
 * LD_LIBRARY_PATH=build/dispatch ./a.out */
#include <math.h>
#include <stdio.h>
#include "simdax/simdax.h"

static void run(const char* what, float* x, int64_t skv, float scale, float softcap, int causal, int log,
                const float* slope, double want0) {
    int64_t sz[2] = {1, skv}, ssz[2] = {1, 1};
    simdax_tensor_desc xd = {SIMDAX_DTYPE_FLOAT32, 2, sz, NULL}, sd = {SIMDAX_DTYPE_FLOAT32, 2, ssz, NULL};
    float y[8] = {7, 7, 7, 7, 7, 7, 7, 7};
    simdax_attention_softmax_desc d = {&xd,   NULL,    slope ? &sd : NULL,    NULL, &xd, NULL,
                                       scale, softcap, (simdax_causal)causal, 0,    log};
    simdax_status s = simdax_attention_softmax(&d, x, NULL, slope, NULL, y, NULL);
    printf("%-58s status %d y[0] = %.9g (float64 formula: %.9g)\n", what, s, y[0], want0);
}

int main(void) {
    float a[3] = {6.5e10f, 1.0f, 2.0f};
    run("1. LogSoftmax [6.5e10, 1, 2], scale 1", a, 3, 1.0f, 0, 0, 1, NULL, 0.0);
    float b[3] = {6.5f, 1.0f, 2.0f};
    run("1. LogSoftmax [6.5, 1, 2], scale 1e10", b, 3, 1e10f, 0, 0, 1, NULL, 0.0);
    float c[2] = {10000.0f, 10003.125f};
    run("2. Softmax [10000, 10003.125], scale 1", c, 2, 1.0f, 0, 0, 0, NULL, 1.0 / (1.0 + exp(3.125)));
    float e[2] = {4.0f, 1.0f};
    run("3. Softmax [4, 1], scale 3e38, causal TOP_LEFT (row sees x0)", e, 2, 3e38f, 0, 1, 0, NULL, 1.0);
    float f[2] = {2.0f, 1.0f};
    run("4. Softmax [2, 1], scale 1e-3, softcap 3e38", f, 2, 1e-3f, 3e38f, 0, 0, NULL,
        1.0 / (1.0 + exp(-1e-3)));
    return 0;
}
