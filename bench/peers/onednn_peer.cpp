// oneDNN side of the peer comparison (Debian libdnnl-dev 2.6, C++ API
// dnnl.hpp, CPU engine, OpenMP threads set with omp_set_num_threads).
//
// What each workload maps to (named in the table's notes):
//   LogSoftmax / Softmax, one axis:  softmax_v2 (softmax_log / softmax_accurate)
//                on the tensor as it is (any axis, the primitive walks it);
//                for an axis that is not innermost, also the permute below.
//   several axes (or permute): emulated, reorder to [kept..., reduced...],
//                softmax_v2 over the flattened reduced extent, reorder back.
//   Hardmax:     emulated, reduction_max then binary_eq against the
//                broadcast maximum (a tie gives several 1s, unlike Hardmax).
//   MVN over trailing axes: layer_normalization (use_scale/use_shift).
//   MVN over {0,2..}: batch_normalization, statistics computed in the call.
//   MVN over {2..} with per-channel Scale/Bias: batch_normalization on the
//                [1, N*C, ...] view with Scale/Bias tiled N times at setup.
//   HardSigmoid: eltwise_linear (alpha, beta) then eltwise_clip(0, 1) in
//                place; and eltwise_linear with an eltwise_clip post-op.
//   A dtype the primitives do not support (f16 in 2.6): not timed. The f32
//                upcast through oneDNN's own f16 reorder is a scalar loop
//                (~100 ns/element); its cost for the input alone is measured
//                once and given as the reason.
// Each candidate is timed and written; check_peers.py keeps the fastest
// correct one. The implementation oneDNN picked (jit:avx512_core, ref:any,
// ...) is part of the candidate's name.
//
// Usage: onednn_peer WORKLOADS DATA_DIR OUT_DIR [THREADS...] [--only ID,...]
#include <omp.h>
#include <sys/stat.h>

#include <memory>
#include <numeric>
#include <unordered_map>
#include <oneapi/dnnl/dnnl.hpp>

#include "peer_common.hpp"

namespace {

using dnnl::memory;
using tag = memory::format_tag;
using dt = memory::data_type;

using peers::Unsupported;

memory::dims row_major_strides(const memory::dims& dims) {
    memory::dims s(dims.size(), 1);
    for (int i = int(dims.size()) - 2; i >= 0; --i) s[i] = s[i + 1] * dims[i + 1];
    return s;
}

memory::desc plain(const memory::dims& dims, dt type) {
    return memory::desc(dims, type, row_major_strides(dims));
}

dt to_dt(const std::string& s) {
    if (s == "f32") return dt::f32;
    if (s == "f16") return dt::f16;
    return dt::bf16;
}

uint32_t half_to_float_bits(uint16_t h) {
    const uint32_t sign = uint32_t(h & 0x8000) << 16;
    uint32_t exp = (h >> 10) & 0x1f, man = h & 0x3ff;
    if (exp == 0x1f) return sign | 0x7f800000u | (man << 13);
    if (exp == 0) {
        if (man == 0) return sign;
        exp = 127 - 15 + 1;
        while (!(man & 0x400)) man <<= 1, --exp;
        return sign | (exp << 23) | ((man & 0x3ff) << 13);
    }
    return sign | ((exp + 127 - 15) << 23) | (man << 13);
}

// Scale/Bias as float32 (oneDNN normalization takes them in f32 whatever the
// data type).
std::vector<float> to_f32(const peers::Buffer& b, const std::string& dtype, int64_t n) {
    std::vector<float> v(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
        if (dtype == "f32") {
            v[i] = static_cast<const float*>(b.data())[i];
        } else {
            const uint16_t h = static_cast<const uint16_t*>(b.data())[i];
            const uint32_t bits = dtype == "f16" ? half_to_float_bits(h) : uint32_t(h) << 16;
            std::memcpy(&v[i], &bits, 4);
        }
    }
    return v;
}

// A chain of primitives run on one stream; the first reads the user's input,
// the last writes the user's output.
struct Pipeline {
    dnnl::engine eng{dnnl::engine::kind::cpu, 0};
    dnnl::stream strm{eng};
    std::vector<std::pair<dnnl::primitive, std::unordered_map<int, memory>>> steps;
    std::vector<std::vector<float>> keep;  // host data referenced by memories
    std::string impl, note;
    std::vector<std::string> kernels;  // impl_info_str of each primitive

