"""Checks every driver's outputs against a float64 reference and prints the
comparison table.

Usage: VENV_PYTHON check_peers.py DATA_DIR OUT_DIR TABLE_MD [--keep-outputs]
Reads OUT_DIR/{simdax,onednn,torch,ort,openvino,jax,xnnpack}.jsonl and the output files
they name; writes TABLE_MD and prints the same markdown; deletes the output
files unless --keep-outputs.

Tolerances (docs/spec.md "Accuracy", measured against float64 on the same inputs):
f32 LogSoftmax |y-ref| <= 1e-5*max(1,|ref|); Softmax and attention softmax
<= 1e-6 + 1e-5*ref; MVN, LayerNorm, RMSNorm, SkipLayerNorm and HardSigmoid
<= 1e-5*max(1,|ref|); Hardmax exact. f16/bf16: within
2 units in the last place of ref rounded to the type (docs/spec.md says 1; lenient
here), or within 1e-5*max(1,|ref|). A result that fails is shown as
"wrong" and not timed.
"""
import json
import os
import platform
import sys

import numpy as np

from peers_common import (ALPHA, BETA, EPSILON, from_bf16_bits, load_workloads,
                          read_extras, read_tensor, storage_dtype, to_bf16_bits, to_float64)

PEERS = [("onednn", "oneDNN"), ("torch", "PyTorch"), ("ort", "ONNX Runtime"),
         ("openvino", "OpenVINO"), ("jax", "JAX"), ("xnnpack", "XNNPACK")]
# The second figure of a peer, listed below the table per row: ONNX
# Runtime's call on the Python clock (its table figure is its profiler's
# model_run), OpenVINO's per-node counters (its table figure is infer()).
SECOND = {"ort": ("call_ns", "run_with_iobinding"), "openvino": ("nodes_ns", "node counters")}


# ------------------------------------------------------------ reference
def group_view(x, axes):
    """x transposed to [kept..., reduced...] and reshaped [K, G]; the
    permutation to undo it."""
    rank = x.ndim
    kept = [a for a in range(rank) if a not in axes]
    perm = kept + sorted(axes)
    t = np.transpose(x, perm)
    return t.reshape(int(np.prod([x.shape[a] for a in kept])) if kept else 1, -1), perm, t.shape


def ungroup(y2, perm, tshape):
    inv = [perm.index(a) for a in range(len(perm))]
    return np.transpose(y2.reshape(tshape), inv)


def reference(w, x, scale, bias, extras=None):
    axes = tuple(w.axes)
    extras = extras or {}
    if w.op == "attn_softmax":
        # softmax(x*scale + mask) over the last axis; the mask is 0 / -inf.
        z = x * float(np.float32(w.scale))
        if "mask" in extras:
            z = z + extras["mask"]
        m = z.max(axis=-1, keepdims=True)
        e = np.exp(z - m)
        return e / e.sum(axis=-1, keepdims=True)
    if w.op in ("layer_norm", "skip_layer_norm", "rms_norm"):
        eps = float(np.float32(w.eps))
        if w.op == "skip_layer_norm":
            x = x + extras["skip"]
        if w.op == "rms_norm":
            ms = (x * x).mean(axis=axes, keepdims=True)
            return x / np.sqrt(ms + eps) * scale
        mean = x.mean(axis=axes, keepdims=True)
        d = x - mean
        var = (d * d).mean(axis=axes, keepdims=True)
        return d / np.sqrt(var + eps) * scale + bias
    if w.op in ("log_softmax", "softmax"):
        m = x.max(axis=axes, keepdims=True)
        s = np.exp(x - m).sum(axis=axes, keepdims=True)
        return x - m - np.log(s) if w.op == "log_softmax" else np.exp(x - m) / s
    if w.op == "hardmax":
        x2, perm, tshape = group_view(x, axes)
        y2 = np.zeros_like(x2)
        y2[np.arange(x2.shape[0]), np.argmax(x2, axis=1)] = 1.0
        return ungroup(y2, perm, tshape)
    if w.op == "mvn":
        mean = x.mean(axis=axes, keepdims=True)
        d = x - mean
        var = (d * d).mean(axis=axes, keepdims=True)
        y = d / np.sqrt(var + float(np.float32(EPSILON)))
        if scale is not None:
            y = y * scale + bias
        return y
    if w.op == "hard_sigmoid":
        return np.clip(float(np.float32(ALPHA)) * x + float(np.float32(BETA)), 0.0, 1.0)
    raise ValueError(w.op)


