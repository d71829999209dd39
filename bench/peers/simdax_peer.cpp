// simdax side of the peer comparison: every workload of workloads.txt on the
// ISA simdax dispatches to (the best this CPU supports), single thread through
// simdax_operator_execute and N threads through
// simdax_operator_execute_parallel with the built-in pool, next to a memcpy of
// the same bytes. Writes OUT_DIR/simdax.jsonl and one output file per run for
// check_peers.py.
//
// Usage: simdax_peer WORKLOADS DATA_DIR OUT_DIR [THREADS...] [--only ID,...]
#include <simdax/simdax.h>

#include <sys/stat.h>

#include <memory>

#include "peer_common.hpp"

namespace {

simdax_dtype to_dtype(const std::string& s) {
    if (s == "f32") return SIMDAX_DTYPE_FLOAT32;
    if (s == "f16") return SIMDAX_DTYPE_FLOAT16;
    if (s == "bf16") return SIMDAX_DTYPE_BFLOAT16;
    throw std::runtime_error("unknown dtype " + s);
}

void check(simdax_status s, const char* what) {
    if (s != SIMDAX_OK)
        throw std::runtime_error(std::string(what) + ": " + simdax_status_name(s) + ": " +
                                 simdax_last_error());
}

// Creates the operator of a workload (descriptors may go after create).
simdax_operator* create(const peers::Workload& w) {
    const simdax_dtype dt = to_dtype(w.dtype);
    simdax_tensor_desc t{dt, uint32_t(w.shape.size()), w.shape.data(), nullptr};
    simdax_tensor_desc sb{dt, uint32_t(w.sb_shape.size()), w.sb_shape.data(), nullptr};
    std::vector<uint32_t> axes(w.axes.begin(), w.axes.end());
    simdax_axes_op_desc ax{&t, &t, uint32_t(axes.size()), axes.data()};
    simdax_mvn_desc mvn{&t,
                        w.sb_shape.empty() ? nullptr : &sb,
                        w.sb_shape.empty() ? nullptr : &sb,
                        &t,
                        uint32_t(axes.size()),
                        axes.data(),
                        1,
                        1e-5f,
                        nullptr};
    simdax_hard_sigmoid_desc hs{&t, &t, 0.2f, 0.5f};
    // attn_softmax: the f32 additive mask of mask=..., or none for a causal
    // row: simdax's own bottom-right causal mode (the masked keys are neither
    // read nor computed) instead of the 1x1xSqxSkv mask the other peers read.
    const std::vector<int64_t> mshape = w.causal() ? std::vector<int64_t>{} : w.mask_shape();
    simdax_tensor_desc mt{SIMDAX_DTYPE_FLOAT32, uint32_t(mshape.size()), mshape.data(), nullptr};
    simdax_attention_softmax_desc as{};
    as.input = &t;
    as.mask = mshape.empty() ? nullptr : &mt;
    as.output = &t;
    as.scale = w.scale();
    as.causal = w.causal() ? SIMDAX_CAUSAL_BOTTOM_RIGHT : SIMDAX_CAUSAL_NONE;
    // layer_norm, skip_layer_norm, rms_norm: over the last axis (the reduced
    // axes column is the trailing one), gamma/beta rank 1 [H], f32 statistics.
    const auto last_axis = [&](auto& d) {
        d.input = &t;
        d.scale = &sb;
        d.output = &t;
        d.axis = -1;
        d.epsilon = w.eps();
        d.stash_type = 1;
    };
    simdax_layer_normalization_desc ln{};
    last_axis(ln);
    ln.bias = &sb;
    ln.skip = w.has_skip() ? &t : nullptr;
    simdax_rms_normalization_desc rn{};
    last_axis(rn);
    const bool norm = w.op == "layer_norm" || w.op == "skip_layer_norm" || w.op == "rms_norm";
    if (norm && (w.axes.size() != 1 || w.axes[0] != int(w.shape.size()) - 1 || w.sb_shape.size() != 1))
        throw peers::Unsupported("simdax_peer: " + w.op + " only over the last axis with [H] scale/bias");
    simdax_operator_desc od{};
    if (w.op == "log_softmax")
        od = {SIMDAX_OPERATOR_LOG_SOFTMAX, &ax};
    else if (w.op == "softmax")
        od = {SIMDAX_OPERATOR_SOFTMAX, &ax};
    else if (w.op == "hardmax")
        od = {SIMDAX_OPERATOR_HARDMAX, &ax};
    else if (w.op == "mvn")
        od = {SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, &mvn};
    else if (w.op == "hard_sigmoid")
        od = {SIMDAX_OPERATOR_HARD_SIGMOID, &hs};
    else if (w.op == "attn_softmax")
        od = {SIMDAX_OPERATOR_ATTENTION_SOFTMAX, &as};
    else if (w.op == "layer_norm" || w.op == "skip_layer_norm")
        od = {SIMDAX_OPERATOR_LAYER_NORMALIZATION, &ln};
    else if (w.op == "rms_norm")
        od = {SIMDAX_OPERATOR_RMS_NORMALIZATION, &rn};
    else  // an op this driver has no simdax call for (yet): n/a, the run goes on
        throw peers::Unsupported("simdax_peer has no call for op " + w.op + " yet");
    simdax_operator* op = nullptr;
    check(simdax_operator_create(&od, &op), "simdax_operator_create");
    return op;
}

// A workload's operator and, for more than one thread, the built-in pool.
class Run {
public:
    Run(const peers::Workload& w, int threads) : op_(create(w)) {
        if (threads <= 1) return;
        const simdax_status s = simdax_threadpool_create(uint32_t(threads), &pool_);
        if (s != SIMDAX_OK) simdax_operator_destroy(op_);
        check(s, "simdax_threadpool_create");
        par_ = simdax_threadpool_parallel(pool_);
    }
    ~Run() {
        simdax_threadpool_destroy(pool_);
        simdax_operator_destroy(op_);
    }
    Run(const Run&) = delete;
    Run& operator=(const Run&) = delete;
    void execute(const simdax_bindings& b) const {
        check(pool_ ? simdax_operator_execute_parallel(op_, &b, &par_) : simdax_operator_execute(op_, &b),
              "execute");
    }
    // The operators with operands past input/scale/bias/output (mask, skip).
    void execute(const simdax_operand_bindings& b) const {
        check(simdax_operator_execute_bound(op_, &b, pool_ ? &par_ : nullptr), "execute_bound");
    }

private:
    simdax_operator* op_;
    simdax_threadpool* pool_ = nullptr;
    simdax_parallel par_{};
};

}  // namespace

