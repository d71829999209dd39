"""PyTorch side of the peer comparison (the torch wheel in the peers' venv, CPU).

Usage: VENV_PYTHON torch_peer.py DATA_DIR OUT_DIR [THREADS...] [--only ID,...]

Every workload has one or more candidate implementations (the natural ways
to write the op in torch); each is timed and its output written, and
check_peers.py keeps the fastest one whose output is correct. The
f32-upcast candidates (x.float() ... .to(dtype)) of a float16/bfloat16
workload are timed too (torch may have no kernel for the dtype, or one that
fails the accuracy check); the table says which ran.
Eager ops and, where they are pure functions of x, the same written
functionally and compiled with torch.compile (Inductor's C++ CPU backend: it
compiles the kernel it generates with the system g++; its cache lives under
$TORCHINDUCTOR_CACHE_DIR, build/peers/torchinductor, so a second run skips
the C++ compiles). Inductor fixes the thread count of its OpenMP loops when it
compiles, so each thread count compiles anew (torch._dynamo.reset()).
Threads: torch.set_num_threads(n) in this process.
ISA: ATEN_CPU_CAPABILITY caps ATen's kernels and Inductor's vector ISA,
ONEDNN_MAX_CPU_ISA torch's bundled oneDNN (compare_peers.sh --isa sets both).
"""
import ctypes
import os
import sys

import numpy as np
import torch
import torch.nn.functional as F

from peers_common import (ALPHA, BETA, EPSILON, ResultWriter, load_workloads, out_name,
                          pop_only, read_extras, read_tensor, time_call)

TORCH_DT = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}


def to_torch(arr, dtype):
    if dtype == "bf16":
        return torch.from_numpy(arr.view(np.int16).copy()).view(torch.bfloat16)
    return torch.from_numpy(arr.copy())


def to_bytes_array(t):
    t = t.contiguous()
    if t.dtype == torch.bfloat16:
        return t.view(torch.int16).numpy()
    return t.numpy()


def transformer_pure(w, scale, bias, ex):
    """attn_softmax / layer_norm / rms_norm / skip_layer_norm as pure
    functions of x (and, for f32 upcasts, of the f32 constants): [(impl,
    note, fn(x, consts) -> y)], consts a dict of tensors of x's dtype."""
    out = []
    if w.op == "attn_softmax":
        sc = w.scale
        if "mask" in ex:
            out.append(("softmax(x*scale+mask)", "additive mask, broadcast",
                        lambda x, c: torch.softmax(x * sc + c["mask"], -1)))
        if w.causal:
            out.append(("masked_fill+softmax", "causal: (x*scale).masked_fill(upper, -inf)",
                        lambda x, c: torch.softmax((x * sc).masked_fill(c["upper"], float("-inf")),
                                                   -1)))
    elif w.op in ("layer_norm", "skip_layer_norm"):
        n = tuple(w.shape[len(w.shape) - len(w.axes):])
        skip = w.op == "skip_layer_norm"
        out.append(("layer_norm(x+skip)" if skip else "layer_norm", "F.layer_norm" +
                    (" of x + skip" if skip else ""),
                    lambda x, c: F.layer_norm(x + c["skip"] if skip else x, n, c["scale"],
                                              c["bias"], w.eps)))
    elif w.op == "rms_norm":
        n = tuple(w.shape[len(w.shape) - len(w.axes):])
        dims = tuple(w.axes)
        out.append(("rms_norm", "F.rms_norm",
                    lambda x, c: F.rms_norm(x, n, c["scale"], w.eps)))
        out.append(("x*rsqrt(mean(x^2)+eps)*g", "composite: x * rsqrt(mean(x*x) + eps) * gamma",
                    lambda x, c: x * torch.rsqrt((x * x).mean(dims, keepdim=True) + w.eps)
                    * c["scale"]))
    return out


def transformer_consts(w, x, scale, bias, ex, dt):
    """The constants of transformer_pure in dtype dt."""
    c = {}
    if scale is not None:
        n = tuple(w.shape[len(w.shape) - len(w.axes):])
        c["scale"] = scale.to(dt).reshape(n)
        c["bias"] = bias.to(dt).reshape(n)
    if "mask" in ex:  # 0 / -inf: exact in every dtype
        c["mask"] = torch.from_numpy(ex["mask"].copy()).to(dt)
    if w.causal:
        sq, skv = w.shape[-2], w.shape[-1]
        c["upper"] = torch.ones(sq, skv, dtype=torch.bool).triu(skv - sq + 1)
    if "skip" in ex:
        c["skip"] = to_torch(ex["skip"], w.dtype).to(dt)
    return c


