// simdax_lib_ab: one operator timed on two builds of libsimdax in one
// process, for a regression of a few percent that run-to-run noise hides.
//
//   simdax_lib_ab OLD.so NEW.so OP DTYPE SHAPE [AXES] [SCALE_BIAS] [ISA] [SAMPLES]
//   simdax_lib_ab old/libsimdax.so.0 new/libsimdax.so.0 mvn f32 64x128x768 2 1x1x768 avx512
//
// OP: log_softmax, softmax, hardmax, mvn, hard_sigmoid, relu, attention_softmax,
// layer_norm, rms_norm, skip_layer_norm (LayerNorm with a residual of the
// input's shape);
// AXES "2,3" ("-" for none; the norms: the first normalized axis);
// SCALE_BIAS an MVN or norm Scale/Bias shape ("-" for none; the norms need
// one). attention_softmax: scale 0.125 over the last axis, SCALE_BIAS the
// float32 mask's shape, AXES "causal" for bottom-right causal (else "-"). Both libraries
// are dlopen'ed RTLD_LOCAL (each binds its own symbols; this program links
// neither), create the same operator, and run on the same buffers (placed as
// the bench places them, bench/page_buffer.hpp), alternately: the samples are pairs taken
// back to back, and the order alternates so that neither library always runs
// on the other's warm caches. Prints the medians and the median of the
// per-pair ratios NEW/OLD (below 1: NEW faster). An A/A run (one build under
// two file names) shows the tool's own spread: 0.99-1.01 here.
// SIMDAX_AB_OFFSETS=IN,OUT puts the input and output that many bytes past a
// 64-byte boundary (default 0,0), as malloc'ed buffers often sit.
// SIMDAX_AB_SOFTCAP=C gives attention_softmax a softcap of C (default 0: off).
#include <simdax/simdax.h>

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "page_buffer.hpp"

namespace {

struct Library {
    decltype(&simdax_operator_create) create;
    decltype(&simdax_operator_execute) execute;
    decltype(&simdax_operator_execute_bound) execute_bound;
    decltype(&simdax_operator_destroy) destroy;
    decltype(&simdax_set_max_isa) set_max_isa;
    decltype(&simdax_last_error) last_error;
    decltype(&simdax_isa_name) isa_name;

