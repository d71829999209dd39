// simdax_lib_ab: one operator timed on two builds of libsimdax in one
// process, for a regression of a few percent that run-to-run noise hides.
//
//   simdax_lib_ab OLD.so NEW.so OP DTYPE SHAPE [AXES] [SCALE_BIAS] [ISA] [SAMPLES]
//   simdax_lib_ab old/libsimdax.so.0 new/libsimdax.so.0 mvn f32 64x128x768 2 1x1x768 avx512
//
// OP: an operator as the benchmarks name it (bench/operator_names.hpp, from
// NEW's operator list): log_softmax, softmax, hardmax, mvn, hard_sigmoid,
// attention_softmax, layer_norm, rms_norm; skip_layer_norm (LayerNorm with a
// residual of the input's shape); relu (Activation). The descriptor and the
// bindings are the benchmark's (bench/workload_desc.hpp);
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
// SIMDAX_AB_PARAMS=f32 gives the norms float32 Scale/Bias whatever DTYPE is.
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

#include "operator_names.hpp"
#include "page_buffer.hpp"
#include "workload_desc.hpp"

namespace {

struct Library {
    decltype(&simdax_operator_create) create;
    decltype(&simdax_operator_execute) execute;
    decltype(&simdax_operator_execute_bound) execute_bound;
    decltype(&simdax_operator_destroy) destroy;
    decltype(&simdax_set_max_isa) set_max_isa;
    decltype(&simdax_last_error) last_error;
    decltype(&simdax_isa_name) isa_name;
    decltype(&simdax_operator_name) operator_name;  // nullptr in builds before it

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
        operator_name = reinterpret_cast<decltype(operator_name)>(dlsym(h, "simdax_operator_name"));
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

// The workload of OP (see the usage above), its sizes to be filled in.
simdax_bench::Workload parse_op(std::string op, simdax_bench::OperatorNameFn names) {
    simdax_bench::Workload w;
    w.id = op;
    w.latency = false;
    if (op == "relu") {
        w.op = SIMDAX_OPERATOR_ACTIVATION;
        w.activation = SIMDAX_ACTIVATION_RELU;
        return w;
    }
    w.skip = op.rfind("skip_", 0) == 0;
    if (w.skip) op.erase(0, 5);
    if (!names) Library::fail("neither library has simdax_operator_name");
    if (!simdax_bench::parse_operator_short_name(op, &w.op, names)) Library::fail("unknown OP");
    if (w.skip && w.op != SIMDAX_OPERATOR_LAYER_NORMALIZATION)
        Library::fail("skip_ goes with layer_norm only");
    return w;
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
    simdax_bench::Workload w =
        parse_op(op, new_lib.operator_name ? new_lib.operator_name : old_lib.operator_name);
    w.shape = parse_list(argv[5], 'x');
    const std::vector<int64_t>& shape = w.shape;
    const bool attention = w.op == SIMDAX_OPERATOR_ATTENTION_SOFTMAX;
    const bool norm =
        w.op == SIMDAX_OPERATOR_LAYER_NORMALIZATION || w.op == SIMDAX_OPERATOR_RMS_NORMALIZATION;
    const bool causal = attention && argc > 6 && std::string(argv[6]) == "causal";
    const std::vector<int64_t> axes64 = parse_list(argc > 6 && !attention ? argv[6] : "-", ',');
    w.scale_bias = parse_list(argc > 7 ? argv[7] : "-", 'x');
    const std::vector<int64_t>& sb_shape = w.scale_bias;
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
    w.dtype = dtype;
    w.axes.assign(axes64.begin(), axes64.end());
    const std::vector<uint32_t>& axes = w.axes;
    w.attn_scale = 0.125f;
    w.attn_softcap =
        std::getenv("SIMDAX_AB_SOFTCAP") ? std::strtof(std::getenv("SIMDAX_AB_SOFTCAP"), nullptr) : 0.0f;
    w.causal = causal ? SIMDAX_CAUSAL_BOTTOM_RIGHT : SIMDAX_CAUSAL_NONE;
    const char* params = std::getenv("SIMDAX_AB_PARAMS");
    w.float32_params = norm && params && std::string(params) == "f32";
    const simdax_dtype param_dtype = w.float32_params ? SIMDAX_DTYPE_FLOAT32 : dtype;
    const size_t param_esize = w.float32_params ? 4 : esize;

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
    void* scale = sb_shape.empty() || attention ? nullptr : timing_buffer(size_t(sb_count) * param_esize);
    void* bias = sb_shape.empty() || attention ? nullptr : timing_buffer(size_t(sb_count) * param_esize);
    void* mask = sb_shape.empty() || !attention ? nullptr : timing_buffer(size_t(sb_count) * 4);
    void* skip = w.skip ? timing_buffer(size_t(count) * esize) : nullptr;
    if (skip) fill(skip, dtype, count, -1.0, 1.0, 5);
    if (norm && (!scale || axes.size() != 1)) Library::fail("the norms need one axis and a Scale shape");
    if (mask) fill(mask, SIMDAX_DTYPE_FLOAT32, sb_count, -2.0, 0.0, 4);
    fill(x, dtype, count, -5.0, 5.0, 1);
    if (scale) fill(scale, param_dtype, sb_count, 0.5, 1.5, 2);
    if (bias) fill(bias, param_dtype, sb_count, -1.0, 1.0, 3);

    const simdax_bench::WorkloadDesc desc(w);
    if (!desc.get()) Library::fail("no descriptor for OP");

    simdax_operator* ops[2] = {nullptr, nullptr};
    Library* libs[2] = {&old_lib, &new_lib};
    for (int k = 0; k < 2; ++k) {
        if (libs[k]->set_max_isa(simdax_isa(isa)) != SIMDAX_OK ||
            libs[k]->create(desc.get(), &ops[k]) != SIMDAX_OK)
            Library::fail(libs[k]->last_error());
    }
    const simdax_bench::WorkloadBindings bindings(w, {x, y, scale, bias, mask, skip});

    using clock = std::chrono::steady_clock;
    auto run = [&](int k, int iterations) {
        const auto start = clock::now();
        for (int i = 0; i < iterations; ++i)
            bindings.bound() ? libs[k]->execute_bound(ops[k], bindings.bound(), nullptr)
                             : libs[k]->execute(ops[k], bindings.plain());
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