def candidates(w, x, scale, bias, ex=None):
    """(impl, note, upcast, fn) tuples; fn() returns the output tensor."""
    dims = tuple(w.axes)
    out = torch.empty_like(x)
    cands = []
    dt = x.dtype

    def upcast(fn):
        return lambda: out.copy_(fn(x.float()))

    if w.op in ("attn_softmax", "layer_norm", "rms_norm", "skip_layer_norm"):
        c = transformer_consts(w, x, scale, bias, ex, dt)
        c32 = transformer_consts(w, x, scale, bias, ex, torch.float32) if dt != torch.float32 else c
        for impl, note, fn in transformer_pure(w, scale, bias, ex):
            cands.append((impl, note, False, lambda fn=fn: fn(x, c)))
            if dt != torch.float32:
                cands.append((impl + " f32 upcast", "emulated: f32 upcast; " + note, True,
                              upcast(lambda x32, fn=fn: fn(x32, c32))))
        return cands
    if w.op in ("log_softmax", "softmax"):
        log = w.op == "log_softmax"
        if len(dims) == 1:
            d = dims[0]
            base = torch.log_softmax if log else torch.softmax
            cands.append((w.op + "(out=)", "", False,
                          lambda: base(x, d, out=out)))
            cands.append((w.op + " f32 upcast", "emulated: f32 upcast", True,
                          upcast(lambda x32: base(x32, d))))
        else:
            kept = [a for a in range(x.dim()) if a not in dims]
            perm = kept + sorted(dims)
            inv = [perm.index(a) for a in range(x.dim())]
            kshape = [x.shape[a] for a in kept]
            pshape = [x.shape[a] for a in perm]
            groups = int(np.prod(kshape)) if kshape else 1
            base = torch.log_softmax if log else torch.softmax

            def permuted(x):
                flat = x.permute(perm).reshape(groups, -1)
                return out.copy_(base(flat, 1).reshape(pshape).permute(inv))

            def lse(x):
                m = torch.logsumexp(x, dims, keepdim=True)
                if log:
                    return torch.sub(x, m, out=out)
                return torch.exp(torch.sub(x, m, out=out), out=out)

            cands.append(("permute+%s+permute" % w.op,
                          "emulated: permute, %s over the flattened axes, permute back" % w.op,
                          False, lambda: permuted(x)))
            cands.append(("x-logsumexp", "composite: x - logsumexp(x, axes)", False,
                          lambda: lse(x)))
    elif w.op == "hardmax":
        if len(dims) != 1:
            return []
        d = dims[0]

        def hardmax():
            out.zero_()
            return out.scatter_(d, x.argmax(d, keepdim=True), 1.0)

        cands.append(("argmax+scatter", "one-hot of argmax (zero_ + scatter_)", False, hardmax))
    elif w.op == "mvn":
        rank = x.dim()
        axes = sorted(dims)
        sb = scale is not None
        trailing = axes == list(range(rank - len(axes), rank))
        per_channel = sb and list(scale.shape) == [1, x.shape[1]] + [1] * (rank - 2)

        def var_mean(x, s, b):
            v, m = torch.var_mean(x, axes, unbiased=False, keepdim=True)
            y = torch.sub(x, m, out=out if x.dtype == dt else None)
            y.mul_(torch.rsqrt(v + EPSILON))
            if s is not None:
                y.mul_(s).add_(b)
            return y

        natives = [("var_mean", "composite: var_mean, (x-mean)*rsqrt(var+eps)*S+B",
                    lambda x, s, b: var_mean(x, s, b))]
        if trailing and (not sb or list(scale.shape[:rank - len(axes)]) == [1] * (rank - len(axes))):
            nshape = tuple(x.shape[rank - len(axes):])
            natives.insert(0, ("layer_norm", "", lambda x, s, b: F.layer_norm(
                x, nshape, None if s is None else s.reshape(nshape),
                None if b is None else b.reshape(nshape), EPSILON)))
        if rank >= 3 and axes == list(range(2, rank)) and (not sb or per_channel):
            c = x.shape[1]
            natives.insert(0, ("instance_norm", "", lambda x, s, b: F.instance_norm(
                x, weight=None if s is None else s.reshape(c),
                bias=None if b is None else b.reshape(c), eps=EPSILON)))
            natives.insert(0, ("group_norm(C groups)", "", lambda x, s, b: F.group_norm(
                x, c, None if s is None else s.reshape(c),
                None if b is None else b.reshape(c), EPSILON)))
        if rank >= 2 and axes == [0] + list(range(2, rank)) and (not sb or per_channel):
            c = x.shape[1]
            natives.insert(0, ("batch_norm(training)", "", lambda x, s, b: F.batch_norm(
                x, None, None, None if s is None else s.reshape(c),
                None if b is None else b.reshape(c), True, 0.0, EPSILON)))
        for impl, note, fn in natives:
            cands.append((impl, note, False, lambda fn=fn: fn(x, scale, bias)))
            s32 = None if scale is None else scale.float()
            b32 = None if bias is None else bias.float()
            cands.append((impl + " f32 upcast",
                          "emulated: f32 upcast" + ("; " + note if note else ""), True,
                          lambda fn=fn, s32=s32, b32=b32: out.copy_(fn(x.float(), s32, b32))))
    elif w.op == "hard_sigmoid":
        half = torch.tensor(BETA, dtype=dt)
        half32 = torch.tensor(BETA)

        def clamp():
            torch.add(half, x, alpha=ALPHA, out=out)
            return out.clamp_(0.0, 1.0)

        def hsig():
            torch.mul(x, ALPHA * 6.0, out=out)
            return F.hardsigmoid(out, inplace=True)

        cands.append(("add+clamp_", "clamp(0.5 + 0.2x, 0, 1) (torch hardsigmoid is x/6+1/2)",
                      False, clamp))
        cands.append(("mul+hardsigmoid_", "hardsigmoid(1.2x) (torch hardsigmoid is x/6+1/2)",
                      False, hsig))
        cands.append(("add+clamp_ f32 upcast", "emulated: f32 upcast; clamp(0.5 + 0.2x, 0, 1)",
                      True, upcast(lambda x32: torch.add(half32, x32, alpha=ALPHA).clamp_(0, 1))))
    return cands