def ulp(values, dtype):
    """Spacing of dtype at each value (values already representable)."""
    if dtype == "f16":
        return np.spacing(np.abs(values.astype(np.float16))).astype(np.float64)
    a = np.abs(values)
    _, e = np.frexp(np.where(a > 0, a, 1.0))
    sp = np.ldexp(1.0, e - 8)  # bf16: 8 significant bits
    return np.where(a >= 2.0 ** -126, sp, 2.0 ** -133)


def target_and_tolerance(w, ref):
    """(value to compare with, allowed absolute error) per element."""
    if w.op == "hardmax":
        return ref, None
    if w.dtype == "f32":
        if w.op in ("softmax", "attn_softmax"):
            return ref, 1e-6 + 1e-5 * np.abs(ref)
        return ref, 1e-5 * np.maximum(1.0, np.abs(ref))
    rounded = (ref.astype(np.float16).astype(np.float64) if w.dtype == "f16"
               else from_bf16_bits(to_bf16_bits(ref.astype(np.float32))).astype(np.float64))
    tol = np.maximum(2.0 * ulp(rounded, w.dtype),
                     1e-5 * np.maximum(1.0, np.abs(ref)) + np.abs(rounded - ref))
    return rounded, tol


def check(target, tol, y):
    """(ok, max error / tolerance (hardmax: elements that differ), worst index).
    y: the output as stored (float32, float16 or float64 for bf16), flat."""
    t = target.reshape(-1)
    if y.size != t.size:
        return False, float("inf"), -1
    if tol is None:
        bad = np.flatnonzero(y != t)
        return bad.size == 0, float(bad.size), int(bad[0]) if bad.size else -1
    tl = tol.reshape(-1)
    worst_ratio, worst = -1.0, -1
    chunk = 1 << 18  # cache-sized pieces: several passes over each
    for i in range(0, t.size, chunk):
        with np.errstate(invalid="ignore"):  # inf - inf: an inf output, NaN below
            e = np.subtract(y[i:i + chunk], t[i:i + chunk], dtype=np.float64)
        np.abs(e, out=e)
        np.divide(e, tl[i:i + chunk], out=e)
        m = float(e.max())
        if m != m:  # NaN in the output
            return False, float("inf"), i + int(np.flatnonzero(np.isnan(e))[0])
        if m > worst_ratio:
            worst_ratio, worst = m, i + int(np.argmax(e))
    return worst_ratio <= 1.0, worst_ratio, worst


# ------------------------------------------------------------ formatting
def fmt_us(ns):
    us = ns / 1e3
    if us < 10:
        return "%.2f µs" % us
    if us < 100:
        return "%.1f µs" % us
    return "{:,.0f} µs".format(us)


def fmt_ratio(r):
    return "×%.2f" % r if r < 100 else "×%.0f" % r


def ort_opt_note(out_dir, rec, w):
    """What ONNX Runtime did to a non-f32 model: inserted Casts to f32, or
    expanded the op into its ONNX function body."""
    path = rec.get("optimized_model")
    if not path or not os.path.exists(os.path.join(out_dir, path)):
        return ""
    try:
        import onnx
        m = onnx.load(os.path.join(out_dir, path))
    except Exception:  # noqa: BLE001 - the note is optional
        return ""
    ops = [n.op_type for n in m.graph.node]
    if "Cast" not in ops:
        return ""
    return ("ORT has no %s kernel for it and inserted Casts to f32 itself (runs: %s)"
            % (w.dtype, ", ".join(ops)))


def second_lines(records, workloads, threads_seen):
    """ONNX Runtime's Python call and OpenVINO's node counters, per row, for
    the configuration the table shows."""
    rows = []
    for w in workloads:
        parts = []
        for key, (field, what) in SECOND.items():
            for t in threads_seen:
                good = [r for r in records if r["key"] == key and r["id"] == w.id
                        and r["threads"] == t and r.get("correct") and r.get(field)]
                if good:
                    r = min(good, key=lambda r: r["time_ns"])
                    parts.append("%s %dT %s %s" % (dict(PEERS)[key], t, what, fmt_us(r[field])))
        if parts:
            rows.append("- %s: %s" % (w.id, ", ".join(parts)))
    if not rows:
        return []
    return ["", "Second figures of the row's fastest configuration: ONNX Runtime's "
            "run_with_iobinding on the Python clock, profiler off (the table: its own "
            "model_run); OpenVINO's sum of the executed nodes' real_time in its performance "
            "counters (the table: infer() on the Python clock; the counters leave out work "
            "outside the nodes):", ""] + rows


