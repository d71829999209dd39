"""Shared by the Python parts of the peer comparison (make_data.py,
make_models.py, torch_peer.py, check_peers.py): the workload list, the data
files every driver reads, and the timing rule every driver follows.

Run with the peers' venv python (build/peers/venv, requirements.txt).
"""
import json
import math
import os
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
EPSILON = 1e-5
ALPHA = 0.2
BETA = 0.5

# Timing rule (same constants in peer_common.hpp):
# warm-up, then batches of k calls (k makes one batch >= BATCH_NS); batches
# until TIME_BUDGET_NS has passed and at least MIN_SAMPLES were taken (at most
# MAX_SAMPLES); the figure is the median of batch time / k.
BATCH_NS = 200_000
TIME_BUDGET_NS = 150_000_000
MIN_SAMPLES = 5
MAX_SAMPLES = 61


class Workload:
    def __init__(self, wid, op, dtype, shape, axes, sb_shape, params=None):
        self.id = wid
        self.op = op
        self.dtype = dtype
        self.shape = shape
        self.axes = axes
        self.sb_shape = sb_shape
        self.params = params or {}  # the 7th column, key -> value text

    # attn_softmax / layer_norm / rms_norm / skip_layer_norm parameters
    @property
    def scale(self):
        return float(self.params.get("scale", 1.0))

    @property
    def eps(self):
        return float(self.params.get("eps", EPSILON))

    @property
    def causal(self):
        return self.params.get("causal", "0") == "1"

    @property
    def mask_shape(self):
        """Shape of the additive f32 mask (<id>.mask), or None: the mask=
        parameter, or 1x1xSqxSkv for a causal row."""
        if "mask" in self.params:
            return _dims(self.params["mask"])
        if self.causal:
            return [1, 1, self.shape[-2], self.shape[-1]]
        return None

    @property
    def has_skip(self):
        return self.op == "skip_layer_norm"

    @property
    def count(self):
        return int(np.prod(self.shape))

    @property
    def desc(self):
        s = "%s %s axes{%s}" % (self.op, "x".join(map(str, self.shape)),
                                ",".join(map(str, self.axes)) or "-")
        if self.sb_shape:
            s += " S/B " + "x".join(map(str, self.sb_shape))
        if self.params:
            s += " " + ",".join("%s=%s" % kv for kv in self.params.items())
        return s


def _dims(text):
    return [] if text == "-" else [int(v) for v in text.split("x")]


def load_workloads(path=None):
    path = path or os.path.join(HERE, "workloads.txt")
    out = []
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            cols = line.split()
            if len(cols) not in (6, 7):
                raise ValueError("bad workload line: " + line)
            wid, op, dtype, shape, axes, sb = cols[:6]
            params = {}
            if len(cols) == 7 and cols[6] != "-":
                for kv in cols[6].split(","):
                    k, v = kv.split("=", 1)
                    params[k] = v
            out.append(Workload(wid, op, dtype, _dims(shape),
                                [] if axes == "-" else [int(a) for a in axes.split(",")],
                                _dims(sb), params))
    return out


def make_mask(w):
    """The additive float32 mask of an attn_softmax row (0 or -inf), or None."""
    shape = w.mask_shape
    if shape is None:
        return None
    m = np.zeros(shape, np.float32)
    skv = shape[-1]
    k = np.arange(skv)
    if w.causal:
        sq = shape[-2]
        i = np.arange(sq)[:, None]
        m[...] = np.where(k[None, :] <= i + (skv - sq), 0.0, -np.inf).astype(np.float32)
    elif "pad" in w.params:
        p = int(w.params["pad"])
        for b in range(shape[0]):
            m[b, ..., k >= skv - p * b] = -np.inf
    elif "tail" in w.params:
        m[..., k >= skv - int(w.params["tail"])] = -np.inf
    return m


# ------------------------------------------------------------ dtypes
def storage_dtype(dtype):
    """numpy dtype of the file contents (bf16 is kept as uint16 bits)."""
    return {"f32": np.float32, "f16": np.float16, "bf16": np.uint16}[dtype]