def compiled_candidates(w, x, scale, bias, ex=None):
    """(impl, note, fn) tuples: the op as a pure function of x, for
    torch.compile; fn(x) returns a new tensor."""
    dims = tuple(w.axes)
    dt = x.dtype
    pure = []
    if w.op in ("attn_softmax", "layer_norm", "rms_norm", "skip_layer_norm"):
        c = transformer_consts(w, x, scale, bias, ex, dt)
        c32 = transformer_consts(w, x, scale, bias, ex, torch.float32) if dt != torch.float32 else c
        out = []
        for impl, note, fn in transformer_pure(w, scale, bias, ex):
            out.append(("torch.compile " + impl, "torch.compile (Inductor); " + note,
                        lambda x, fn=fn: fn(x, c)))
            if dt != torch.float32:
                out.append(("torch.compile " + impl + " f32 upcast",
                            "torch.compile (Inductor); emulated: f32 upcast; " + note,
                            lambda x, fn=fn: fn(x.float(), c32).to(dt)))
        return out
    if w.op in ("log_softmax", "softmax"):
        log = w.op == "log_softmax"
        if len(dims) == 1:
            base = torch.log_softmax if log else torch.softmax
            pure.append((w.op, lambda x: base(x, dims[0])))
        else:
            pure.append(("x-logsumexp", lambda x: (x - torch.logsumexp(x, dims, keepdim=True))
                         if log else torch.exp(x - torch.logsumexp(x, dims, keepdim=True))))
    elif w.op == "hardmax" and len(dims) == 1:
        d = dims[0]
        pure.append(("argmax+scatter", lambda x: torch.zeros_like(x).scatter_(
            d, x.argmax(d, keepdim=True), 1.0)))
    elif w.op == "mvn":
        axes = sorted(dims)
        rank = x.dim()
        if axes == list(range(rank - len(axes), rank)) and (
                scale is None or list(scale.shape[:rank - len(axes)]) == [1] * (rank - len(axes))):
            nshape = tuple(x.shape[rank - len(axes):])
            s = None if scale is None else scale.reshape(nshape)
            b = None if bias is None else bias.reshape(nshape)
            pure.append(("layer_norm", lambda x: F.layer_norm(x, nshape, s, b, EPSILON)))

        def var_mean(x):
            v, m = torch.var_mean(x, axes, unbiased=False, keepdim=True)
            y = (x - m) * torch.rsqrt(v + EPSILON)
            return y if scale is None else y * scale + bias
        pure.append(("var_mean", var_mean))
    elif w.op == "hard_sigmoid":
        pure.append(("clamp(0.2x+0.5)", lambda x: (x * ALPHA + BETA).clamp(0.0, 1.0)))
    out = []
    for impl, fn in pure:
        out.append(("torch.compile " + impl, "torch.compile (Inductor)", fn))
        if dt != torch.float32:
            out.append(("torch.compile " + impl + " f32 upcast",
                        "torch.compile (Inductor); emulated: f32 upcast",
                        lambda x, fn=fn: fn(x.float()).to(dt)))
    return out


