"""OpenVINO side of the peer comparison: models built with its opset API,
compiled for CPU.

Usage: VENV_PYTHON openvino_peer.py DATA_DIR OUT_DIR [THREADS...] [--only ID,...]

Per workload, thread count and precision hint (f32; for a float16/bfloat16
workload also bf16 and f16: the plugin computes in the hint's type where
this CPU has it and in f32 otherwise) one compiled model: NUM_STREAMS 1,
INFERENCE_NUM_THREADS = threads, PERFORMANCE_HINT LATENCY. Input and output
tensors are set once on the infer request (the output preallocated).

Two figures per candidate:
- time_ns, what the table compares: infer(share_outputs=True) on the Python
  clock (no copy of the output into a new array), in a model compiled
  without PERF_COUNT, under the shared timing rule.
- nodes_ns, OpenVINO's own figure: the sum of the executed nodes' real_time
  in the performance counters (PERF_COUNT, infer_request.profiling_info) of
  each call, by the same rule, in a model compiled with PERF_COUNT. It
  leaves out work outside the nodes: on large tensors infer() takes up to
  2-3x that sum (M2, named LN2 before issue 35: 19 ms against 8.5 ms), far
  more than Python's ~10 µs per call, so it is listed beside the wall time,
  not compared.
OpenVINO's CPU plugin picks its kernels by CPUID and has no ISA cap that a
user can set.
"""
import os
import sys

import ml_dtypes
import numpy as np
import openvino as ov

from peers_common import (ALPHA, BETA, EPSILON, ResultWriter, load_workloads, out_name,
                          pop_only, read_extras, read_tensor, time_call_batches, own_time)

# The newest opset module that has every op used here (opset17's module
# holds only what opset17 added).
OPS = None
for _v in range(20, 7, -1):
    try:
        OPS = __import__("openvino.opset%d" % _v, fromlist=["*"])
    except ImportError:
        continue
    if all(hasattr(OPS, op) for op in ("log_softmax", "mvn", "hard_sigmoid", "one_hot", "topk")):
        OPSET = _v
        break
NP = {"f32": np.float32, "f16": np.float16, "bf16": ml_dtypes.bfloat16}
OVT = {"f32": ov.Type.f32, "f16": ov.Type.f16, "bf16": ov.Type.bf16}


def const(v, dtype):
    if dtype == "bf16":  # no numpy bfloat16 constants: f32, converted (and folded) by OpenVINO
        return OPS.convert(OPS.constant(np.asarray(v, dtype=np.float32)), "bf16")
    return OPS.constant(np.asarray(v, dtype=NP[dtype]))


def i64(v):
    return OPS.constant(np.asarray(v, dtype=np.int64))


