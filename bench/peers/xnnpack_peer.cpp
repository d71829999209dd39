// XNNPACK side of the peer comparison (Debian libxnnpack-dev, a 2022-02
// snapshot; operator API of xnnpack.h, threads from pthreadpool).
//
// What this snapshot has for the workloads (named in the table's notes):
//   Softmax, innermost axis, f32:  softmax_nc_f32 (rows = batch, channels =
//                the reduced extent). No f16 softmax, no other axis.
//   HardSigmoid, f32 and f16:  composite of two elementwise passes with a
//                broadcast scalar, the second in place with its output clamp
//                [0, 1]: multiply_nd by alpha then add_nd of beta, and add_nd
//                of beta/alpha then multiply_nd by alpha (XNNPACK has no
//                linear or hard-sigmoid unary op).
//   attention softmax (softmax(x*scale + mask)), f32: multiply_nd by the
//                scale, add_nd of the broadcast f32 mask (the causal rows'
//                additive mask too), both into a buffer, then softmax_nc_f32;
//                f16: no f16 softmax.
//   LayerNorm, RMSNorm, SkipLayerNorm: no normalization operator.
//   LogSoftmax:  no operator, and no log operator to compose one with.
//   Hardmax, MeanVarianceNormalization:  no operator.
//   bfloat16:    no operator at all.
// Operators are created and set up (input and output pointers bound) before
// timing; the timed call is xnn_run_operator. 1 thread: no pool (the caller's
// thread); N threads: pthreadpool_create(N).
//
// Usage: xnnpack_peer WORKLOADS DATA_DIR OUT_DIR [THREADS...] [--only ID,...]
#include <pthreadpool.h>
#include <sys/stat.h>
#include <xnnpack.h>

#include <limits>
#include <memory>

#include "dtype_codec.hpp"
#include "peer_common.hpp"