    explicit Library(const char* path) {
        void* h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (!h) fail(dlerror());
        create = reinterpret_cast<decltype(create)>(symbol(h, "simdax_operator_create"));
        execute = reinterpret_cast<decltype(execute)>(symbol(h, "simdax_operator_execute"));
        execute_bound = reinterpret_cast<decltype(execute_bound)>(symbol(h, "simdax_operator_execute_bound"));
        destroy = reinterpret_cast<decltype(destroy)>(symbol(h, "simdax_operator_destroy"));
        set_max_isa = reinterpret_cast<decltype(set_max_isa)>(symbol(h, "simdax_set_max_isa"));
        last_error = reinterpret_cast<decltype(last_error)>(symbol(h, "simdax_last_error"));
        isa_name = reinterpret_cast<decltype(isa_name)>(symbol(h, "simdax_isa_name"));
    }
    static void* symbol(void* h, const char* name) {
        void* s = dlsym(h, name);
        if (!s) fail(name);
        return s;
    }
    [[noreturn]] static void fail(const char* what) {
        std::fprintf(stderr, "simdax_lib_ab: %s\n", what);
        std::exit(2);
    }
};

std::vector<int64_t> parse_list(const std::string& s, char sep) {
    std::vector<int64_t> v;
    if (s == "-") return v;
    std::stringstream in(s);
    for (std::string item; std::getline(in, item, sep);) v.push_back(std::stoll(item));
    return v;
}

void* timing_buffer(size_t bytes) {
    void* p = simdax_bench::allocate_timing_buffer(bytes);
    if (!p) Library::fail("out of memory");
    return p;
}

// Values in [lo, hi) from a 64-bit LCG, stored as dtype (16-bit types by
// truncating float's bits: any finite value in range will do here).
void fill(void* dst, simdax_dtype dtype, int64_t count, double lo, double hi, uint64_t seed) {
    for (int64_t i = 0; i < count; ++i) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        const double t = double(seed >> 11) * 0x1p-53;
        const float f = float(lo + (hi - lo) * t);
        uint32_t bits;
        std::memcpy(&bits, &f, 4);
        switch (dtype) {
            case SIMDAX_DTYPE_FLOAT32: static_cast<float*>(dst)[i] = f; break;
            case SIMDAX_DTYPE_FLOAT64: static_cast<double*>(dst)[i] = lo + (hi - lo) * t; break;
            case SIMDAX_DTYPE_BFLOAT16: static_cast<uint16_t*>(dst)[i] = uint16_t(bits >> 16); break;
            case SIMDAX_DTYPE_FLOAT16: {  // |f| <= 65504 assumed; rounding toward zero
                const uint32_t sign = (bits >> 16) & 0x8000u;
                const int exp = int((bits >> 23) & 0xff) - 127 + 15;
                const uint32_t mant = (bits >> 13) & 0x3ffu;
                static_cast<uint16_t*>(dst)[i] =
                    uint16_t(exp <= 0 ? sign : sign | uint32_t(exp) << 10 | mant);
                break;
            }
            case SIMDAX_DTYPE_UINT8: static_cast<uint8_t*>(dst)[i] = f != 0.0f; break;
        }
    }
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 6) {
        std::fprintf(stderr, "usage: %s OLD.so NEW.so OP DTYPE SHAPE [AXES] [SCALE_BIAS] [ISA] [SAMPLES]\n",
                     argv[0]);
        return 2;
    }
    Library old_lib(argv[1]), new_lib(argv[2]);
    const std::string op = argv[3], dtype_name = argv[4];
    const std::vector<int64_t> shape = parse_list(argv[5], 'x');
    const bool attention = op == "attention_softmax";
    const bool norm = op == "layer_norm" || op == "rms_norm" || op == "skip_layer_norm";
    const bool causal = attention && argc > 6 && std::string(argv[6]) == "causal";
    const std::vector<int64_t> axes64 = parse_list(argc > 6 && !attention ? argv[6] : "-", ',');
    const std::vector<int64_t> sb_shape = parse_list(argc > 7 ? argv[7] : "-", 'x');
    const std::string isa_name = argc > 8 ? argv[8] : "avx512";
    const int samples = argc > 9 ? std::atoi(argv[9]) : 41;

    const simdax_dtype dtype = dtype_name == "f16"    ? SIMDAX_DTYPE_FLOAT16
                               : dtype_name == "bf16" ? SIMDAX_DTYPE_BFLOAT16
                               : dtype_name == "f64"  ? SIMDAX_DTYPE_FLOAT64
                                                      : SIMDAX_DTYPE_FLOAT32;
    const size_t esize = dtype == SIMDAX_DTYPE_FLOAT64 ? 8 : dtype == SIMDAX_DTYPE_FLOAT32 ? 4 : 2;
    int isa = 0;  // named as the library names it
    while (isa < SIMDAX_ISA_COUNT && isa_name != old_lib.isa_name(simdax_isa(isa))) ++isa;
    if (isa == SIMDAX_ISA_COUNT) Library::fail("unknown ISA");
    int64_t count = 1, sb_count = 1;
    for (int64_t s : shape) count *= s;
    for (int64_t s : sb_shape) sb_count *= s;
    std::vector<uint32_t> axes(axes64.begin(), axes64.end());

    size_t in_offset = 0, out_offset = 0;
    if (const char* o = std::getenv("SIMDAX_AB_OFFSETS")) {
        const std::vector<int64_t> v = parse_list(o, ',');
        if (v.size() != 2 || v[0] < 0 || v[1] < 0 || v[0] >= 64 || v[1] >= 64 || v[0] % esize || v[1] % esize)
            Library::fail("SIMDAX_AB_OFFSETS: IN,OUT, each a multiple of the element size below 64");
        in_offset = size_t(v[0]);
        out_offset = size_t(v[1]);
    }
    void* x = static_cast<char*>(timing_buffer(size_t(count) * esize + 64)) + in_offset;
    void* y = static_cast<char*>(timing_buffer(size_t(count) * esize + 64)) + out_offset;
    void* scale = sb_shape.empty() || attention ? nullptr : timing_buffer(size_t(sb_count) * esize);
    void* bias = sb_shape.empty() || attention ? nullptr : timing_buffer(size_t(sb_count) * esize);
    void* mask = sb_shape.empty() || !attention ? nullptr : timing_buffer(size_t(sb_count) * 4);
    void* skip = op == "skip_layer_norm" ? timing_buffer(size_t(count) * esize) : nullptr;
    if (skip) fill(skip, dtype, count, -1.0, 1.0, 5);
    if (norm && (!scale || axes.size() != 1)) Library::fail("the norms need one axis and a Scale shape");
    if (mask) fill(mask, SIMDAX_DTYPE_FLOAT32, sb_count, -2.0, 0.0, 4);
    fill(x, dtype, count, -5.0, 5.0, 1);
    if (scale) fill(scale, dtype, sb_count, 0.5, 1.5, 2);
    if (bias) fill(bias, dtype, sb_count, -1.0, 1.0, 3);

    const simdax_tensor_desc tensor = {dtype, uint32_t(shape.size()), shape.data(), nullptr};
    const simdax_tensor_desc sb = {dtype, uint32_t(sb_shape.size()), sb_shape.data(), nullptr};
    const simdax_axes_op_desc axes_desc = {&tensor, &tensor, uint32_t(axes.size()), axes.data()};
    const simdax_mvn_desc mvn_desc = {&tensor,
                                      scale ? &sb : nullptr,
                                      bias ? &sb : nullptr,
                                      &tensor,
                                      uint32_t(axes.size()),
                                      axes.data(),
                                      1,
                                      1e-5f,
                                      nullptr};
    const simdax_tensor_desc mask_tensor = {SIMDAX_DTYPE_FLOAT32, uint32_t(sb_shape.size()), sb_shape.data(),
                                            nullptr};
    const simdax_attention_softmax_desc attention_desc = {
        &tensor,
        mask ? &mask_tensor : nullptr,
        nullptr,
        nullptr,
        &tensor,
        nullptr,
        0.125f,
        std::getenv("SIMDAX_AB_SOFTCAP") ? std::strtof(std::getenv("SIMDAX_AB_SOFTCAP"), nullptr) : 0.0f,
        causal ? SIMDAX_CAUSAL_BOTTOM_RIGHT : SIMDAX_CAUSAL_NONE,
        0,
        0};
    const int32_t norm_axis = axes.empty() ? 0 : int32_t(axes[0]);
    const simdax_layer_normalization_desc ln_desc = {&tensor,   &sb,     &sb,     &tensor,
                                                     norm_axis, 1e-5f,   1,       skip ? &tensor : nullptr,
                                                     nullptr,   nullptr, nullptr, nullptr};
    const simdax_rms_normalization_desc rms_desc = {&tensor, &sb,     &tensor, norm_axis, 1e-5f,
                                                    1,       nullptr, nullptr, nullptr};
    const simdax_hard_sigmoid_desc hs_desc = {&tensor, &tensor, 0.2f, 0.5f};
    const simdax_activation_op_desc relu_desc = {
        &tensor, &tensor, {SIMDAX_ACTIVATION_RELU, 0.0f, 0.0f, 0.0f}};
    simdax_operator_desc desc;
    if (op == "log_softmax")
        desc = {SIMDAX_OPERATOR_LOG_SOFTMAX, &axes_desc};
    else if (op == "softmax")
        desc = {SIMDAX_OPERATOR_SOFTMAX, &axes_desc};
    else if (op == "hardmax")
        desc = {SIMDAX_OPERATOR_HARDMAX, &axes_desc};
    else if (op == "mvn")
        desc = {SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, &mvn_desc};
    else if (op == "hard_sigmoid")
        desc = {SIMDAX_OPERATOR_HARD_SIGMOID, &hs_desc};
    else if (op == "relu")
        desc = {SIMDAX_OPERATOR_ACTIVATION, &relu_desc};
    else if (attention)
        desc = {SIMDAX_OPERATOR_ATTENTION_SOFTMAX, &attention_desc};
    else if (op == "layer_norm" || op == "skip_layer_norm")
        desc = {SIMDAX_OPERATOR_LAYER_NORMALIZATION, &ln_desc};
    else if (op == "rms_norm")
        desc = {SIMDAX_OPERATOR_RMS_NORMALIZATION, &rms_desc};
    else
        Library::fail("unknown OP");

    simdax_operator* ops[2] = {nullptr, nullptr};
    Library* libs[2] = {&old_lib, &new_lib};
    for (int k = 0; k < 2; ++k) {
        if (libs[k]->set_max_isa(simdax_isa(isa)) != SIMDAX_OK ||
            libs[k]->create(&desc, &ops[k]) != SIMDAX_OK)
            Library::fail(libs[k]->last_error());
    }
    const simdax_bindings bindings = {x, scale, bias, y};
    simdax_buffer_binding bound[SIMDAX_OPERAND_COUNT] = {};
    bound[SIMDAX_OPERAND_INPUT].data = x;
    bound[SIMDAX_OPERAND_OUTPUT].data = y;
    bound[SIMDAX_OPERAND_MASK].data = mask;
    bound[SIMDAX_OPERAND_SCALE].data = norm ? scale : nullptr;
    bound[SIMDAX_OPERAND_BIAS].data = norm && op != "rms_norm" ? bias : nullptr;
    bound[SIMDAX_OPERAND_SKIP].data = skip;
    const simdax_operand_bindings operands = {
        SIMDAX_HEADER(simdax_operand_bindings, SIMDAX_STRUCTURE_TYPE_OPERAND_BINDINGS), SIMDAX_OPERAND_COUNT,
        bound};

    using clock = std::chrono::steady_clock;
    auto run = [&](int k, int iterations) {
        const auto start = clock::now();
        for (int i = 0; i < iterations; ++i)
            attention || norm ? libs[k]->execute_bound(ops[k], &operands, nullptr)
                              : libs[k]->execute(ops[k], &bindings);
        return std::chrono::duration<double, std::micro>(clock::now() - start).count() / iterations;
    };
    const int iterations = std::max(1, int(20000.0 / std::max(run(0, 1), 1e-3)));  // ~20 ms a sample
    std::vector<double> t[2], ratio;
    for (int s = 0; s < samples; ++s) {
        double pair[2];
        for (int j = 0; j < 2; ++j) {
            const int k = (s + j) % 2;
            run(k, 1);  // its lines back in cache
            pair[k] = run(k, iterations);
        }
        t[0].push_back(pair[0]);
        t[1].push_back(pair[1]);
        ratio.push_back(pair[1] / pair[0]);
    }
    std::printf(
        "%s %s %s axes=%s %s: old %.4g us, new %.4g us (medians of %d); new/old %.3f (median of pairs)\n",
        op.c_str(), dtype_name.c_str(), argv[5], argc > 6 ? argv[6] : "-", isa_name.c_str(), median(t[0]),
        median(t[1]), samples, median(ratio));
    for (int k = 0; k < 2; ++k) libs[k]->destroy(ops[k]);
    return 0;
}
