"""ONNX Runtime side of the peer comparison: the onnxruntime wheel's Python
API, CPU execution provider, the models of make_models.py.

Usage: VENV_PYTHON ort_peer.py DATA_DIR MODEL_DIR OUT_DIR [THREADS...] [--only ID,...]

One session per model and thread count (intra_op_num_threads 1 or N,
inter_op_num_threads 1, sequential, all graph optimizations), ORT's profiler
on. Input and output are bound once with io_binding (the output either
preallocated by us or left to ORT's arena); every call is run_with_iobinding.

Two figures:
- time_ns, ORT's own time: the profiler's `model_run` duration of every run
  (InferenceSession::Run inside ORT, from feeds to fetches), under the shared
  timing rule. This is what the table compares. It includes the profiler's
  own bookkeeping (a few µs per node; Identity on 4 floats bounds it).
- call_ns, what a Python caller sees: run_with_iobinding on the Python clock,
  in a session without the profiler, for the row's fastest configuration.
ORT picks its kernels (MLAS) by CPUID: it has no ISA cap.
"""
import json
import os
import sys
import time
import types

import numpy as np
import onnxruntime as ort

from peers_common import (ResultWriter, load_workloads, out_name, read_extras, read_tensor,
                          pop_only, time_call_batches, own_time)

BFLOAT16 = 16  # onnx.TensorProto.BFLOAT16
# The profiler's durations are whole microseconds, truncated: +0.5 µs per run
# removes that bias on average.
PROFILE_TRUNCATION_NS = 500


def session(model, threads, prof_prefix=None, optimized=None):
    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    so.log_severity_level = 3
    if prof_prefix:
        so.enable_profiling = True
        so.profile_file_prefix = prof_prefix
    if optimized:
        so.optimized_model_filepath = optimized
    return ort.InferenceSession(model, so, providers=["CPUExecutionProvider"])


def ortvalue(a):
    """An OrtValue over numpy array a's memory; uint16 arrays hold bfloat16
    bits (numpy has no bfloat16 of its own)."""
    if a.dtype == np.uint16:
        return ort.OrtValue.ortvalue_from_numpy_with_onnx_type(a, BFLOAT16)
    return ort.OrtValue.ortvalue_from_numpy(a)


def bound(sess, x, preallocated, extras=None):
    """An io_binding of x, the model's other inputs (mask, skip: by name from
    extras) and the output (ours, or ORT's if preallocated is None)."""
    b = sess.io_binding()
    b.bind_ortvalue_input("x", ortvalue(x))
    for i in sess.get_inputs():
        if i.name != "x":
            b.bind_ortvalue_input(i.name, ortvalue(extras[i.name]))
    if preallocated is None:
        b.bind_output("y", "cpu")
    else:
        b.bind_ortvalue_output("y", ortvalue(preallocated))
    return b


def model_runs_ns(sess):
    """Ends the session's profile: model_run durations (ns) in run order."""
    path = sess.end_profiling()
    with open(path) as f:
        events = json.load(f)
    os.remove(path)
    runs = sorted((e for e in events if e.get("cat") == "Session" and e.get("name") == "model_run"),
                  key=lambda e: e["ts"])
    return [e["dur"] * 1e3 + PROFILE_TRUNCATION_NS for e in runs]


def time_profiled(sess, x, outputs, extras=None):
    """Times each output binding (a preallocated array or None) in one
    profiled session: [(own ns, output array)]."""
    runs = [0]
    timed = []
    for pre in outputs:
        b = bound(sess, x, pre, extras)

        def run(b=b):
            runs[0] += 1
            sess.run_with_iobinding(b)
        first = runs[0]
        _, k, batches = time_call_batches(run)
        run()
        y = pre if pre is not None else b.get_outputs()[0].numpy()
        timed.append((first, k, batches, np.array(y, copy=True)))
    per_call = model_runs_ns(sess)
    if len(per_call) != runs[0]:
        raise RuntimeError("profile has %d model_run events for %d runs" % (len(per_call), runs[0]))
    return [(own_time(per_call, first, k, batches), y) for first, k, batches, y in timed]


def call_ns(model, threads, x, pre, extras=None):
    sess = session(model, threads)
    b = bound(sess, x, pre, extras)
    return time_call_batches(lambda: sess.run_with_iobinding(b))[0]