def main():
    argv = sys.argv[1:]
    only = pop_only(argv)
    data_dir, out_dir = argv[0], argv[1]
    threads_list = [int(t) for t in argv[2:]] or [1]
    os.makedirs(os.path.join(out_dir, "torch"), exist_ok=True)
    version = torch.__version__
    res = ResultWriter(os.path.join(out_dir, "torch.jsonl"), "PyTorch", version)
    print("PyTorch %s, CPU capability %s" % (version, torch.backends.cpu.get_cpu_capability()),
          file=sys.stderr)
    torch.set_grad_enabled(False)
    memmove = ctypes.memmove

    for w in load_workloads():
        if only and w.id not in only:
            continue
        xa = read_tensor(data_dir, w, "in")
        x = to_torch(xa, w.dtype)
        scale = bias = None
        if w.sb_shape:
            scale = to_torch(read_tensor(data_dir, w, "scale"), w.dtype)
            bias = to_torch(read_tensor(data_dir, w, "bias"), w.dtype)
        src = np.ascontiguousarray(xa)
        dst = np.empty_like(src)
        sp, dp, nb = src.ctypes.data, dst.ctypes.data, src.nbytes
        memcpy_ns = time_call(lambda: memmove(dp, sp, nb))
        ex = read_extras(data_dir, w)
        cands = candidates(w, x, scale, bias, ex)
        compiled = compiled_candidates(w, x, scale, bias, ex)
        if not cands:
            for t in threads_list:
                res.write(w, t, "-", "", "unsupported", memcpy_ns=memcpy_ns,
                          reason="no torch op for this axis set")
            continue
        for t in threads_list:
            torch.set_num_threads(t)
            native_ok = False
            for impl, note, is_upcast, fn in cands:
                # f16/bf16: a native kernel that runs may still fail the
                # check (bf16 layer_norm, bf16 add rounding twice), so the
                # upcast is timed too and check_peers.py keeps the fastest
                # correct one.
                if is_upcast and native_ok and w.dtype == "f32":
                    continue
                try:
                    y = fn()
                except Exception as e:  # no kernel for this dtype
                    res.write(w, t, impl, note, "unsupported", memcpy_ns=memcpy_ns,
                              reason=str(e).split("\n")[0][:200])
                    print("  %-4s %dT %-28s unsupported: %s" % (w.id, t, impl, str(e)[:80]),
                          file=sys.stderr)
                    continue
                ns = time_call(fn)
                y = fn()
                name = out_name("torch", w, t, impl)
                to_bytes_array(y).tofile(os.path.join(out_dir, name))
                res.write(w, t, impl, note, "ok", ns, memcpy_ns, name)
                native_ok = native_ok or not is_upcast
                print("  %-4s %dT %-28s %10.1f us (memcpy %.1f us)"
                      % (w.id, t, impl, ns / 1e3, memcpy_ns / 1e3), file=sys.stderr)
            torch._dynamo.reset()  # Inductor's code is compiled for one thread count
            for impl, note, fn in compiled:
                try:
                    cfn = torch.compile(fn, dynamic=False)
                    y = cfn(x)
                except Exception as e:  # noqa: BLE001 - the reason is the cell's note
                    res.write(w, t, impl, note, "unsupported", memcpy_ns=memcpy_ns,
                              reason=str(e).split("\n")[0][:200])
                    print("  %-4s %dT %-28s failed: %s" % (w.id, t, impl, str(e)[:100]),
                          file=sys.stderr)
                    continue
                ns = time_call(lambda: cfn(x))
                name = out_name("torch", w, t, impl)
                to_bytes_array(cfn(x)).tofile(os.path.join(out_dir, name))
                res.write(w, t, impl, note, "ok", ns, memcpy_ns, name)
                print("  %-4s %dT %-28s %10.1f us" % (w.id, t, impl, ns / 1e3), file=sys.stderr)
    res.close()


if __name__ == "__main__":
    main()
