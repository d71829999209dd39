"""JAX/XLA side of the peer comparison: jax.jit of the composite over the
workload's axes, on XLA's CPU backend.

Usage: VENV_PYTHON jax_peer.py DATA_DIR OUT_DIR THREADS [--only ID,...]

One thread count per process: XLA sizes its CPU thread pools when the
backend starts. compare_peers.sh runs this under `taskset` with THREADS
cores, because XLA's pools follow the process's CPU affinity, and for 1
thread also with XLA_FLAGS=--xla_cpu_multi_thread_eigen=false (Eigen's
intra-op pool off). Results are appended to OUT_DIR/jax.jsonl.

Each call is f(x).block_until_ready() of the jitted function on an input
already on the device: jit dispatch is part of the time, as it is for a
caller. XLA picks its vector ISA from the CPU it runs on (LLVM host CPU);
XLA_FLAGS=--xla_cpu_max_isa caps it (compare_peers.sh --isa).
"""
import ctypes
import os
import sys

import jax
import jax.numpy as jnp
import jaxlib
import ml_dtypes
import numpy as np

from peers_common import (ALPHA, BETA, EPSILON, ResultWriter, load_workloads, out_name,
                          pop_only, read_extras, read_tensor, time_call)

NP = {"f32": np.float32, "f16": np.float16, "bf16": ml_dtypes.bfloat16}


def candidates(w, scale, bias):
    """[(impl, note, fn(x, extras))]; every fn is jitted, extras (mask,
    skip: device arrays) passed as arguments, not baked-in constants;
    f32-upcast variants for 16-bit dtypes (XLA's CPU backend may compute or
    accumulate in the narrow type)."""
    axes = tuple(sorted(w.axes))
    dt = NP[w.dtype]
    out = []

    def both(impl, note, fn, with_extras=False):
        f2 = fn if with_extras else (lambda x, e, fn=fn: fn(x))
        out.append((impl, note, f2))
        if w.dtype != "f32":
            out.append((impl + " f32 upcast", "emulated: f32 upcast" + ("; " + note if note else ""),
                        lambda x, e: f2(x.astype(jnp.float32), {
                            k: v.astype(jnp.float32) for k, v in e.items()}).astype(dt)))

    if w.op == "attn_softmax":
        def attn(x, e):
            z = x * jnp.asarray(w.scale, x.dtype)
            if "mask" in e:
                z = z + e["mask"].astype(x.dtype)
            return jax.nn.softmax(z, axis=-1)

        both("jax.nn.softmax(x*scale+mask)", "additive mask argument (f32%s)" % (
            "; causal: the additive mask" if w.causal else ""), attn, True)
        if w.causal:
            sq, skv = w.shape[-2], w.shape[-1]

            def causal(x, e):
                vis = jnp.arange(skv)[None, :] <= jnp.arange(sq)[:, None] + (skv - sq)
                return jax.nn.softmax(x * jnp.asarray(w.scale, x.dtype), axis=-1, where=vis)

            both("jax.nn.softmax(where=causal)", "causal as softmax's where= (masked outputs 0)",
                 causal, True)
        return out
    if w.op in ("layer_norm", "skip_layer_norm", "rms_norm"):
        g = jnp.asarray(scale)
        b = jnp.asarray(bias)
        eps = w.eps

        def norm(x, e):
            if w.op == "skip_layer_norm":
                x = x + e["skip"]
            if w.op == "rms_norm":
                ms = jnp.mean(x * x, axis=-1, keepdims=True)
                return x * jax.lax.rsqrt(ms + jnp.asarray(eps, x.dtype)) * g.astype(x.dtype)
            m = jnp.mean(x, axis=-1, keepdims=True)
            d = x - m
            v = jnp.mean(d * d, axis=-1, keepdims=True)
            return d * jax.lax.rsqrt(v + jnp.asarray(eps, x.dtype)) * g.astype(x.dtype) \
                + b.astype(x.dtype)

        if w.op == "rms_norm":
            both("x*rsqrt(mean(x^2)+eps)*g", "composite: x * rsqrt(mean(x*x) + eps) * gamma",
                 norm, True)
        else:
            both("%smean/var composite" % ("x+skip, " if w.op == "skip_layer_norm" else ""),
                 "composite: (x-mean)*rsqrt(mean((x-mean)^2)+eps)*gamma+beta"
                 + ("; x + skip first" if w.op == "skip_layer_norm" else ""), norm, True)
        return out
    if w.op == "log_softmax":
        both("jax.nn.log_softmax", "", lambda x: jax.nn.log_softmax(x, axis=axes))
    elif w.op == "softmax":
        both("jax.nn.softmax", "", lambda x: jax.nn.softmax(x, axis=axes))
    elif w.op == "hardmax":
        if len(axes) == 1:
            a = axes[0]
            out.append(("one_hot(argmax)", "composite: one_hot(argmax(x, axis))",
                        lambda x, e: jax.nn.one_hot(jnp.argmax(x, axis=a), w.shape[a], axis=a,
                                                 dtype=x.dtype)))
    elif w.op == "mvn":
        s = None if scale is None else jnp.asarray(scale)
        b = None if bias is None else jnp.asarray(bias)

        def mvn(x):
            m = jnp.mean(x, axis=axes, keepdims=True)
            d = x - m
            v = jnp.mean(d * d, axis=axes, keepdims=True)
            y = d * jax.lax.rsqrt(v + jnp.asarray(EPSILON, x.dtype))
            if s is not None:
                y = y * s.astype(x.dtype) + b.astype(x.dtype)
            return y

        both("mean/var composite", "composite: mean, (x-mean)*rsqrt(mean((x-mean)^2)+eps)"
             + ("*S+B" if s is not None else ""), mvn)
    elif w.op == "hard_sigmoid":
        both("clip(0.2x+0.5)", "composite: clip(alpha*x+beta, 0, 1) (jax.nn.hard_sigmoid is "
             "relu6(x+3)/6)", lambda x: jnp.clip(x * jnp.asarray(ALPHA, x.dtype)
                                                 + jnp.asarray(BETA, x.dtype), 0, 1))
    return out