def to_bf16_bits(x32):
    """float32 array -> bfloat16 bit patterns, round to nearest even."""
    u = np.ascontiguousarray(x32, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounded = (u + 0x7FFF + ((u >> 16) & 1)) >> 16
    return rounded.astype(np.uint16)


def from_bf16_bits(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32)


def to_storage(x32, dtype):
    if dtype == "f32":
        return x32.astype(np.float32)
    if dtype == "f16":
        return x32.astype(np.float16)
    return to_bf16_bits(x32)


def to_float64(stored, dtype):
    if dtype == "bf16":
        return from_bf16_bits(stored).astype(np.float64)
    return stored.astype(np.float64)


# ------------------------------------------------------------ data files
def data_path(data_dir, w, what):
    return os.path.join(data_dir, "%s.%s" % (w.id, what))


def read_tensor(data_dir, w, what):
    """in, skip: x's shape and dtype; scale, bias: the S/B shape; mask: the
    mask shape, always float32."""
    if what == "mask":
        return np.fromfile(data_path(data_dir, w, what), dtype=np.float32).reshape(w.mask_shape)
    shape = w.shape if what in ("in", "skip") else w.sb_shape
    return np.fromfile(data_path(data_dir, w, what),
                       dtype=storage_dtype(w.dtype)).reshape(shape)


def read_extras(data_dir, w):
    """The extra inputs of a row as stored: {"mask": f32 array} for an
    attn_softmax row with a mask, {"skip": array} for skip_layer_norm."""
    out = {}
    if w.op == "attn_softmax" and w.mask_shape is not None:
        out["mask"] = read_tensor(data_dir, w, "mask")
    if w.has_skip:
        out["skip"] = read_tensor(data_dir, w, "skip")
    return out


def out_name(peer, w, threads, impl):
    safe = "".join(c if c.isalnum() else "_" for c in impl)
    return "%s/%s.t%d.%s.out" % (peer, w.id, threads, safe)


# ------------------------------------------------------------ timing
def median(values):
    v = sorted(values)
    n = len(v)
    return v[n // 2] if n % 2 else 0.5 * (v[n // 2 - 1] + v[n // 2])


def time_call(fn):
    """Median ns per call of fn() under the shared timing rule."""
    return time_call_batches(fn)[0]


def time_call_batches(fn):
    """time_call, and how the calls were made: (median ns, k, batches). Call 0
    is the warm-up, call 1 sizes the batches, then `batches` batches of k
    calls, so per-call figures a peer records itself (ORT's profile) can be
    grouped the same way (own_time)."""
    fn()  # warm-up
    t0 = time.perf_counter_ns()
    fn()
    one = max(time.perf_counter_ns() - t0, 1)
    k = max(1, min(1_000_000, math.ceil(BATCH_NS / one)))
    samples = []
    start = time.perf_counter_ns()
    while len(samples) < MAX_SAMPLES:
        t0 = time.perf_counter_ns()
        for _ in range(k):
            fn()
        samples.append((time.perf_counter_ns() - t0) / k)
        if (len(samples) >= MIN_SAMPLES
                and time.perf_counter_ns() - start >= TIME_BUDGET_NS):
            break
    return median(samples), k, len(samples)


def own_time(per_call_ns, first, k, batches):
    """The median per-call figure of a time_call_batches whose warm-up was
    call `first` of per_call_ns, by the same rule: median over the batches of
    each batch's mean."""
    return median([sum(per_call_ns[first + 2 + b * k + i] for i in range(k)) / k
                   for b in range(batches)])


class ResultWriter:
    """One JSON object a line, the format every driver writes."""

    def __init__(self, path, peer, version, mode="w"):
        self.f = open(path, mode)
        self.peer = peer
        self.version = version

    def write(self, w, threads, impl, note, status, time_ns=None, memcpy_ns=None,
              out=None, reason="", extra=None):
        """extra: more fields for check_peers.py (call_ns, optimized_model)."""
        rec = {"peer": self.peer, "version": self.version, "id": w.id,
               "threads": threads, "impl": impl, "note": note, "status": status,
               "reason": reason, "time_ns": time_ns, "memcpy_ns": memcpy_ns, "out": out}
        rec.update(extra or {})
        self.f.write(json.dumps(rec) + "\n")
        self.f.flush()

    def close(self):
        self.f.close()


def pop_only(argv):
    """Removes `--only ID,ID,...` from argv; returns the set of ids, or None."""
    if "--only" not in argv:
        return None
    i = argv.index("--only")
    only = set(argv[i + 1].split(","))
    del argv[i:i + 2]
    return only