def summary_table(workloads, threads_seen, summary, title, cpu, versions):
    """The short table for README.md: per row and thread count, simdax, the
    fastest peer and simdax's speedup; then every row where a peer wins."""
    head = ["id", "workload", "dtype"]
    for t in threads_seen:
        head += ["simdax %dT" % t, "fastest peer %dT" % t, "simdax speedup %dT" % t]
    lines = [title.lstrip("# "), "", "%s; simdax %s; peers: %s." % (
        cpu, versions.get("simdax", "?"), ", ".join(
            "%s %s" % (name, versions[k]) for k, name in PEERS if k in versions)), "",
        "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    slower = []
    for w in workloads:
        row = [w.id, w.desc, w.dtype]
        for t in threads_seen:
            if (w.id, t) not in summary:
                row += ["-", "-", "-"]
                continue
            mine, peer, name = summary[(w.id, t)]
            if mine is None:  # simdax has no call for this op yet
                row += ["-", "%s %s" % (name, fmt_us(peer)), "-"]
                continue
            sp = peer / mine
            cell = "**%.2f×**" % sp if sp >= 1 else "%.2f× (%s faster)" % (sp, name)
            row += [fmt_us(mine), "%s %s" % (name, fmt_us(peer)), cell]
            if sp < 1:
                slower.append("%s %dT: %s %s against simdax %s (simdax takes %.2f× its time)"
                              % (w.id, t, name, fmt_us(peer), fmt_us(mine), mine / peer))
        lines.append("| " + " | ".join(row) + " |")
    lines += ["", "Rows where a peer beats simdax: " + ("none." if not slower else "")]
    lines += ["- " + v for v in slower]
    return "\n".join(lines) + "\n"


def cpu_name():
    """Model name, family/model and the AVX-512 features that matter here."""
    info = {}
    try:
        for line in open("/proc/cpuinfo"):
            k, _, v = line.partition(":")
            info.setdefault(k.strip(), v.strip())
    except OSError:
        return platform.machine()
    flags = set(info.get("flags", "").split())
    have = lambda f: "yes" if f in flags else "no"  # noqa: E731
    return "%s (family %s model %s; AVX-512 %s, AVX512-BF16 %s, AVX512-FP16 %s)" % (
        info.get("model name", platform.machine()), info.get("cpu family", "?"),
        info.get("model", "?"), have("avx512f"), have("avx512_bf16"), have("avx512_fp16"))


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    keep = "--keep-outputs" in sys.argv
    data_dir, out_dir, table_md = args
    workloads = load_workloads()
    by_id = {w.id: w for w in workloads}

    records = []
    for peer in ["simdax"] + [p for p, _ in PEERS]:
        path = os.path.join(out_dir, peer + ".jsonl")
        if os.path.exists(path):
            with open(path) as f:
                for line in f:
                    r = json.loads(line)
                    r["key"] = peer
                    records.append(r)

    # Check every output, one workload's reference in memory at a time.
    for w in workloads:
        mine = [r for r in records if r["id"] == w.id and r["status"] == "ok"]
        if not mine:
            continue
        x = to_float64(read_tensor(data_dir, w, "in"), w.dtype)
        s = b = None
        if w.sb_shape:
            s = to_float64(read_tensor(data_dir, w, "scale"), w.dtype)
            b = to_float64(read_tensor(data_dir, w, "bias"), w.dtype)
        extras = {k: to_float64(v, "f32" if k == "mask" else w.dtype)
                  for k, v in read_extras(data_dir, w).items()}
        ref = reference(w, x, s, b, extras)
        del x, extras
        target, tol = target_and_tolerance(w, ref)
        for r in mine:
            path = os.path.join(out_dir, r["out"])
            y = None
            try:
                y = np.fromfile(path, dtype=storage_dtype(w.dtype))
                if w.dtype == "bf16":
                    y = from_bf16_bits(y)
                ok, ratio, worst = check(target, tol, y)
            except OSError as e:
                ok, ratio, worst = False, float("inf"), -1
                r["reason"] = str(e)
            r["correct"] = ok
            r["err_ratio"] = ratio
            if not ok:
                r["worst"] = worst
                if worst >= 0 and y is not None and y.size == ref.size:
                    r["worst_vals"] = (float(y.flat[worst]), float(target.flat[worst]))
            if not keep and os.path.exists(path):
                os.remove(path)
    with open(os.path.join(out_dir, "checked.json"), "w") as f:
        json.dump(records, f, indent=1)

    threads_seen = sorted({r["threads"] for r in records if r["id"] in by_id})
    versions = {}
    for r in records:
        versions.setdefault(r["key"], r["version"])
    overhead = {r["threads"]: r for r in records if r["key"] == "ort" and r["id"] == "overhead"}

    notes = []  # footnote texts

    def note_ref(text):
        if text not in notes:
            notes.append(text)
        return "[%d]" % (notes.index(text) + 1)

    def memcpy_of(rec):
        """The record's own memcpy baseline; ONNX Runtime's and OpenVINO's
        drivers time none, so they take the one simdax_peer timed."""
        if rec.get("memcpy_ns"):
            return rec["memcpy_ns"]
        native = [r["memcpy_ns"] for r in records
                  if r["id"] == rec["id"] and r["key"] == "simdax" and r.get("memcpy_ns")]
        return native[0] if native else float("nan")

    def na_reason(rs):
        """The note text of a peer's row it could not run."""
        plain = sorted({r["reason"] for r in rs})
        return "; ".join(plain if len(plain) == 1 else sorted(
            {"%s: %s" % (r["impl"], r["reason"]) for r in rs}))

    def best(key, wid, t):
        """(best correct record, list of all records) for a peer and row."""
        rs = [r for r in records if r["key"] == key and r["id"] == wid and r["threads"] == t]
        good = [r for r in rs if r["status"] == "ok" and r.get("correct")]
        return (min(good, key=lambda r: r["time_ns"]) if good else None), rs

    def cells_simdax_na(wid, t):
        rs = best("simdax", wid, t)[1]
        return bool(rs) and not any(r["status"] == "ok" for r in rs)

    # Rows a peer cannot run, grouped by reason: one note lists them all.
    na_rows = {}
    for w in workloads:
        for t in threads_seen:
            for key, _ in PEERS:
                rs = best(key, w.id, t)[1]
                if rs and not any(r["status"] == "ok" for r in rs):
                    ids = na_rows.setdefault((key, na_reason(rs)), [])
                    if w.id not in ids:
                        ids.append(w.id)

    head = ["id", "workload", "dtype", "thr",
            "simdax %s" % versions.get("simdax", "")]
    for key, name in PEERS:
        h = "%s %s" % (name, versions.get(key, "(not run)"))
        if key == "ort" and overhead:
            h += " own time (Identity [4]: model_run %s; run_with_iobinding %s)" % tuple(
                ", ".join("%dT %s" % (t, fmt_us(overhead[t][f])) for t in sorted(overhead)
                          if overhead[t].get(f))
                for f in ("time_ns", "call_ns"))
        head.append(h)
    head += ["fastest peer", "simdax speedup"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    what_ran = {}
    speedups = []
    summary = {}  # (id, threads) -> (simdax ns, fastest peer ns, its name)
    ran_ids = {r["id"] for r in records}
    workloads = [w for w in workloads if w.id in ran_ids]
    for w in workloads:
        for t in threads_seen:
            row = [w.id, w.desc, w.dtype, "%d" % t]
            cells = {}
            for key, _ in [("simdax", "simdax")] + PEERS:
                b, rs = best(key, w.id, t)
                if b is not None:
                    cell = "%s %s" % (fmt_us(b["time_ns"]),
                                      fmt_ratio(b["time_ns"] / memcpy_of(b)))
                    n = b.get("note") or ""
                    if key == "ort":
                        extra = ort_opt_note(out_dir, b, w)
                        n = "; ".join(v for v in (n, extra) if v)
                    bad = sorted({r["impl"] for r in rs
                                  if r["status"] == "ok" and not r.get("correct")})
                    if bad:
                        n = "; ".join(v for v in (n, "also tried, wrong results: " + ", ".join(bad)) if v)
                    if n:
                        cell += " " + note_ref("%s %s: %s" % (dict(PEERS).get(key, key), w.id, n))
                    if t == threads_seen[0]:
                        what_ran.setdefault(w.id, {})[key] = b["impl"]
                    cells[key] = b
                elif not rs:
                    cell = "not run"
                elif key == "simdax" and not any(r["status"] == "ok" for r in rs):
                    cell = "-"  # an op simdax_peer has no call for yet
                else:
                    wrong = [r for r in rs if r["status"] == "ok"]
                    if wrong:
                        r = min(wrong, key=lambda r: r["err_ratio"])
                        detail = "max err %.3g× tolerance" % r["err_ratio"]
                        if w.op == "hardmax" and r["err_ratio"] != float("inf"):
                            detail = "%d elements differ" % int(r["err_ratio"])
                        if "worst_vals" in r:
                            detail += ", got %.7g want %.7g" % r["worst_vals"]
                        cell = "wrong " + note_ref("%s %s: %s gave wrong results (%s)%s" % (
                            dict(PEERS).get(key, key), w.id, r["impl"], detail,
                            "; " + r["note"] if r.get("note") else ""))
                    else:
                        reason = na_reason(rs)
                        ids = na_rows.get((key, reason), [w.id])
                        cell = "n/a " + note_ref("%s %s: %s" % (
                            dict(PEERS).get(key, key), ", ".join(ids), reason))
                row.append(cell)
            peer_best = [(cells[k]["time_ns"], name) for k, name in PEERS if k in cells]
            if peer_best:
                pt, pname = min(peer_best)
                row.append(pname)
                if "simdax" in cells:
                    sp = pt / cells["simdax"]["time_ns"]
                    row.append("**%.2f×**" % sp)
                    speedups.append((w.id, t, sp, pname))
                    summary[(w.id, t)] = (cells["simdax"]["time_ns"], pt, pname)
                else:
                    row.append("-" if cells_simdax_na(w.id, t) else "simdax not timed")
                    summary[(w.id, t)] = (None, pt, pname)
            else:
                row += ["none", "-"]
            lines.append("| " + " | ".join(row) + " |")

    load = os.environ.get("PEERS_LOAD", "")
    if load:
        load = ", load average %s" % load
    cpu = cpu_name()
    isa = os.environ.get("PEERS_ISA", "")
    title = "# simdax vs oneDNN, PyTorch, ONNX Runtime, OpenVINO, JAX, XNNPACK"
    if isa:
        title += " (%s)" % isa
    out = [title, "",
           "Machine: %s, %d cores%s. simdax ran on ISA %s. `thr`: threads (1, and all the "
           "machine's cores). "
           "Each cell: median time per call, then × the time of a memcpy of the input's bytes "
           "measured in the same process (single-threaded memcpy; the copy reads and writes "
           "what the op does, up to Scale/Bias). Only outputs that match the float64 reference "
           "are timed (wrong = failed the check, n/a = the peer cannot run it); a peer's figure "
           "is the fastest of its correct candidate implementations (listed below the table). "
           "Speedup = fastest peer's time / simdax's time (> 1: simdax is faster). "
           "ONNX Runtime (CPU provider, all graph optimizations, intra-op threads = thr, "
           "io_binding): its own time per run, from its profiler (the `model_run` event), "
           "which includes the profiler's bookkeeping, a few µs per node (the Identity model's "
           "model_run in the header bounds it); it uses the memcpy timed by the simdax "
           "process. OpenVINO (CPU plugin, 1 stream, INFERENCE_NUM_THREADS = thr), PyTorch "
           "(eager or torch.compile) and JAX (jit): Python calls, dispatch included. "
           "OpenVINO's per-node counters and ORT's Python call are listed below the table."
           % (cpu, os.cpu_count() or 0, load, versions.get("simdax", "?").split()[-1]),
           ""]
    out += lines
    if speedups:
        per = {}
        for wid, t, sp, pname in speedups:
            per.setdefault(wid, []).append("%dT %.2f× (vs %s)" % (t, sp, pname))
        out += ["", "simdax speedup over the fastest peer: " + "; ".join(
            "%s %s" % (wid, ", ".join(v)) for wid, v in per.items()) + "."]
    out += second_lines(records, workloads, threads_seen)
    out += ["", "Notes:", ""]
    out += ["%d. %s" % (i + 1, n) for i, n in enumerate(notes)]
    out += ["", "What each peer ran (fastest correct candidate, 1 thread):", ""]
    for w in workloads:
        ran = what_ran.get(w.id, {})
        parts = ["%s: %s" % (dict(PEERS, simdax="simdax").get(k, k), ran[k])
                 for k in ["simdax"] + [p for p, _ in PEERS] if k in ran]
        out.append("- %s %s — %s" % (w.id, w.desc, "; ".join(parts)))
    text = "\n".join(out) + "\n"
    summary_md = os.path.join(os.path.dirname(os.path.abspath(table_md)), "summary.md")
    with open(summary_md, "w") as f:
        f.write(summary_table(workloads, threads_seen, summary, title, cpu, versions))
    os.makedirs(os.path.dirname(os.path.abspath(table_md)), exist_ok=True)
    with open(table_md, "w") as f:
        f.write(text)
    print(text)
    wrong_simdax = [r for r in records if r["key"] == "simdax" and r["status"] == "ok"
                    and not r.get("correct")]
    if wrong_simdax:
        print("simdax results failed the check: %s"
              % ", ".join("%s/%dT" % (r["id"], r["threads"]) for r in wrong_simdax))
    return 0


if __name__ == "__main__":
    sys.exit(main())