def main():
    argv = sys.argv[1:]
    only = pop_only(argv)
    data_dir, out_dir, threads = argv[0], argv[1], int(argv[2])
    os.makedirs(os.path.join(out_dir, "jax"), exist_ok=True)
    # One process per thread count: each appends.
    res = ResultWriter(os.path.join(out_dir, "jax.jsonl"), "JAX", jax.__version__, "a")
    print("JAX %s (jaxlib %s), XLA_FLAGS=%s, affinity %s" % (
        jax.__version__, jaxlib.__version__, os.environ.get("XLA_FLAGS", ""),
        sorted(os.sched_getaffinity(0))), file=sys.stderr)
    memmove = ctypes.memmove
    for w in load_workloads():
        if only and w.id not in only:
            continue
        xa = read_tensor(data_dir, w, "in")
        src = np.ascontiguousarray(xa)
        dst = np.empty_like(src)
        memcpy_ns = time_call(lambda: memmove(dst.ctypes.data, src.ctypes.data, src.nbytes))
        scale = bias = None
        if w.sb_shape:
            scale = read_tensor(data_dir, w, "scale").view(NP[w.dtype])
            bias = read_tensor(data_dir, w, "bias").view(NP[w.dtype])
        cands = candidates(w, scale, bias)
        if not cands:
            res.write(w, threads, "-", "", "unsupported", memcpy_ns=memcpy_ns,
                      reason="no jax op for this axis set")
            continue
        x = jax.device_put(xa.view(NP[w.dtype]))
        ex = {k: jax.device_put(v if k == "mask" else v.view(NP[w.dtype]))
              for k, v in read_extras(data_dir, w).items()}
        for impl, note, fn in cands:
            f = jax.jit(fn)
            try:
                y = np.asarray(f(x, ex).block_until_ready())
            except Exception as err:  # noqa: BLE001
                res.write(w, threads, impl, note, "unsupported", memcpy_ns=memcpy_ns,
                          reason=str(err).split("\n")[0][:200])
                continue
            ns = time_call(lambda: f(x, ex).block_until_ready())
            name = out_name("jax", w, threads, impl)
            y.view(xa.dtype).tofile(os.path.join(out_dir, name))
            res.write(w, threads, impl, note, "ok", ns, memcpy_ns, name)
            print("  %-4s %dT %-40s %10.1f us (memcpy %.1f us)" % (
                w.id, threads, impl, ns / 1e3, memcpy_ns / 1e3), file=sys.stderr)
    res.close()


if __name__ == "__main__":
    main()