namespace {

using peers::Unsupported;

const char* status_name(xnn_status s) {
    switch (s) {
        case xnn_status_success: return "success";
        case xnn_status_uninitialized: return "uninitialized";
        case xnn_status_invalid_parameter: return "invalid parameter";
        case xnn_status_invalid_state: return "invalid state";
        case xnn_status_unsupported_parameter: return "unsupported parameter";
        case xnn_status_unsupported_hardware: return "unsupported hardware";
        case xnn_status_out_of_memory: return "out of memory";
    }
    return "unknown status";
}

// A status that means "this CPU or this build cannot do it" is Unsupported
// (shown as n/a); anything else is an error of the driver.
void check(xnn_status s, const std::string& what) {
    if (s == xnn_status_success) return;
    const std::string msg = "XNNPACK " + what + ": " + status_name(s);
    if (s == xnn_status_unsupported_hardware || s == xnn_status_unsupported_parameter)
        throw Unsupported(msg + " on this CPU");
    throw std::runtime_error(msg);
}

struct OpDeleter {
    void operator()(xnn_operator* op) const { xnn_delete_operator(op); }
};
using Op = std::unique_ptr<xnn_operator, OpDeleter>;

// The created and set-up operators of one candidate, run in order.
struct Plan {
    std::vector<Op> ops;
    std::vector<peers::Buffer> bufs;  // intermediates
    std::string impl, note;
    void run(pthreadpool_t pool) {
        for (auto& op : ops) check(xnn_run_operator(op.get(), pool), "run");
    }
};

// A buffer XNNPACK may read XNN_EXTRA_BYTES past the end of.
peers::Buffer padded_copy(const peers::Buffer& b) {
    peers::Buffer p(b.size() + XNN_EXTRA_BYTES);
    std::memcpy(p.data(), b.data(), b.size());
    return p;
}

// Scalars the binary ops broadcast, padded to XNN_EXTRA_BYTES.
struct Scalar {
    alignas(64) unsigned char bytes[64] = {};
    Scalar(float v, bool half) {
        if (half) {
            const uint16_t h = simdax_case::double_to_float16_bits(v);
            std::memcpy(bytes, &h, 2);
        } else {
            std::memcpy(bytes, &v, 4);
        }
    }
};

// HardSigmoid's constants in the workload's dtype.
struct Constants {
    Scalar alpha, beta, beta_over_alpha;
    explicit Constants(bool half) : alpha(0.2f, half), beta(0.5f, half), beta_over_alpha(2.5f, half) {}
};

// One elementwise pass: x (+ or *) a broadcast scalar, output clamped.
struct BinaryStep {
    bool add;
    const Scalar* scalar;
    float lo, hi;
};

Op binary_op(const BinaryStep& s, bool half, size_t n, const void* x, void* y, pthreadpool_t pool) {
    const std::string name = std::string(s.add ? "add_nd_" : "multiply_nd_") + (half ? "f16" : "f32");
    xnn_operator_t op = nullptr;
    if (half)
        check(s.add ? xnn_create_add_nd_f16(s.lo, s.hi, 0, &op)
                    : xnn_create_multiply_nd_f16(s.lo, s.hi, 0, &op),
              "create " + name);
    else
        check(s.add ? xnn_create_add_nd_f32(s.lo, s.hi, 0, &op)
                    : xnn_create_multiply_nd_f32(s.lo, s.hi, 0, &op),
              "create " + name);
    Op owned(op);
    const size_t shape[1] = {n}, one[1] = {1};
    const void* c = s.scalar->bytes;
    if (half)
        check(s.add ? xnn_setup_add_nd_f16(op, 1, shape, 1, one, x, c, y, pool)
                    : xnn_setup_multiply_nd_f16(op, 1, shape, 1, one, x, c, y, pool),
              "setup " + name);
    else
        check((s.add ? xnn_setup_add_nd_f32 : xnn_setup_multiply_nd_f32)(
                  op, 1, shape, 1, one, static_cast<const float*>(x), static_cast<const float*>(c),
                  static_cast<float*>(y), pool),
              "setup " + name);
    return owned;
}

// The candidate implementations of a workload.
std::vector<std::string> variants(const peers::Workload& w) {
    if (w.op == "hard_sigmoid") return {"mul_add", "add_mul"};
    return {"native"};
}

std::unique_ptr<Plan> build(const peers::Workload& w, const std::string& variant, const void* in, void* out,
                            const Constants& k, pthreadpool_t pool, const peers::Inputs& inputs) {
    auto p = std::make_unique<Plan>();
    const int rank = int(w.shape.size());
    if (w.dtype == "bf16") throw Unsupported("no bfloat16 operator in this XNNPACK");
    if (w.op == "attn_softmax") {
        if (w.dtype != "f32") throw Unsupported("no f16 softmax in this XNNPACK (f32 only)");
        const float inf = std::numeric_limits<float>::infinity();
        const size_t channels = size_t(w.shape.back());
        const size_t batch = size_t(w.count()) / channels;
        p->bufs.emplace_back(w.bytes() + XNN_EXTRA_BYTES);
        float* tmp = static_cast<float*>(p->bufs.back().data());
        p->bufs.emplace_back(sizeof(Scalar));
        new (p->bufs.back().data()) Scalar(w.scale(), false);
        const auto* sc = static_cast<const Scalar*>(p->bufs.back().data());
        p->ops.push_back(binary_op({false, sc, -inf, inf}, false, size_t(w.count()), in, tmp, pool));
        std::string impl = "multiply_nd_f32(scale)";
        if (w.has_mask()) {
            xnn_operator_t op = nullptr;
            check(xnn_create_add_nd_f32(-inf, inf, 0, &op), "create add_nd_f32");
            p->ops.emplace_back(op);
            std::vector<size_t> xs(w.shape.begin(), w.shape.end());
            const std::vector<int64_t> m64 = w.mask_shape();
            std::vector<size_t> ms(m64.begin(), m64.end());
            p->bufs.emplace_back(inputs.mask.size() + XNN_EXTRA_BYTES);
            std::memcpy(p->bufs.back().data(), inputs.mask.data(), inputs.mask.size());
            check(xnn_setup_add_nd_f32(op, xs.size(), xs.data(), ms.size(), ms.data(), tmp,
                                       static_cast<const float*>(p->bufs.back().data()), tmp, pool),
                  "setup add_nd_f32");
            impl += " + add_nd_f32(mask) in place";
        }
        xnn_operator_t op = nullptr;
        check(xnn_create_softmax_nc_f32(channels, channels, channels, 0, &op), "create softmax");
        p->ops.emplace_back(op);
        check(xnn_setup_softmax_nc_f32(op, batch, tmp, static_cast<float*>(out), pool), "setup softmax");
        p->impl = impl + " + softmax_nc_f32";
        p->note = "composite: x*scale (multiply_nd), + the f32 mask broadcast (add_nd" +
                  std::string(w.causal() ? "; causal: the additive mask" : "") +
                  ") into a buffer, softmax_nc_f32: three passes";
        return p;
    }
    if (w.op == "layer_norm" || w.op == "rms_norm" || w.op == "skip_layer_norm")
        throw Unsupported("no normalization operator (nor a mean reduction) in this XNNPACK");
    if (w.op == "softmax") {
        if (w.axes.size() != 1 || w.axes[0] != rank - 1)
            throw Unsupported("softmax_nc reduces the innermost axis only");
        if (w.dtype != "f32") throw Unsupported("no f16 softmax in this XNNPACK (f32 only)");
        const size_t channels = size_t(w.shape.back());
        const size_t batch = size_t(w.count()) / channels;
        xnn_operator_t op = nullptr;
        check(xnn_create_softmax_nc_f32(channels, channels, channels, 0, &op), "create softmax");
        p->ops.emplace_back(op);
        check(xnn_setup_softmax_nc_f32(op, batch, static_cast<const float*>(in), static_cast<float*>(out),
                                       pool),
              "setup softmax");
        p->impl = "softmax_nc_f32";
        return p;
    }
    if (w.op == "hard_sigmoid") {
        // mul_add: x*alpha, then +beta with the clamp. add_mul: x + beta/alpha,
        // then *alpha with the clamp; in f16 the sum is exact near the lower
        // clamp (Sterbenz), where mul_add's rounded product is not.
        const bool half = w.dtype == "f16", add_first = variant == "add_mul";
        const float inf = std::numeric_limits<float>::infinity();
        const BinaryStep mul_add[2] = {{false, &k.alpha, -inf, inf}, {true, &k.beta, 0.f, 1.f}};
        const BinaryStep add_mul[2] = {{true, &k.beta_over_alpha, -inf, inf}, {false, &k.alpha, 0.f, 1.f}};
        const void* src = in;
        for (const BinaryStep& step : add_first ? add_mul : mul_add) {
            p->ops.push_back(binary_op(step, half, size_t(w.count()), src, out, pool));
            src = out;  // the second step runs in place
        }
        const std::string t = half ? "f16" : "f32";
        if (add_first) {
            p->impl = "add_nd_" + t + " + multiply_nd_" + t + " clamp [0,1] in place";
            p->note =
                "composite: x + beta/alpha (add_nd), then *alpha with the multiply's "
                "output clamp [0,1], in place: two passes";
        } else {
            p->impl = "multiply_nd_" + t + " + add_nd_" + t + " clamp [0,1] in place";
            p->note =
                "composite: x*alpha (multiply_nd), then +beta with the add's output "
                "clamp [0,1], in place: two passes";
        }
        if (half) p->note += "; the constants are f16 scalars (alpha 0.19995)";
        return p;
    }
    if (w.op == "log_softmax")
        throw Unsupported("no LogSoftmax in this XNNPACK, and no log operator to compose one");
    if (w.op == "hardmax") throw Unsupported("no Hardmax or arg-max over an axis in this XNNPACK");
    if (w.op == "mvn") throw Unsupported("no normalization operator in this XNNPACK");
    throw std::runtime_error("unknown op " + w.op);
}

}  // namespace

