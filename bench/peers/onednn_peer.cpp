// oneDNN side of the peer comparison (oneDNN 3.x from the PyPI wheels onednn
// and onednn-devel in the peers' venv, C++ API dnnl.hpp, CPU engine).
//
// The wheel's oneDNN runs its CPU engine on SYCL with TBB threads: no
// omp_set_num_threads. TBB sizes its pool from the process's CPU affinity
// when it starts, so compare_peers.sh runs this once per thread count under
// `taskset`, and the results are appended to OUT_DIR/onednn.jsonl.
//
// What each workload maps to (named in the table's notes):
//   LogSoftmax / Softmax, one axis:  softmax (softmax_log / softmax_accurate)
//                on the tensor as it is (any axis, the primitive walks it);
//                for an axis that is not innermost, also the permute below.
//   several axes (or permute): emulated, reorder to [kept..., reduced...],
//                softmax over the flattened reduced extent, reorder back.
//   Hardmax:     emulated, reduction_max then binary_eq against the
//                broadcast maximum (a tie gives several 1s, unlike Hardmax).
//   MVN over trailing axes: layer_normalization (use_scale/use_shift).
//   MVN over {0,2..}: batch_normalization, statistics computed in the call.
//   MVN over {2..} with per-channel Scale/Bias: batch_normalization on the
//                [1, N*C, ...] view with Scale/Bias tiled N times at setup.
//   HardSigmoid: eltwise_linear (alpha, beta) then eltwise_clip(0, 1) in
//                place (3.x takes no post-ops on eltwise).
//   attention softmax (softmax(x*scale + mask)): binary_add(x, mask) with
//                a runtime src0 scale, or eltwise_linear(scale) then
//                binary_add(mask) in place (f32 mask, broadcast; the causal
//                rows' mask too), into a buffer, then softmax_accurate over
//                the last axis into the output. (eltwise_linear with a
//                binary_add post-op runs ref:any here: not timed.)
//   LayerNorm:   layer_normalization over the last axis, gamma/beta as f32
//                scale/shift. RMSNorm: layer_normalization with
//                normalization_flags::rms_norm and scale.
//   SkipLayerNorm: binary_add x + skip into a buffer, then
//                layer_normalization (oneDNN has no fused skip).
//   f16/bf16: the primitives' own f16/bf16 kernels where this CPU has them
//                (src/dst in the workload's type, Scale/Bias in f32).
//                And always the f32 upcast: reorder to f32, the f32 pipeline,
//                reorder back.
// Each candidate is timed and written; check_peers.py keeps the fastest
// correct one. The implementation oneDNN picked (jit:avx512_core, ref:any,
// ...) is part of the candidate's name.
//
// Usage: onednn_peer WORKLOADS DATA_DIR OUT_DIR THREADS [--only ID,...]
#include <sched.h>
#include <sys/stat.h>

#include <memory>
#include <numeric>
#include <unordered_map>
#include <oneapi/dnnl/dnnl.hpp>

#include "dtype_codec.hpp"
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