def graphs(w, scale, bias):
    """[(impl, note, fn(param, extras) -> output node)] for workload w;
    extras: the Parameters beside x by name (mask f32, skip)."""
    rank = len(w.shape)
    axes = sorted(w.axes)
    out = []
    if w.op == "attn_softmax":
        def attn(x, p):
            z = OPS.multiply(x, const(w.scale, w.dtype))
            if "mask" in p:
                m = p["mask"] if w.dtype == "f32" else OPS.convert(p["mask"], OVT[w.dtype])
                z = OPS.add(z, m)
            return OPS.softmax(z, rank - 1)

        out.append(("Multiply+Add+Softmax", "x*scale + mask Parameter (f32%s), Softmax(-1)" % (
            "; causal: the additive mask" if w.causal else ""), attn))
        return out
    if w.op in ("layer_norm", "skip_layer_norm", "rms_norm"):
        eps = w.eps

        def dt_of(x):  # the compute dtype of a node: f32, or the row's own
            return "f32" if x.get_element_type() == ov.Type.f32 else w.dtype

        def src(x, p):
            if w.op != "skip_layer_norm":
                return x
            s = p["skip"]
            return OPS.add(x, s if dt_of(x) == w.dtype else OPS.convert(s, "f32"))

        def rms(x, p):
            d = dt_of(x)
            ms = OPS.reduce_mean(OPS.multiply(x, x), i64([-1]), True)
            return OPS.multiply(OPS.divide(x, OPS.sqrt(OPS.add(ms, const(eps, d)))), const(scale, d))

        def rms_pow(x, p):
            d = dt_of(x)
            ms = OPS.reduce_mean(OPS.power(x, const(2.0, d)), i64([-1]), True)
            inv = OPS.power(OPS.add(ms, const(eps, d)), const(-0.5, d))
            return OPS.multiply(OPS.multiply(x, inv), const(scale, d))

        def ln(x, p):
            d = dt_of(x)
            y = OPS.mvn(src(x, p), i64([-1]), True, eps, "inside_sqrt")
            return OPS.add(OPS.multiply(y, const(scale, d)), const(bias, d))

        if w.op == "rms_norm":
            cands = [("RMS composite x/sqrt(mean(x*x)+eps)*g",
                      "composite: Multiply, ReduceMean, Add, Sqrt, Divide, Multiply (opset%d has no "
                      "RMS op; the CPU plugin may fuse it into its internal RMS)" % OPSET, rms),
                     ("RMS composite x*pow(mean(x^2)+eps,-0.5)*g",
                      "composite: Power 2, ReduceMean, Add, Power -0.5, Multiply, Multiply (the "
                      "pattern of the CPU plugin's RMSFusion)", rms_pow)]
        else:
            cands = [("%sMVN+Multiply+Add" % ("Add+" if w.op == "skip_layer_norm" else ""),
                      "LayerNorm as MVN(axis -1, eps inside sqrt) * gamma + beta" +
                      ("; x + skip first" if w.op == "skip_layer_norm" else ""), ln)]
        for impl, note, fn in cands:
            out.append((impl, note, fn))
            if w.dtype != "f32":  # the plugin's bf16 MVN fails the check (M2b, LN2b)
                out.append((impl + " f32 upcast", "emulated: Convert to f32 in the model, then "
                            "Convert back; " + note,
                            lambda x, p, fn=fn: OPS.convert(fn(OPS.convert(x, "f32"), p), w.dtype)))
        return out
    if w.op in ("log_softmax", "softmax"):
        single = OPS.log_softmax if w.op == "log_softmax" else OPS.softmax
        name = "LogSoftmax" if w.op == "log_softmax" else "Softmax"
        if len(axes) == 1:
            out.append((name, "", lambda x, p: single(x, axes[0])))
        else:
            kept = [a for a in range(rank) if a not in axes]
            perm = kept + axes
            inv = [perm.index(a) for a in range(rank)]
            groups = int(np.prod([w.shape[a] for a in kept])) if kept else 1

            def permuted(x):
                t = OPS.transpose(x, i64(perm))
                r = OPS.reshape(t, i64([groups, -1]), False)
                s = single(r, 1)
                b = OPS.reshape(s, i64([w.shape[a] for a in perm]), False)
                return OPS.transpose(b, i64(inv))

            def composite(x):
                m = OPS.reduce_max(x, i64(axes), True)
                d = OPS.subtract(x, m)
                e = OPS.exp(d)
                s = OPS.reduce_sum(e, i64(axes), True)
                if w.op == "softmax":
                    return OPS.divide(e, s)
                return OPS.subtract(d, OPS.log(s))

            out.append(("Transpose+%s+Transpose" % name,
                        "emulated: Transpose, %s over the flattened axes, Transpose back" % name,
                        lambda x, p: permuted(x)))
            out.append(("ReduceMax/Exp/ReduceSum composite",
                        "composite: ReduceMax, Subtract, Exp, ReduceSum, %s" %
                        ("Divide" if w.op == "softmax" else "Log, Subtract"),
                        lambda x, p: composite(x)))
    elif w.op == "hardmax":
        if len(axes) == 1:
            a = axes[0]

            def hardmax(x):
                idx = OPS.topk(x, i64(1), a, "max", "none", "i64").output(1)
                idx = OPS.squeeze(idx, i64([a]))
                return OPS.one_hot(idx, i64(w.shape[a]), const(1, w.dtype), const(0, w.dtype), a)

            out.append(("TopK+OneHot", "composite (OpenVINO has no Hardmax): one-hot of TopK(k=1) "
                        "indices", lambda x, p: hardmax(x)))
    elif w.op == "mvn":
        def mvn(x):
            y = OPS.mvn(x, i64(axes), True, EPSILON, "inside_sqrt")
            if scale is not None:
                y = OPS.add(OPS.multiply(y, const(scale, w.dtype)), const(bias, w.dtype))
            return y

        out.append(("MVN" + ("+Multiply+Add" if scale is not None else ""), "",
                    lambda x, p: mvn(x)))
    elif w.op == "hard_sigmoid":
        out.append(("HardSigmoid", "", lambda x, p: OPS.hard_sigmoid(
            x, const(ALPHA, w.dtype), const(BETA, w.dtype))))
    return out


def extra_params(w, extras):
    """The Parameters beside x, in the order of extras (mask f32, skip)."""
    return {k: OPS.parameter(list(v.shape), ov.Type.f32 if k == "mask" else OVT[w.dtype], name=k)
            for k, v in extras.items()}