int main(int argc, char** argv) {
    const peers::Args args =
        peers::parse_args(argc, argv, "xnnpack_peer WORKLOADS DATA_DIR OUT_DIR [THREADS...] [--only ID,...]");
    const char* deb = std::getenv("PEERS_XNNPACK_DEB");
    const std::string version = deb && *deb ? std::string("(Debian ") + deb + ")" : "";
    mkdir((args.out_dir + "/xnnpack").c_str(), 0755);
    peers::ResultWriter results(args.out_dir + "/xnnpack.jsonl", "XNNPACK", version);
    check(xnn_initialize(nullptr), "xnn_initialize");
    std::fprintf(stderr, "XNNPACK %s\n", version.c_str());

    peers::for_each_workload(args, [&](const peers::Workload& w, const peers::Inputs& in, double memcpy_ns) {
        const peers::Buffer x = padded_copy(in.in);
        const peers::Buffer out(w.bytes() + XNN_EXTRA_BYTES);
        const Constants k(w.dtype == "f16");
        for (int threads : args.threads) {
            pthreadpool_t pool = threads > 1 ? pthreadpool_create(size_t(threads)) : nullptr;
            for (const std::string& variant : variants(w)) {
                peers::time_candidate(
                    results, args, "xnnpack", w, threads, memcpy_ns, out, w.op + " " + variant, [&] {
                        std::shared_ptr<Plan> p = build(w, variant, x.data(), out.data(), k, pool, in);
                        return peers::Candidate{p->impl, p->note, [p, pool] { p->run(pool); }};
                    });
            }
            if (pool) pthreadpool_destroy(pool);
        }
    });
    xnn_deinitialize();
    return 0;
}