// Scale/Bias as float32 (oneDNN normalization takes them in f32 whatever the
// data type).
std::vector<float> to_f32(const peers::Buffer& b, const std::string& dtype, int64_t n) {
    std::vector<float> v(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
        if (dtype == "f32") {
            v[i] = static_cast<const float*>(b.data())[i];
        } else {
            const uint16_t h = static_cast<const uint16_t*>(b.data())[i];
            v[i] = float(dtype == "f16" ? simdax_case::float16_bits_to_double(h)
                                        : simdax_case::bfloat16_bits_to_double(h));  // exact
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
    if (w.op == "hard_sigmoid") return {"two"};
    if (w.op == "attn_softmax") return {"binary", "linear"};
    return {"native"};
}

void build_core(Pipeline& p, const peers::Workload& w, const peers::Inputs& in, dt type, const memory& src,
                const memory& dst, const std::string& variant) {
    const memory::dims dims(w.shape.begin(), w.shape.end());
    const int rank = int(dims.size());
    const memory::desc md = plain(dims, type);
    const auto fwd = dnnl::prop_kind::forward_inference;

    if (w.op == "log_softmax" || w.op == "softmax") {
        const auto alg = w.op == "softmax" ? dnnl::algorithm::softmax_accurate : dnnl::algorithm::softmax_log;
        p.impl = w.op == "softmax" ? "softmax accurate" : "softmax log";
        if (variant == "native") {
            dnnl::softmax_forward::primitive_desc pd(p.eng, fwd, alg, md, md, w.axes[0]);
            p.add(pd, dnnl::softmax_forward(pd), {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
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
        for (int i = 0; i < rank; ++i) (i < rank - int(w.axes.size()) ? groups : group) *= dims[order[i]];
        const memory::desc flat = plain({groups, group}, type);
        memory tmp_in(permuted, p.eng), tmp_out(permuted, p.eng);
        memory flat_in(flat, p.eng, tmp_in.get_data_handle());
        memory flat_out(flat, p.eng, tmp_out.get_data_handle());
        dnnl::softmax_forward::primitive_desc pd(p.eng, fwd, alg, flat, flat, 1);
        p.add_reorder(src, tmp_in);
        p.add(pd, dnnl::softmax_forward(pd), {{DNNL_ARG_SRC, flat_in}, {DNNL_ARG_DST, flat_out}});
        p.add_reorder(tmp_out, dst);
        p.impl = "reorder+" + p.impl + "+reorder";
        p.note =
            "emulated: reorder to [kept, reduced] (a permute), softmax over the "
            "flattened reduced axes, reorder back";
        return;
    }

    if (w.op == "attn_softmax") {
        // variant "binary": binary_add(x, mask) with a runtime scale on
        // src0; "linear": eltwise_linear(scale) then binary_add(mask) in
        // place. (eltwise_linear with a binary_add post-op runs ref:any, ~200x
        // slower here.) Either into a buffer, then softmax.
        memory tmp(md, p.eng);
        const std::vector<int64_t> ms = w.has_mask() ? w.mask_shape() : std::vector<int64_t>();
        const memory::desc mmd = plain(memory::dims(ms.begin(), ms.end()), dt::f32);
        const memory mask = w.has_mask() ? memory(mmd, p.eng, in.mask.data()) : memory();
        if (variant == "binary" && w.has_mask()) {
            dnnl::primitive_attr attr;
            attr.set_scales_mask(DNNL_ARG_SRC_0, 0);
            dnnl::binary::primitive_desc bpd(p.eng, dnnl::algorithm::binary_add, md, mmd, md, attr);
            p.keep.push_back({w.scale()});
            const memory sc(plain({1}, dt::f32), p.eng, p.keep.back().data());
            p.add(bpd, dnnl::binary(bpd),
                  {{DNNL_ARG_SRC_0, src},
                   {DNNL_ARG_SRC_1, mask},
                   {DNNL_ARG_DST, tmp},
                   {DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC_0, sc}});
            p.impl = "binary_add(scale*x, mask)";
            p.note = "x*scale + mask by one binary_add with a runtime src0 scale";
        } else {
            dnnl::eltwise_forward::primitive_desc lin(p.eng, fwd, dnnl::algorithm::eltwise_linear, md, md,
                                                      w.scale(), 0.f);
            p.add(lin, dnnl::eltwise_forward(lin), {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, tmp}});
            p.impl = "eltwise_linear(scale)";
            p.note = "x*scale by eltwise_linear";
            if (w.has_mask()) {
                dnnl::binary::primitive_desc bpd(p.eng, dnnl::algorithm::binary_add, md, mmd, md);
                p.add(bpd, dnnl::binary(bpd),
                      {{DNNL_ARG_SRC_0, tmp}, {DNNL_ARG_SRC_1, mask}, {DNNL_ARG_DST, tmp}});
                p.impl += " + binary_add(mask) in place";
                p.note += ", + mask by binary_add in place";
            }
        }
        dnnl::softmax_forward::primitive_desc sm(p.eng, fwd, dnnl::algorithm::softmax_accurate, md, md,
                                                 rank - 1);
        p.add(sm, dnnl::softmax_forward(sm), {{DNNL_ARG_SRC, tmp}, {DNNL_ARG_DST, dst}});
        p.impl += " + softmax accurate";
        p.note += std::string(" (f32 mask") + (w.causal() ? ", the causal rows' additive mask" : "") +
                  ") into a buffer, then softmax over the last axis";
        return;
    }

    if (w.op == "layer_norm" || w.op == "rms_norm" || w.op == "skip_layer_norm") {
        const memory::dim group = dims[rank - 1], groups = w.count() / group;
        const memory::desc flat = plain({groups, group}, type);
        const bool rms = w.op == "rms_norm";
        auto flags = dnnl::normalization_flags::use_scale;
        if (rms)
            flags = flags | dnnl::normalization_flags::rms_norm;
        else
            flags = flags | dnnl::normalization_flags::use_shift;
        dnnl::layer_normalization_forward::primitive_desc pd(p.eng, fwd, flat, flat, w.eps(), flags);
        memory x = memory(flat, p.eng, src.get_data_handle());
        p.impl = rms ? "layer_normalization(rms_norm)" : "layer_normalization";
        if (w.op == "skip_layer_norm") {
            const memory::desc skd = plain({groups, group}, to_dt(w.dtype));
            memory sum(flat, p.eng);
            dnnl::binary::primitive_desc bpd(p.eng, dnnl::algorithm::binary_add, flat, skd, flat);
            p.add(bpd, dnnl::binary(bpd),
                  {{DNNL_ARG_SRC_0, x},
                   {DNNL_ARG_SRC_1, memory(skd, p.eng, in.skip.data())},
                   {DNNL_ARG_DST, sum}});
            x = sum;
            p.impl = "binary_add(skip) + layer_normalization";
            p.note = "x + skip by binary_add into a buffer, then layer_normalization (no fused skip)";
        }
        p.keep.push_back(to_f32(in.scale, w.dtype, group));
        std::unordered_map<int, memory> args{{DNNL_ARG_SRC, x},
                                             {DNNL_ARG_DST, memory(flat, p.eng, dst.get_data_handle())}};
        const memory::desc smd = plain({group}, dt::f32);
        args[DNNL_ARG_SCALE] = memory(smd, p.eng, p.keep.back().data());
        if (!rms) {
            p.keep.push_back(to_f32(in.bias, w.dtype, group));
            args[DNNL_ARG_SHIFT] = memory(smd, p.eng, p.keep.back().data());
        }
        p.add(pd, dnnl::layer_normalization_forward(pd), args);
        return;
    }

    if (w.op == "hardmax") {
        memory::dims rdims = dims;
        for (int a : w.axes) rdims[a] = 1;
        const memory::desc rmd = plain(rdims, type);
        memory mx(rmd, p.eng);
        dnnl::reduction::primitive_desc rpd(p.eng, dnnl::algorithm::reduction_max, md, rmd, 0.f, 0.f);
        dnnl::binary::primitive_desc bpd(p.eng, dnnl::algorithm::binary_eq, md, rmd, md);
        p.add(rpd, dnnl::reduction(rpd), {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, mx}});
        p.add(bpd, dnnl::binary(bpd), {{DNNL_ARG_SRC_0, src}, {DNNL_ARG_SRC_1, mx}, {DNNL_ARG_DST, dst}});
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
        const auto flags_sb =
            sb ? (dnnl::normalization_flags::use_scale | dnnl::normalization_flags::use_shift)
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
            dnnl::layer_normalization_forward::primitive_desc pd(p.eng, fwd, flat, flat, float(1e-5),
                                                                 flags_sb);
            std::unordered_map<int, memory> args{{DNNL_ARG_SRC, memory(flat, p.eng, src.get_data_handle())},
                                                 {DNNL_ARG_DST, memory(flat, p.eng, dst.get_data_handle())}};
            add_sb_memories(args, group);
            p.add(pd, dnnl::layer_normalization_forward(pd), args);
            p.impl = "layer_normalization";
            return;
        }
        if (rank >= 3 && axes == all_but_1 && (!sb || sb_dims_are({1}))) {
            dnnl::batch_normalization_forward::primitive_desc pd(p.eng, fwd, md, md, float(1e-5), flags_sb);
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
            dnnl::batch_normalization_forward::primitive_desc pd(p.eng, fwd, vmd, vmd, float(1e-5), flags_sb);
            std::unordered_map<int, memory> args{{DNNL_ARG_SRC, memory(vmd, p.eng, src.get_data_handle())},
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
        dnnl::eltwise_forward::primitive_desc lin(p.eng, fwd, dnnl::algorithm::eltwise_linear, md, md, 0.2f,
                                                  0.5f);
        dnnl::eltwise_forward::primitive_desc clip(p.eng, fwd, dnnl::algorithm::eltwise_clip, md, md, 0.f,
                                                   1.f);
        p.add(lin, dnnl::eltwise_forward(lin), {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
        p.add(clip, dnnl::eltwise_forward(clip), {{DNNL_ARG_SRC, dst}, {DNNL_ARG_DST, dst}});
        p.impl = "eltwise_linear + eltwise_clip in place";
        return;
    }
    throw std::runtime_error("unknown op " + w.op);
}

std::string version_string() {
    const dnnl_version_t* v = dnnl_version();
    return std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->patch);
}

// upcast: the workload computed in f32 between two oneDNN reorders (from and
// to its 16-bit type), for a dtype whose own kernels are missing or slower.
std::unique_ptr<Pipeline> build(const peers::Workload& w, const peers::Inputs& in, void* out,
                                const std::string& variant, bool upcast) {
    auto p = std::make_unique<Pipeline>();
    const memory::dims dims(w.shape.begin(), w.shape.end());
    const dt type = to_dt(w.dtype);
    const memory src(plain(dims, type), p->eng, in.in.data());
    const memory dst(plain(dims, type), p->eng, out);
    try {
        if (!upcast) {
            build_core(*p, w, in, type, src, dst, variant);
            return p;
        }
        const memory tmp_in(plain(dims, dt::f32), p->eng), tmp_out(plain(dims, dt::f32), p->eng);
        p->add_reorder(src, tmp_in);
        build_core(*p, w, in, dt::f32, tmp_in, tmp_out, variant);
        p->add_reorder(tmp_out, dst);
        p->impl = "reorder to f32+" + p->impl + "+reorder back";
        p->note = "emulated: f32 upcast through oneDNN reorders" + (p->note.empty() ? "" : "; " + p->note);
        return p;
    } catch (const dnnl::error& e) {
        if (type == dt::f32 || upcast) throw Unsupported(std::string("oneDNN: ") + e.what());
        throw Unsupported("no " + w.dtype + " kernel in oneDNN " + version_string() +
                          " on this CPU (its f32 upcast is timed instead)");
    }
}

}  // namespace

int main(int argc, char** argv) {
    const peers::Args args =
        peers::parse_args(argc, argv, "onednn_peer WORKLOADS DATA_DIR OUT_DIR THREADS [--only ID,...]");
    cpu_set_t cpus;
    sched_getaffinity(0, sizeof cpus, &cpus);
    if (args.threads.size() != 1 || args.threads[0] != CPU_COUNT(&cpus)) {
        std::fprintf(stderr,
                     "onednn_peer: run with one thread count, under taskset with as "
                     "many CPUs\n");
        return 2;
    }
    const std::string version = version_string();
    mkdir((args.out_dir + "/onednn").c_str(), 0755);
    peers::ResultWriter results(args.out_dir + "/onednn.jsonl", "oneDNN", version, true);
    std::fprintf(stderr, "oneDNN %s (cpu runtime %u), %d CPUs\n", version.c_str(),
                 dnnl_version()->cpu_runtime, args.threads[0]);

    peers::for_each_workload(args, [&](const peers::Workload& w, const peers::Inputs& in, double memcpy_ns) {
        const peers::Buffer out(w.bytes());
        for (int threads : args.threads) {
            for (const std::string& variant : variants(w)) {
                for (const bool upcast : {false, true}) {
                    if (upcast && w.dtype == "f32") continue;
                    peers::time_candidate(results, args, "onednn", w, threads, memcpy_ns, out,
                                          w.op + " " + variant + (upcast ? " f32 upcast" : ""), [&] {
                                              std::shared_ptr<Pipeline> p =
                                                  build(w, in, out.data(), variant, upcast);
                                              return peers::Candidate{p->name(), p->note, [p] { p->run(); }};
                                          });
                }
            }
        }
    });
    return 0;
}