def compiled(core, w, fn, threads, hint, perf, extras):
    x = OPS.parameter(w.shape, OVT[w.dtype], name="x")
    p = extra_params(w, extras)
    model = ov.Model([fn(x, p)], [x] + list(p.values()), "peer")
    return core.compile_model(model, "CPU", {
        "NUM_STREAMS": "1", "INFERENCE_NUM_THREADS": str(threads),
        "PERFORMANCE_HINT": "LATENCY", "INFERENCE_PRECISION_HINT": hint,
        "PERF_COUNT": "YES" if perf else "NO"})


def request(cm, w, x, y, extras):
    """An infer request with input x (and the extras, in Parameter order)
    and preallocated output y bound."""
    r = cm.create_infer_request()
    r.set_input_tensor(0, ov.Tensor(x, w.shape, OVT[w.dtype]))
    for i, (k, v) in enumerate(extras.items()):
        r.set_input_tensor(i + 1, ov.Tensor(v, list(v.shape), ov.Type.f32 if k == "mask"
                                            else OVT[w.dtype]))
    r.set_output_tensor(ov.Tensor(y, w.shape, OVT[w.dtype]))
    return r


def own_ns(req):
    return sum(p.real_time.total_seconds() * 1e9 for p in req.profiling_info
               if p.status == ov.ProfilingInfo.Status.EXECUTED)


def main():
    argv = sys.argv[1:]
    only = pop_only(argv)
    data_dir, out_dir = argv[:2]
    threads_list = [int(t) for t in argv[2:]] or [1]
    os.makedirs(os.path.join(out_dir, "openvino"), exist_ok=True)
    version = ov.get_version().split("-")[0]
    res = ResultWriter(os.path.join(out_dir, "openvino.jsonl"), "OpenVINO", version)
    core = ov.Core()
    print("OpenVINO %s (opset%d), CPU: %s" % (version, OPSET, core.get_property(
        "CPU", "FULL_DEVICE_NAME")), file=sys.stderr)

    for w in load_workloads():
        if only and w.id not in only:
            continue
        x = np.ascontiguousarray(read_tensor(data_dir, w, "in"))  # bf16 as its bits
        scale = bias = None
        if w.sb_shape:
            scale = read_tensor(data_dir, w, "scale").view(NP[w.dtype]) if w.dtype == "bf16" \
                else read_tensor(data_dir, w, "scale")
            bias = read_tensor(data_dir, w, "bias").view(NP[w.dtype]) if w.dtype == "bf16" \
                else read_tensor(data_dir, w, "bias")
        extras = {k: np.ascontiguousarray(v) for k, v in read_extras(data_dir, w).items()}
        cands = graphs(w, scale, bias)
        for t in threads_list:
            if not cands:
                res.write(w, t, "-", "", "unsupported",
                          reason="no OpenVINO op or composite for this axis set")
                continue
            hints = ["f32"] if w.dtype == "f32" else ["f32", "bf16", "f16"]
            for impl, note, fn in cands:
                for hint in hints:
                    name_impl = "%s, precision hint %s" % (impl, hint)
                    y = np.zeros_like(x)
                    try:
                        req = request(compiled(core, w, fn, t, hint, True, extras), w, x, y,
                                      extras)
                        per_call = []

                        def run(req=req, per_call=per_call):
                            req.infer(share_outputs=True)
                            per_call.append(own_ns(req))
                        _, k, batches = time_call_batches(run)
                        plain = request(compiled(core, w, fn, t, hint, False, extras), w, x, y,
                                        extras)
                        ns = time_call_batches(lambda: plain.infer(share_outputs=True))[0]
                    except Exception as err:  # noqa: BLE001 - the reason is the cell's note
                        res.write(w, t, name_impl, note, "unsupported",
                                  reason=str(err).split("\n")[0][:200])
                        print("  %-4s %dT %s: %s" % (w.id, t, name_impl, str(err)[:100]),
                              file=sys.stderr)
                        continue
                    nodes = own_time(per_call, 0, k, batches)
                    execs = sorted({p.exec_type for p in req.profiling_info
                                    if p.status == ov.ProfilingInfo.Status.EXECUTED})
                    name_impl += " [%s]" % ",".join(execs)
                    fname = out_name("openvino", w, t, name_impl)
                    y.tofile(os.path.join(out_dir, fname))
                    res.write(w, t, name_impl, note, "ok", ns, None, fname,
                              extra={"nodes_ns": nodes})
                    print("  %-4s %dT %-60s %10.1f us (nodes %.1f us)" % (
                        w.id, t, name_impl, ns / 1e3, nodes / 1e3), file=sys.stderr)
    res.close()


if __name__ == "__main__":
    main()