    void add(const dnnl::primitive_desc_base& pd, dnnl::primitive prim,
             std::unordered_map<int, memory> args) {
        kernels.push_back(pd.impl_info_str());
        steps.push_back({std::move(prim), std::move(args)});
    }
    void add_reorder(const memory& from, const memory& to) {
        dnnl::reorder::primitive_desc pd(eng, from.get_desc(), eng, to.get_desc());
        add(pd, dnnl::reorder(pd), {{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, to}});
    }
    std::string name() const {
        std::string k;
        for (const auto& s : kernels) k += (k.empty() ? "" : ",") + s;
        return impl + " [" + k + "]";
    }

    void run() {
        for (auto& s : steps) s.first.execute(strm, s.second);
        strm.wait();
    }
};

bool is_suffix(const std::vector<int>& axes, int rank) {
    for (size_t i = 0; i < axes.size(); ++i)
        if (axes[i] != rank - int(axes.size()) + int(i)) return false;
    return true;
}

// Builds the f32-or-native pipeline of w between memories src and dst of data
// type `type` (dims = w.shape, row-major).
// The candidate implementations of a workload.
std::vector<std::string> variants(const peers::Workload& w) {
    const int rank = int(w.shape.size());
    if (w.op == "log_softmax" || w.op == "softmax") {
        if (w.axes.size() > 1) return {"permute"};
        if (w.axes[0] == rank - 1) return {"native"};
        return {"native", "permute"};
    }
    if (w.op == "hard_sigmoid") return {"two", "post_op"};
    return {"native"};
}

void build_core(Pipeline& p, const peers::Workload& w, const peers::Inputs& in, dt type,
                const memory& src, const memory& dst, const std::string& variant) {
    const memory::dims dims(w.shape.begin(), w.shape.end());
    const int rank = int(dims.size());
    const memory::desc md = plain(dims, type);
    const auto fwd = dnnl::prop_kind::forward_inference;

    if (w.op == "log_softmax" || w.op == "softmax") {
        const auto alg = w.op == "softmax" ? dnnl::algorithm::softmax_accurate
                                           : dnnl::algorithm::softmax_log;
        p.impl = w.op == "softmax" ? "softmax_v2 accurate" : "softmax_v2 log";
        if (variant == "native") {
            dnnl::softmax_v2_forward::primitive_desc pd(
                {fwd, alg, md, md, w.axes[0]}, p.eng);
            p.add(pd, dnnl::softmax_v2_forward(pd), {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
            return;
        }
        // Several axes: permute to [kept..., reduced...].
        std::vector<int> order;
        for (int a = 0; a < rank; ++a)
            if (std::find(w.axes.begin(), w.axes.end(), a) == w.axes.end()) order.push_back(a);
        for (int a : w.axes) order.push_back(a);
        std::sort(order.begin() + (rank - int(w.axes.size())), order.end());
        memory::dims strides(rank);
        memory::dim step = 1;
        for (int i = rank - 1; i >= 0; --i) strides[order[i]] = step, step *= dims[order[i]];
        const memory::desc permuted(dims, type, strides);
        memory::dim groups = 1, group = 1;
        for (int i = 0; i < rank; ++i)
            (i < rank - int(w.axes.size()) ? groups : group) *= dims[order[i]];
        const memory::desc flat = plain({groups, group}, type);
        memory tmp_in(permuted, p.eng), tmp_out(permuted, p.eng);
        memory flat_in(flat, p.eng, tmp_in.get_data_handle());
        memory flat_out(flat, p.eng, tmp_out.get_data_handle());
        dnnl::softmax_v2_forward::primitive_desc pd({fwd, alg, flat, flat, 1}, p.eng);
        p.add_reorder(src, tmp_in);
        p.add(pd, dnnl::softmax_v2_forward(pd), {{DNNL_ARG_SRC, flat_in}, {DNNL_ARG_DST, flat_out}});
        p.add_reorder(tmp_out, dst);
        p.impl = "reorder+" + p.impl + "+reorder";
        p.note = "emulated: reorder to [kept, reduced] (a permute), softmax_v2 over the "
                 "flattened reduced axes, reorder back";
        return;
    }

    if (w.op == "hardmax") {
        memory::dims rdims = dims;
        for (int a : w.axes) rdims[a] = 1;
        const memory::desc rmd = plain(rdims, type);
        memory mx(rmd, p.eng);
        dnnl::reduction::primitive_desc rpd({dnnl::algorithm::reduction_max, md, rmd, 0.f, 0.f},
                                            p.eng);
        dnnl::binary::primitive_desc bpd({dnnl::algorithm::binary_eq, md, rmd, md}, p.eng);
        p.add(rpd, dnnl::reduction(rpd), {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, mx}});
        p.add(bpd, dnnl::binary(bpd),
              {{DNNL_ARG_SRC_0, src}, {DNNL_ARG_SRC_1, mx}, {DNNL_ARG_DST, dst}});
        p.impl = "reduction_max + binary_eq";
        p.note = "emulated: reduction_max + binary_eq (ties give several 1s)";
        return;
    }

    if (w.op == "mvn") {
        const bool sb = !w.sb_shape.empty();
        const int64_t nsb = w.sb_count();
        std::vector<float> scale = sb ? to_f32(in.scale, w.dtype, nsb) : std::vector<float>();
        std::vector<float> bias = sb ? to_f32(in.bias, w.dtype, nsb) : std::vector<float>();
        auto sb_dims_are = [&](const std::vector<int>& keep_axes) {
            for (int i = 0; i < rank; ++i) {
                const bool keep = std::find(keep_axes.begin(), keep_axes.end(), i) != keep_axes.end();
                if (w.sb_shape[i] != (keep ? dims[i] : 1)) return false;
            }
            return true;
        };
        std::vector<int> all_but_1, from_2;
        for (int a = 0; a < rank; ++a) {
            if (a != 1) all_but_1.push_back(a);
            if (a >= 2) from_2.push_back(a);
        }
        const auto flags_sb = sb ? (dnnl::normalization_flags::use_scale |
                                    dnnl::normalization_flags::use_shift)
                                 : dnnl::normalization_flags::none;
        auto add_sb_memories = [&](std::unordered_map<int, memory>& args, memory::dim n) {
            if (!sb) return;
            p.keep.push_back(scale);
            p.keep.push_back(bias);
            const memory::desc smd = plain({n}, dt::f32);
            args[DNNL_ARG_SCALE] = memory(smd, p.eng, p.keep[p.keep.size() - 2].data());
            args[DNNL_ARG_SHIFT] = memory(smd, p.eng, p.keep.back().data());
        };
        std::vector<int> trailing;
        for (int a = rank - int(w.axes.size()); a < rank; ++a) trailing.push_back(a);
        std::vector<int> axes = w.axes;
        std::sort(axes.begin(), axes.end());
        if (is_suffix(axes, rank) && (!sb || sb_dims_are(trailing))) {
            memory::dim groups = 1, group = 1;
            for (int i = 0; i < rank; ++i) (i < rank - int(axes.size()) ? groups : group) *= dims[i];
            const memory::desc flat = plain({groups, group}, type);
            dnnl::layer_normalization_forward::primitive_desc pd(
                {fwd, flat, float(1e-5), flags_sb}, p.eng);
            std::unordered_map<int, memory> args{
                {DNNL_ARG_SRC, memory(flat, p.eng, src.get_data_handle())},
                {DNNL_ARG_DST, memory(flat, p.eng, dst.get_data_handle())}};
            add_sb_memories(args, group);
            p.add(pd, dnnl::layer_normalization_forward(pd), args);
            p.impl = "layer_normalization";
            return;
        }
        if (rank >= 3 && axes == all_but_1 && (!sb || sb_dims_are({1}))) {
            dnnl::batch_normalization_forward::primitive_desc pd({fwd, md, float(1e-5), flags_sb},
                                                                 p.eng);
            std::unordered_map<int, memory> args{{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}};
            add_sb_memories(args, dims[1]);
            p.add(pd, dnnl::batch_normalization_forward(pd), args);
            p.impl = "batch_normalization";
            return;
        }
        if (rank >= 3 && axes == from_2 && (!sb || sb_dims_are({1}))) {
            memory::dims view = dims;
            view[1] *= view[0];
            view[0] = 1;
            const memory::desc vmd = plain(view, type);
            dnnl::batch_normalization_forward::primitive_desc pd({fwd, vmd, float(1e-5), flags_sb},
                                                                 p.eng);
            std::unordered_map<int, memory> args{
                {DNNL_ARG_SRC, memory(vmd, p.eng, src.get_data_handle())},
                {DNNL_ARG_DST, memory(vmd, p.eng, dst.get_data_handle())}};
            if (sb) {
                std::vector<float> s2, b2;
                for (int64_t n = 0; n < dims[0]; ++n) {
                    s2.insert(s2.end(), scale.begin(), scale.end());
                    b2.insert(b2.end(), bias.begin(), bias.end());
                }
                scale = s2, bias = b2;
            }
            add_sb_memories(args, view[1]);
            p.add(pd, dnnl::batch_normalization_forward(pd), args);
            p.impl = "batch_normalization [1,N*C,...]";
            p.note = "batch_normalization on the [1,N*C,H,W] view, Scale/Bias tiled N times at setup";
            return;
        }
        throw Unsupported("no oneDNN normalization reduces this axis set");
    }

    if (w.op == "hard_sigmoid") {
        if (variant == "two") {
            dnnl::eltwise_forward::primitive_desc lin(
                {fwd, dnnl::algorithm::eltwise_linear, md, 0.2f, 0.5f}, p.eng);
            dnnl::eltwise_forward::primitive_desc clip(
                {fwd, dnnl::algorithm::eltwise_clip, md, 0.f, 1.f}, p.eng);
            p.add(lin, dnnl::eltwise_forward(lin), {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
            p.add(clip, dnnl::eltwise_forward(clip), {{DNNL_ARG_SRC, dst}, {DNNL_ARG_DST, dst}});
            p.impl = "eltwise_linear + eltwise_clip in place";
            return;
        }
        dnnl::post_ops po;
        po.append_eltwise(1.f, dnnl::algorithm::eltwise_clip, 0.f, 1.f);
        dnnl::primitive_attr attr;
        attr.set_post_ops(po);
        dnnl::eltwise_forward::primitive_desc pd(
            {fwd, dnnl::algorithm::eltwise_linear, md, 0.2f, 0.5f}, attr, p.eng);
        p.add(pd, dnnl::eltwise_forward(pd), {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
        p.impl = "eltwise_linear + clip post-op";
        return;
    }
    throw std::runtime_error("unknown op " + w.op);
}

// Milliseconds of one f16/bf16 -> f32 reorder of the input by oneDNN.
double reorder_ms(const peers::Workload& w, const peers::Inputs& in) {
    static std::unordered_map<std::string, double> measured;  // once per workload
    if (measured.count(w.id)) return measured[w.id];
    const memory::dims dims(w.shape.begin(), w.shape.end());
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    dnnl::stream strm(eng);
    memory a(plain(dims, to_dt(w.dtype)), eng, in.in.data()), b(plain(dims, dt::f32), eng);
    dnnl::reorder r(a, b);
    const double t0 = peers::now_ns();
    r.execute(strm, a, b);
    strm.wait();
    return measured[w.id] = (peers::now_ns() - t0) / 1e6;
}

std::unique_ptr<Pipeline> build(const peers::Workload& w, const peers::Inputs& in, void* out,
                                const std::string& variant) {
    auto p = std::make_unique<Pipeline>();
    const memory::dims dims(w.shape.begin(), w.shape.end());
    const dt type = to_dt(w.dtype);
    const memory src(plain(dims, type), p->eng, in.in.data());
    const memory dst(plain(dims, type), p->eng, out);
    try {
        build_core(*p, w, in, type, src, dst, variant);
        return p;
    } catch (const dnnl::error& e) {
        if (type == dt::f32) throw Unsupported(std::string("oneDNN: ") + e.what());
        char why[256];
        std::snprintf(why, sizeof why,
                      "no %s kernel in oneDNN %s on this CPU; an f32 upcast would go through "
                      "its %s reorder, %.0f ms for the input alone: not timed",
                      w.dtype.c_str(), "2.6", w.dtype.c_str(), reorder_ms(w, in));
        throw Unsupported(why);
    }
}

}  // namespace

int main(int argc, char** argv) {
    const peers::Args args = peers::parse_args(
        argc, argv, "onednn_peer WORKLOADS DATA_DIR OUT_DIR [THREADS...] [--only ID,...]");
    const dnnl_version_t* v = dnnl_version();
    char version[64];
    std::snprintf(version, sizeof version, "%d.%d.%d", v->major, v->minor, v->patch);
    mkdir((args.out_dir + "/onednn").c_str(), 0755);
    peers::ResultWriter results(args.out_dir + "/onednn.jsonl", "oneDNN", version);
    std::fprintf(stderr, "oneDNN %s (cpu runtime %s)\n", version,
                 v->cpu_runtime == DNNL_RUNTIME_OMP ? "omp" : "other");

    peers::for_each_workload(args, [&](const peers::Workload& w, const peers::Inputs& in, double memcpy_ns) {
        const peers::Buffer out(w.bytes());
        for (int threads : args.threads) {
            omp_set_num_threads(threads);
            for (const std::string& variant : variants(w)) {
                peers::time_candidate(
                    results, args, "onednn", w, threads, memcpy_ns, out, w.op + " " + variant,
                    [&] {
                        std::shared_ptr<Pipeline> p = build(w, in, out.data(), variant);
                        return peers::Candidate{p->name(), p->note, [p] { p->run(); }};
                    });
            }
        }
    });
    return 0;
}