int main(int argc, char** argv) {
    const peers::Args args =
        peers::parse_args(argc, argv, "simdax_peer WORKLOADS DATA_DIR OUT_DIR [THREADS...] [--only ID,...]");
    const std::string isa = simdax_isa_name(simdax_active_isa());
    mkdir((args.out_dir + "/simdax").c_str(), 0755);
    peers::ResultWriter results(args.out_dir + "/simdax.jsonl", "simdax",
                                std::string(simdax_version()) + " " + isa);
    std::fprintf(stderr, "simdax %s, isa %s\n", simdax_version(), isa.c_str());

    peers::for_each_workload(args, [&](const peers::Workload& w, const peers::Inputs& in, double memcpy_ns) {
        const peers::Buffer out(w.bytes());
        for (int threads : args.threads) {
            peers::time_candidate(results, args, "simdax", w, threads, memcpy_ns, out, "simdax " + isa, [&] {
                auto run = std::make_shared<Run>(w, threads);
                if (w.op == "attn_softmax" || w.op == "layer_norm" || w.op == "skip_layer_norm" ||
                    w.op == "rms_norm") {
                    // Bound by operand; the arrays live as long as the candidate.
                    auto ops = std::make_shared<std::vector<simdax_buffer_binding>>(SIMDAX_OPERAND_COUNT);
                    auto& o = *ops;
                    o[SIMDAX_OPERAND_INPUT].data = in.in.data();
                    o[SIMDAX_OPERAND_OUTPUT].data = out.data();
                    if (w.op == "attn_softmax") {
                        if (!w.causal()) o[SIMDAX_OPERAND_MASK].data = in.mask.data();
                    } else {
                        o[SIMDAX_OPERAND_SCALE].data = in.scale.data();
                        if (w.op != "rms_norm") o[SIMDAX_OPERAND_BIAS].data = in.bias.data();
                        if (w.has_skip()) o[SIMDAX_OPERAND_SKIP].data = in.skip.data();
                    }
                    const simdax_operand_bindings b{
                        SIMDAX_HEADER(simdax_operand_bindings, SIMDAX_STRUCTURE_TYPE_OPERAND_BINDINGS),
                        SIMDAX_OPERAND_COUNT, ops->data()};
                    const std::string note = w.causal() ? "causal mode, no mask read" : "";
                    return peers::Candidate{"simdax " + isa, note, [run, ops, b] { run->execute(b); }};
                }
                const simdax_bindings b{in.in.data(), in.scale.data(), in.bias.data(), out.data()};
                return peers::Candidate{"simdax " + isa, "", [run, b] { run->execute(b); }};
            });
        }
    });
    return 0;
}