def main():
    argv = sys.argv[1:]
    only = pop_only(argv)
    data_dir, model_dir, out_dir = argv[:3]
    threads_list = [int(t) for t in argv[3:]] or [1]
    with open(os.path.join(model_dir, "manifest.json")) as f:
        manifest = json.load(f)["workloads"]
    os.makedirs(os.path.join(out_dir, "ort", "profile"), exist_ok=True)
    prof = lambda name: os.path.join(out_dir, "ort", "profile", name)  # noqa: E731
    res = ResultWriter(os.path.join(out_dir, "ort.jsonl"), "ONNX Runtime", ort.__version__)
    print("ONNX Runtime %s" % ort.__version__, file=sys.stderr)

    identity = os.path.join(model_dir, "identity.onnx")
    for t in threads_list:
        x = np.zeros(4, np.float32)
        [(own, _)] = time_profiled(session(identity, t, prof("identity")), x, [np.zeros(4, np.float32)])
        res.write(types.SimpleNamespace(id="overhead"), t, "Identity [4] f32", "", "ok", own, extra={
            "call_ns": call_ns(identity, t, x, np.zeros(4, np.float32))})

    for w in load_workloads():
        if only and w.id not in only:
            continue
        x = read_tensor(data_dir, w, "in")  # bfloat16 as its uint16 bits
        extras = {k: np.ascontiguousarray(v) for k, v in read_extras(data_dir, w).items()}
        entries = manifest.get(w.id, [])
        if not entries:
            for t in threads_list:
                res.write(w, t, "-", "", "unsupported", reason="no ONNX operator for this axis set")
            continue
        for t in threads_list:
            fastest = None
            recs = []
            for k, e in enumerate(entries):
                prefix = "%s.%d.t%d" % (w.id, k, t)
                opt = None
                if w.dtype != "f32" and not e["upcast"]:
                    # Kept so check_peers.py can tell whether ORT inserted Casts to f32.
                    opt = os.path.join(out_dir, "ort", prefix + ".opt.onnx")
                model = os.path.join(model_dir, e["file"])
                try:
                    sess = session(model, t, prof(prefix), opt)
                except Exception as err:  # noqa: BLE001 - no kernel: n/a with ORT's reason
                    reason = str(err).split("\n")[0][:200]
                    recs.append((e["impl"], e["note"], "unsupported", None, None, reason, {}))
                    print("  %-4s %dT %s: unsupported: %s" % (w.id, t, e["impl"], reason[:100]),
                          file=sys.stderr)
                    continue
                extra = {"optimized_model": os.path.relpath(opt, out_dir)} if opt else {}
                outputs = [("preallocated output", np.empty_like(x))]
                if w.dtype != "bf16":  # the Python API cannot fetch a bfloat16 OrtValue
                    outputs.append(("ORT-allocated output", None))
                try:
                    timed = time_profiled(sess, x, [o for _, o in outputs], extras)
                except Exception as err:  # noqa: BLE001
                    recs.append((e["impl"], e["note"], "error", None, None, str(err)[:200], extra))
                    continue
                for (how, pre), (own, y) in zip(outputs, timed):
                    impl = "%s, %s" % (e["impl"], how)
                    name = out_name("ort", w, t, impl)
                    y.tofile(os.path.join(out_dir, name))
                    rec = [impl, e["note"], "ok", own, name, "", dict(extra)]
                    recs.append(rec)
                    if fastest is None or own < fastest[0][3]:
                        fastest = (rec, model, pre)
                    print("  %-4s %dT %-50s %10.1f us" % (w.id, t, impl, own / 1e3), file=sys.stderr)
                del sess
            if fastest:
                rec, model, pre = fastest
                rec[6]["call_ns"] = call_ns(model, t, x, pre if pre is None else np.empty_like(x),
                                            extras)
            for impl, note, status, own, name, reason, extra in recs:
                res.write(w, t, impl, note, status, own, None, name, reason, extra=extra)
    res.close()


if __name__ == "__main__":
    t0 = time.time()
    main()
    print("ort_peer.py: %.0f s" % (time.time() - t0), file=sys.stderr)
